"""Personal consequences in the journal: Yarn 0.1 "Personal Consequences", the good and bad consequence
dice owed for the sixes and ones of a scene's rolls.
"""

from __future__ import annotations

from dataclasses import dataclass

from yarnlog.core.events import Payload, Recorded
from yarnlog.core.referee import Referee, invalid
from yarnlog.core.timeline import SceneClosed
from yarnlog.rulesets.yarn.parts.procedure.dice_facts import take_dice
from yarnlog.rulesets.yarn.parts.procedure.roll_records import (
    ConsequenceRolled,
    RollConsequences,
    consequence_rolled,
    roll_made,
)
from yarnlog.rulesets.yarn.rules import dice
from yarnlog.rulesets.yarn.rules.dice import Consequence, RollSpec
from yarnlog.rulesets.yarn.state import YarnCampaign

# -- personal consequences ------------------------------------------------------------------


@dataclass(frozen=True)
class Due:
    """A consequence roll a character owes the end of a scene, and the rolls that broke."""

    character: str
    kind: Consequence
    breaks: tuple[int, ...]


def consequences_due(campaign: YarnCampaign, scene: int) -> list[Due]:
    """The 1d6 rolls still to make for ``scene``'s breaks ("Resulting Personal Consequences").

    "Players who had breaks": the rolls of player characters only (a GMC's breaks bring none).
    """
    procedure = campaign.rules.procedure
    rolls: dict[str, list[Recorded]] = {}
    for rec in procedure.rolls.values():
        if rec.scene == scene and not roll_made(rec).gmc:
            rolls.setdefault(roll_made(rec).character, []).append(rec)
    made = {(c.character, c.kind) for c in map(consequence_rolled, procedure.consequences.values()) if c.scene == scene}
    due = []
    for character, theirs in rolls.items():
        for kind in dice.consequence_rolls(dice.Breaks(roll_made(r).breaks.good, roll_made(r).breaks.bad)
                                           for r in theirs):
            if (character, kind.value) not in made:
                broke = tuple(r.sequence for r in theirs if getattr(roll_made(r).breaks, kind.value))
                due.append(Due(character, kind, broke))
    return due


def consequence_scene(campaign: YarnCampaign, scene: int | None) -> int:
    timeline = campaign.timeline
    number = scene if scene is not None else (timeline.scene or timeline.last_scene)
    invalid(number in timeline.scenes, f"there is no scene {number}" if number else "no scene has been played yet")
    return number


def decide_consequences(command: RollConsequences, campaign: YarnCampaign, referee: Referee) -> list[Payload]:
    """The consequence dice owed in a scene, rolled ("Personal Consequences")."""
    scene = consequence_scene(campaign, command.scene)
    due = {(d.character, d.kind.value): d for d in consequences_due(campaign, scene)}
    given: dict[tuple[str, str], int] = {(f.character, f.kind): f.face for f in command.faces}
    invalid(len(given) == len(command.faces), "one face per character and kind of break")
    for character, kind in given:
        rule = dice.GOOD_CONSEQUENCE if kind == Consequence.GOOD.value else dice.BAD_CONSEQUENCE
        referee.require((character, kind) in due, rule,
                        f"{character} owes no roll for a {kind} break in scene {scene} (none, or already rolled)")
    wanted = list(given) + ([key for key in due if key not in given] if command.roll_rest else [])
    invalid(bool(wanted), f"no consequence roll is due in scene {scene}")
    payloads: list[Payload] = []
    for character, kind in wanted:
        face = given.get((character, kind))
        source = "entered" if face is not None else "rolled"
        if face is None:
            name = f"{kind} consequence of {character}"
            face = take_dice(RollSpec(1), None, rolled=command.rolled, name=name).faces[0]
        payloads.append(ConsequenceRolled(
            character=character, scene=scene, kind=kind, face=face, source=source,
            consequence=dice.has_consequence(Consequence(kind), face),
            breaks=list(due[(character, kind)].breaks) if (character, kind) in due else []))
    if scene == campaign.timeline.scene:
        payloads.append(SceneClosed(number=scene))
    return payloads
