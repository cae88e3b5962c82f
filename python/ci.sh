#!/usr/bin/env bash
# CI for the Python package: build and install it into a fresh venv the way a user does
# (`pip install ./python`), then run its pytest suite and the offline example.
# Called from the repository's .ci/run; runs from any directory. Exits non-zero on failure,
# including when pytest collects no test (its exit code 5).
#
# Environment: PALISADE_PY_VENV  where to make the venv (default: a fresh temporary folder)
#              PYTHON            the interpreter to make it with (default: python3)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
start=$(date +%s)

venv="${PALISADE_PY_VENV:-$(mktemp -d)/venv}"
rm -rf "$venv"
"${PYTHON:-python3}" -m venv "$venv"
py="$venv/bin/python"

# The package, as a user installs it (maturin is fetched as its PEP 517 backend), then the
# test dependencies and what the examples use (LangGraph, Dask's distributed).
"$py" -m pip install --quiet ./python
"$py" -m pip install --quiet pytest mypy langgraph distributed

# The binding's own Rust: formatting and lints (its own workspace, so the root's
# `cargo fmt --all` and `cargo clippy` do not see it).
cargo fmt --manifest-path python/Cargo.toml -- --check
PYO3_PYTHON="$py" cargo clippy --manifest-path python/Cargo.toml --all-targets -- -D warnings

# Parity tests compare with the CLI; the root's `cargo test` has built it already.
cargo build --quiet --bin palisade
export PALISADE_CLI="$PWD/target/debug/palisade"

# Run from outside python/ so `import palisade` is the installed package, not the source.
status=0
(cd "$venv" && CI=1 "$py" -m pytest -q -p no:cacheprovider "$OLDPWD/python/tests") || status=$?
if [ "$status" -eq 5 ]; then
  echo "python/ci.sh: pytest collected no tests" >&2
  exit 1
elif [ "$status" -ne 0 ]; then
  exit "$status"
fi

"$py" examples/python/support_agent.py > /dev/null
echo "python/ci.sh: ok in $(( $(date +%s) - start ))s"
