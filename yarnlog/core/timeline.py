"""Episodes and scenes: the timeline every ruleset shares.

An episode is one session of play; scenes are numbered through the whole campaign, so
"as of the end of scene 7" names one moment of the journal.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import Field
from pyrsistent import PVector, pvector

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

V = TypeVar("V")


@dataclass(frozen=True, eq=False)
class Numbered(Generic[V]):
    """What is kept by number for things numbered 1, 2, 3... (scenes, numbered through the campaign
    one after another): a persistent vector holding the value of number ``n`` at ``n - 1``, read as
    a mapping from number to value. An entry costs the vector's 8 bytes, where a persistent map's
    bucket takes about 130. A number not set (below the highest one set) holds None, so a value of
    None is not told from no value: :meth:`get` gives None for both, and ``in`` says no.

    ``set`` gives a new one sharing the rest, as :meth:`PMap.set <pyrsistent.PMap.set>` does; equal
    to any mapping of the same items.
    """

    vector: PVector[V | None] = field(default_factory=pvector)

    def get(self, number: Any, default: Any = None) -> Any:
        if type(number) is int and 0 < number <= len(self.vector):
            value = self.vector[number - 1]
            if value is not None:
                return value
        return default

    def __getitem__(self, number: int) -> V:
        if type(number) is int and 0 < number <= len(self.vector):
            value = self.vector[number - 1]
            if value is not None:
                return value
        raise KeyError(number)

    def __contains__(self, number: object) -> bool:
        return self.get(number) is not None

    def items(self) -> Iterator[tuple[int, V]]:
        """The numbers set and their values, lowest first."""
        return ((n, v) for n, v in enumerate(self.vector, 1) if v is not None)

    def keys(self) -> Iterator[int]:
        return (n for n, _ in self.items())

    __iter__ = keys

    def values(self) -> Iterator[V]:
        return (v for v in self.vector if v is not None)

    def __len__(self) -> int:
        return sum(v is not None for v in self.vector)

    def set(self, number: int, value: V) -> Numbered[V]:
        size = len(self.vector)
        if 0 < number <= size:
            return Numbered(self.vector.set(number - 1, value))
        if number > size:
            return Numbered(self.vector.extend([None] * (number - 1 - size)).append(value))
        raise KeyError(f"numbers start at 1, not {number}")

    def evolver(self) -> NumberedEvolver[V]:
        """Values set in place, then :meth:`NumberedEvolver.persistent` (as a map's evolver)."""
        return NumberedEvolver(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Numbered):
            return self.vector == other.vector
        if isinstance(other, Mapping):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.vector)


class NumberedEvolver(Generic[V]):
    """:meth:`Numbered.evolver`: the vector's own evolver, numbers for indexes."""

    __slots__ = ("_evolver",)

    def __init__(self, numbered: Numbered[V]):
        self._evolver = numbered.vector.evolver()

    def __setitem__(self, number: int, value: V) -> None:
        if not 0 < number:
            raise KeyError(f"numbers start at 1, not {number}")
        while len(self._evolver) < number:
            self._evolver.append(None)
        self._evolver[number - 1] = value

    def remove(self, number: int) -> None:
        if 0 < number <= len(self._evolver):
            self._evolver[number - 1] = None

    def persistent(self) -> Numbered[V]:
        return Numbered(self._evolver.persistent())



@dataclass(frozen=True)
class Timeline:
    """Where the campaign stands: the episode and scene in play, and those already played.

    ``episodes`` is a persistent vector and ``scenes`` and ``scene_episode`` persistent vectors by
    scene number (:class:`Numbered`, equal to the dicts they hold): an episode started or a scene
    opened shares the rest instead of copying it, so a fold stays linear in the history.
    """

    episode: int | None = None
    scene: int | None = None
    episodes: PVector[int] = field(default_factory=pvector)
    scenes: Numbered[SceneOpened] = field(default_factory=Numbered)
    scene_episode: Numbered[int | None] = field(default_factory=Numbered)  # scene -> its episode
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
