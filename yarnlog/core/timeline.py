"""Episodes and scenes: the timeline every ruleset shares.

An episode is one session of play; scenes are numbered through the whole campaign, so
"as of the end of scene 7" names one moment of the journal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

from pydantic import Field
from pyrsistent import PMap, PVector, pmap, pvector

from yarnlog.core.events import Payload, event, upcaster
from yarnlog.core.frozen import replace
from yarnlog.core.limits import Name, Text
from yarnlog.core.referee import invalid


@event("episode.started")
class EpisodeStarted(Payload):
    number: int = Field(ge=1)
    title: Text = ""
    theme: Text = ""
    theme_chosen_by: Name | None = None


@event("episode.ended")
class EpisodeEnded(Payload):
    number: int = Field(ge=1)


@event("scene.opened")
class SceneOpened(Payload):
    """A scene is called. ``mode`` and ``kind`` are the ruleset's words (dramatic, montage, ...)."""

    number: int = Field(ge=1)
    caller: Name
    title: Text = ""
    setting: Text = ""
    cast: list[Name] = Field(default_factory=list)
    mode: str | None = None
    kind: str | None = None
    situation: Text = ""
    time_break: Text = ""


@event("scene.closed")
class SceneClosed(Payload):
    number: int = Field(ge=1)
    summary: Text = ""


@event("note", version=2)
class Note(Payload):
    """Narration, a quote or a GM aside: the material of recaps.

    ``scene`` files it under a scene already called (one played earlier, recalled afterwards); without
    it the note belongs where it is recorded. Version 2 added ``scene``: a version 1 note never named one.
    """

    added_in: ClassVar[dict[str, int]] = {"scene": 2}

    text: Text = Field(min_length=1)
    scene: int | None = Field(default=None, ge=1)


@upcaster("note", from_version=1)
def _note_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    return {"scene": None, **data}


# -- state ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Timeline:
    """Where the campaign stands: the episode and scene in play, and those already played.

    ``episodes`` is a persistent vector and ``scenes`` and ``scene_episode`` persistent maps (equal
    to the sequences and dicts they hold): an episode started or a scene opened shares the rest
    instead of copying it, so a fold stays linear in the history.
    """

    episode: int | None = None
    scene: int | None = None
    episodes: PVector[int] = field(default_factory=pvector)
    scenes: PMap[int, SceneOpened] = field(default_factory=pmap)
    scene_episode: PMap[int, int | None] = field(default_factory=pmap)
    last_scene: int = 0

    @property
    def next_episode(self) -> int:
        return (self.episodes[-1] if self.episodes else 0) + 1


@cache
def _moves_the_timeline(kind: type) -> bool:
    # Most events leave the timeline as it is: a replay asks once per payload type, not four times an event.
    return issubclass(kind, (EpisodeStarted, EpisodeEnded, SceneOpened, SceneClosed))


def evolve_timeline(timeline: Timeline, payload: Payload) -> Timeline:
    if not _moves_the_timeline(type(payload)):
        return timeline
    if isinstance(payload, EpisodeStarted):
        return replace(timeline, episode=payload.number, episodes=timeline.episodes.append(payload.number))
    if isinstance(payload, EpisodeEnded):
        return replace(timeline, episode=None, scene=None)
    if isinstance(payload, SceneOpened):
        return replace(
            timeline,
            scene=payload.number,
            last_scene=max(timeline.last_scene, payload.number),
            scenes=timeline.scenes.set(payload.number, payload),
            scene_episode=timeline.scene_episode.set(payload.number, timeline.episode),
        )
    if isinstance(payload, SceneClosed):
        return replace(timeline, scene=None)
    return timeline


def context(before: Timeline, after: Timeline, payload: Payload | None = None) -> tuple[int | None, int | None]:
    """The (episode, scene) an event belongs to: the one it opens, closes or happens in; a note filed
    under an earlier scene belongs to that scene (and its episode)."""
    if isinstance(payload, Note) and payload.scene is not None:
        return (after.scene_episode.get(payload.scene), payload.scene)
    return (after.episode or before.episode, after.scene or before.scene)


# -- commands -------------------------------------------------------------------------------


@dataclass(frozen=True)
class StartEpisode:
    title: str = ""
    theme: str = ""
    theme_chosen_by: str | None = None


@dataclass(frozen=True)
class EndEpisode:
    pass


@dataclass(frozen=True)
class OpenScene:
    caller: str
    title: str = ""
    setting: str = ""
    cast: tuple[str, ...] = ()
    mode: str | None = None
    kind: str | None = None
    situation: str = ""
    time_break: str = ""


@dataclass(frozen=True)
class CloseScene:
    summary: str = ""


@dataclass(frozen=True)
class AddNote:
    text: str
    scene: int | None = None  # a scene already called to file it under (default: where it is recorded)


def decide_timeline(command: object, timeline: Timeline) -> list[Payload] | None:
    if isinstance(command, StartEpisode):
        invalid(timeline.episode is None, f"episode {timeline.episode} is still in play: end it first")
        return [check_timeline(EpisodeStarted(number=timeline.next_episode, title=command.title,
                                              theme=command.theme, theme_chosen_by=command.theme_chosen_by),
                               timeline)]
    if isinstance(command, EndEpisode):
        invalid(timeline.episode is not None, "no episode is in play")
        closing = _closing(timeline)
        return closing + [check_timeline(EpisodeEnded(number=timeline.episode), _after(timeline, closing))]
    if isinstance(command, OpenScene):
        invalid(timeline.episode is not None, "start an episode before calling a scene")
        closing = _closing(timeline)
        return closing + [check_timeline(open_scene_payload(command, timeline), _after(timeline, closing))]
    if isinstance(command, CloseScene):
        invalid(timeline.scene is not None, "no scene is in play")
        return [check_timeline(SceneClosed(number=timeline.scene, summary=command.summary), timeline)]
    if isinstance(command, AddNote):
        invalid(bool(command.text.strip()), "a note needs some text")
        return [check_timeline(Note(text=command.text, scene=command.scene), timeline)]
    return None


def _closing(timeline: Timeline) -> list[Payload]:
    """The scene in play closes before an episode ends or another scene opens."""
    return [check_timeline(SceneClosed(number=timeline.scene), timeline)] if timeline.scene is not None else []


def _after(timeline: Timeline, payloads: list[Payload]) -> Timeline:
    for payload in payloads:
        timeline = evolve_timeline(timeline, payload)
    return timeline


# -- validation -----------------------------------------------------------------------------


def check_timeline(p: Payload, timeline: Timeline) -> Payload:
    """Check a timeline event against where the campaign stands; fill in the number it takes.

    Episodes are numbered one after another, scenes through the whole campaign; an episode ends
    and a scene opens only once the scene in play has closed (the deciders close it first).
    """
    if isinstance(p, EpisodeStarted):
        invalid(timeline.episode is None, f"episode {timeline.episode} is still in play: end it first")
        return p.model_copy(update={"number": timeline.next_episode})
    if isinstance(p, EpisodeEnded):
        invalid(timeline.episode is not None, "no episode is in play")
        invalid(timeline.scene is None, f"scene {timeline.scene} is in play: close it first")
        return p.model_copy(update={"number": timeline.episode})
    if isinstance(p, SceneOpened):
        invalid(timeline.episode is not None, "start an episode before calling a scene")
        invalid(timeline.scene is None, f"scene {timeline.scene} is in play: close it first")
        return p.model_copy(update={"number": timeline.last_scene + 1})
    if isinstance(p, SceneClosed):
        invalid(timeline.scene is not None, "no scene is in play")
        return p.model_copy(update={"number": timeline.scene})
    if isinstance(p, Note):
        invalid(bool(p.text.strip()), "a note needs some text")
        invalid(p.scene is None or p.scene in timeline.scenes,
                f"there is no scene {p.scene} yet: a note is filed under a scene already called")
        return p
    raise TypeError(f"{type(p).__name__} is not a timeline event")


def open_scene_payload(command: OpenScene, timeline: Timeline) -> SceneOpened:
    return SceneOpened(
        number=timeline.last_scene + 1,
        caller=command.caller,
        title=command.title,
        setting=command.setting,
        cast=list(command.cast),
        mode=command.mode,
        kind=command.kind,
        situation=command.situation,
        time_break=command.time_break,
    )
