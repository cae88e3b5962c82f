#!/usr/bin/env bash
# Batch throughput and peak memory of `screen --jsonl`, two binaries side by side, paired runs.
#
#   bash benches/jsonl_stream.sh OLD_BINARY NEW_BINARY DRAFTS.jsonl [RUNS]
#
# Prints one line per run: binary, drafts per second (wall clock, start-up included) and peak
# resident memory in MiB (/usr/bin/time "Maximum resident set size"). The runs alternate
# between the binaries so a change in the machine's load hits both.
set -uo pipefail
OLD=$1 NEW=$2 IN=$3 RUNS=${4:-3}
N=$(wc -l <"$IN")
for r in $(seq "$RUNS"); do
    for bin in "$OLD" "$NEW"; do
        start=$(date +%s.%N)
        kib=$(/usr/bin/time -f %M "$bin" screen --jsonl <"$IN" 2>&1 >/dev/null | tail -1 || true)
        end=$(date +%s.%N)
        awk -v b="$bin" -v n="$N" -v s="$start" -v e="$end" -v k="$kib" -v r="$r" \
            'BEGIN { printf "run %d  %-28s %8.0f drafts/s  %7.1f MiB\n", r, b, n / (e - s), k / 1024 }'
    done
done
