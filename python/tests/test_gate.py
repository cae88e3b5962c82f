"""The tool-call gate from Python: fixed-order decisions, replays, approvals, and business
rules written as Python callables."""

import threading

import pytest

import palisade
from conftest import REPO

TOOLS = str(REPO / "examples" / "tools.toml")
CTX = {"orders": ["ORD-48213"], "open_balance": "1000.00"}


def refund(amount, order="ORD-48213"):
    return {"order_id": order, "amount": amount, "currency": "EUR"}


def test_small_refund_runs_once_and_a_retry_replays():
    gate = palisade.Gate(TOOLS)
    first = gate.check("run-1", "issue_refund", refund(20), context=CTX)
    assert first["status"] == "approved" and not first["replayed"]
    # The same call spelled differently is the same logical call: one key, a replay.
    again = gate.check("run-1", "issue_refund", {"currency": "EUR", "amount": 20.00, "order_id": "ORD-48213"}, context=CTX)
    assert again["key"] == first["key"] and again["replayed"]
    assert again["status"] != "approved"  # nobody executes it twice
    done = gate.done(first["call_id"], {"refund_id": "R-1"})
    assert done["status"] == "executed"


def test_over_the_auto_limit_waits_for_a_person_and_over_the_ceiling_is_rejected():
    gate = palisade.Gate(TOOLS)
    parked = gate.check("run-2", "issue_refund", refund(120.5), context=CTX)
    assert parked["status"] == "pending_approval"
    approved = gate.approve(parked["call_id"], "ana")
    assert approved["status"] == "approved"
    with pytest.raises(palisade.PalisadeError):
        gate.approve(parked["call_id"], "bob")  # a second approval is refused
    too_much = gate.check("run-2", "issue_refund", refund(900), context=CTX)
    assert too_much["status"] == "rejected"
    assert [r["code"] for r in too_much["reasons"]] == ["limit.hard_ceiling"]
    assert too_much["reasons"][0]["retryable"] is False


def test_a_python_callable_is_a_business_rule():
    seen = []

    def known_orders(call):
        # Building the gate runs the examples of tools.toml through the rules too.
        orders = (call["context"] or {}).get("orders")
        if call["run_id"] != "run-3" or orders is None:
            return []
        seen.append(call)
        if call["args"]["order_id"] not in orders:
            return [{"code": "unknown_order", "field": "/order_id", "message": "No such order."}]
        return []

    gate = palisade.Gate(TOOLS, rules=[known_orders])
    answer = gate.check("run-3", "issue_refund", refund(20, order="ORD-99999"), context=CTX)
    assert answer["status"] == "rejected"
    assert answer["reasons"][0]["code"] == "unknown_order"
    assert answer["reasons"][0]["field"] == "/order_id"
    assert seen[0]["amount"] == {"minor": 2000, "currency": "EUR"}
    ok = gate.check("run-3", "issue_refund", refund(20), context=CTX)
    assert ok["status"] == "approved"


def test_a_rule_that_raises_rejects_and_does_not_echo():
    def broken(call):
        if call["run_id"] == "run-4":  # not the examples run when the gate is built
            raise RuntimeError(call["args"]["order_id"])
        return []

    gate = palisade.Gate(TOOLS, rules=[broken])
    answer = gate.check("run-4", "issue_refund", refund(20), context=CTX)
    assert answer["status"] == "rejected"
    assert answer["reasons"][0]["code"] == "business.rule_error"
    assert "RuntimeError" in answer["reasons"][0]["message"]
    assert "ORD-48213" not in answer["reasons"][0]["message"]


def test_sixteen_threads_one_approval(tmp_path):
    gate = palisade.Gate(TOOLS, db=str(tmp_path / "ledger.db"))
    answers = []
    barrier = threading.Barrier(16)

    def worker():
        barrier.wait()
        answers.append(gate.check("run-5", "issue_refund", refund(20), context=CTX))

    threads = [threading.Thread(target=worker) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(answers) == 16
    assert sum(a["status"] == "approved" for a in answers) == 1
    assert len({a["call_id"] for a in answers}) == 1


def test_a_rule_that_breaks_an_example_fails_the_build():
    with pytest.raises(palisade.PalisadeError) as err:
        palisade.Gate(TOOLS, rules=[lambda call: [{"code": "nope", "message": "never"}]])
    assert "tools.toml" in str(err.value) and "example" in str(err.value)


def test_a_bad_tools_file_names_it(tmp_path):
    bad = tmp_path / "tools.toml"
    bad.write_text('[[tool]]\nname = "x"\ntier = "sometimes"\n')
    with pytest.raises(palisade.PalisadeError) as err:
        palisade.Gate(str(bad))
    assert "tools.toml" in str(err.value)
