#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each, one after another, each as a single libFuzzer
# process (one core; no -jobs/-fork).
#
#   fuzz/run.sh 120            # every target, two minutes each
#   fuzz/run.sh 60 fence       # only the named targets
#
# Needs a nightly toolchain; installs cargo-fuzz when it is missing. Seeds come from
# fuzz/seeds.sh (the committed inputs under tests/crashes/). A crash leaves its input in
# fuzz/artifacts/<target>/; see fuzz/README.md for turning it into a replayed test.
set -uo pipefail
cd "$(dirname "$0")"

seconds=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(fence normalize screen rules_load decode)
fi

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "fuzz: no nightly toolchain (rustup toolchain install nightly); not fuzzing"
    exit 2
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz: installing cargo-fuzz"
    cargo install cargo-fuzz --locked || exit 2
fi

./seeds.sh >/dev/null
status=0
summary=()
for target in "${targets[@]}"; do
    mkdir -p "artifacts/$target"
    before=$(find "artifacts/$target" -type f | wc -l)
    log="artifacts/$target.log"
    touch "artifacts/$target.start"
    echo "fuzz: $target for ${seconds}s (log: fuzz/$log)"
    cargo +nightly fuzz run "$target" "corpus/$target" -- \
        -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -dict=palisade.dict -print_final_stats=1 >"$log" 2>&1
    rc=$?
    after=$(find "artifacts/$target" -type f | wc -l)
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    if [ "$rc" -eq 0 ] && [ "$after" -eq "$before" ]; then
        summary+=("$target: nothing found in ${seconds}s (${runs:-?} runs)")
    else
        status=1
        found=$(find "artifacts/$target" -type f -newer "artifacts/$target.start" 2>/dev/null | head -1)
        summary+=("$target: FOUND a problem (exit $rc) ${found:+input: fuzz/$found}; see fuzz/$log")
    fi
done
echo
printf '%s\n' "${summary[@]}"
exit "$status"
