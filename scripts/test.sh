#!/usr/bin/env bash
# The README's test command: sets up what the tests need on a fresh machine, then runs every
# suite. Each step says what it does; a missing tool is installed, never silently skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

# Property tests explore a fixed sequence under CI (a red CI must mean a real regression);
# local runs draw a fresh seed each time.
if [[ "${CI:-}" == "true" ]]; then
  export PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-20261202}"
fi

echo "== browser for the review-page tests (Debian's chromium and chromium-driver)"
bash scripts/install-browser.sh

echo "== PostgreSQL on 127.0.0.1 for the gate's ledger tests (Debian's postgresql)"
eval "$(bash scripts/start-postgres.sh)"

echo "== cargo test (with the PostgreSQL ledger)"
cargo test --features postgres

echo "== Python package: pip install ./python into a fresh venv, then its pytest suite"
bash python/ci.sh
