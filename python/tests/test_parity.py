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


KEYS = ("rule", "kind", "severity", "start", "end", "message")


def run(cli, args, text):
    out = subprocess.run(
        [str(cli), "--no-config", *args], input=text.encode(), capture_output=True, check=False
    )
    assert out.returncode in (0, 1), out.stderr.decode()
    return json.loads(out.stdout)


def cli_findings(findings):
    """The CLI's findings without what only it prints (line and column, for people)."""
    return [{k: f[k] for k in KEYS} for f in findings]


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
    assert as_cli(report.findings) == cli_findings(expected["findings"])


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_scan_fence_and_query_match_cli(cli, path):
    text = path.read_text()
    assert as_cli(palisade.scan(text)) == cli_findings(run(cli, ["scan"], text)["findings"])
    fenced = run(cli, ["fence", "--label", "TICKET_BODY", "--nonce", "0a1b2c3d4e5f6a7b", "--json"], text)
    ours = palisade.fence(text, "TICKET_BODY", nonce="0a1b2c3d4e5f6a7b")
    assert ours.text == fenced["fenced"]
    assert as_cli(ours.findings) == cli_findings(fenced["findings"])
    query = run(cli, ["query", "--json"], text)
    cleaned = palisade.clean_query(text)
    assert cleaned.text == query["text"]
    assert as_cli(cleaned.findings) == cli_findings(query["findings"])


def test_screen_many_matches_cli_jsonl(cli):
    items = [
        {"id": i, "text": p.read_text(), "ticket_id": TICKET_ID, "allow_emails": [ALLOWED]}
        for i, p in enumerate(FIXTURES)
    ]
    out = subprocess.run(
        [str(cli), "--no-config", "screen", "--jsonl"],
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
        assert as_cli(report.findings) == cli_findings(line["findings"])


def test_policy_file_matches_cli(cli, tmp_path):
    policy = tmp_path / "palisade.toml"
    policy.write_text(
        '[screen]\nmax_words = 40\nallow_emails = ["*@example.org"]\n'
        'allow_numbers = ["+1 (415) 555-0132"]\n[severity]\n"draft.promise" = "notice"\n'
    )
    screener = palisade.Screener(policy=policy)
    for path in FIXTURES:
        text = path.read_text()
        out = subprocess.run(
            [str(cli), "--config", str(policy), "screen", "--json", "--ticket-id", TICKET_ID],
            input=text.encode(), capture_output=True, check=False,
        )
        assert out.returncode in (0, 1), out.stderr.decode()
        expected = json.loads(out.stdout)
        report = screener.screen(text, ticket_id=TICKET_ID)
        assert report.blocked == expected["blocked"], path.name
        assert as_cli(report.findings) == cli_findings(expected["findings"]), path.name
