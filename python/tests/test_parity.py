"""Parity with the CLI: the same fixtures give the same findings (the CLI reports bytes)."""

import json
import subprocess

import pytest

import palisade
from conftest import REPO, TICKET_ID

FIXTURES = sorted(
    [p for p in (REPO / "benches" / "fixtures").glob("*.txt")]
    + [p for p in (REPO / "examples").glob("*.txt")]
)
ALLOWED = "support@example.com"


def run(cli, args, text):
    out = subprocess.run(
        [str(cli), *args], input=text.encode(), capture_output=True, check=False
    )
    assert out.returncode in (0, 1), out.stderr.decode()
    return json.loads(out.stdout)


def as_cli(findings):
    """Python findings in the CLI's JSON shape (byte offsets)."""
    return [
        {
            "rule": f.rule,
            "kind": f.kind,
            "severity": f.severity,
            "start": f.byte_start,
            "end": f.byte_end,
            "message": f.message,
        }
        for f in findings
    ]


def test_there_are_fixtures():
    assert len(FIXTURES) >= 10


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_screen_matches_cli(cli, path):
    text = path.read_text()
    expected = run(
        cli,
        ["screen", "--json", "--ticket-id", TICKET_ID, "--allow-email", ALLOWED, "--max-words", "120"],
        text,
    )
    report = palisade.Screener(max_words=120).screen(
        text, ticket_id=TICKET_ID, allow_emails=[ALLOWED]
    )
    assert report.blocked == expected["blocked"]
    assert as_cli(report.findings) == expected["findings"]


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_scan_fence_and_query_match_cli(cli, path):
    text = path.read_text()
    assert as_cli(palisade.scan(text)) == run(cli, ["scan"], text)["findings"]
    fenced = run(cli, ["fence", "--label", "TICKET_BODY", "--nonce", "0a1b2c3d4e5f6a7b", "--json"], text)
    ours = palisade.fence(text, "TICKET_BODY", nonce="0a1b2c3d4e5f6a7b")
    assert ours.text == fenced["fenced"]
    assert as_cli(ours.findings) == fenced["findings"]
    query = run(cli, ["query", "--json"], text)
    cleaned = palisade.clean_query(text)
    assert cleaned.text == query["text"]
    assert as_cli(cleaned.findings) == query["findings"]


def test_screen_many_matches_cli_jsonl(cli):
    items = [
        {"id": i, "text": p.read_text(), "ticket_id": TICKET_ID, "allow_emails": [ALLOWED]}
        for i, p in enumerate(FIXTURES)
    ]
    out = subprocess.run(
        [str(cli), "screen", "--jsonl"],
        input="".join(json.dumps(i) + "\n" for i in items).encode(),
        capture_output=True,
        check=False,
    )
    lines = [json.loads(line) for line in out.stdout.decode().splitlines()]
    reports = palisade.Screener().screen_many(
        {k: v for k, v in i.items() if k != "id"} for i in items
    )
    assert len(lines) == len(reports) == len(items)
    for line, report in zip(lines, reports):
        assert report.blocked == line["blocked"]
        assert as_cli(report.findings) == line["findings"]
