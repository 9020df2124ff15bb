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

V = TypeVar("V")


#: How many numbers a block of a :class:`Numbered` holds.
BLOCK = 64


@dataclass(frozen=True, eq=False)
class Numbered(Generic[V]):
    """What is kept by number for things numbered 1, 2, 3... (scenes, numbered through the campaign
    one after another), read as a mapping from number to value: the values in fixed blocks of
    :data:`BLOCK` numbers, ``blocks`` a persistent map from a block's index (``(n - 1) // BLOCK``)
    to a persistent vector of its values, None for a number not set. A snapshot keeps the map of
    blocks in chunks (:class:`~yarnlog.core.chunked_map.ChunkedMap`), so reading or setting one number
    decodes the chunk of blocks it falls in, not every value. A value of None is not told from no
    value: :meth:`get` gives None for both, and ``in`` says no. ``count`` is how many are set.

    ``set`` gives a new one sharing the rest, as :meth:`PMap.set <pyrsistent.PMap.set>` does; equal
    to any mapping of the same items. A block left with no value is dropped, so two equal
    ``Numbered`` have equal blocks.
    """

    blocks: PMap[int, PVector[V | None]] = field(default_factory=pmap)
    count: int = 0
    #: A snapshot splits it into its fields wherever it falls (its blocks are kept in chunks).
    split_in_snapshots: ClassVar[bool] = True

    def get(self, number: Any, default: Any = None) -> Any:
        if type(number) is int and number > 0:
            block = self.blocks.get((number - 1) // BLOCK)
            if block is not None:
                value = block[(number - 1) % BLOCK]
                if value is not None:
                    return value
        return default

    def __getitem__(self, number: int) -> V:
        value = self.get(number)
        if value is None:
            raise KeyError(number)
        return value  # type: ignore[no-any-return]

    def __contains__(self, number: object) -> bool:
        return self.get(number) is not None

    def items(self) -> Iterator[tuple[int, V]]:
        """The numbers set and their values, lowest first."""
        for index, block in sorted(self.blocks.items(), key=lambda item: item[0]):
            base = index * BLOCK + 1
            for offset, value in enumerate(block):
                if value is not None:
                    yield base + offset, value

    def keys(self) -> Iterator[int]:
        return (n for n, _ in self.items())

    __iter__ = keys

    def values(self) -> Iterator[V]:
        return (v for _, v in self.items())

    def __len__(self) -> int:
        return self.count

    def set(self, number: int, value: V) -> Numbered[V]:
        if not number > 0:
            raise KeyError(f"numbers start at 1, not {number}")
        index, offset = divmod(number - 1, BLOCK)
        block = self.blocks.get(index)
        if block is None:
            if value is None:
                return self
            block = pvector([None] * BLOCK)
        was = block[offset]
        block = block.set(offset, value)
        count = self.count + (value is not None) - (was is not None)
        if value is None and not any(v is not None for v in block):
            return Numbered(self.blocks.discard(index), count)
        return Numbered(self.blocks.set(index, block), count)

    def evolver(self) -> NumberedEvolver[V]:
        """Values set in place, then :meth:`NumberedEvolver.persistent` (as a map's evolver)."""
        return NumberedEvolver(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Numbered):
            return self.count == other.count and (self.blocks is other.blocks or self.blocks == other.blocks)
        if isinstance(other, Mapping):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.blocks)


class NumberedEvolver(Generic[V]):
    """:meth:`Numbered.evolver`: the blocks set are thawed into lists, numbers for keys; :meth:`persistent`
    writes them back (the others shared)."""

    __slots__ = ("_numbered", "_blocks", "_count")

    def __init__(self, numbered: Numbered[V]):
        self._numbered = numbered
        self._blocks: dict[int, list[V | None]] = {}
        self._count = numbered.count

    def _block(self, index: int) -> list[V | None]:
        block = self._blocks.get(index)
        if block is None:
            frozen = self._numbered.blocks.get(index)
            block = self._blocks[index] = list(frozen) if frozen is not None else [None] * BLOCK
        return block

    def __setitem__(self, number: int, value: V | None) -> None:
        if not 0 < number:
            raise KeyError(f"numbers start at 1, not {number}")
        index, offset = divmod(number - 1, BLOCK)
        block = self._block(index)
        self._count += (value is not None) - (block[offset] is not None)
        block[offset] = value

    def remove(self, number: int) -> None:
        if 0 < number:
            self[number] = None

    def persistent(self) -> Numbered[V]:
        if self._blocks:
            blocks = self._numbered.blocks
            for index, block in sorted(self._blocks.items()):
                if any(v is not None for v in block):
                    blocks = blocks.set(index, pvector(block))
                else:
                    blocks = blocks.discard(index)
            self._numbered = Numbered(blocks, self._count)
            self._blocks = {}
        return self._numbered


@dataclass(frozen=True)
class Timeline:
    """Where the campaign stands: the episode and scene in play, and those already played.

    ``episodes`` is a persistent vector and ``scenes`` and ``scene_episode`` persistent blocks by
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
        invalid(timeline.episode is None, f"episode {timeline.episode} is in play: end it first")
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
        invalid(timeline.episode is None, f"episode {timeline.episode} is in play: end it first")
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
