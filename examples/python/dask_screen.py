"""Screen a large JSONL file of drafts on a Dask ``distributed`` cluster (here: a local one).

    pip install "distributed"
    python examples/python/dask_screen.py drafts.jsonl reports.jsonl   # or no args: a demo

Each input line is ``{"id": ..., "text": ..., "ticket_id": ..., "allow_emails": [...]}`` (the
CLI's ``screen --jsonl`` shape); each output line is ``{"id", "blocked", "findings"}``, in
input order. The ``Screener`` is sent to the workers once (``client.scatter``): it pickles as
its construction arguments and each worker process rebuilds it. Within a worker,
``screen_many`` uses every core it has. Point ``Client`` at a real scheduler to go past one
machine; rule files passed to ``Screener(rules=...)`` must then be readable on every worker.
"""

from __future__ import annotations

import json
import sys
import tempfile
from itertools import islice
from pathlib import Path

import palisade

CHUNK_LINES = 2000


def screen_chunk(lines: list[str], screener: palisade.Screener) -> list[str]:
    """Screens one chunk of JSONL lines; returns the output lines in the same order."""
    rows = [json.loads(line) for line in lines]
    reports = screener.screen_many(
        {k: v for k, v in row.items() if k != "id"} for row in rows
    )
    return [json.dumps({"id": row.get("id"), **r.to_dict()}) for row, r in zip(rows, reports)]


def chunks(path: Path, size: int):
    with path.open(encoding="utf-8") as f:
        while True:
            block = [line for line in islice(f, size) if line.strip()]
            if not block:
                return
            yield block


def screen_jsonl(src: Path, dst: Path, client, screener: palisade.Screener, chunk_lines: int = CHUNK_LINES) -> dict:
    """Screens ``src`` into ``dst`` on ``client``'s cluster; returns counts."""
    remote = client.scatter(screener, broadcast=True)
    futures = [client.submit(screen_chunk, block, remote) for block in chunks(src, chunk_lines)]
    counts = {"drafts": 0, "blocked": 0}
    with dst.open("w", encoding="utf-8") as out:
        for fut in futures:  # in submission order, so the output keeps the input order
            for line in fut.result():
                counts["drafts"] += 1
                counts["blocked"] += json.loads(line)["blocked"]
                out.write(line + "\n")
    return counts


def make_demo(path: Path, n: int) -> None:
    """Writes ``n`` synthetic drafts: every third one blocked by an email address."""
    ticket = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f"
    with path.open("w", encoding="utf-8") as f:
        for i in range(n):
            text = f"Hi, about order {i}: all sorted, thanks for waiting. Best, Ana"
            if i % 3 == 0:
                text += f" Write to agent{i}@example.org."
            f.write(json.dumps({"id": i, "text": text, "ticket_id": ticket}) + "\n")


def main(argv: list[str]) -> None:
    from distributed import Client, LocalCluster

    with tempfile.TemporaryDirectory() as tmp:
        if len(argv) == 2:
            src, dst = Path(argv[0]), Path(argv[1])
        else:
            src, dst = Path(tmp) / "drafts.jsonl", Path(tmp) / "reports.jsonl"
            make_demo(src, 10_000)
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            counts = screen_jsonl(src, dst, client, palisade.Screener())
        print(f"{counts['drafts']} drafts screened, {counts['blocked']} blocked -> {dst}")


if __name__ == "__main__":
    main(sys.argv[1:])
