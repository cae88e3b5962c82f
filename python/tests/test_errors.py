"""Errors are PalisadeError subclasses (ValueError) carrying the Rust error's context."""

import pytest

import palisade
from conftest import TICKET_ID

GOOD_RULE = """
[[rule]]
id = "mine.refund-word"
kind = "promise"
severity = "notice"
description = "Says refund."
rationale = "Test."
message = "Check the refund."
pattern = '(?i)\\brefund\\b'
examples = ["a refund"]
negative_examples = ["a return"]
"""


def test_hierarchy():
    for cls in (
        palisade.RuleFileError,
        palisade.UnknownRuleError,
        palisade.PolicyError,
        palisade.InvalidSettingError,
        palisade.InputTooLargeError,
        palisade.FenceError,
        palisade.InvalidIdError,
    ):
        assert issubclass(cls, palisade.PalisadeError)
    assert issubclass(palisade.PalisadeError, ValueError)


def test_bad_pattern_names_file_line_and_rule(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("# a comment\n" + GOOD_RULE.replace("(?i)\\brefund\\b", "("))
    with pytest.raises(palisade.RuleFileError) as err:
        palisade.Screener(rules=[str(path)])
    e = err.value
    assert e.file == str(path) and e.rule == "mine.refund-word" and e.line == 3
    assert str(path) in str(e) and "mine.refund-word" in str(e)


def test_toml_syntax_error_has_line_and_column(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("[[rule]]\nid = \"x.y\"\nkind = = 3\n")
    with pytest.raises(palisade.RuleFileError) as err:
        palisade.Screener(rules=[path])
    assert err.value.line == 3 and err.value.column is not None


def test_failing_example_is_rejected(tmp_path):
    path = tmp_path / "ex.toml"
    path.write_text(GOOD_RULE.replace('examples = ["a refund"]', 'examples = ["a return"]'))
    with pytest.raises(palisade.RuleFileError) as err:
        palisade.Screener(rules=[path])
    assert err.value.rule == "mine.refund-word"


def test_missing_file():
    with pytest.raises(palisade.RuleFileError) as err:
        palisade.Screener(rules=["/nonexistent/rules.toml"])
    assert err.value.path == "/nonexistent/rules.toml"


def test_unknown_rule_and_bad_severity():
    with pytest.raises(palisade.UnknownRuleError) as err:
        palisade.Screener(severities={"no.such-rule": "notice"})
    assert err.value.rule == "no.such-rule" and err.value.setting == "severity"
    with pytest.raises(palisade.PalisadeError) as err:
        palisade.Screener(severities={"draft.length": "warn"})
    assert err.value.rule == "draft.length"


def test_policy_errors_name_file_line_and_column(tmp_path):
    path = tmp_path / "palisade.toml"
    path.write_text("[screen]\nmax_words = 50\nallow_email = []\n")
    with pytest.raises(palisade.PolicyError) as err:
        palisade.Screener(policy=path)
    e = err.value
    assert e.file == str(path) and e.line == 3 and e.column == 1
    assert "allow_email" in str(e)
    with pytest.raises(palisade.PolicyError) as err:
        palisade.Screener(policy=tmp_path / "missing.toml")
    assert err.value.path == str(tmp_path / "missing.toml")


def test_setting_errors_name_the_setting():
    with pytest.raises(palisade.InvalidSettingError) as err:
        palisade.fence("hi", "T", source="x⟧")
    assert err.value.setting == "source"
    with pytest.raises(palisade.InvalidSettingError) as err:
        palisade.Screener().screen("hi", ticket_id=TICKET_ID, allow_numbers=["none"])
    assert err.value.setting == "allow_numbers"


def test_input_too_large_has_size_and_limit():
    with pytest.raises(palisade.InputTooLargeError) as err:
        palisade.Screener(max_input_bytes=10).screen("é" * 10, ticket_id=TICKET_ID)
    assert (err.value.size, err.value.limit) == (20, 10)
    with pytest.raises(palisade.InputTooLargeError):
        palisade.scan("x" * (1024 * 1024 + 1))


def test_fence_and_id_errors():
    with pytest.raises(palisade.FenceError):
        palisade.fence("hi", "bad⟧label")
    with pytest.raises(palisade.FenceError):
        palisade.fence("hi", "T", nonce="xyz")
    with pytest.raises(palisade.InvalidIdError):
        palisade.Screener().screen("hi", ticket_id="two words")
    with pytest.raises(ValueError):  # catchable as the built-in too
        palisade.Screener().screen("hi", ticket_id=TICKET_ID, allow_ids=[""])


def test_screen_many_error_names_the_item():
    items = [{"draft": "ok", "ticket_id": TICKET_ID}] * 3 + [{"draft": "ok", "ticket_id": "two words"}]
    with pytest.raises(palisade.InvalidIdError) as err:
        palisade.Screener().screen_many(items)
    assert err.value.index == 3 and str(err.value).startswith("item 3:")
    with pytest.raises(TypeError):
        palisade.Screener().screen_many([{"ticket_id": TICKET_ID}])
    with pytest.raises(TypeError):
        palisade.Screener().screen_many([{"draft": "x", "ticket_id": TICKET_ID, "allow_ids": "abc"}])
    with pytest.raises(palisade.InputTooLargeError) as err:
        palisade.Screener(max_input_bytes=5).screen_many(
            [{"draft": "ok", "ticket_id": TICKET_ID}, {"draft": "too long", "ticket_id": TICKET_ID}]
        )
    assert err.value.index == 1


def test_screen_many_raises_the_first_bad_item_whatever_its_error():
    # Contexts are built on the worker threads, after every item is read: the first bad item
    # still wins, whether the later one is unreadable, refused by the screener or also bad.
    ok = {"draft": "ok", "ticket_id": TICKET_ID}
    bad_id = {"draft": "ok", "ticket_id": "two words"}
    with pytest.raises(palisade.InvalidIdError) as err:
        palisade.Screener().screen_many([ok, bad_id, ok, {"ticket_id": TICKET_ID}])
    assert err.value.index == 1
    with pytest.raises(TypeError):
        palisade.Screener().screen_many([ok, {"ticket_id": TICKET_ID}, bad_id])
    with pytest.raises(palisade.InvalidIdError) as err:
        palisade.Screener().screen_many([ok] * 20 + [bad_id, {"draft": "x", "ticket_id": "#"}] + [ok] * 20)
    assert err.value.index == 20
    big = {"draft": "too long", "ticket_id": TICKET_ID}
    with pytest.raises(palisade.InvalidIdError) as err:  # a bad item beats a refused draft
        palisade.Screener(max_input_bytes=5).screen_many([ok, big] + [ok] * 20 + [bad_id])
    assert err.value.index == 22
    # Past the first 64 items the rest is read while earlier ones are screened: the order of
    # errors is the same there, in a chunk already screened or in the one being read.
    unreadable = {"ticket_id": TICKET_ID}
    with pytest.raises(palisade.InvalidIdError) as err:
        palisade.Screener().screen_many([ok] * 100 + [bad_id] + [ok] * 100 + [unreadable])
    assert err.value.index == 100
    with pytest.raises(palisade.InvalidIdError) as err:
        palisade.Screener().screen_many([ok] * 130 + [bad_id, unreadable] + [ok] * 10)
    assert err.value.index == 130
    with pytest.raises(TypeError) as err:
        palisade.Screener().screen_many([ok] * 150 + [unreadable, bad_id] + [ok] * 10)
    assert err.value.index == 150
    with pytest.raises(palisade.InputTooLargeError) as err:
        palisade.Screener(max_input_bytes=5).screen_many([ok] * 300 + [big] + [ok] * 30)
    assert err.value.index == 300
    # A dict with a key screen_many does not know is read in full (the key-count shortcut
    # must not skip the keys after it).
    extra = {"id": 7, "draft": "Email me at jane@example.org.", "ticket_id": TICKET_ID,
             "allow_emails": ["jane@example.org"]}
    assert palisade.Screener().screen_many([extra])[0].findings == []


def test_context_attributes_default_to_none():
    e = palisade.PalisadeError("x")
    assert e.file is None and e.index is None


def test_text_that_is_not_utf8_encodable_names_the_position():
    # A lone surrogate has no UTF-8 form; Python's own error says where, and it is a ValueError.
    with pytest.raises(UnicodeEncodeError) as err:
        palisade.scan("ab\ud800c")
    assert err.value.start == 2 and isinstance(err.value, ValueError)
    with pytest.raises(TypeError):
        palisade.Screener().screen(b"bytes", ticket_id=None)
