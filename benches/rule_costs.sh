#!/usr/bin/env bash
# What each screening rule costs: instructions per byte of 1 MiB of varied clean prose with every
# default rule, minus the same run without that rule (callgrind, which does not drift with the
# machine's load). A rule's cost is its own work (its check, or the confirmations at its anchor
# literals' hits) plus its share of the literal prefilter.
#
#   bash benches/rule_costs.sh            # every rule, most expensive first; about 10 minutes
#   TOP=15 bash benches/rule_costs.sh     # print only the first 15
#   JOBS=1 bash benches/rule_costs.sh     # one callgrind at a time (default: one per core)
#   WORKLOAD=draft-varied bash benches/rule_costs.sh   # instructions per 1 KiB draft instead
#
# Needs valgrind (installed with apt-get when missing and running as root).
set -euo pipefail
cd "$(dirname "$0")/.."
TOP=${TOP:-0}
# `prose`: one screen of 1 MiB, reported per byte; `draft-varied`: 300 different 1 KiB drafts,
# reported per draft.
WORKLOAD=${WORKLOAD:-prose}
case "$WORKLOAD" in
    prose) RUNS=1 WARMUP=2 PER=1048576 UNIT="instructions per byte" ;;
    draft-varied) RUNS=300 WARMUP=300 PER=300 UNIT="instructions per 1 KiB draft" ;;
    *) echo "WORKLOAD is prose or draft-varied" >&2; exit 2 ;;
esac
JOBS=${JOBS:-$(nproc)}
if ! command -v valgrind >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update -qq >/dev/null 2>&1 || true
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null 2>&1 || true
    fi
    command -v valgrind >/dev/null || { echo "rule_costs.sh needs valgrind" >&2; exit 2; }
fi
cargo build --release --quiet --example profile
# A copy, so that a build started meanwhile cannot swap the binary under the runs.
BIN=$(mktemp -d)/profile
cp target/release/examples/profile "$BIN"

# instructions DISABLE: the measured instructions of one prose run without the rules listed.
instructions() {
    WARM=$WARMUP DISABLE="$1" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        --collect-atstart=no --toggle-collect='profile::measured' "$BIN" "$WORKLOAD" "$RUNS" 2>&1 |
        awk '/I *refs:/ { gsub(",", "", $NF); print $NF }'
}
export -f instructions
export BIN WORKLOAD RUNS WARMUP

all=$(instructions "")
# `rules --json` prints one rule per line.
ids=$(cargo run --release --quiet -- rules --json |
    python3 -c 'import json, sys; [print(r["id"]) for r in map(json.loads, sys.stdin)]')
printf '%s\n' "$ids" |
    xargs -P "$JOBS" -I{} bash -c 'printf "%s\t%s\n" {} "$(instructions {})"' |
    awk -F'\t' -v all="$all" -v per="$PER" '{ printf "%.2f\t%s\n", (all - $2) / per, $1 }' |
    sort -rn |
    { if [ "$TOP" -gt 0 ]; then head -n "$TOP"; else cat; fi } |
    awk -F'\t' -v all="$all" -v per="$PER" -v unit="$UNIT" 'BEGIN { printf "every rule: %.1f %s\n\n| rule | %s |\n|---|---:|\n", all / per, unit, unit }
                              { printf "| `%s` | %s |\n", $2, $1 }'
