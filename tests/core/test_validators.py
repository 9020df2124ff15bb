"""One validator per event type: ``verify`` names events that no command could have produced."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yarnlog.app.journal import Journal
from yarnlog.app.verify import verify
from yarnlog.cli.main import EXIT_CODES
from yarnlog.core.chain import seal
from yarnlog.core.corrections import OverrideRecorded
from yarnlog.core.decide import audit
from yarnlog.core.envelope import NewEvent, StoredEvent, to_recorded
from yarnlog.core.events import known_event_types, payload_class
from yarnlog.core.installed import RULESETS
from yarnlog.core.referee import Referee, Rule, YarnlogError
from yarnlog.core.ruleset import get_ruleset
from yarnlog.core.state import CORE_EVENT_TYPES, EVERYONE, replay
from yarnlog.core.table import AddParticipant, ParticipantJoined, ParticipantLeft
from yarnlog.core.timeline import EpisodeEnded, EpisodeStarted, Note, SceneClosed, SceneOpened
from yarnlog.core.validation import CORE_VALIDATORS, validator_of
from yarnlog.persistence.factory import open_store
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferLine
from yarnlog.rulesets.yarn.parts.combat import wounds
from yarnlog.rulesets.yarn.parts.combat.fight_records import (
    ArmorWorn,
    CombatantLeft,
    CombatantsJoined,
    CombatEnded,
    CombatStarted,
    RoundStarted,
)
from yarnlog.rulesets.yarn.parts.economy.part import EVENTS
from yarnlog.rulesets.yarn.parts.powers.power_records import FringePowerStudied

BOGUS_COMBAT = (RoundStarted(number=7), CombatEnded(number=3), CombatantLeft(name="Nobody"))


def test_every_registered_event_type_has_a_validator():
    rulesets = [get_ruleset(name) for name in RULESETS]
    for ruleset in rulesets:  # its parts imported when first used too: every event type registered
        ruleset.rules.load_event_types()
    missing = []
    for event_type in known_event_types():
        if not payload_class(event_type).__module__.startswith("yarnlog."):
            continue  # registered by a test, not by yarnlog
        owners = [r for r in rulesets if r.owns(event_type)]
        assert owners or event_type in CORE_EVENT_TYPES, f"{event_type} belongs to no ruleset"
        for ruleset in owners or rulesets:
            if validator_of(payload_class(event_type), ruleset) is None:
                missing.append((ruleset.name, event_type))
    assert not missing


def test_an_event_type_without_a_validator_is_itself_a_fault(journal, campaign, monkeypatch):
    from yarnlog.core import events
    from yarnlog.core.events import Payload, event

    monkeypatch.setattr(events, "_PAYLOADS", dict(events._PAYLOADS))  # the test's type is registered for it only

    @event("yarn.test.unvalidated")
    class Unvalidated(Payload):
        pass

    journal.commands.append(campaign, journal.store.last_sequence(campaign), [Unvalidated()], by="Maya",
                            visibility=EVERYONE)
    [fault] = audit(journal.history(campaign))
    assert fault.event_type == "yarn.test.unvalidated" and "no validator" in fault.problem


def test_combat_events_outside_any_fight_fail_verify(journal, campaign):
    assert verify(journal.store.read(campaign), campaign).ok
    first = journal.store.last_sequence(campaign) + 1
    journal.commands.append(campaign, first - 1, list(BOGUS_COMBAT), by="Maya", visibility=EVERYONE)
    report = verify(journal.store.read(campaign), campaign)
    assert [(f.sequence, f.event_type, f.problem) for f in report.faults] == [
        (first + i, p.event_type, "no fight is in play: start one with 'yarnlog fight start'")
        for i, p in enumerate(BOGUS_COMBAT)
    ]


def test_yarnlog_verify_exits_with_faults_for_bogus_combat_events(cli, tmp_path):
    assert cli("init", "lantern", "--title", "Lantern Harbor", "--gm", "Maya")[0] == 0
    assert cli("verify")[0] == EXIT_CODES["ok"]
    store = open_store(f"sqlite:///{tmp_path / 'journal.db'}")
    try:
        Journal(store).commands.append("lantern", store.last_sequence("lantern"), list(BOGUS_COMBAT), by="Maya",
                                       visibility=EVERYONE)
    finally:
        store.close()
    code, _, err = cli("verify")
    assert code == EXIT_CODES["faults"]
    assert "FAULT at event 2 (yarn.combat.round_started): no fight is in play" in err


def test_the_collecting_referee_refuses_nothing_and_notes_every_broken_rule():
    rule = Rule("Book", "Chapter", "The rule.")
    referee = Referee.collecting()
    referee.require(False, rule, "first")
    referee.require(True, rule, "kept")
    referee.require(False, rule, "second")
    assert referee.broken == [(rule, "first"), (rule, "second")] and referee.overridden == []
    assert referee.broken_messages() == ['first (Book, "Chapter": The rule.)', 'second (Book, "Chapter": The rule.)']


def test_a_derived_field_recorded_otherwise_is_named(journal, campaign):
    journal.commands.append(campaign, journal.store.last_sequence(campaign), [EpisodeStarted(number=4)], by="Maya",
                            visibility=EVERYONE)
    [fault] = audit(journal.history(campaign))
    assert fault.problem == "number is recorded as 4 but the rules give 1"


def _forge(journal, campaign, payload) -> None:
    """Append ``payload`` as a writer with database access could: chained, but never decided."""
    journal.commands.append(campaign, journal.store.last_sequence(campaign), [payload], by="Maya", visibility=EVERYONE)


def test_a_validator_that_fails_on_forged_facts_is_a_fault_not_a_crash(journal, campaign, monkeypatch):
    def broken(payload, state, referee):
        raise KeyError("Nobody")

    monkeypatch.setitem(CORE_VALIDATORS, Note, broken)
    _forge(journal, campaign, Note(text="a forged aside"))
    report = verify(journal.stored_events(campaign), campaign)
    assert [(f.sequence, f.problem) for f in report.faults] == [
        (5, "its facts cannot be checked (KeyError: 'Nobody')")]


def test_a_fold_that_fails_on_forged_facts_stops_the_audit_with_a_fault(journal, campaign):
    # A power learned by someone with no psychic pool and no shots: no command records it.
    _forge(journal, campaign, FringePowerStudied(character="Nobody", power="telepathy", months=1.0, full_time=True,
                                                 teacher=False, faces=[6], source="entered", learned=True,
                                                 dice=1, shots=None, experience_spent=1))
    _forge(journal, campaign, Note(text="after the forgery"))
    report = verify(journal.stored_events(campaign), campaign)
    assert report.faults and {f.sequence for f in report.faults} == {5}
    assert journal.state(campaign).sequence == 6  # the journal itself still replays past it


def test_an_override_covering_a_billion_events_costs_no_more_than_one(journal, campaign):
    _forge(journal, campaign, OverrideRecorded(by="Maya", reason="forged", rules=[], covers=10**9))
    _forge(journal, campaign, Note(text=" "))  # blank: a fault, but under the (forged) override
    report = verify(journal.stored_events(campaign), campaign)
    assert [(f.sequence, f.problem) for f in report.faults] == [  # the override itself, twice; not the note
        (5, "an override names the rules it sets aside"),
        (5, "covers 1000000000 events but only 1 follow it"),
    ]


def test_a_forged_transfer_to_oneself_is_named_and_breaks_no_replay(journal, campaign):
    forged = {"transfers": [{"currency": "drama", "amount": 1, "source": "Ana", "destination": "Ana",
                             "chapter": "Tokens", "rule": "x"}], "reason": "forged"}
    journal.store.append(campaign, journal.store.last_sequence(campaign), [NewEvent(
        event_id="00000000-0000-4000-8000-000000000001", event_type="yarn.tokens.transferred", schema_version=1,
        recorded_at="2026-11-23T10:00:00.000000Z", recorded_by="Maya", visibility=EVERYONE, payload=forged)])
    [fault] = verify(journal.stored_events(campaign), campaign).faults
    assert (fault.sequence, fault.event_type) == (5, "yarn.tokens.transferred")
    assert "Ana cannot pay tokens to themselves" in fault.problem


# -- the property: an arbitrary event no command produced is named by verify --------------------

names = st.sampled_from(["Ana", "Ben", "Cy", "Maya", "Nobody", "kitty", " "])
numbers = st.integers(1, 9)
accounts = names.filter(str.strip)
# A line between two accounts (a line to oneself is refused by its schema: see the test above).
transfer_lines = st.tuples(accounts, accounts).filter(lambda pair: pair[0] != pair[1]).flatmap(
    lambda pair: st.builds(TransferLine, amount=numbers, source=st.just(pair[0]), destination=st.just(pair[1]),
                           chapter=st.just("Tokens"), rule=st.just("x")))
#: Well-typed payloads of event types of every part, with facts drawn at random (never via a command).
ARBITRARY = st.one_of(
    st.builds(RoundStarted, number=st.integers(2, 9)),
    st.builds(CombatEnded, number=numbers),
    st.builds(CombatantLeft, name=names),
    st.builds(CombatantsJoined, names=st.lists(names, min_size=1, max_size=3)),
    st.builds(CombatStarted, number=numbers, mode=st.sampled_from(["gestalt", "detailed"]),
              combatants=st.lists(names, max_size=3)),
    st.builds(ArmorWorn, character=names, armor=st.just([])),
    st.builds(wounds.Recovered, character=names, before=numbers, after=numbers),
    st.builds(EpisodeEnded, number=numbers),
    st.builds(SceneClosed, number=numbers),
    st.builds(SceneOpened, number=numbers, caller=names),
    st.builds(EpisodeStarted, number=st.integers(2, 9)),
    st.builds(ParticipantLeft, name=names),
    st.builds(ParticipantJoined, name=names.filter(str.strip)),
    st.builds(EVENTS.returned, episode=numbers, transfers=st.lists(transfer_lines, max_size=2)),
    st.builds(EVENTS.transferred, transfers=st.lists(transfer_lines, min_size=1, max_size=2), reason=st.just("r")),
    st.builds(Note, text=st.sampled_from([" ", "\n"])),
)


@pytest.fixture(scope="module")
def prefix() -> list[StoredEvent]:
    """A real campaign recorded through the journal: a GM and three players, no episode yet."""
    journal = Journal(open_store("memory://"))
    journal.create_campaign("lantern", title="Lantern Harbor", gm="Maya")
    for name in ("Ana", "Ben", "Cy"):
        journal.execute("lantern", AddParticipant(name=name))
    return journal.stored_events("lantern")


def _legal(payload, state) -> bool:
    """Whether the decider's own check (the validator, with a strict referee) accepts ``payload`` as it is."""
    try:
        derived = validator_of(type(payload), state.ruleset)(payload, state, Referee())
    except YarnlogError:
        return False
    return derived == payload


@settings(max_examples=150, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(payload=ARBITRARY)
def test_verify_names_any_event_no_command_could_produce(prefix, payload):
    state = replay([to_recorded(e) for e in prefix])
    # Some draws are moves a command could make (a player character's armor, Cy leaving the table):
    # the property is about the others, so drafts the decider's check accepts are left out.
    if _legal(payload, state):
        return
    # Appended as a writer with database access could: sealed into the chain, bypassing decide.
    forged = seal("lantern", prefix[-1].sequence + 1,
                  NewEvent(event_id="00000000-0000-4000-8000-000000000000", event_type=payload.event_type,
                           schema_version=payload.schema_version, recorded_at="2026-11-23T10:00:00.000000Z",
                           recorded_by="Maya", visibility=EVERYONE, payload=payload.to_data()),
                  prefix[-1].hash)
    report = verify([*prefix, forged], "lantern")
    assert any(f.sequence >= forged.sequence for f in report.faults), payload


def test_differences_name_each_field_recorded_otherwise_and_nothing_when_the_rules_agree():
    """The audit compares a recorded payload with what its validator derives: equal payloads have no
    difference (the usual case, found without dumping either), any field that differs is named."""
    from yarnlog.core.validation import differences

    recorded = EpisodeStarted(number=4, title="Fog")
    assert differences(recorded, EpisodeStarted(number=4, title="Fog")) == []
    assert differences(recorded, EpisodeStarted(number=1, title="Fog")) == [
        "number is recorded as 4 but the rules give 1"]
    assert differences(recorded, Note(text="Fog")) == ["the rules record note, not episode.started"]
    # A long value (a list of transfers, a sheet) is quoted cut, so a refusal stays one readable line.
    long = EpisodeStarted(number=4, title="Fog " * 100)
    [found] = differences(long, EpisodeStarted(number=4, title="Fog"))
    assert found == f"title is recorded as {repr('Fog ' * 100)[:39]}… but the rules give 'Fog'"
    assert len(found) < 100
