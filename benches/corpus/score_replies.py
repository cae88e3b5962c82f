#!/usr/bin/env python3
"""Scores `palisade screen --jsonl` answers against ticket_replies.py's labels.

    python3 benches/corpus/score_replies.py labels.jsonl answers.jsonl

Prints the false-block rate (replies that should pass but were blocked) and the share of
replies that should block and were.
"""

import json
import sys
from collections import Counter

# The kinds a reply that repeats the ticket trips over.
DATA = {"long_number", "email", "foreign_id"}


def main():
    labels = {}
    with open(sys.argv[1]) as f:
        for line in f:
            row = json.loads(line)
            labels[row["id"]] = row["should_block"]
    blocked, kinds, by_data = {}, Counter(), set()
    with open(sys.argv[2]) as f:
        for line in f:
            row = json.loads(line)
            if "error" in row:
                sys.exit(f"error line: {row}")
            blocked[row["id"]] = row["blocked"]
            if row["blocked"] and not labels[row["id"]]:
                held = {x["kind"] for x in row["findings"] if x["severity"] == "block"}
                kinds.update(held)
                if held & DATA:
                    by_data.add(row["id"])
    ok = [i for i, b in labels.items() if not b]
    bad = [i for i, b in labels.items() if b]
    false_blocks = sum(blocked[i] for i in ok)
    caught = sum(blocked[i] for i in bad)
    print(f"replies: {len(labels)} ({len(ok)} should pass, {len(bad)} should block)")
    print(f"false blocks: {false_blocks} of {len(ok)} = {100 * false_blocks / len(ok):.1f}%")
    print(f"  of which by long numbers, emails or ids: {len(by_data)} = {100 * len(by_data) / len(ok):.1f}%")
    print(f"caught: {caught} of {len(bad)} = {100 * caught / len(bad):.1f}%")
    print("kinds behind false blocks:", dict(kinds.most_common()))


if __name__ == "__main__":
    main()
