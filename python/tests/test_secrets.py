"""No finding, message, repr, to_dict(), feedback or error holds a planted secret."""

import pickle
import random
import string

import pytest

import palisade
from conftest import TICKET_ID

rng = random.Random()  # a fresh secret each run: nothing can be hard-coded around it
ALNUM = string.ascii_letters + string.digits


def planted():
    aws = "AKIA" + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") for _ in range(16))
    password = "Kx" + "".join(rng.choice(ALNUM) for _ in range(14)) + "7q"
    db_pass = "".join(rng.choice(ALNUM) for _ in range(18))
    return {
        "aws": aws,
        "password": password,
        "db": db_pass,
        "draft": (
            "Hi Sam,\n"
            f"use the access key {aws} to sign in,\n"
            f"password: {password}\n"
            f"and the database at postgres://admin:{db_pass}@db.example.com:5432/prod.\n"
            "Best, Ana"
        ),
    }


def everything_said(report):
    parts = [repr(report), repr(report.to_dict()), report.feedback(), report.redact(), report.to_html()]
    for f in report.findings:
        parts += [repr(f), f.message, repr(f.to_dict()), str(f.to_dict())]
    return "\n".join(parts)


@pytest.mark.parametrize("run", range(5))
def test_planted_secrets_are_found_and_never_echoed(run):
    p = planted()
    screener = palisade.Screener()
    report = screener.screen(p["draft"], ticket_id=TICKET_ID)
    creds = [f for f in report.findings if f.kind == "credential"]
    # Each secret is found (the test would pass vacuously otherwise)...
    for key in ("aws", "password", "db"):
        assert any(p[key] in p["draft"][f.start : f.end] for f in creds), (key, report)
    # ...and appears nowhere the library speaks.
    said = everything_said(report) + everything_said(screener.screen_many([{"draft": p["draft"], "ticket_id": TICKET_ID}])[0])
    for key in ("aws", "password", "db"):
        assert p[key] not in said, key
    # The redacted copy keeps the rest of the draft.
    assert report.redact().startswith("Hi Sam,\nuse the access key [REDACTED:credential]")


def test_errors_do_not_echo_the_draft():
    p = planted()
    small = palisade.Screener(max_input_bytes=64)
    with pytest.raises(palisade.InputTooLargeError) as err:
        small.screen(p["draft"], ticket_id=TICKET_ID)
    said = str(err.value) + repr(err.value) + repr(vars(err.value))
    for key in ("aws", "password", "db"):
        assert p[key] not in said


def test_pickled_report_round_trips():
    p = planted()
    report = palisade.Screener().screen(p["draft"], ticket_id=TICKET_ID)
    back = pickle.loads(pickle.dumps(report))
    assert back.to_dict() == report.to_dict()
    assert back.redact() == report.redact()
    assert back.findings == report.findings


def test_html_page_marks_findings_and_holds_no_secret():
    p = planted()
    report = palisade.Screener().screen(p["draft"] + "\n<script>alert(1)</script>", ticket_id=TICKET_ID)
    page = report.to_html()
    assert page.startswith("<!DOCTYPE html>") or page.lower().startswith("<!doctype html>")
    # Every finding is a mark carrying its rule; the draft's markup is escaped text.
    for f in report.findings:
        assert f'data-rule="{f.rule}"' in page
    assert "<script>alert(1)" not in page
    for key in ("aws", "password", "db"):
        assert p[key] not in page, key
