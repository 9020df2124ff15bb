"""A Will & Descriptors table for these tests: Maya the GM, Ana plays Christopher, Ben plays Bob,
Cy plays Abigail; a Power track of 5 boxes unless a test chooses otherwise."""

from __future__ import annotations

from yarnlog.app.journal import Journal
from yarnlog.core.table import AddParticipant
from yarnlog.core.timeline import OpenScene, StartEpisode
from yarnlog.persistence.memory import MemoryStore
from yarnlog.rulesets.will_descriptors.parts.sheets import CreateCharacter

CAMPAIGN = "ropes"


def table(track: int = 5, starting_will: int = 9) -> Journal:
    journal = Journal(MemoryStore())
    journal.create_campaign(CAMPAIGN, title="Ropes", gm="Maya", ruleset="will-descriptors",
                            settings={"track": track, "starting_will": starting_will})
    for name in ("Ana", "Ben", "Cy"):
        journal.execute(CAMPAIGN, AddParticipant(name=name))
    journal.execute(CAMPAIGN, CreateCharacter(
        "Christopher", "Ana", descriptors=(("Knots", 3, "Abilities"), ("Strong", 2, ""), ("Sailor", 1, "")),
        background=("Old navy friend",), keys=(("Bind them all", "motivation"),)))
    journal.execute(CAMPAIGN, CreateCharacter(
        "Bob", "Ben", descriptors=(("Slippery", 2, ""), ("Proud", 2, "Values")),
        keys=(("The lost heir", "dramatic"),)))
    journal.execute(CAMPAIGN, CreateCharacter("Abigail", "Cy", descriptors=(("Persuasive", 3, ""),)))
    journal.execute(CAMPAIGN, StartEpisode(title="Tied"))
    journal.execute(CAMPAIGN, OpenScene(caller="Maya"))
    return journal


def rules(journal: Journal):
    return journal.state(CAMPAIGN).rules
