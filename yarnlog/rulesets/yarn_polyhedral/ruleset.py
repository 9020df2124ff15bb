"""The polyhedral Yarn's journal seam: the composition of its parts, its reads and its words.

Characters and their points (:mod:`.parts.characters`), feats with their odds, attacks and
resistance rolls (:mod:`.parts.feats`), fortune and trouble (:mod:`.parts.fortune`), injuries,
effort, stances, tension and rulings (:mod:`.parts.bodies`). Sessions and scenes are the journal's
own episodes and scenes: an episode's start sets every character's fortune to its level (P7).
"""

from __future__ import annotations

from yarnlog.core.composition import Composition, Part
from yarnlog.core.ruleset import CampaignState, Rules, Ruleset, Setting, Views, Words
from yarnlog.rulesets.yarn_polyhedral.parts import bodies, characters, feats, fortune, rounds
from yarnlog.rulesets.yarn_polyhedral.reads import board
from yarnlog.rulesets.yarn_polyhedral.state import PolyhedralState
from yarnlog.rulesets.yarn_polyhedral.words import follow_up, narrate, seats

PARTS: tuple[Part, ...] = (characters.PART, feats.PART, fortune.PART, bodies.PART, rounds.PART)
COMPOSED: Composition[PolyhedralState] = Composition(PARTS, PolyhedralState)


def character_names(campaign: CampaignState[PolyhedralState]) -> list[str]:
    """The characters (commands name them ignoring case)."""
    return [c.name for c in campaign.rules.characters.by_name.values()]


RULESET = Ruleset(
    name="yarn-polyhedral",
    title="Yarn (polyhedral)",
    book="003_e72cdbaaf570012c.txt",
    rules=Rules.composed(
        COMPOSED,
        names=character_names,
        state_packages=("yarnlog.rulesets.yarn_polyhedral.state", "yarnlog.rulesets.yarn_polyhedral.parts",
                        "yarnlog.rulesets.yarn_polyhedral.rules"),
    ),
    views=Views(projections={"board": board}),
    words=Words(narrate=narrate, follow_up=follow_up, seats=seats),
    templates="yarnlog/templates/yarn_polyhedral",  # recap and sheet templates, shadowed by --templates DIR
    settings={
        "fatal_severity": Setting("the total severity the group agrees is fatal, for every character, in place "
                                  "of the suggested (1 + level) x health (lines 339-341; reading 15)", None, 1, 1000),
    },
    options={
        "death": "Death (lines 337-341): injuries can kill, at (1 + level) x health total severity",
        "skill_limit": "Skill Ranks (line 383): starting skills at most the level, one at level + 1",
        "rolled_attributes": "Rolling attributes (lines 724-726): 3d10 / 3 + 1 instead of points",
        "power_points": "Power points (line 569): powers bought from a separate pool given at creation "
                        "(--power-points), one power point for two regular points on other qualities",
        "flashbacks_each_session": "Flashbacks (line 357): the level's flashbacks come back each session "
                                   "(reading 17; default: one stock, a flashback per level)",
    },
)
