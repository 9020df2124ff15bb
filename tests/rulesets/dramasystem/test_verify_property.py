"""Verify names any DramaSystem event that no command could have produced (the property of
``tests/rulesets/yarn/test_verify_property.py``, on a DramaSystem campaign with a resolution open)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from yarnlog.app.journal import Journal
from yarnlog.app.verify import verify
from yarnlog.core.chain import seal
from yarnlog.core.envelope import NewEvent, to_recorded
from yarnlog.core.events import known_event_types, payload_class
from yarnlog.core.referee import Referee, YarnlogError
from yarnlog.core.ruleset import get_ruleset
from yarnlog.core.state import EVERYONE, GM_ONLY, replay
from yarnlog.core.table import AddParticipant
from yarnlog.core.timeline import OpenScene, StartEpisode
from yarnlog.core.validation import validator_of
from yarnlog.persistence.factory import open_store
from yarnlog.rulesets.dramasystem.parts.card_procedure import DrawTarget, Oppose, PlayCards
from yarnlog.rulesets.dramasystem.parts.sheets import CreateCharacter

from .storm_table import declare_wants

get_ruleset("dramasystem")
TYPES = [payload_class(t) for t in known_event_types() if t.startswith("dramasystem.")]


@pytest.fixture(scope="module")
def prefix():
    journal = Journal(open_store("memory://"))
    journal.create_campaign("storm", title="Storm", gm="Maya", ruleset="dramasystem")
    grades = {"Fighting": "strong", "Talking": "strong", "Knowing": "weak", "Making": "weak"}
    for player, pc in (("Ana", "Iris"), ("Ben", "Tomas")):
        journal.execute("storm", AddParticipant(name=player))
        journal.execute("storm", CreateCharacter(pc, player, grades))
    declare_wants(journal, ("Iris", "Tomas"), "storm")  # each wanted by the other before play (DS9)
    journal.execute("storm", StartEpisode(title="Fog", theme="trust"))
    journal.execute("storm", OpenScene(caller="Ana", cast=("Iris", "Tomas"), mode="procedural"))
    journal.execute("storm", Oppose("yellow"), visibility=GM_ONLY)
    journal.execute("storm", DrawTarget("KC", ("Ana", "Ben")))
    journal.execute("storm", PlayCards("Ana", "red", ("5C",)))
    return journal.stored_events("storm")


def test_every_dramasystem_type_is_drawn():
    assert {cls.event_type for cls in TYPES} >= {"dramasystem.character.created", "dramasystem.procedure.resolved"}


@pytest.mark.filterwarnings("ignore:Ignoring unsupported:hypothesis.errors.HypothesisWarning")
@settings(max_examples=120, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(cls=st.sampled_from(TYPES), data=st.data())
def test_verify_names_any_dramasystem_event_no_command_could_produce(prefix, cls, data):
    try:
        payload = data.draw(st.builds(cls))
    except ValidationError:
        assume(False)
    state = replay([to_recorded(e) for e in prefix])
    try:
        legal = validator_of(type(payload), state.ruleset)(payload, state, Referee()) == payload
    except YarnlogError:
        legal = False
    if legal:
        return
    forged = seal("storm", prefix[-1].sequence + 1,
                  NewEvent(event_id="00000000-0000-4000-8000-000000000000", event_type=payload.event_type,
                           schema_version=payload.schema_version, recorded_at="2026-11-23T10:00:00.000000Z",
                           recorded_by="Maya", visibility=EVERYONE, payload=payload.to_data()),
                  prefix[-1].hash)
    report = verify([*prefix, forged], "storm")
    assert any(f.sequence >= forged.sequence for f in report.faults), payload
