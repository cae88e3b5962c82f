#!/usr/bin/env python3
"""Compare a screener's JSONL output with the corpus truth files, kind by kind.

  agree.py TRUTH PRED

TRUTH is drafts.truth.jsonl or tickets.truth.jsonl from benches/corpus/generate.py. PRED is one
object per line with an "id" and either "kinds": [...] (naive.py) or "findings": [{"kind": ...}]
(`palisade screen --jsonl` / `palisade scan --jsonl`). For every kind it prints the planted and
reported counts, true and false positives, misses, recall, precision and agreement (the share of
texts where planted and reported agree). For tickets it also prints the detection rate per
technique and the false-positive rate on benign texts and on the hard negatives.
Standard library only.
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict


def load(path: str) -> dict[str, dict]:
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                obj = json.loads(line)
                out[obj.get("id")] = obj
    return out


def reported_kinds(obj: dict) -> set[str]:
    if "kinds" in obj:
        return set(obj["kinds"])
    return {f["kind"] for f in obj.get("findings", [])}


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    truth, pred = load(argv[0]), load(argv[1])
    missing = [i for i in truth if i not in pred]
    if missing:
        print(f"warning: {len(missing)} ids have no prediction (first: {missing[0]})", file=sys.stderr)
    ids = [i for i in truth if i in pred]
    planted = {i: set(truth[i]["planted"]) for i in ids}
    reported = {i: reported_kinds(pred[i]) for i in ids}
    kinds = sorted({k for s in planted.values() for k in s} | {k for s in reported.values() for k in s})
    n = len(ids)

    print(f"{'kind':<14}{'planted':>8}{'reported':>9}{'TP':>6}{'FP':>6}{'FN':>6}"
          f"{'recall':>8}{'precision':>10}{'agreement':>10}")
    for k in kinds:
        tp = sum(1 for i in ids if k in planted[i] and k in reported[i])
        fp = sum(1 for i in ids if k not in planted[i] and k in reported[i])
        fn = sum(1 for i in ids if k in planted[i] and k not in reported[i])
        p = tp + fn
        r = tp + fp
        recall = tp / p if p else float("nan")
        precision = tp / r if r else float("nan")
        agreement = (n - fp - fn) / n
        print(f"{k:<14}{p:>8}{r:>9}{tp:>6}{fp:>6}{fn:>6}{recall:>8.3f}{precision:>10.3f}{agreement:>10.4f}")

    any_planted = sum(1 for i in ids if planted[i])
    exact = sum(1 for i in ids if planted[i] == reported[i])
    print(f"texts: {n}, with a planted finding: {any_planted}, reported kinds exactly right: {exact} "
          f"({exact / n:.4f})")

    if any("technique" in truth[i] for i in ids):
        by_tech: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for i in ids:
            t = truth[i].get("technique")
            if t:
                by_tech[t][0] += 1
                by_tech[t][1] += bool(reported[i])
        print(f"\n{'technique':<18}{'attacks':>8}{'flagged':>8}{'rate':>7}")
        for t, (a, d) in sorted(by_tech.items()):
            print(f"{t:<18}{a:>8}{d:>8}{d / a:>7.3f}")
        benign = [i for i in ids if not truth[i].get("technique")]
        fp_benign = sum(1 for i in benign if reported[i])
        hard = [i for i in benign if truth[i].get("hard_negative")]
        fp_hard = Counter(truth[i]["hard_negative"] for i in hard if reported[i])
        print(f"benign flagged: {fp_benign}/{len(benign)} ({fp_benign / max(1, len(benign)):.4f}); "
              f"hard negatives flagged: {sum(fp_hard.values())}/{len(hard)}")
        for name, c in fp_hard.most_common():
            print(f"  {name}: {c}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
