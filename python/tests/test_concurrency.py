"""Threads and batches: 8 threads at once, screen_many order, and its speed-up over a loop."""

import multiprocessing
import threading
import time

import pytest

import palisade
from conftest import REPO, TICKET_ID

DRAFTS = [p.read_text() for p in sorted((REPO / "benches" / "fixtures").glob("draft_*.txt"))] + [
    "Hi Sam, your refund is on its way. Best, Ana",
    "Hi [Customer Name], write to bob@example.org.",
    "Call us on +1 (415) 555-0132.",
]


def expected_reports(screener):
    return [screener.screen(d, ticket_id=TICKET_ID).to_dict() for d in DRAFTS]


def test_eight_threads_screen_at_once():
    screener = palisade.Screener()
    expected = expected_reports(screener)
    barrier = threading.Barrier(8)
    results, errors = [None] * 8, []

    def work(k):
        try:
            barrier.wait()
            got = []
            for _ in range(50):
                got.append([screener.screen(d, ticket_id=TICKET_ID).to_dict() for d in DRAFTS])
            results[k] = got
        except Exception as e:  # collected so the main thread fails with it
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for got in results:
        assert got is not None and all(round_ == expected for round_ in got)


def test_screen_many_keeps_input_order_and_equals_screen():
    screener = palisade.Screener()
    # Distinct drafts so a reordering shows: each carries its index as a long number or not.
    items = [
        {"draft": f"Order {i:08d} ships today." if i % 3 == 0 else f"Hi, note {i}.", "ticket_id": TICKET_ID}
        for i in range(500)
    ]
    reports = screener.screen_many(iter(items))  # any iterable, even a one-shot iterator
    assert len(reports) == len(items)
    for i, r in enumerate(reports):
        assert r.blocked == (i % 3 == 0), i
        assert r.to_dict() == screener.screen(items[i]["draft"], ticket_id=TICKET_ID).to_dict()
        assert r.redact() == screener.screen(items[i]["draft"], ticket_id=TICKET_ID).redact()


def test_screen_many_accepts_text_key_and_per_item_options():
    s = palisade.Screener()
    other = "0b5a3c2e-9d8f-4e7a-b6c5-d4e3f2a1b0c9"
    reports = s.screen_many(
        [
            {"text": f"See {other}.", "ticket_id": TICKET_ID, "allow_ids": [other]},
            {"draft": f"See {other}.", "ticket_id": TICKET_ID},
            {"draft": "one two three four", "ticket_id": None, "max_words": 2},
        ]
    )
    assert [r.findings == [] for r in reports] == [True, False, False]
    assert [f.kind for f in reports[2].findings] == ["length"]
    assert s.screen_many([]) == []


def test_screen_many_is_faster_than_a_python_loop(capsys):
    screener = palisade.Screener()
    items = [{"draft": DRAFTS[i % len(DRAFTS)], "ticket_id": TICKET_ID} for i in range(4000)]

    def best(f, n=3):
        times = []
        for _ in range(n):
            t = time.perf_counter()
            f()
            times.append(time.perf_counter() - t)
        return min(times)

    loop = best(lambda: [screener.screen(i["draft"], ticket_id=TICKET_ID) for i in items])
    batch = best(lambda: screener.screen_many(items))
    with capsys.disabled():
        print(
            f"\nscreen_many vs loop over {len(items)} drafts: loop {loop * 1e3:.1f} ms, "
            f"screen_many {batch * 1e3:.1f} ms, speed-up {loop / batch:.2f}x (timing reported, not asserted)"
        )
    # Order and content are asserted elsewhere; timing on a shared machine is only reported.
    assert [r.blocked for r in screener.screen_many(items[:20])] == [
        screener.screen(i["draft"], ticket_id=TICKET_ID).blocked for i in items[:20]
    ]


def _screen_batch_in_child(screener, items, queue):
    queue.put([r.blocked for r in screener.screen_many(items)])


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork here")
def test_screen_many_works_in_a_forked_child_after_the_parent_used_it():
    # screen_many keeps its worker threads across calls; a forked child has none of them and
    # must start its own instead of waiting forever on the parent's.
    screener = palisade.Screener()
    items = [{"draft": f"Order {i} ships soon.", "ticket_id": TICKET_ID} for i in range(40)]
    items[7] = {"draft": "Hi [Customer Name], it ships soon.", "ticket_id": TICKET_ID}
    expected = [r.blocked for r in screener.screen_many(items)]
    assert expected.count(True) == 1
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_screen_batch_in_child, args=(screener, items, queue))
    child.start()
    try:
        got = queue.get(timeout=60)
    finally:
        child.join(60)
        if child.is_alive():
            child.kill()
    assert got == expected and child.exitcode == 0
