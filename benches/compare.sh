#!/usr/bin/env bash
# Palisade's CLI against the naive Python baseline, on the same generated corpus, in one run.
#
#   bash benches/compare.sh            # from a fresh clone; about 10 minutes on 2 cores
#   RUNS=3 bash benches/compare.sh     # fewer repetitions
#   SCALE=0 bash benches/compare.sh    # skip the scaling tables
#
# It generates the corpus (benches/corpus/generate.py, seeded), builds the release CLI, then
# times each command RUNS times (default 5; 3 for the 64 MiB and 100k-draft runs) and prints
# Markdown tables of medians, ratios and peak memory (/usr/bin/time "Maximum resident set
# size"), ready for the README. Wall-clock times include process start-up and reading the
# input for both sides. The machine's load is printed before and after: on a shared machine,
# run it when the load is low.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
RUNS=${RUNS:-5}
BIG_RUNS=${BIG_RUNS:-3}
SCALE=${SCALE:-1}
C=$ROOT/target/bench-corpus
S=$C/scale
OUT=$C/compare
PAL=$ROOT/target/release/palisade
NAIVE="python3 $ROOT/benches/baseline/naive.py"
TICKET=6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f
mkdir -p "$OUT"

say() { printf '%s\n' "$*" >&2; }

# --- tools --------------------------------------------------------------------------------
apt_install() {
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update -qq >/dev/null 2>&1 || true
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1 || true
    fi
}
if ! /usr/bin/time -f %M true >/dev/null 2>&1; then
    say "installing GNU time"
    apt_install time
fi
/usr/bin/time -f %M true >/dev/null 2>&1 || { say "compare.sh needs GNU time at /usr/bin/time"; exit 2; }
command -v hyperfine >/dev/null || apt_install hyperfine

# --- corpus and build ---------------------------------------------------------------------
if [ ! -s "$C/drafts.jsonl" ] || [ ! -s "$C/tickets.jsonl" ] || [ ! -s "$C/prose.txt" ]; then
    say "generating the corpus into $C"
    python3 benches/corpus/generate.py --out "$C"
fi
say "building the release CLI"
cargo build --release --quiet

# --- measuring ----------------------------------------------------------------------------
# measure NAME RUNS STDIN CMD...: runs CMD RUNS times with STDIN ("-" for none) and appends
# "NAME<TAB>median seconds<TAB>median peak KiB" to $OUT/results.tsv.
: >"$OUT/results.tsv"
measure() {
    local name=$1 runs=$2 input=$3
    shift 3
    local times=() mems=() i
    for ((i = 0; i < runs; i++)); do
        local log="$OUT/time.log" t0 t1 t m
        t0=$(date +%s%N)
        if [ "$input" = - ]; then
            /usr/bin/time -o "$log" -f '%M' "$@" >/dev/null 2>"$OUT/stderr.log" </dev/null || true
        else
            /usr/bin/time -o "$log" -f '%M' "$@" >/dev/null 2>"$OUT/stderr.log" <"$input" || true
        fi
        t1=$(date +%s%N)
        t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
        # GNU time puts "Command exited with non-zero status N" first; the figure is last.
        m=$(tail -n 1 "$log")
        times+=("$t")
        mems+=("$m")
    done
    local tm mm
    tm=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    mm=$(printf '%s\n' "${mems[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    printf '%s\t%s\t%s\n' "$name" "$tm" "$mm" >>"$OUT/results.tsv"
    say "  $name: ${tm}s, ${mm} KiB (runs: ${times[*]})"
}

say "load before timing: $(uptime)"
DRAFTS=$(wc -l <"$C/drafts.jsonl")
TICKETS=$(wc -l <"$C/tickets.jsonl")

say "drafts ($DRAFTS)"
measure pal_drafts "$RUNS" "$C/drafts.jsonl" "$PAL" screen --jsonl
measure naive_drafts "$RUNS" - $NAIVE screen --jsonl "$C/drafts.jsonl"
say "tickets ($TICKETS)"
measure pal_tickets "$RUNS" "$C/tickets.jsonl" "$PAL" scan --jsonl
measure naive_tickets "$RUNS" - $NAIVE scan --jsonl "$C/tickets.jsonl"
say "prose (64 MiB, one text, one core)"
PROSE_ARGS=(screen --ticket-id "$TICKET" --max-input-bytes 1000000000 --max-words 1000000000 --json)
measure pal_prose64 "$BIG_RUNS" "$C/prose.txt" "$PAL" "${PROSE_ARGS[@]}"
measure naive_prose64 "$BIG_RUNS" - $NAIVE prose --max-words 1000000000 "$C/prose.txt"
# The answers, once: Palisade finds nothing in the clean prose.
"$PAL" "${PROSE_ARGS[@]}" <"$C/prose.txt" >"$OUT/prose-report.json" || true

say "start-up"
printf 'Hi Sam, your refund is on its way. Best, Ana\n' >"$OUT/tiny-draft.txt"
STARTUP_CMD="$PAL screen --ticket-id $TICKET"
if command -v hyperfine >/dev/null; then
    # Through the shell for the redirection; hyperfine subtracts the shell's own start-up.
    hyperfine --ignore-failure --warmup 5 --runs 50 --export-json "$OUT/startup.json" \
        "$STARTUP_CMD < $OUT/tiny-draft.txt" >/dev/null 2>&1 || true
    STARTUP_MS=$(python3 -c "import json;print(round(json.load(open('$OUT/startup.json'))['results'][0]['median']*1000,2))" 2>/dev/null || echo "")
    STARTUP_HOW="hyperfine, median of 50 runs"
fi
if [ -z "${STARTUP_MS:-}" ]; then
    STARTUP_MS=$(python3 - "$PAL" "$TICKET" "$OUT/tiny-draft.txt" <<'PY'
import subprocess, sys, time, statistics
pal, ticket, draft = sys.argv[1:4]
data = open(draft, "rb").read()
ts = []
for _ in range(50):
    t0 = time.perf_counter()
    subprocess.run([pal, "screen", "--ticket-id", ticket], input=data, stdout=subprocess.DEVNULL)
    ts.append(time.perf_counter() - t0)
print(round(statistics.median(ts) * 1000, 2))
PY
)
    STARTUP_HOW="loop of 50 runs, median"
fi
printf 'startup_ms\t%s\t%s\n' "$STARTUP_MS" "$STARTUP_HOW" >>"$OUT/results.tsv"
say "  start-up: $STARTUP_MS ms ($STARTUP_HOW)"

if [ "$SCALE" != 0 ]; then
    say "scaling: drafts"
    if [ ! -s "$S/drafts.jsonl" ] || [ "$(wc -l <"$S/drafts.jsonl")" -lt 100000 ]; then
        python3 benches/corpus/generate.py --out "$S" --drafts 100000 --tickets 0 --prose-mib 0
    fi
    head -n 1000 "$S/drafts.jsonl" >"$S/drafts-1k.jsonl"
    head -n 10000 "$S/drafts.jsonl" >"$S/drafts-10k.jsonl"
    measure scale_drafts_1000 "$RUNS" "$S/drafts-1k.jsonl" "$PAL" screen --jsonl
    measure scale_drafts_10000 "$RUNS" "$S/drafts-10k.jsonl" "$PAL" screen --jsonl
    measure scale_drafts_100000 "$BIG_RUNS" "$S/drafts.jsonl" "$PAL" screen --jsonl
    say "scaling: prose"
    for m in 1 4 16; do
        measure "scale_prose_$m" "$RUNS" "$C/prose-$m.txt" "$PAL" "${PROSE_ARGS[@]}"
    done
    printf 'scale_prose_64\t%s\n' "$(awk -F'\t' '$1=="pal_prose64"{print $2"\t"$3}' "$OUT/results.tsv")" >>"$OUT/results.tsv"
fi
say "load after timing: $(uptime)"

# --- report -------------------------------------------------------------------------------
python3 - "$OUT/results.tsv" "$DRAFTS" "$TICKETS" "$C" "$OUT/prose-report.json" "$RUNS" "$BIG_RUNS" <<'PY'
import json, os, sys
path, drafts, tickets, corpus, prose_report, runs, big_runs = sys.argv[1:8]
drafts, tickets = int(drafts), int(tickets)
r = {}
for line in open(path):
    f = line.rstrip("\n").split("\t")
    r[f[0]] = f[1:]
sec = lambda k: float(r[k][0])
mib = lambda k: float(r[k][1]) / 1024
prose_bytes = os.path.getsize(os.path.join(corpus, "prose.txt"))
findings = len(json.load(open(prose_report))["findings"]) if os.path.getsize(prose_report) else "?"
print(f"Medians of {runs} runs ({big_runs} for 64 MiB and 100k drafts), wall clock including "
      f"start-up and input, on this 2-core machine. Corpus: `python3 benches/corpus/generate.py` "
      f"(seed 42).\n")
print("| workload | Palisade | naive Python (`re`) | ratio | Palisade peak RSS | naive peak RSS |")
print("|---|---:|---:|---:|---:|---:|")
def row(name, pk, nk, n, unit):
    p, q = n / sec(pk), n / sec(nk)
    ratio = f"{p / q:,.1f}" if p / q < 100 else f"{p / q:,.0f}"
    print(f"| {name} | {p:,.0f} {unit} | {q:,.0f} {unit} | {ratio}× | {mib(pk):.1f} MiB | {mib(nk):.1f} MiB |")
row(f"`screen --jsonl`, {drafts:,} drafts (both cores)", "pal_drafts", "naive_drafts", drafts, "drafts/s")
row(f"`scan --jsonl`, {tickets:,} tickets (both cores)", "pal_tickets", "naive_tickets", tickets, "tickets/s")
row(f"clean prose, one {prose_bytes / 2**20:.0f} MiB text (one core)", "pal_prose64", "naive_prose64",
    prose_bytes / 1e6, "MB/s")
print(f"\nPalisade findings on the clean prose: {findings}. "
      f"CLI start-up (`palisade screen` on a one-line draft): {r['startup_ms'][0]} ms ({r['startup_ms'][1]}).")
if "scale_drafts_1000" in r:
    print("\nScaling, `palisade screen --jsonl`:\n")
    print("| drafts | time | drafts/s | peak RSS |")
    print("|---:|---:|---:|---:|")
    for n in (1000, 10000, 100000):
        k = f"scale_drafts_{n}"
        print(f"| {n:,} | {sec(k):.3f} s | {n / sec(k):,.0f} | {mib(k):.1f} MiB |")
    print("\nScaling, clean prose screened as one text (`--max-input-bytes`):\n")
    print("| prose | time | MB/s | peak RSS |")
    print("|---:|---:|---:|---:|")
    for m in (1, 4, 16, 64):
        k = f"scale_prose_{m}"
        size = os.path.getsize(os.path.join(corpus, "prose.txt" if m == 64 else f"prose-{m}.txt"))
        print(f"| {m} MiB | {sec(k):.3f} s | {size / 1e6 / sec(k):,.0f} | {mib(k):.1f} MiB |")
PY
