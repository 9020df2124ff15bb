"""Streaming replay and verify: the same results as over the whole history, one event at a time."""

from __future__ import annotations

import gc
import json
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from yarnlog.app.interchange import import_records, parse_lines
from yarnlog.app.replaying import replay_stored
from yarnlog.app.verify import verify, verify_stored
from yarnlog.core.corrections import OverrideRecorded
from yarnlog.core.envelope import StoredEvent, canonical, to_recorded
from yarnlog.core.events import Recorded
from yarnlog.core.referee import InvalidCommand
from yarnlog.core.state import in_context, paused_gc, replay, stream_in_context, with_context
from yarnlog.core.timeline import Timeline, context, evolve_timeline
from yarnlog.persistence.memory import MemoryStore

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import generate  # noqa: E402

LANTERN = Path(__file__).resolve().parents[2] / "journals" / "lantern-harbor.jsonl"


@pytest.fixture(scope="module")
def generated() -> list[StoredEvent]:
    """A generated campaign with overrides and retractions (the benchmark's mix)."""
    return parse_lines([canonical(line) for line in generate.events(450)])


@pytest.fixture(scope="module")
def lantern() -> list[StoredEvent]:
    """The sample campaign, which holds a correction."""
    return parse_lines(LANTERN.read_text(encoding="utf-8").splitlines())


def reference_in_context(history: list[Recorded]) -> list[Recorded]:
    """The context of each event as the whole-history algorithm gives it (the one streaming replaces)."""
    out, timeline = [], Timeline()
    for rec in history:
        after = evolve_timeline(timeline, rec.payload)
        episode, scene = context(timeline, after)
        out.append(rec.model_copy(update={"episode": episode, "scene": scene}))
        timeline = after
    for index, rec in enumerate(out):
        if isinstance(rec.payload, OverrideRecorded) and index + 1 < len(out):
            covered = out[min(index + rec.payload.covers, len(out) - 1)]
            out[index] = rec.model_copy(update={"episode": covered.episode, "scene": covered.scene})
    return out


def test_streamed_context_equals_the_whole_history_one_at_every_cut(generated):
    history = [to_recorded(r) for r in generated]
    overrides = [i for i, rec in enumerate(history) if isinstance(rec.payload, OverrideRecorded)]
    assert overrides
    # Cuts at, inside and just after each override's cover, and none: the held-back overrides at the end.
    cuts = sorted({len(history)} | {i + d for i in overrides for d in (1, 2, 3, 4) if i + d <= len(history)})
    for cut in cuts:
        expected = reference_in_context(history[:cut])
        assert [rec for rec, _ in stream_in_context(history[:cut])] == expected, cut
        assert with_context(history[:cut]) == expected


def test_an_override_covering_more_than_follows_takes_the_last_events_context(generated):
    history = [to_recorded(r) for r in generated]
    index = next(i for i, rec in enumerate(history) if isinstance(rec.payload, OverrideRecorded))
    forged = history[index].model_copy(update={"payload": history[index].payload.model_copy(update={"covers": 10**9})})
    cut = [*history[:index], forged, *history[index + 1:index + 40]]
    assert [rec for rec, _ in stream_in_context(cut)] == reference_in_context(cut)


def test_streamed_context_gives_the_timeline_after_each_event(lantern):
    history = [to_recorded(r) for r in lantern]
    assert [after for _, after in stream_in_context(history)] == in_context(history)[1]


@pytest.mark.parametrize("campaign", ["generated", "lantern"])
def test_a_streaming_replay_from_the_store_equals_a_full_replay(any_store, campaign, request):
    records = request.getfixturevalue(campaign)
    import_records(any_store, records)
    cid = records[0].campaign_id
    history = with_context([to_recorded(r) for r in records])
    assert replay_stored(any_store, cid, batch=7) == replay(history)
    amended = next(r.sequence for r in records if r.event_type in ("correction", "retraction"))
    for upto in (1, amended - 1, amended, amended + 1):
        assert replay_stored(any_store, cid, upto=upto) == replay(with_context(history[:upto])), upto


def test_a_streaming_replay_of_no_campaign_is_refused():
    with pytest.raises(InvalidCommand, match="no campaign 'nope'"):
        replay_stored(MemoryStore(), "nope")


def tampered(records: list[StoredEvent], sequence: int, **changes) -> list[StoredEvent]:
    return [replace(r, **changes) if r.sequence == sequence else r for r in records]


def stored(records: list[StoredEvent]) -> MemoryStore:
    """A memory store holding ``records`` as they are: put in behind its checks (its import refuses a
    tampered record, as a database's triggers do), as raw SQL tampers with a database."""
    store = MemoryStore()
    store._add(records[0].campaign_id, list(records))
    return store


def test_verifying_from_the_store_equals_verifying_the_list(generated):
    cid = generated[0].campaign_id
    note = next(r for r in generated if r.event_type == "note")
    amendment = next(r for r in generated if r.event_type == "retraction")
    cases = {
        "clean": generated,
        "edited payload": tampered(generated, note.sequence, payload=note.payload.replace("}", ',"x":1}')),
        "unreadable payload": tampered(generated, note.sequence, payload="{not json"),
        "bad amendment": tampered(generated, amendment.sequence, payload='{"retracts":0}'),
        "wrong type": tampered(generated, 9, event_type="nonsense.happened"),
    }
    for name, records in cases.items():
        whole = verify(records, cid)
        assert verify_stored(stored(records), cid).to_data() == whole.to_data(), name
        assert whole.ok == (name == "clean"), name


def test_verify_parses_each_payload_once(generated, monkeypatch):
    parsed: Counter[str] = Counter()
    loads = json.loads

    def counting(text, *args, **kwargs):
        parsed[text] += 1
        return loads(text, *args, **kwargs)

    monkeypatch.setattr(json, "loads", counting)
    assert verify_stored(stored(generated), generated[0].campaign_id).ok
    stored_texts = Counter(r.payload for r in generated)  # (some events carry the same payload text)
    assert all(parsed[text] == times for text, times in stored_texts.items())


def test_a_replay_pauses_the_cyclic_gc_and_restores_it_as_it_was(lantern):
    history = with_context([to_recorded(r) for r in lantern])
    assert gc.isenabled()
    replay(history)
    assert gc.isenabled()
    with pytest.raises(RuntimeError), paused_gc():
        assert not gc.isenabled()
        raise RuntimeError("a fold failed")
    assert gc.isenabled()
    gc.disable()
    try:
        replay(history)
        assert not gc.isenabled()  # a caller that paused it keeps it paused
    finally:
        gc.enable()
