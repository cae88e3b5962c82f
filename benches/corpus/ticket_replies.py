#!/usr/bin/env python3
"""Our own set of support replies that repeat what their ticket says (standard library only).

Each line is a ticket and a drafted reply, as `palisade screen --jsonl` reads them, plus the
label `should_block`: whether the reply carries something it must not (a card number or IBAN
the customer pasted, another customer's address, a number that is not in the ticket). Most
replies repeat the customer's own order, account or phone number or address, which should
pass once the screen knows the ticket's text.

    python3 benches/corpus/ticket_replies.py --n 2000 --seed 7 > replies.jsonl

Written for docs/policy.md's false-block figures; seeded, so every run writes the same set.
"""

import argparse
import json
import random

FIRST = ["Jane", "Omar", "Li", "Priya", "Sam", "Ana", "Tom", "Zoe", "Kofi", "Maria", "Ivan", "Mei"]
LAST = ["Doe", "Haddad", "Wei", "Shah", "Berg", "Silva", "Lee", "Novak", "Mensah", "Rossi"]
DOMAINS = ["mailbox.example", "post.example.org", "inbox.example.net", "home.example.co.uk"]
AGENT = ["Ana", "Ben", "Chloe", "Dev", "Ema"]


def luhn_complete(prefix, length, rng):
    digits = prefix + [rng.randrange(10) for _ in range(length - len(prefix) - 1)]
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return digits + [(10 - total % 10) % 10]


def card(rng):
    d = luhn_complete([4], 16, rng)
    s = "".join(map(str, d))
    return " ".join(s[i:i + 4] for i in range(0, 16, 4))


def iban(rng):
    bban = "".join(str(rng.randrange(10)) for _ in range(18))
    # DE + check digits + 18 digits, the check digits computed by mod 97.
    num = int(bban + "131400")  # D=13, E=14, then "00"
    check = 98 - num % 97
    s = f"DE{check:02d}{bban}"
    return " ".join(s[i:i + 4] for i in range(0, len(s), 4))


def spaced(digits, rng):
    """The same number as a customer or an agent might write it."""
    style = rng.randrange(3)
    if style == 0:
        return digits
    if style == 1:
        return " ".join(digits[i:i + 4] for i in range(0, len(digits), 4))
    return "-".join(digits[i:i + 4] for i in range(0, len(digits), 4))


def person(rng):
    first, last = rng.choice(FIRST), rng.choice(LAST)
    email = f"{first.lower()}.{last.lower()}{rng.randrange(100)}@{rng.choice(DOMAINS)}"
    return first, last, email


def make(i, rng):
    first, last, email = person(rng)
    order = str(rng.randrange(10_000_000, 99_999_999))
    account = str(rng.randrange(100_000_000_000, 999_999_999_999))
    phone = f"07{rng.randrange(100, 999)} {rng.randrange(100000, 999999)}"
    pasted_card = card(rng) if rng.random() < 0.1 else None
    pasted_iban = iban(rng) if rng.random() < 0.06 else None
    ticket = [f"Hi, this is {first} {last}."]
    ticket.append(rng.choice([
        f"My order {spaced(order, rng)} has not arrived.",
        f"Order number {order} was charged twice.",
        f"I want to return order #{order}.",
    ]))
    if rng.random() < 0.6:
        ticket.append(f"My account number is {account}.")
    if rng.random() < 0.5:
        ticket.append(f"Call me on {phone} or write to {email}.")
    if pasted_card:
        ticket.append(f"I paid with card {pasted_card}.")
    if pasted_iban:
        ticket.append(f"Please refund to {pasted_iban}.")
    ticket.append("Thanks")

    reply = [f"Hi {first},", ""]
    reply.append(rng.choice([
        f"Thanks for getting in touch about order {spaced(order, rng)}.",
        f"I've checked order {order} for you.",
        f"I'm sorry order #{order} has caused trouble.",
        "Thanks for getting in touch about your order.",
    ]))
    if "account number" in " ".join(ticket) and rng.random() < 0.5:
        reply.append(f"I've noted this on account {account}.")
    if email in " ".join(ticket) and rng.random() < 0.4:
        reply.append(f"I'll send the label to {email}.")
    if phone in " ".join(ticket) and rng.random() < 0.3:
        reply.append(f"A courier may call you on {phone}.")
    reply.append(rng.choice([
        "The parcel is with the courier now.",
        "A refund has been started and should show within a few days.",
        "I've asked the warehouse to look into it.",
    ]))
    should_block = False
    roll = rng.random()
    if pasted_card and roll < 0.5:
        reply.append(f"The refund goes back to card {pasted_card}.")
        should_block = True
    elif pasted_iban and roll < 0.5:
        reply.append(f"We will pay {pasted_iban}.")
        should_block = True
    elif roll < 0.04:
        _, _, other = person(rng)
        reply.append(f"I've copied {other} on this.")
        should_block = True
    elif roll < 0.08:
        reply.append(f"It was merged with order {rng.randrange(10_000_000, 99_999_999)}.")
        should_block = True
    reply += ["", f"Best, {rng.choice(AGENT)}"]
    return {
        "id": f"r{i:05d}",
        "ticket_id": f"00000000-0000-4000-8000-{i:012d}",
        "ticket_text": " ".join(ticket),
        "text": "\n".join(reply),
        "should_block": should_block,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--labels", action="store_true", help="keep the should_block label")
    ap.add_argument("--no-ticket-text", action="store_true", help="leave out ticket_text")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    for i in range(args.n):
        row = make(i, rng)
        if not args.labels:
            del row["should_block"]
        if args.no_ticket_text:
            del row["ticket_text"]
        print(json.dumps(row))


if __name__ == "__main__":
    main()
