"""A part imported when first used (:class:`~yarnlog.core.composition.LazyPart`) folds, decides and
validates as the part itself: an event it may hold imports it, any other passes it by; a replay that
imports it half-way folds it in place from then on, to the same state as ``evolve`` event by event."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from yarnlog.core.composition import ComposedValidators, Composition, LazyPart, Part, folds
from yarnlog.core.events import Payload, Recorded
from yarnlog.core.timeline import Note as Other  # an event only the eager part folds, defined elsewhere


class Counted(Payload):
    """An event the lazy part folds (defined in this module, which it names as where its events are)."""

    by: int = 1


@dataclass(frozen=True)
class State:
    seen: int
    counted: int


def _recorded(payload: Payload, sequence: int) -> Recorded:
    return Recorded(campaign_id="c", sequence=sequence, event_id=str(sequence), event_type="test.event",
                    schema_version=1, recorded_at="", recorded_by="gm", visibility="everyone", payload=payload)


class CountBuilder:
    """The lazy part's slice folded in place."""

    def __init__(self, counted: int):
        self.counted = counted

    def fold(self, recorded: Recorded, before: object) -> None:
        self.counted += recorded.payload.by

    def freeze(self) -> int:
        return self.counted


def _validate(payload: Payload, campaign: object, referee: object) -> Payload:
    return payload


#: What the lazy part names: imported by its ``module:attribute`` path.
COUNTING = Part(name="counted", initial=int, evolve=lambda n, r, s: n + r.payload.by, folds=folds(Counted),
                validators={Counted: _validate}, thaw=CountBuilder)
SEEING = Part(name="seen", initial=int, evolve=lambda n, r, s: n + 1, folds=folds(Counted, Other))


def _composed() -> tuple[Composition[State], LazyPart]:
    lazy = LazyPart("counted", f"{__name__}:COUNTING", events_within=(__name__,))
    return Composition((SEEING, lazy), State), lazy


def test_an_event_the_part_cannot_hold_passes_it_by_without_importing_it():
    composition, lazy = _composed()
    state = State(seen=0, counted=0)
    after = composition.evolve(state, _recorded(Other(text="fog"), 1))
    assert after == State(seen=1, counted=0) and not lazy.loaded
    assert composition.validators.get(Other) is None and not lazy.loaded


def test_an_event_it_may_hold_imports_it_and_is_folded_and_validated_by_it():
    composition, lazy = _composed()
    state = composition.evolve(State(seen=0, counted=0), _recorded(Counted(by=3), 1))
    assert lazy.loaded and state == State(seen=1, counted=3)
    assert composition.validators[Counted] is _validate and isinstance(composition.validators, ComposedValidators)
    assert dict(composition.validators) == {Counted: _validate}


def test_a_replay_that_imports_it_half_way_thaws_it_and_equals_evolve_event_by_event():
    payloads = [Other(text="fog"), Other(text="fog"), Counted(by=2), Other(text="fog"), Counted(by=5)]
    events = [_recorded(p, n) for n, p in enumerate(payloads, 1)]
    composition, lazy = _composed()
    builder = composition.thaw(State(seen=0, counted=0))
    for recorded in events[:2]:
        builder.fold(recorded)
    assert not lazy.loaded and "counted" not in builder.builders
    for recorded in events[2:]:
        builder.fold(recorded)
    assert lazy.loaded and isinstance(builder.builders["counted"], CountBuilder)
    evolved = State(seen=0, counted=0)
    for recorded in events:
        evolved = composition.evolve(evolved, recorded)
    assert builder.freeze() == evolved == State(seen=5, counted=7)


def test_a_lazy_part_is_the_part_it_names():
    wrong = LazyPart("other", f"{__name__}:COUNTING", events_within=(__name__,))
    with pytest.raises(RuntimeError, match="is not the part 'other'"):
        wrong.part  # noqa: B018
    _, lazy = _composed()
    assert lazy.part is COUNTING and lazy.evolve is COUNTING.evolve and lazy.thaw is CountBuilder


def test_a_command_defined_elsewhere_than_its_commands_is_not_asked_of_it():
    lazy = LazyPart("counted", f"{__name__}:COUNTING", events_within=(__name__,), commands_within=("elsewhere",))
    composition = Composition((SEEING, lazy), State)
    assert composition.decide(State(seen=0, counted=0), None, None) is None and not lazy.loaded  # type: ignore[arg-type]
    assert lazy.may_decide(_recorded(Other(text="fog"), 1)) is False

    @dataclass(frozen=True)
    class Mine:
        """A command defined where the part says its commands are: asked of it."""

    here = LazyPart("counted", f"{__name__}:COUNTING", events_within=(__name__,), commands_within=(__name__,))
    assert here.may_decide(Mine()) and Composition((SEEING, here), State).decide(Mine(), None, None) is None
    assert here.loaded
