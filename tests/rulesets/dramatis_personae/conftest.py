"""A Dramatis Personae journal of these tests: Maya's table, Faust (Ana) and Bryn (Ben)."""

from __future__ import annotations

import pytest

from yarnlog.app.journal import Journal
from yarnlog.core.table import AddParticipant
from yarnlog.persistence.memory import MemoryStore
from yarnlog.rulesets.dramatis_personae.parts.characters import CreateCharacter

CAMPAIGN = "dp"


@pytest.fixture
def journal():
    journal = Journal(MemoryStore())
    journal.create_campaign(CAMPAIGN, title="Chasm", gm="Maya", ruleset="dramatis-personae")
    for name in ("Ana", "Ben"):
        journal.execute(CAMPAIGN, AddParticipant(name=name))
    journal.execute(CAMPAIGN, CreateCharacter(
        name="Faust", player="Ana", level=2, strengths=("Summoning", "Magical ability", "Climbing"),
        weaknesses=("Courage",), general=("Magical ability",), minutiae=("Latin",), quirks=("Smokes",),
        background="A scholar of Wittenberg.", possessions=("grimoire",)))
    journal.execute(CAMPAIGN, CreateCharacter(
        name="Bryn", player="Ben", level=1, strengths=("Melee combat",), background="A street fighter."))
    return journal
