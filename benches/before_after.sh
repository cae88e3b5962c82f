#!/usr/bin/env bash
# The fence and screen benches of this checkout beside those of the commit before this wave's
# fence work (05b4415), in one session: criterion medians side by side, with the ratio.
#
#   bash benches/before_after.sh              # about 15 minutes on 2 cores (two bench builds)
#   BASE=<commit> bash benches/before_after.sh
#   FILTER='fence/fence_and_scan' bash benches/before_after.sh
#
# The base is checked out in a git worktree under target/before-after/ and built there, so
# the two builds share nothing. Both binaries run each benchmark in turn (base, then this
# checkout), which keeps the machine's load as alike as it can be for the pair.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BASE=${BASE:-05b4415}
FILTER=${FILTER:-'^fence/fence_and_scan/2KiB_(ascii|non_ascii)(_varied)?$|^screen_draft/palisade/1KiB_clean_varied$|^screen_prose/palisade/all_default_rules_1MiB$'}
WT=$ROOT/target/before-after/$BASE
OUT=$ROOT/target/before-after/out
mkdir -p "$OUT"

if [ ! -d "$WT" ]; then
    git worktree add --detach "$WT" "$BASE" >/dev/null
fi

bench_bin() { # dir bench -> path of the built criterion binary
    (cd "$1" && cargo bench --bench "$2" --no-run --message-format=json 2>/dev/null) |
        python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] == ["bench"]:
        print(m["executable"])' | tail -1
}

median() { # criterion output -> "id median-with-unit" lines
    python3 -c 'import re,sys
name=None
for l in sys.stdin:
    l=l.rstrip()
    if l and not l.startswith(" ") and not l.startswith("Benchmarking") and "time:" not in l:
        name=l.split()[0]
    m=re.search(r"time:\s+\[\S+ \S+ (\S+) (\S+) \S+ \S+\]", l)
    if m and name:
        print(name, m.group(1), m.group(2)); name=None'
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for bench in fence screen; do
    new=$(bench_bin "$ROOT" "$bench")
    old=$(bench_bin "$WT" "$bench")
    ids=$("$new" --bench --list 2>/dev/null | sed -n 's/: benchmark$//p' | grep -E "$FILTER" || true)
    for id in $ids; do
        for side in old new; do
            bin=${!side}
            "$bin" --bench "^${id}\$" --warm-up-time 2 --measurement-time 5 --noplot 2>/dev/null |
                median | sed "s/^/$side /"
        done
    done
done >"$OUT/medians.txt"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

python3 - "$OUT/medians.txt" "$BASE" <<'EOF'
import sys
unit = {"ns": 1e-3, "µs": 1.0, "us": 1.0, "ms": 1e3, "s": 1e6}
rows = {}
for line in open(sys.argv[1]):
    side, name, value, u = line.split()
    rows.setdefault(name, {})[side] = (float(value) * unit[u], value + " " + u)
print(f"| benchmark | {sys.argv[2]} | this checkout | this ÷ {sys.argv[2]} |")
print("|---|---:|---:|---:|")
for name, r in rows.items():
    if "old" in r and "new" in r:
        print(f"| `{name}` | {r['old'][1]} | {r['new'][1]} | {r['new'][0] / r['old'][0]:.2f}× |")
    else:
        only = r.get("new", r.get("old"))
        print(f"| `{name}` | {r.get('old', ('', '—'))[1]} | {r.get('new', ('', '—'))[1]} | |")
EOF
