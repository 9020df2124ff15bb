"""A replay that folds in place and freezes once (``core.state.Replay``) equals the fold of one event
at a time (``core.state.evolve``), for any log: the sample campaign cut anywhere, events left out,
corrections and retractions (of events and of amendments) added anywhere."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yarnlog.app.interchange import parse_lines
from yarnlog.core.composition import Composition, Part, UndeclaredRead, folds
from yarnlog.core.corrections import Amendments, Correction, Retraction, effective
from yarnlog.core.envelope import to_recorded
from yarnlog.core.events import Recorded
from yarnlog.core.ruleset import CampaignState
from yarnlog.core.state import (
    Replay,
    empty_state,
    evolve,
    replay,
    replay_stream,
    stream_in_context,
    stream_stored_in_context,
    with_context,
)
from yarnlog.core.timeline import Note
from yarnlog.rulesets.dramasystem import ruleset as dramasystem
from yarnlog.rulesets.yarn import ruleset as yarn

JOURNALS = Path(__file__).resolve().parents[2] / "journals"
SAMPLE = JOURNALS / "lantern-harbor.jsonl"
RECORDS = parse_lines(SAMPLE.read_text(encoding="utf-8").splitlines())
EVENTS = [to_recorded(r) for r in RECORDS]
#: DramaSystem's sample ("The Copper Reef"): petitions, forces, challenges, both bennie votes, procedural piles.
DS_EVENTS = [to_recorded(r) for r in
             parse_lines((JOURNALS / "copper-reef.jsonl").read_text(encoding="utf-8").splitlines())]
SAMPLES = {"yarn": EVENTS, "dramasystem": DS_EVENTS}


def one_at_a_time(history: list[Recorded]) -> CampaignState[Any]:
    """The state as every command and ``verify`` build it: each effective event (in context) folded with ``evolve``."""
    state = empty_state()
    for recorded in effective(with_context(history)):
        state = evolve(state, recorded)
    return replace(state, sequence=history[-1].sequence if history else 0)


def _renumbered(events: list[Recorded]) -> list[Recorded]:
    return [e.model_copy(update={"sequence": i}) for i, e in enumerate(events, 1)]


def _amendment(history: list[Recorded], at: int, target: int, correct: bool) -> Recorded:
    """A retraction of event ``target`` or, when another event of its type exists, a correction that
    gives it that event's payload; recorded as event ``at``."""
    named = history[target - 1]
    payload: Correction | Retraction = Retraction(retracts=target, reason="misread", approved_by="Maya")
    if correct:
        others = [e for e in history if e.event_type == named.event_type and e.payload != named.payload]
        if others:
            payload = Correction(corrects=target, replacement=others[0].payload.to_data(), reason="misread",
                                 approved_by="Maya")
    return named.model_copy(update={"sequence": at, "event_type": payload.event_type, "schema_version": 1,
                                    "payload": payload, "event_id": f"amendment-{at}"})


@st.composite
def campaigns(draw: st.DrawFn, sample: list[Recorded] = EVENTS) -> list[Recorded]:
    """A sample campaign (Yarn's by default) cut at any length, with events left out and amendments added anywhere."""
    length = draw(st.integers(1, len(sample)))
    left_out = draw(st.sets(st.integers(1, length - 1), max_size=40)) if length > 1 else set()
    history = _renumbered([e for i, e in enumerate(sample[:length]) if i not in left_out])
    # Inserted from the first place to the last, so that no amendment's target is moved after it is named.
    places = sorted(draw(st.lists(st.integers(3, len(history) + 1), max_size=6))) if len(history) >= 2 else []
    for at in places:
        amendment = _amendment(history, at, draw(st.integers(2, at - 1)), draw(st.booleans()))
        history = _renumbered(history[:at - 1] + [amendment] + history[at - 1:])
    return history


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(campaigns())
def test_a_replay_in_place_equals_the_fold_of_one_event_at_a_time(history):
    expected = one_at_a_time(history)
    assert replay(with_context(history)) == expected
    assert replay_stream(stream_in_context(history), Amendments(history)) == expected


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(campaigns(DS_EVENTS))
def test_a_dramasystem_replay_in_place_equals_the_fold_of_one_event_at_a_time(history):
    expected = one_at_a_time(history)
    assert replay(with_context(history)) == expected
    assert replay_stream(stream_in_context(history), Amendments(history)) == expected


def _folded(events: list[Recorded]) -> CampaignState[Any]:
    state = empty_state()
    for recorded in events:
        state = evolve(state, recorded)
    return state


@pytest.mark.parametrize("sample", SAMPLES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_state_handed_out_mid_replay_is_not_changed_by_what_the_replay_folds_next(sample, data):
    # The thawed maps are frozen incrementally: what a freeze handed out must not see later folds.
    history = data.draw(campaigns(SAMPLES[sample]))
    seen = effective(with_context(history))
    cut = data.draw(st.integers(0, len(seen)))
    frame = Replay()
    for recorded in seen[:cut]:
        frame.fold(recorded)
    handed_out = frame.freeze()
    assert handed_out == _folded(seen[:cut])
    for recorded in seen[cut:]:
        frame.fold(recorded)
    assert handed_out == _folded(seen[:cut])  # nothing the replay mutates is shared with it
    assert frame.freeze() == _folded(seen)
    # A replay may also start from a state handed out (the state a snapshot keeps, say).
    resumed = Replay(handed_out)
    for recorded in seen[cut:]:
        resumed.fold(recorded)
    assert resumed.freeze() == _folded(seen) and handed_out == _folded(seen[:cut])


def test_a_replay_of_the_whole_sample_thaws_the_parts_that_offer_it_and_equals_the_fold():
    thawed = {part.name for part in yarn.PARTS if part.thaw is not None}
    assert thawed == {"characters", "combat", "procedure", "powers", "economy", "drama"}
    assert replay(with_context(EVENTS)) == one_at_a_time(EVENTS)


def test_a_replay_of_the_whole_dramasystem_sample_thaws_the_dramatic_core_and_equals_the_fold():
    assert {part.name for part in dramasystem.PARTS if part.thaw is not None} == {"economy", "drama"}
    replayed = replay(with_context(DS_EVENTS))
    assert replayed == one_at_a_time(DS_EVENTS)
    drama = replayed.rules.drama  # the sample's figures are there to compare, not just empty slices
    assert len(drama.scenes) == 33 and drama.bennie_spends and replayed.rules.economy.kitty


def test_stored_rows_are_built_once_in_the_same_context_as_typed_events():
    assert [r for r, _ in stream_stored_in_context(RECORDS)] == with_context(EVENTS)
    assert [t for _, t in stream_stored_in_context(RECORDS)] == [t for _, t in stream_in_context(EVENTS)]


# -- the protocol on a toy composition: each part sees the state before the event -------------------


@dataclass(frozen=True)
class Counts:
    notes: int = 0
    seen: tuple[int, ...] = ()


@dataclass
class CountsBuilder:
    """A thawed :class:`Counts`: ``notes`` counted in place."""

    notes: int = 0
    seen: list[int] = field(default_factory=list)
    reads: str | None = None  # the part whose count it notes at each event, as it was before the event

    def fold(self, recorded: Recorded, before: Any) -> None:
        self.notes += 1
        if self.reads is not None:
            self.seen.append(getattr(before, self.reads).notes)

    def freeze(self) -> Counts:
        return Counts(self.notes, tuple(self.seen))


def _counting(name: str, reads: str | None = None, thawed: bool = True, declared: bool = True) -> Part:
    def evolve_counts(counts: Counts, recorded: Recorded, before: Any) -> Counts:
        seen = counts.seen + ((getattr(before, reads).notes,) if reads else ())
        return Counts(counts.notes + 1, seen)

    def thaw(counts: Counts) -> CountsBuilder:
        return CountsBuilder(counts.notes, list(counts.seen), reads)

    return Part(name=name, initial=Counts, evolve=evolve_counts, folds=folds(Note), thaw=thaw if thawed else None,
                reads=frozenset({reads}) if reads and declared else frozenset())


@dataclass(frozen=True)
class Toy:
    a: Counts
    b: Counts
    c: Counts


def _notes(n: int) -> list[Recorded]:
    return [Recorded(campaign_id="toy", sequence=i, event_id=str(i), event_type="note", schema_version=1,
                     recorded_at="", recorded_by="Maya", visibility="everyone", payload=Note(text="fog"))
            for i in range(1, n + 1)]


@pytest.mark.parametrize("order", ["reader last", "reader first"])
@pytest.mark.parametrize("persistent", ["", "a", "b", "c"])
def test_every_part_sees_the_state_before_the_event_whichever_is_thawed(order, persistent):
    # b reads a, c reads itself: both see the counts before each note, as Composition.evolve shows them.
    parts = [_counting("a", thawed=persistent != "a"), _counting("b", reads="a", thawed=persistent != "b"),
             _counting("c", reads="c", thawed=persistent != "c")]
    composition = Composition(tuple(parts if order == "reader last" else reversed(parts)), Toy)
    expected = composition.initial_state()
    for note in _notes(4):
        expected = composition.evolve(expected, note)
    builder = composition.thaw(composition.initial_state())
    for note in _notes(4):
        builder.fold(note)
    assert builder.freeze() == expected
    assert expected.b.seen == (0, 1, 2, 3) and expected.c.seen == (0, 1, 2, 3)


def test_a_thawed_part_that_reads_a_slice_it_does_not_declare_is_refused():
    composition = Composition((_counting("a"), _counting("b", reads="a", declared=False), _counting("c")), Toy)
    builder = composition.thaw(composition.initial_state())
    with pytest.raises(UndeclaredRead, match="part b reads the a slice"):
        builder.fold(_notes(1)[0])
