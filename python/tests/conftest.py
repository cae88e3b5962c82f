"""Shared fixtures: the repository's paths and the CLI binary for parity tests."""

import os
import pathlib
import shutil

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
TICKET_ID = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f"


def _cli_path():
    """The `palisade` binary: $PALISADE_CLI, else a built one in the repo's target/."""
    given = os.environ.get("PALISADE_CLI")
    if given:
        return pathlib.Path(given)
    for profile in ("release", "debug"):
        p = REPO / "target" / profile / "palisade"
        if p.exists():
            return p
    found = shutil.which("palisade")
    return pathlib.Path(found) if found else None


@pytest.fixture(scope="session")
def cli():
    """Path of the CLI binary. python/ci.sh always sets PALISADE_CLI, so CI never skips."""
    path = _cli_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("no palisade binary: set PALISADE_CLI (python/ci.sh builds one)")
        pytest.skip("no palisade binary built (cargo build --bin palisade)")
    assert path.exists(), f"PALISADE_CLI={path} does not exist"
    return path


@pytest.fixture(scope="session")
def repo():
    return REPO


def need(module):
    """Imports an optional dependency: skipped locally when missing, a failure under CI
    (python/ci.sh installs every one)."""
    if os.environ.get("CI"):
        return __import__(module)
    return pytest.importorskip(module)
