"""A scene's part in its episode: opener, development or closer (Yarn 0.1, "Episodes › Scenes").

The book shapes every episode the same way: one opener, any number of development scenes, one
closer. A role is named when the scene is called (``call --role``) or once it has played out (a
closer is often known only at its end), and the shape is kept: the opener is the episode's first
scene, the closer its last, and no scene is called after the closer (GM override aside).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from yarnlog.core.composition import folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import Referee, Rule, invalid, present
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import Drama, DramaBuilder, SceneCall, drama_of, rebuilt
from yarnlog.rulesets.yarn.state import YarnCampaign, YarnState

BOOK = "Yarn 0.1"
ROLES = ("opener", "development", "closer")

SCENE_ROLES = Rule(
    BOOK, "Episodes › Scenes",
    "Each episode consists of a number of scenes: an opener that introduces the theme; an indeterminate "
    "number of development scenes that riff on and refer to the theme in various ways; a closer that "
    "somehow completes the theme",
)


@dataclass(frozen=True)
class NameSceneRole:
    """Name ``role`` for ``scene`` (default: the scene in play, else the last one called)."""

    role: str
    scene: int | None = None


@event("yarn.scene.role_named")
class SceneRoleNamed(Payload):
    scene: int
    role: Literal["opener", "development", "closer"]


def _scene_named(campaign: YarnCampaign, number: int | None) -> SceneCall:
    timeline = campaign.timeline
    number = number if number is not None else (timeline.scene or timeline.last_scene or None)
    number = present(number, "no scene has been called yet")
    scene = present(drama_of(campaign).scenes.get(number), f"there is no scene {number} called under the Yarn rules")
    invalid(timeline.episode is not None and scene.episode == timeline.episode,
            f"scene {number} is not a scene of the episode in play")
    return scene


def scenes_of_episode(drama: Drama, episode: int | None) -> list[SceneCall]:
    """The scenes called in ``episode``, in order."""
    return sorted((s for s in drama.scenes.values() if s.episode == episode), key=lambda s: s.number)


def role_named(campaign: YarnCampaign, referee: Referee, *, role: str, scene: int | None) -> SceneRoleNamed:
    """"Scenes": the opener first, the closer last, one of each."""
    call = _scene_named(campaign, scene)
    invalid(role in ROLES, f"a scene's role is one of {', '.join(ROLES)}, not {role!r}")
    invalid(call.role is None, f"scene {call.number} is already the {call.role}: correct that event to change it")
    drama = drama_of(campaign)
    episode_scenes = scenes_of_episode(drama, call.episode)
    first = episode_scenes[0].number
    if role == "opener":
        referee.require(call.number == first, SCENE_ROLES,
                        f"the opener is the episode's first scene, scene {first}, not scene {call.number}")
    else:
        referee.require(call.number != first, SCENE_ROLES,
                        f"scene {call.number} is the episode's first scene: its opener")
    if role == "closer":
        closer = drama.closers.get(call.episode) if call.episode is not None else None
        referee.require(closer is None, SCENE_ROLES, f"scene {closer} is already this episode's closer")
        referee.require(call.number == episode_scenes[-1].number, SCENE_ROLES,
                        f"the closer is the episode's last scene: scene {episode_scenes[-1].number} came after it")
    return SceneRoleNamed(scene=call.number, role=role)


def check_not_after_closer(campaign: YarnCampaign, referee: Referee) -> None:
    """A scene called after the episode's closer breaks the episode's shape ("Scenes")."""
    episode = campaign.timeline.episode
    closer = drama_of(campaign).closers.get(episode) if episode is not None else None
    referee.require(closer is None, SCENE_ROLES,
                    f"scene {closer} was this episode's closer: end the episode")


def decide(command, campaign: YarnCampaign, referee: Referee) -> list[Payload] | None:
    if isinstance(command, NameSceneRole):
        return [role_named(campaign, referee, role=command.role, scene=command.scene)]
    return None


FOLDS = folds(SceneRoleNamed)


def evolve(drama: Drama, recorded: Recorded, yarn: YarnState) -> Drama:
    p = recorded.payload
    if not isinstance(p, SceneRoleNamed) or p.scene not in drama.scenes:
        return drama
    scene = drama.scenes[p.scene]
    drama = replace(drama, scenes=drama.scenes.set(p.scene, replace(scene, role=p.role)))
    if p.role == "closer" and scene.episode is not None:
        drama = replace(drama, closers=drama.closers.set(scene.episode, p.scene))
    return drama


def fold_in_place(drama: DramaBuilder, recorded: Recorded, yarn: YarnState) -> None:
    """:func:`evolve` in a replay."""
    p = recorded.payload
    if not isinstance(p, SceneRoleNamed) or p.scene not in drama.scenes:
        return
    scene = drama.scenes[p.scene]
    drama.scenes[p.scene] = replace(scene, role=p.role)
    if p.role == "closer" and scene.episode is not None:
        drama.closers[scene.episode] = p.scene


def _named_again(campaign: YarnCampaign, referee: Referee, p: SceneRoleNamed) -> SceneRoleNamed:
    return role_named(campaign, referee, role=p.role, scene=p.scene)


VALIDATORS = {SceneRoleNamed: rebuilt(_named_again)}
