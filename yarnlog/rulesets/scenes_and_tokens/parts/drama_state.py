"""The drama slice of the shared core: scenes as called, the calling order, forces, bennies and ballots.

Shared by the modules of a ruleset's drama part (scene calls, challenges, petitions, bennie spends
and the bennie vote), which each fold and decide their own events over this one slice, held as
``campaign.rules.drama`` in every ruleset that composes the core.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pyrsistent import PMap, PVector, pmap, pvector

from yarnlog.core.corrections import OverrideRecorded
from yarnlog.core.events import Payload, Recorded
from yarnlog.core.frozen import replace
from yarnlog.core.referee import Referee, present
from yarnlog.core.ruleset import CampaignState
from yarnlog.core.table import CampaignCreated
from yarnlog.core.thawed import ThawedMap, ThawedVector
from yarnlog.core.timeline import EpisodeEnded, Numbered
from yarnlog.rulesets.scenes_and_tokens.rules.bennies import Ballot, BennieSpend
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import ForcedScene

#: A campaign of any ruleset that composes the shared core (its state has ``drama`` and ``economy``).
Campaign = CampaignState[Any]


@dataclass(frozen=True)
class CastChange:
    """A character leaving or entering a scene in play ("Ducking a Scene", "Rushing a Scene").

    ``how``: ``"ducked"`` (out of the cast), ``"rushed"`` (in, paying a token or a bennie against
    the caller's wish), ``"brought in"`` (in, free, with the caller's consent: how a supporting
    character introduced mid-scene joins it) or ``"blocked"`` (a rush the caller blocked with a
    bennie: the cast stays as it was). ``sequence``: the event that recorded it.
    """

    character: str
    how: str
    sequence: int


@dataclass(frozen=True)
class SceneCall:
    """A scene as the drama part knows it; ``cast`` follows ducks and rushes.

    ``called`` is the cast as the caller named it; ``changes`` every duck and rush since, in order.
    """

    number: int
    episode: int | None
    caller: str
    cast: tuple[str, ...]
    mode: str | None = None
    kind: str | None = None
    time_break: str = ""
    opened_at: int = 0  # the sequence of its scene.opened
    in_turn: bool = True
    cost_due: bool = False
    settled_by: str | None = None  # the event type of the exchange that ended it
    called: tuple[str, ...] = ()
    changes: tuple[CastChange, ...] = ()
    role: str | None = None  # opener, development or closer ("Scenes"), once named
    places: tuple[str, ...] = ()  # where it moved as it unfolded, in order ("Calling Scenes": Setting)
    montage_actions: tuple[tuple[str, str], ...] = ()  # (character, action) called during a montage


@dataclass(frozen=True)
class Recall:
    """A caller allowed to call the next scene at once, out of the calling order, and why."""

    caller: str
    reason: str


@dataclass(frozen=True)
class CallingOrder:
    """An episode's calling order ("Calling Order") and how far it has gone round."""

    order: tuple[str, ...]
    turn: int = 0
    skips: tuple[str, ...] = ()  # queue-jumpers whose next turn is skipped

    @property
    def next_caller(self) -> str:
        return self.order[self.turn % len(self.order)]


@dataclass(frozen=True)
class Drama:
    """Everything the drama part remembers."""

    gm: str = ""
    theme_choosers: Mapping[int, str | None] = field(default_factory=dict)
    calling: PMap[int, CallingOrder] = field(default_factory=pmap)  # persistent maps: a fold adds without copying
    scenes: Numbered[SceneCall] = field(default_factory=Numbered)  # by number: a vector
    recall: Recall | None = None
    forced: tuple[ForcedScene, ...] = ()  # this episode's: "no re-runs this episode", forgotten at its end
    bennie_spends: PVector[BennieSpend] = field(default_factory=pvector)  # every one, for the bennies report
    #: The bennies spent in each scene, so "one bennie per scene" is checked without a scan of them all.
    spends_by_scene: PMap[int, tuple[BennieSpend, ...]] = field(default_factory=pmap)
    ballots: PMap[int, PMap[str, Ballot]] = field(default_factory=pmap)  # the episode in play's (by episode)
    tallies: PMap[int, str] = field(default_factory=pmap)  # episode -> its tally's figures (bennie_vote.kept_tally)
    overridden_through: int = 0  # the last event recorded under a GM override
    closers: PMap[int, int] = field(default_factory=pmap)  # episode -> the scene named its closer

    def spends_in(self, scene: int) -> tuple[BennieSpend, ...]:
        """The bennies spent in ``scene`` so far."""
        return self.spends_by_scene.get(scene, ())

    def calling_of(self, episode: int | None) -> CallingOrder | None:
        """The calling order of ``episode`` as followed so far (none outside an episode)."""
        return self.calling.get(episode) if episode is not None else None


class DramaBuilder:
    """The drama slice thawed for a replay (a :class:`~yarnlog.core.ruleset.SliceBuilder`): its fields
    set in place, its growing maps and the spends thawed (:mod:`yarnlog.core.thawed`), frozen into a
    new :class:`Drama` by :meth:`freeze`.

    ``fold(drama_builder, recorded, before)`` is the ruleset's drama part folded in place (each
    module's ``fold_in_place``, the twin of its ``evolve``); ``before`` is the state before the event.
    The calling order's helpers read it as they read a :class:`Drama` (``gm``, ``recall``,
    :meth:`calling_of`).
    """

    def __init__(self, drama: Drama, fold: Callable[[DramaBuilder, Recorded, Any], None]):
        self._fold = fold
        self.gm = drama.gm
        self.theme_choosers = drama.theme_choosers
        self.calling: ThawedMap[int, CallingOrder] = ThawedMap(drama.calling)
        self.scenes: ThawedMap[int, SceneCall] = ThawedMap(drama.scenes)
        self.recall = drama.recall
        self.forced = drama.forced
        self.bennie_spends: ThawedVector[BennieSpend] = ThawedVector(drama.bennie_spends)
        self.spends_by_scene: ThawedMap[int, tuple[BennieSpend, ...]] = ThawedMap(drama.spends_by_scene)
        self.ballots: ThawedMap[int, PMap[str, Ballot]] = ThawedMap(drama.ballots)
        self.tallies: ThawedMap[int, str] = ThawedMap(drama.tallies)
        self.overridden_through = drama.overridden_through
        self.closers: ThawedMap[int, int] = ThawedMap(drama.closers)

    def calling_of(self, episode: int | None) -> CallingOrder | None:
        """As :meth:`Drama.calling_of`."""
        return self.calling.get(episode) if episode is not None else None

    def fold(self, recorded: Recorded, before: Any) -> None:
        self._fold(self, recorded, before)

    def freeze(self) -> Drama:
        return Drama(gm=self.gm, theme_choosers=self.theme_choosers, calling=self.calling.freeze(),
                     scenes=self.scenes.freeze(), recall=self.recall, forced=self.forced,
                     bennie_spends=self.bennie_spends.freeze(), spends_by_scene=self.spends_by_scene.freeze(),
                     ballots=self.ballots.freeze(), tallies=self.tallies.freeze(),
                     overridden_through=self.overridden_through, closers=self.closers.freeze())


P = TypeVar("P", bound=Payload)

#: ``validate(payload, campaign_state, referee) -> payload``, for payloads of type ``P``.
Validator = Callable[[P, Campaign, Referee], Payload]


def drama_of(campaign: Campaign) -> Drama:
    return campaign.rules.drama


def scene_in_play(campaign: Campaign) -> SceneCall:
    """The scene in play, as called (nonsense to act in a scene when none is in play)."""
    number = present(campaign.timeline.scene, "no scene is in play: call one")
    return present(drama_of(campaign).scenes.get(number),
                   f"scene {number} was not called under the rules of this campaign")


def forces_among(drama: Drama, episode: int | None, cast: Iterable[str]) -> list[ForcedScene]:
    """The forces of ``episode`` between two characters of ``cast`` ("Forcing": no re-runs this episode)."""
    return [f for f in drama.forced if f.episode == episode and {f.petitioner, f.granter} <= set(cast)]


def rebuilt(build: Callable[[Campaign, Referee, P], Payload | None]) -> Validator[P]:
    """A validator from ``build(campaign, referee, recorded)``, the function that decided the move.

    It decides the move again from the recorded payload's own facts; what it gives is what the
    rules derive (nothing at all is nonsense: the rules record no such event).
    """
    def validate(recorded: P, campaign: Campaign, referee: Referee) -> Payload:
        return present(build(campaign, referee, recorded), "the rules record no such event")

    return validate


#: The journal's own events that change the drama slice (:func:`journal_fold`).
JOURNAL_FOLDS = (CampaignCreated, OverrideRecorded, EpisodeEnded)


def journal_fold(drama: Drama, recorded: Recorded) -> Drama:
    """What the journal's own events change in the slice: the GM, how far an override reaches, and
    at an episode's end its forces done with and any call owed forgotten (DS11, DS24)."""
    p = recorded.payload
    if isinstance(p, CampaignCreated):
        return replace(drama, gm=p.gm)
    if isinstance(p, OverrideRecorded):
        return replace(drama, overridden_through=recorded.sequence + p.covers)
    if isinstance(p, EpisodeEnded):
        return replace(drama, recall=None, forced=())
    return drama


def journal_fold_in_place(drama: DramaBuilder, recorded: Recorded) -> None:
    """:func:`journal_fold` in a replay, on the thawed slice."""
    p = recorded.payload
    if isinstance(p, CampaignCreated):
        drama.gm = p.gm
    elif isinstance(p, OverrideRecorded):
        drama.overridden_through = recorded.sequence + p.covers
    elif isinstance(p, EpisodeEnded):
        drama.recall, drama.forced = None, ()
