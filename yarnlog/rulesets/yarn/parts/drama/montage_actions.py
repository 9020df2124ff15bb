"""What each player's character does during a montage (Yarn 0.1, "Montage Scene").

"During a montage any and all players may call actions for their character that can be played out
without significant dialogue": each such action is an event of the montage in play, named by the
character and, where it is one of them, the book's kind of activity.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from yarnlog.core.composition import folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import Referee, Rule, invalid
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import Drama, DramaBuilder, rebuilt, scene_in_play
from yarnlog.rulesets.yarn.parts.characters.players import require_character
from yarnlog.rulesets.yarn.state import YarnCampaign, YarnState

BOOK = "Yarn 0.1"
#: The book's examples of what a montage action may be ("including:").
ACTIVITIES = ("preparing", "researching", "training", "shopping", "travelling")

MONTAGE_ACTIONS = Rule(
    BOOK, "Montage Scene",
    "During a montage any and all players may call actions for their character that can be played out "
    "without significant dialogue including: Preparing for a future scene, Researching, Training, "
    "Shopping, Travelling",
)


@dataclass(frozen=True)
class CallMontageAction:
    """A player calls an action for her character in the montage in play."""

    character: str
    action: str
    activity: str | None = None


@event("yarn.montage.action_called")
class MontageActionCalled(Payload):
    scene: int
    character: str
    player: str
    action: str
    activity: Literal["preparing", "researching", "training", "shopping", "travelling"] | None = None


def montage_action(campaign: YarnCampaign, referee: Referee, *, character: str, action: str,
                   activity: str | None) -> MontageActionCalled:
    """"Montage Scene": any player, for her own character, in a montage."""
    scene = scene_in_play(campaign)
    referee.require(scene.kind == "montage", MONTAGE_ACTIONS, f"scene {scene.number} is not a montage")
    role = require_character(campaign, character)
    invalid(role.is_pc, f"{role.character} is not a player character: players call actions for their own")
    invalid(bool(action.strip()), "say what the character does")
    kind = activity.strip().casefold() if activity and activity.strip() else None
    invalid(kind is None or kind in ACTIVITIES,
            f"a montage activity is one of {', '.join(ACTIVITIES)}, not {activity!r}")
    return MontageActionCalled(scene=scene.number, character=role.character, player=role.holder,
                               action=action.strip(), activity=kind)


def decide(command, campaign: YarnCampaign, referee: Referee) -> list[Payload] | None:
    if isinstance(command, CallMontageAction):
        return [montage_action(campaign, referee, character=command.character, action=command.action,
                               activity=command.activity)]
    return None


FOLDS = folds(MontageActionCalled)


def evolve(drama: Drama, recorded: Recorded, yarn: YarnState) -> Drama:
    p = recorded.payload
    if not isinstance(p, MontageActionCalled) or p.scene not in drama.scenes:
        return drama
    scene = drama.scenes[p.scene]
    return replace(drama, scenes=drama.scenes.set(p.scene, replace(
        scene, montage_actions=scene.montage_actions + ((p.character, p.action),))))


def fold_in_place(drama: DramaBuilder, recorded: Recorded, yarn: YarnState) -> None:
    """:func:`evolve` in a replay."""
    p = recorded.payload
    if isinstance(p, MontageActionCalled) and p.scene in drama.scenes:
        scene = drama.scenes[p.scene]
        drama.scenes[p.scene] = replace(scene, montage_actions=scene.montage_actions + ((p.character, p.action),))


def _called_again(campaign: YarnCampaign, referee: Referee, p: MontageActionCalled) -> MontageActionCalled:
    return montage_action(campaign, referee, character=p.character, action=p.action, activity=p.activity)


VALIDATORS = {MontageActionCalled: rebuilt(_called_again)}
