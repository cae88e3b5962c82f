"""The binding's own cost per `Screener.screen` call, in instructions (callgrind), which a
loaded machine does not disturb.

    python python/bench/overhead.py [N]     # needs valgrind; about a minute

For each draft it runs three processes under callgrind: one that screens it once (the
baseline: start-up, import, first call), one that then calls ``screen()`` N more times from
Python, and one that then screens it N more times inside Rust (``Screener._time_screen``).
(Python loop - baseline) / N is the cost of a call from Python; (Rust loop - baseline) / N
the library's own; their difference is the binding: argument conversion, the GIL release,
building the Report and its Findings.

Then a wall-clock table, best of 7 batches of 2,000 calls (the least-disturbed batch on a
shared machine): the library in a tight Rust loop, ``screen()`` from a Python loop, and
``_time_screen(n=1)`` from a Python loop (the call and the Context without building a
Report), which separates the cost of calling from the cost of the results.
"""

import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CHILD = r'''
import sys, palisade
s = palisade.Screener()
t = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f"
text = open(sys.argv[2]).read()
n = int(sys.argv[3])
s.screen(text, ticket_id=t)
if sys.argv[1] == "python":
    for _ in range(n):
        s.screen(text, ticket_id=t)
elif sys.argv[1] == "rust":
    s._time_screen(text, ticket_id=t, n=n)
'''


def instructions(mode: str, path: Path, n: int, out: Path) -> int:
    res = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c",
         CHILD, mode, str(path), str(n)],
        capture_output=True, text=True, check=True,
    )
    return int(re.search(r"Collected : (\d+)", res.stderr).group(1))


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    import palisade

    print(f"instructions per call, {n} calls (callgrind)\n")
    print("| draft | findings | library | binding | binding / library |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("draft_clean", "draft_dirty"):
            path = REPO / "benches" / "fixtures" / f"{name}.txt"
            base, py, rust = (instructions(m, path, n, Path(tmp) / f"{name}.{m}")
                              for m in ("none", "python", "rust"))
            lib, call = (rust - base) / n, (py - base) / n
            found = len(palisade.Screener().screen(path.read_text(),
                        ticket_id="6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f").findings)
            print(f"| {name}.txt | {found} | {lib:,.0f} | {call - lib:,.0f} | {(call - lib) / lib:.1%} |")
    wall()


def wall() -> None:
    import time

    import palisade

    s, t = palisade.Screener(), "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f"
    n, runs = 2000, 7

    def best(f) -> float:
        """Best of `runs` batches of `n` calls to `f` (results dropped as they come)."""
        out = []
        for _ in range(runs):
            start = time.perf_counter()
            for _ in range(n):
                f()
            out.append((time.perf_counter() - start) / n)
        return min(out) * 1e6

    print(f"\nwall clock per call, best of {runs} batches of {n}\n")
    print("| draft | Rust loop | `screen()` | `_time_screen(n=1)` | `screen()` - Rust loop |")
    print("|---|---|---|---|---|")
    for name in ("draft_clean", "draft_dirty"):
        text = (REPO / "benches" / "fixtures" / f"{name}.txt").read_text()
        rust = min(s._time_screen(text, ticket_id=t, n=n) / n for _ in range(runs)) * 1e6
        py = best(lambda: s.screen(text, ticket_id=t))
        one = best(lambda: s._time_screen(text, ticket_id=t, n=1))
        print(f"| {name}.txt | {rust:.1f} µs | {py:.1f} µs | {one:.1f} µs | {py - rust:.1f} µs |")


if __name__ == "__main__":
    main()
