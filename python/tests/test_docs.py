"""The Python quick starts of docs/python.md and the README run as written."""

import re

import pytest

from conftest import REPO

DOCS = [REPO / "docs" / "python.md", REPO / "README.md"]


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(REPO)))
def test_quick_start_runs(path, capsys):
    blocks = re.findall(r"```python\n(.*?)```", path.read_text(), flags=re.S)
    runnable = [b for b in blocks if b.lstrip().startswith("import palisade")]
    assert runnable, "no quick start found"
    for code in runnable:
        exec(compile(code, str(path), "exec"), {})
    out = capsys.readouterr().out
    assert "⟦END UNTRUSTED TICKET_BODY 5eed0f00d5eed0f0⟧" in out
    assert "injection.ignore-previous-instructions" in out
    assert "True Rewrite the reply" in out
    assert out.strip().splitlines()[-1] == "Hi [Customer Name], mail [REDACTED:email]."
