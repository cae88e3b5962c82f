"""Palisade from Python against pure-Python `re` checks and detect-secrets' plugins, in one run.

    pip install ./python detect-secrets
    python python/bench/bench.py [--drafts 10000] [--repeats 5] [--out bench.json]

Drafts: the repository's seeded corpus (benches/corpus/generate.py, 40-200 word support
replies, each of eight problem kinds planted in 10%), generated into a temporary folder.

Measured, each as the median of --repeats runs:

* per call, on three drafts (the clean and dirty fixtures and a median-length corpus draft):
  the Rust library's own time (``Screener._time_screen``: the loop runs inside Rust), a
  ``Screener.screen`` call from Python, the same checks in pure-Python ``re``
  (benches/baseline/naive.py), and detect-secrets' ``scan_line`` over the draft's lines with its
  default plugins (credentials only; it checks far fewer things);
* throughput over the corpus: ``screen_many`` (every core; with the cores it got, CPU seconds
  per wall second), a Python loop of ``screen``, the ``re`` loop, detect-secrets (on a tenth of
  the drafts, as it is slow), and the Rust library's own time over the corpus on one core (each
  draft timed inside Rust) with that rate times the core count: the most ``screen_many`` could
  reach here.

Prints a Markdown table; --out also writes the raw figures as JSON.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import palisade

REPO = Path(__file__).resolve().parents[2]
TICKET = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f"


def load_naive():
    spec = importlib.util.spec_from_file_location("naive", REPO / "benches" / "baseline" / "naive.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def corpus(n: int) -> list[dict]:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, str(REPO / "benches" / "corpus" / "generate.py"), "--out", tmp,
             "--drafts", str(n), "--tickets", "0", "--prose-mib", "0"],
            check=True, capture_output=True,
        )
        with open(Path(tmp) / "drafts.jsonl", encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]


def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def calls(fn, n: int) -> None:
    """Calls `fn` `n` times, dropping each result as it comes (as a caller's loop does; a list
    of them would time the allocator holding and freeing thousands of results instead)."""
    for _ in range(n):
        fn()


def per_call(fn, repeats: int, budget: float = 0.2) -> float:
    """Seconds per call: calls batched to about `budget` seconds, median of `repeats` batches."""
    n, t = 1, 0.0
    while t < budget / 4:
        n *= 2
        t = median_time(lambda: calls(fn, n), 1)
    n = max(1, int(n * budget / max(t, 1e-9)))
    return median_time(lambda: calls(fn, n), repeats) / n


def detect_secrets_scan():
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import default_settings

    ctx = default_settings()
    ctx.__enter__()  # the plugin settings stay active for the whole run

    def scan(text: str) -> int:
        return sum(1 for line in text.splitlines() for _ in scan_line(line))

    return scan


def fmt_us(s: float) -> str:
    return f"{s * 1e6:,.1f} µs"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--drafts", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--out")
    args = ap.parse_args()

    naive = load_naive()
    try:
        ds = detect_secrets_scan()
    except ImportError:
        ds = None
    screener = palisade.Screener()
    drafts = corpus(args.drafts)
    by_len = sorted(drafts, key=lambda d: len(d["text"]))
    samples = {
        "fixture clean": (REPO / "benches" / "fixtures" / "draft_clean.txt").read_text(),
        "fixture dirty": (REPO / "benches" / "fixtures" / "draft_dirty.txt").read_text(),
        "corpus median": by_len[len(by_len) // 2]["text"],
    }

    results: dict = {"per_call": {}, "throughput": {}, "machine": {
        "python": platform.python_version(), "cores": os.cpu_count(),
        "loadavg_before": os.getloadavg(), "palisade": palisade.__version__,
    }}
    for name, text in samples.items():
        k = 2000
        rust = statistics.median(
            screener._time_screen(text, ticket_id=TICKET, n=k) / k for _ in range(args.repeats)
        )
        py = per_call(lambda: screener.screen(text, ticket_id=TICKET), args.repeats)
        rx = per_call(lambda: naive.screen_text(text, TICKET), args.repeats)
        row = {"bytes": len(text.encode()), "rust": rust, "python": py, "overhead": py - rust, "re": rx}
        if ds:
            row["detect_secrets"] = per_call(lambda: ds(text), args.repeats)
        results["per_call"][name] = row

    items = [{"draft": d["text"], "ticket_id": d["ticket_id"]} for d in drafts]
    n = len(items)
    tp = results["throughput"]
    walls, cpus = [], []
    for _ in range(args.repeats):
        w, c = time.perf_counter(), time.process_time()
        screener.screen_many(items)
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    tp["screen_many"] = n / statistics.median(walls)
    # CPU seconds per wall second: how many cores screen_many got (2.0 on an idle 2-core box).
    results["machine"]["screen_many_cores_used"] = statistics.median(c / w for c, w in zip(cpus, walls))
    # The Rust library's own time over the corpus on one core: each draft screened inside Rust
    # (`_time_screen` times only the library call, not the Python around it).
    lib = statistics.median(
        sum(screener._time_screen(i["draft"], ticket_id=i["ticket_id"], n=1) for i in items)
        for _ in range(args.repeats))
    tp["Rust library, 1 core"] = n / lib
    tp[f"Rust library × {os.cpu_count()} cores (bound)"] = n * (os.cpu_count() or 1) / lib
    tp["screen loop"] = n / median_time(
        lambda: [screener.screen(i["draft"], ticket_id=i["ticket_id"]) for i in items], args.repeats)
    tp["re loop"] = n / median_time(
        lambda: [naive.screen_text(i["draft"], i["ticket_id"]) for i in items], args.repeats)
    if ds:
        sub = items[: max(1, n // 10)]
        tp["detect-secrets loop"] = len(sub) / median_time(
            lambda: [ds(i["draft"]) for i in sub], max(1, args.repeats // 2))
    results["machine"]["loadavg_after"] = os.getloadavg()

    print(f"Python {platform.python_version()}, {os.cpu_count()} cores, load average before "
          f"{results['machine']['loadavg_before'][0]:.1f}, after {results['machine']['loadavg_after'][0]:.1f}; "
          f"{n} corpus drafts; medians of {args.repeats} runs.\n")
    cols = ["bytes", "Rust library", "`screen()` from Python", "binding overhead", "pure-Python `re`",
            "ratio `re` / `screen()`"]
    if ds:
        cols += ["detect-secrets", "ratio d-s / `screen()`"]
    print("| draft | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for name, r in results["per_call"].items():
        cells = [f"{r['bytes']:,}", fmt_us(r["rust"]), fmt_us(r["python"]), fmt_us(r["overhead"]),
                 fmt_us(r["re"]), f"{r['re'] / r['python']:.1f}×"]
        if ds:
            cells += [fmt_us(r["detect_secrets"]), f"{r['detect_secrets'] / r['python']:.0f}×"]
        print(f"| {name} | " + " | ".join(cells) + " |")
    print(f"\nscreen_many used {results['machine']['screen_many_cores_used']:.2f} cores (CPU s / wall s); "
          "the bound row is the library's own one-core rate times the core count, with no binding "
          "and no Python at all.")
    print("\n| over the corpus | drafts/s | vs `re` loop |")
    print("|---|---|---|")
    for name, rate in tp.items():
        print(f"| {name} | {rate:,.0f} | {rate / tp['re loop']:.1f}× |")
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
