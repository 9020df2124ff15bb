"""Dramatis Personae (Stephen Scholz): the composition of its parts.

What Dramatis Personae adds to the journal: characters with their level, Strengths and Weaknesses
(:mod:`.parts.characters`), the ledger of saved dice, pool dice and debt (:mod:`.parts.ledger`),
and rolls: challenges, contests and melee (:mod:`.parts.rolls`). It shares nothing of the
drama-token economy; the journal's episodes and scenes carry its events.
"""

from __future__ import annotations

from yarnlog.core.composition import Composition, Part
from yarnlog.core.names import Registered
from yarnlog.core.ruleset import Rules, Ruleset, Views, Words
from yarnlog.rulesets.dramatis_personae.parts import characters, ledger, rolls
from yarnlog.rulesets.dramatis_personae.parts.reports import dice_board
from yarnlog.rulesets.dramatis_personae.parts.rolls import POOL_AFTER_ROLL
from yarnlog.rulesets.dramatis_personae.state import DPCampaign, DPState
from yarnlog.rulesets.dramatis_personae.status import seats
from yarnlog.rulesets.dramatis_personae.words import follow_up, narrate

PARTS: tuple[Part, ...] = (characters.PART, ledger.PART, rolls.PART)
COMPOSED: Composition[DPState] = Composition(PARTS, DPState)


def registered_names(campaign: DPCampaign) -> Registered:
    """The characters (commands name them ignoring case)."""
    return Registered(campaign.rules.characters.pcs)


RULESET = Ruleset(
    name="dramatis-personae",
    title="Dramatis Personae (Stephen Scholz)",
    book="002_7af0b39949a564d4.txt",
    rules=Rules.composed(
        COMPOSED,
        names=registered_names,
        state_packages=("yarnlog.rulesets.dramatis_personae.state", "yarnlog.rulesets.dramatis_personae.parts",
                        "yarnlog.rulesets.dramatis_personae.rules"),
    ),
    views=Views(projections={"dice": dice_board}),
    words=Words(narrate=narrate, follow_up=follow_up, seats=seats),
    templates="yarnlog/templates/dramatis-personae",  # sheet and recap templates, shadowed by --templates DIR
    options={POOL_AFTER_ROLL: "Pool dice may be added after a challenge roll, two for one die, as in melee "
                              "(reading 8; off: only in melee, as the book says)"},
)
