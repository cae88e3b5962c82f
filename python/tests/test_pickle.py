"""A Screener crosses process boundaries by its construction arguments."""

import multiprocessing
import pickle

import palisade
from conftest import TICKET_ID

DRAFT = "We guarantee your parcel will arrive within 24 hours."


def _screen_in_worker(screener):
    return screener.screen(DRAFT, ticket_id=TICKET_ID).to_dict()


def test_screener_pickles_with_its_settings(tmp_path):
    softened = palisade.Screener(
        severities={"draft.promise": "notice"}, max_words=3, max_input_bytes=4096
    )
    back = pickle.loads(pickle.dumps(softened))
    assert back.screen(DRAFT, ticket_id=TICKET_ID).to_dict() == softened.screen(
        DRAFT, ticket_id=TICKET_ID
    ).to_dict()
    assert "length" in [f.kind for f in back.screen(DRAFT, ticket_id=TICKET_ID).findings]
    default = palisade.Screener().screen(DRAFT, ticket_id=TICKET_ID).to_dict()
    assert back.screen(DRAFT, ticket_id=TICKET_ID).to_dict() != default


def test_screener_in_a_spawned_process():
    screener = palisade.Screener(severities={"draft.promise": "notice"})
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        got = pool.apply(_screen_in_worker, (screener,))
    assert got == screener.screen(DRAFT, ticket_id=TICKET_ID).to_dict()
    assert all(f["severity"] == "notice" for f in got["findings"] if f["rule"] == "draft.promise")


def test_screener_with_a_policy_pickles_by_its_path(tmp_path):
    policy = tmp_path / "palisade.toml"
    policy.write_text('[severity]\n"draft.promise" = "notice"\n')
    s = palisade.Screener(policy=policy)
    back = pickle.loads(pickle.dumps(s))
    assert back.screen(DRAFT, ticket_id=TICKET_ID).to_dict() == s.screen(DRAFT, ticket_id=TICKET_ID).to_dict()
    assert "palisade.toml" in repr(back)


def test_relative_paths_pickle_as_absolute_ones(tmp_path, monkeypatch):
    (tmp_path / "palisade.toml").write_text('[severity]\n"draft.promise" = "notice"\n')
    monkeypatch.chdir(tmp_path)
    data = pickle.dumps(palisade.Screener(policy="palisade.toml"))
    monkeypatch.chdir("/")
    back = pickle.loads(data)
    severities = [f.severity for f in back.screen(DRAFT, ticket_id=TICKET_ID).findings if f.rule == "draft.promise"]
    assert severities and set(severities) == {"notice"}
