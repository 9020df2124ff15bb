"""The DramaSystem journal of these tests (see ``storm_table``)."""

from __future__ import annotations

import pytest

from yarnlog.app.journal import Journal
from yarnlog.core.table import AddParticipant
from yarnlog.core.timeline import StartEpisode
from yarnlog.persistence.memory import MemoryStore
from yarnlog.rulesets.dramasystem.parts.sheets import CreateCharacter

from .storm_table import CAMPAIGN, _grades, declare_wants


@pytest.fixture
def journal():
    journal = Journal(MemoryStore())
    journal.create_campaign(CAMPAIGN, title="Storm", gm="Maya", ruleset="dramasystem")
    for name in ("Ana", "Ben", "Cy"):
        journal.execute(CAMPAIGN, AddParticipant(name=name))
    for name, player, strong, weak in (("Iris", "Ana", ("Fighting", "Talking"), ("Knowing", "Making")),
                                       ("Tomas", "Ben", ("Moving", "Sneaking"), ("Talking", "Enduring")),
                                       ("Vel", "Cy", ("Knowing", "Making"), ("Fighting", "Moving"))):
        journal.execute(CAMPAIGN, CreateCharacter(name, player, _grades(strong, weak)))
    declare_wants(journal)  # play begins once each PC is wanted by two others (DS9)
    journal.execute(CAMPAIGN, StartEpisode(title="Fog", theme="trust"))
    return journal


