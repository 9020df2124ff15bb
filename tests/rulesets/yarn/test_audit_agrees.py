"""The audit's quick comparisons agree with the full derivation (issue 27).

A recorded roll or bennie tally that the rules derive field for field is taken as it is (no payload
dumped, merged and validated again, no tally lines built); anything else goes the full way. Either
way the audit must name the same problems in the same words: these properties hold the quick path
to the full one on the sample journals' events, as recorded and with any one field changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from yarnlog.app.interchange import read_export
from yarnlog.core.envelope import to_recorded
from yarnlog.core.events import Payload
from yarnlog.core.referee import Referee, invalid, present
from yarnlog.core.state import empty_state, evolve, with_context
from yarnlog.core.validation import problems, validator_of
from yarnlog.rulesets.dramasystem.parts.drama import VOTING as DRAMASYSTEM_VOTING
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote import BennieVoting
from yarnlog.rulesets.yarn.parts.drama.bennie_vote import VOTING as YARN_VOTING
from yarnlog.rulesets.yarn.parts.powers.part import _decide_roll, _roll_command
from yarnlog.rulesets.yarn.parts.procedure.part import merged_sources

JOURNALS = Path(__file__).resolve().parents[3] / "journals"


def _before(name: str, event_type: str) -> list[tuple[Any, Any]]:
    """(the state just before it, the event) for every ``event_type`` event of a sample journal."""
    records = read_export((JOURNALS / name).read_text(encoding="utf-8").splitlines()).records
    found, state = [], empty_state()
    for rec in with_context([to_recorded(r) for r in records]):
        if rec.event_type == event_type:
            found.append((state, rec))
        state = evolve(state, rec)
    return found


ROLLS = _before("lantern-harbor.jsonl", "yarn.roll.made")
TALLIES = [(YARN_VOTING, *case) for case in _before("lantern-harbor.jsonl", "yarn.bennie.vote_tallied")] + [
    (DRAMASYSTEM_VOTING, *case) for case in _before("copper-reef.jsonl", "dramasystem.bennie.vote_tallied")]


def full_roll(p: Any, campaign: Any, referee: Referee) -> Payload:
    """The roll's validator the full way: decided again, then every dice source taken from the record."""
    command = _roll_command(campaign, p)
    invalid(command is not None, f"no command of the rules records this {p.event_type}")
    payloads = _decide_roll(command, campaign, referee)
    expected = present(next((q for q in payloads or () if type(q) is type(p)), None), "the rules record no such event")
    return merged_sources(expected, p)


def full_tally(voting: BennieVoting) -> Callable[[Any, Any, Referee], Payload]:
    """The tally's validator the full way: the vote tallied again and its payload built whole."""
    def validate(p: Any, campaign: Any, referee: Referee) -> Payload:
        tallied = voting.vote_tallied(campaign, voting.dramatic.referee(referee))
        return present(tallied, "the rules record no such event")

    return validate


def _places(data: Any, path: tuple = ()) -> Iterator[tuple]:
    """The path to every value in ``data`` (lists and mappings included)."""
    yield path
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, child in items:
        yield from _places(child, (*path, key))


def _set(data: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    copy = dict(data) if isinstance(data, dict) else list(data)
    copy[path[0]] = _set(data[path[0]], path[1:], value)
    return copy


def _at(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data


NAMES = ["Ana", "Ben", "Cy", "Dee", "kitty", "entered", "rolled", "bennie", "drama", "Tied Results", ""]


@st.composite
def changed(draw: st.DrawFn, payload: Payload) -> Payload:
    """``payload`` with one value changed: a number, a flag, a name or word, a list cut or turned."""
    data = payload.to_data()
    path = draw(st.sampled_from(list(_places(data))[1:]))
    old = _at(data, path)
    if isinstance(old, bool):
        new: Any = not old
    elif isinstance(old, int):
        new = draw(st.integers(-2, 40).filter(lambda n: n != old))
    elif isinstance(old, str):
        new = draw(st.sampled_from([n for n in NAMES if n != old]))
    elif isinstance(old, list) and old:
        new = draw(st.sampled_from([old[1:], old[:-1], old[::-1]]))
    elif old is None:
        new = draw(st.integers(0, 6))
    else:
        new = draw(st.sampled_from([None, 0, "Ana"]))
    try:
        return type(payload).model_validate(_set(data, path, new))
    except ValidationError:
        assume(False)
        raise


SLOW = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_the_samples_hold_recorded_rolls_and_tallies_that_both_paths_accept():
    assert len(ROLLS) >= 5 and len(TALLIES) >= 6
    for state, rec in ROLLS:
        assert problems(validator_of(type(rec.payload), state.ruleset), rec.payload, state) == []
        assert problems(full_roll, rec.payload, state) == []
    for voting, state, rec in TALLIES:
        assert problems(validator_of(type(rec.payload), state.ruleset), rec.payload, state) == []
        assert problems(full_tally(voting), rec.payload, state) == []


@SLOW
@given(st.data())
def test_a_roll_changed_anywhere_is_judged_as_the_full_derivation_judges_it(data):
    state, rec = data.draw(st.sampled_from(ROLLS))
    forged = data.draw(changed(rec.payload))
    quick = problems(validator_of(type(forged), state.ruleset), forged, state)
    assert quick == problems(full_roll, forged, state)
    if forged.dice.faces == rec.payload.dice.faces and forged.dice.total != rec.payload.dice.total:
        assert quick  # another total for the same dice is never taken as recorded


@SLOW
@given(st.data())
def test_a_tally_changed_anywhere_is_judged_as_the_full_derivation_judges_it(data):
    voting, state, rec = data.draw(st.sampled_from(TALLIES))
    forged = data.draw(changed(rec.payload))
    quick = problems(validator_of(type(forged), state.ruleset), forged, state)
    assert quick == problems(full_tally(voting), forged, state)
    assert bool(quick) == (forged != rec.payload)


@pytest.mark.parametrize("source", ["rolled", "entered"])
def test_dice_rolled_by_the_tool_are_taken_from_the_record_not_refused(source):
    """Re-deciding enters the recorded faces; who rolled them (the tool or the table) is the record's."""
    state, rec = ROLLS[0]
    data = rec.payload.to_data()
    data["dice"]["source"] = source
    p = type(rec.payload).model_validate(data)
    assert problems(validator_of(type(p), state.ruleset), p, state) == [] == problems(full_roll, p, state)
