"""Personal consequences in the journal: Yarn 0.1 "Personal Consequences", the good and bad consequence
dice owed for the sixes and ones of a scene's rolls, and what each consequence turned out to be.
"""

from __future__ import annotations

from dataclasses import dataclass

from yarnlog.core.events import Payload
from yarnlog.core.referee import Referee, Rule, invalid, present
from yarnlog.core.timeline import SceneClosed
from yarnlog.rulesets.yarn.parts.characters.players import role_of
from yarnlog.rulesets.yarn.parts.procedure.dice_facts import take_dice
from yarnlog.rulesets.yarn.parts.procedure.roll_records import (
    ConsequenceFact,
    ConsequenceIntroduced,
    ConsequenceRolled,
    Procedure,
    RollConsequences,
    RollFact,
)
from yarnlog.rulesets.yarn.rules import dice
from yarnlog.rulesets.yarn.rules.dice import RollSpec
from yarnlog.rulesets.yarn.rules.personal_consequences import Breaks, Consequence, consequence_rolls, has_consequence
from yarnlog.rulesets.yarn.state import YarnCampaign

INTRODUCING_ADVANTAGE = Rule(
    dice.BOOK, "Personal Consequences › Resulting Personal Consequences",
    "If you have a good consequence introduce an advantage your character can benefit from in an upcoming "
    "scene. [...] If you had a bad consequence, introduce an additional obstacle your character must "
    "resolve in an upcoming scene.",
)
WORKED_IN = Rule(
    dice.BOOK, "Procedural Scenes › Resolving Consequences",
    "Players should then attempt to work their consequences into an upcoming scene. If they don't, the GM will.",
)

# -- personal consequences ------------------------------------------------------------------


@dataclass(frozen=True)
class IntroduceConsequence:
    """What the consequence rolled at event ``roll`` turned out to be (``introduced_by``: default the player)."""

    roll: int
    text: str
    introduced_by: str | None = None


def consequence_introduced(campaign: YarnCampaign, referee: Referee, *, roll: int, text: str,
                           introduced_by: str | None) -> ConsequenceIntroduced:
    """"Resulting Personal Consequences": a consequence the die gave, introduced once, by its player or the GM."""
    procedure = campaign.rules.procedure
    c = present(procedure.consequences.get(roll), f"event {roll} is not a consequence roll")
    invalid(c.consequence, f"event {roll} gave {c.character} no {c.kind} consequence (a {c.face}): "
                           f"there is nothing to introduce ({INTRODUCING_ADVANTAGE.cite()})")
    earlier = procedure.introduced.get(roll)
    invalid(earlier is None, f"that consequence is already introduced (event {earlier}): "
                             "correct that event to change it")
    invalid(bool(text.strip()), "say what the consequence turned out to be")
    table = campaign.table
    role = role_of(campaign.rules.characters, table.gm, c.character)
    player = role.holder if role is not None else table.gm
    by = introduced_by or player
    invalid(table.knows(by) and by not in table.departed, f"{by} is not at the table")
    referee.require(by in (player, table.gm), WORKED_IN, f"{player} or the GM introduces {c.character}'s "
                                                        f"consequence, not {by}")
    return ConsequenceIntroduced(roll=roll, character=c.character, kind=c.kind, scene=c.scene, text=text.strip(),
                                 introduced_by=by)


def decide_introduced(command: IntroduceConsequence, campaign: YarnCampaign,
                      referee: Referee) -> list[Payload]:
    return [consequence_introduced(campaign, referee, roll=command.roll, text=command.text,
                                   introduced_by=command.introduced_by)]


def validate_introduced(p: ConsequenceIntroduced, campaign: YarnCampaign, referee: Referee) -> ConsequenceIntroduced:
    return consequence_introduced(campaign, referee, roll=p.roll, text=p.text, introduced_by=p.introduced_by)


@dataclass(frozen=True)
class Due:
    """A consequence roll a character owes the end of a scene, and the rolls that broke."""

    character: str
    kind: Consequence
    breaks: tuple[int, ...]


def scene_consequences(procedure: Procedure, scene: int) -> list[ConsequenceFact]:
    """The consequence rolls made for ``scene``, in the order made."""
    return [procedure.consequences[seq] for seq in procedure.scene_consequences.get(scene, ())]


def consequences_due(campaign: YarnCampaign, scene: int) -> list[Due]:
    """The 1d6 rolls still to make for ``scene``'s breaks ("Resulting Personal Consequences").

    "Players who had breaks": the rolls of player characters only (a GMC's breaks bring none).
    """
    procedure = campaign.rules.procedure
    rolls: dict[str, list[RollFact]] = {}
    for fact in map(procedure.rolls.__getitem__, procedure.scene_rolls.get(scene, ())):  # in the order made
        if not fact.gmc:
            rolls.setdefault(fact.character, []).append(fact)
    made = {(c.character, c.kind) for c in scene_consequences(procedure, scene)}
    due = []
    for character, theirs in rolls.items():
        for kind in consequence_rolls(Breaks(r.good, r.bad) for r in theirs):
            if (character, kind.value) not in made:
                broke = tuple(r.sequence for r in theirs if getattr(r, kind.value))
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
                        f"{character} has no {kind} break roll due")
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
            consequence=has_consequence(Consequence(kind), face),
            breaks=list(due[(character, kind)].breaks) if (character, kind) in due else []))
    if scene == campaign.timeline.scene:
        payloads.append(SceneClosed(number=scene))
    return payloads
