"""The cast around the player characters, and the order of the players.

Implements "Supporting Characters" (Minor Characters, Introducing Minor Characters, Recurring
Characters, Introducing Locations), "Order of Precedence" and the theme rota of "Themes": Yarn
0.1, and DramaSystem (lines 61-65, 159-170, 643-693; DS10) in the same words. A ruleset keeps the
:class:`Cast` beside its player characters (its roster's ``cast``: Yarn's
``campaign.rules.characters.cast``, DramaSystem's ``campaign.rules.sheets.cast``), registers the
payloads under its own prefix (:class:`CastEvents`) and composes :class:`SupportingCast`.

Each payload here has a validator ``(payload, campaign, referee) -> payload`` that checks it
against the state before it and fills what the rules derive; deciding a command and auditing a
recorded event both run it (see :data:`COMMANDS` and :data:`VALIDATORS`).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, Final, Literal

from pydantic import Field
from pyrsistent import PMap, PSet, PVector, pmap, pset, pvector

from yarnlog.core.events import Payload, Recorded
from yarnlog.core.frozen import replace
from yarnlog.core.referee import Referee, Rule, invalid, present
from yarnlog.core.ruleset import folds
from yarnlog.core.table import RESERVED_NAMES
from yarnlog.core.timeline import EpisodeStarted, StartEpisode, check_timeline, decide_timeline
from yarnlog.rulesets.dramatic.parameters import Dramatic
from yarnlog.rulesets.dramatic.parts.drama_state import Campaign
from yarnlog.rulesets.dramatic.rules.challenges import Side, challenge_vote

BOOK = "Yarn 0.1"

MINOR: Final = "minor"
RECURRING: Final = "recurring"

INTRODUCING = Rule(
    BOOK,
    "Supporting Characters › Introducing Minor Characters",
    "Characters are introduced for the first time either by the caller, at the top of a scene, or by "
    "any participant, while a scene is already in progress.",
)
BRIEF_DESCRIPTION = Rule(
    BOOK,
    "Supporting Characters › Introducing Minor Characters",
    "When bringing in a new character, give him or her a name and a brief description, no more than "
    "two or three clauses long.",
)
STARTS_RECURRING = Rule(
    BOOK,
    "Supporting Characters › Recurring Characters",
    "Some characters start out as recurring, when their first appearance is a dramatic scene in which "
    "they are called upon to grant a PCs' petition.",
)
PROMOTION = Rule(
    BOOK,
    "Supporting Characters › Recurring Characters",
    "A player can promote a minor character to recurring status by making him or her the object of "
    "his character's emotional needs.",
)
LOCATIONS = Rule(
    BOOK,
    "Supporting Characters › Introducing Locations",
    "The caller, or any participant during a shift in location, provides an introductory description "
    "of the place, which other participants can then elaborate on.",
)
ONE_CARD_PER_PLAYER = Rule(
    BOOK,
    "Order of Precedence",
    "Before play begins, write your player's names on index cards, one card per player. Whenever you "
    "need a precedence order, shuffle them and note the result.",
)
THEME_ROTA = Rule(
    BOOK,
    "Themes",
    "At the end of the first session, the GM chooses the next precedence ranking. It sets out the "
    "order in which players choose the themes for the following episodes.",
)
CALLING_ORDER = Rule(BOOK, "Calling Order", "Before the episode's first scene, the GM picks the next precedence order.")
LOCATION_GROUNDS = Rule(
    BOOK,
    "Supporting Characters › Introducing Locations",
    "A participant who feels that an introduced location detail is out of bounds can challenge it on one of "
    "the following grounds: Consistency [...] Continuity [...] Tone [...] Believability",
)
LOCATION_CHALLENGE = Rule(
    BOOK,
    "Supporting Characters › Introducing Locations",
    "If the GM agrees that the detail fails one of the above tests, she allows a challenge, as per the "
    "standard rules.",
)
NEXT_THEME = Rule(
    BOOK,
    "Themes",
    "The Player choosing the theme for the next episode should make their selection at the end of the "
    "previous session.",
)
#: The grounds of "Introducing Locations", each with the book's test.
GROUNDS: Final = {
    "consistency": "The description is anachronistic or otherwise unsuited to the established setting and genre.",
    "continuity": "The description is inconsistent with what has already been established.",
    "tone": "The description is somehow ridiculous.",
    "believability": "The description defies common sense.",
}


class Purpose(StrEnum):
    """What a precedence order is drawn for: the book's occasions, and any other."""

    CREATION = "creation"  # Step By Step, 2: "GM determines precedence."
    WANTS = "wants"  # Step By Step, 9: "GM chooses a new precedence order."
    PLAY_BEGINS = "play-begins"  # Step By Step, 22: "With a renewed order of precedence [...] play begins."
    THEME_ROTA = "theme-rota"  # Themes
    CALLING_ORDER = "calling-order"  # Calling Order
    PETITIONERS = "petitioners"  # Multiple Petitioners: "in a newly drawn precedence order"
    OTHER = "other"  # "From time to time, the GM determines precedence"


# -- events ---------------------------------------------------------------------------------


class SupportingIntroduced(Payload):
    """A supporting character enters the series: minor, or recurring when first called to grant a petition."""

    name: str = Field(min_length=1)
    description: str
    introduced_by: str
    kind: Literal["minor", "recurring"] = MINOR
    petitioner: str | None = None


class SupportingPromoted(Payload):
    """A player made a minor character the object of his character's emotional needs."""

    name: str
    by_character: str
    need: str


class SupportingDescribed(Payload):
    """A participant fleshes out a supporting character."""

    name: str
    detail: str


class LocationIntroduced(Payload):
    name: str = Field(min_length=1)
    description: str
    introduced_by: str


class LocationElaborated(Payload):
    name: str
    detail: str


class LocationChallenged(Payload):
    """A location detail challenged as out of bounds ("Introducing Locations").

    ``detail`` 0 is the introductory description, ``n`` its n-th elaboration; ``text`` is that detail
    as it stood. When the GM does not allow the challenge there is no vote and the detail stands;
    when she does, the players' show of hands (``for_detail``, ``for_challenger``, her tie-break)
    decides, as for any challenge. ``upheld``: the detail is struck.
    """

    name: str
    detail: int = Field(ge=0)
    text: str
    ground: Literal["consistency", "continuity", "tone", "believability"]
    challenger: str
    gm_allows: bool
    for_detail: list[str] = Field(default_factory=list)
    for_challenger: list[str] = Field(default_factory=list)
    gm_tie_break: Literal["detail", "challenger"] | None = None
    upheld: bool


class ThemeChosen(Payload):
    """The next episode's theme, chosen at the end of the session before it ("Themes")."""

    episode: int = Field(ge=2)
    theme: str = Field(min_length=1)
    chosen_by: str


class PrecedenceDrawn(Payload):
    """A precedence order, noted as the cards came out: shuffled by the tool or entered from the table."""

    purpose: Purpose
    order: list[str] = Field(min_length=1)
    source: Literal["shuffled", "entered"] = "entered"
    note: str = ""


# -- state ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Supporting:
    """A supporting character, portrayed by the GM. ``kind`` is ``"minor"`` or ``"recurring"``."""

    name: str
    kind: str
    description: str
    introduced_by: str
    scene: int | None
    details: tuple[str, ...] = ()
    petitioner: str | None = None  # the PC whose petition it first appeared to grant
    promoted_by: str | None = None  # the PC whose emotional need made it recurring
    need: str = ""
    sequence: int = 0  # the event that introduced it: listings follow the order of introduction


@dataclass(frozen=True)
class Location:
    name: str
    description: str
    introduced_by: str
    scene: int | None
    details: tuple[str, ...] = ()
    struck: tuple[int, ...] = ()  # details a challenge upheld (0: the introductory description)
    sequence: int = 0  # the event that introduced it: listings follow the order of introduction


@dataclass(frozen=True)
class PrecedenceOrder:
    """A drawn order. ``after_episode`` is the last episode started when it was drawn (0: none).

    ``scene`` is the scene in play when it was drawn; ``between_scenes``: none was, in an episode, so
    it belongs to the next scene of that episode (see :func:`scene_of_draw`).
    """

    sequence: int
    purpose: Purpose
    order: tuple[str, ...]
    source: str
    note: str
    episode: int | None
    after_episode: int
    scene: int | None = None
    between_scenes: bool = False


@dataclass(frozen=True)
class Theme:
    theme: str
    chosen_by: str | None


@dataclass(frozen=True)
class Cast:
    """The supporting cast, the locations, every precedence order drawn and each episode's theme.

    Everything that grows with the campaign is a persistent map or vector, so a fold adds one
    entry without copying the rest, and the indexes below answer a validator without a scan.
    """

    supporting: PMap[str, Supporting] = field(default_factory=pmap)
    locations: PMap[str, Location] = field(default_factory=pmap)
    precedence: PVector[PrecedenceOrder] = field(default_factory=pvector)
    themes: PMap[int, Theme] = field(default_factory=pmap)
    #: The last order drawn for each (purpose, episode), so a fold finds the one in force without a scan.
    latest: PMap[tuple[str, int | None], PrecedenceOrder] = field(default_factory=pmap)
    #: Themes chosen for episodes not started yet ("Themes": at the end of the previous session).
    chosen_themes: PMap[int, Theme] = field(default_factory=pmap)
    #: The last order drawn for each purpose, whatever the episode.
    latest_of_purpose: PMap[str, PrecedenceOrder] = field(default_factory=pmap)
    #: The supporting characters' and the locations' names, casefolded: "is this name taken?" in one lookup.
    supporting_folded: PSet[str] = field(default_factory=pset)
    locations_folded: PSet[str] = field(default_factory=pset)
    #: The highest episode started so far (0: none).
    last_episode: int = 0
    #: The names introduced in each scene, in order, and the recurring characters' names: the read
    #: models (a scene's cast, the GM's pool) find them without a scan of the whole supporting cast.
    introduced_in: PMap[int, tuple[str, ...]] = field(default_factory=pmap)
    recurring: PSet[str] = field(default_factory=pset)

    def last_drawn(self, purpose: str, episode: int | None) -> PrecedenceOrder | None:
        """The last precedence order drawn for ``purpose`` in ``episode``."""
        return self.latest.get((purpose, episode))

    def supporting_in_order(self) -> list[Supporting]:
        """The supporting characters in the order they were introduced (a persistent map has none)."""
        return sorted(self.supporting.values(), key=lambda s: s.sequence)

    def locations_in_order(self) -> list[Location]:
        """The locations in the order they were introduced."""
        return sorted(self.locations.values(), key=lambda loc: loc.sequence)


def _detailed(item, detail: str):
    return replace(item, details=item.details + (detail,))


FOLDS = folds(EpisodeStarted, SupportingIntroduced, SupportingPromoted, SupportingDescribed,
              LocationIntroduced, LocationElaborated, LocationChallenged, PrecedenceDrawn, ThemeChosen)


def evolve(cast: Cast, recorded: Recorded) -> Cast:
    payload = recorded.payload
    if isinstance(payload, EpisodeStarted):
        return replace(cast, themes=cast.themes.set(payload.number, Theme(payload.theme, payload.theme_chosen_by)),
                       last_episode=max(cast.last_episode, payload.number))
    if isinstance(payload, ThemeChosen):
        return replace(cast, chosen_themes=cast.chosen_themes.set(payload.episode,
                                                                  Theme(payload.theme, payload.chosen_by)))
    if isinstance(payload, LocationChallenged) and payload.upheld and payload.name in cast.locations:
        place = cast.locations[payload.name]
        return replace(cast, locations=cast.locations.set(payload.name,
                                                          replace(place, struck=place.struck + (payload.detail,))))
    if isinstance(payload, SupportingIntroduced):
        new = Supporting(payload.name, payload.kind, payload.description, payload.introduced_by, recorded.scene,
                         petitioner=payload.petitioner, sequence=recorded.sequence)
        introduced_in = cast.introduced_in if new.scene is None else \
            cast.introduced_in.set(new.scene, cast.introduced_in.get(new.scene, ()) + (new.name,))
        return replace(cast, supporting=cast.supporting.set(new.name, new),
                       supporting_folded=cast.supporting_folded.add(new.name.casefold()), introduced_in=introduced_in,
                       recurring=cast.recurring.add(new.name) if new.kind == RECURRING else
                       cast.recurring.discard(new.name))
    if isinstance(payload, SupportingPromoted) and payload.name in cast.supporting:
        promoted = replace(cast.supporting[payload.name], kind=RECURRING, promoted_by=payload.by_character,
                           need=payload.need)
        return replace(cast, supporting=cast.supporting.set(payload.name, promoted),
                       recurring=cast.recurring.add(payload.name))
    if isinstance(payload, SupportingDescribed) and payload.name in cast.supporting:
        return replace(cast, supporting=cast.supporting.set(
            payload.name, _detailed(cast.supporting[payload.name], payload.detail)))
    if isinstance(payload, LocationIntroduced):
        place = Location(payload.name, payload.description, payload.introduced_by, recorded.scene,
                         sequence=recorded.sequence)
        return replace(cast, locations=cast.locations.set(place.name, place),
                       locations_folded=cast.locations_folded.add(place.name.casefold()))
    if isinstance(payload, LocationElaborated) and payload.name in cast.locations:
        return replace(cast, locations=cast.locations.set(
            payload.name, _detailed(cast.locations[payload.name], payload.detail)))
    if isinstance(payload, PrecedenceDrawn):
        drawn = PrecedenceOrder(recorded.sequence, payload.purpose, tuple(payload.order), payload.source,
                                payload.note, recorded.episode, cast.last_episode, recorded.scene,
                                between_scenes=recorded.scene is None and recorded.episode is not None)
        return replace(cast, precedence=cast.precedence.append(drawn),
                       latest=cast.latest.set((drawn.purpose, drawn.episode), drawn),
                       latest_of_purpose=cast.latest_of_purpose.set(drawn.purpose, drawn))
    return cast


# -- commands -------------------------------------------------------------------------------


@dataclass(frozen=True)
class IntroduceSupporting:
    """``recurring`` with ``petitioner``: its first appearance is to grant that PC's petition."""

    name: str
    description: str
    introduced_by: str
    recurring: bool = False
    petitioner: str | None = None


@dataclass(frozen=True)
class PromoteSupporting:
    name: str
    by_character: str
    need: str


@dataclass(frozen=True)
class DescribeSupporting:
    name: str
    detail: str


@dataclass(frozen=True)
class IntroduceLocation:
    name: str
    description: str
    introduced_by: str


@dataclass(frozen=True)
class ElaborateLocation:
    name: str
    detail: str


@dataclass(frozen=True)
class ChallengeLocation:
    """A challenge to a location detail: ``detail`` 0 is the introductory description, ``n`` the n-th
    elaboration. ``gm_allows`` is the GM's ruling that the detail fails the test of ``ground``; the
    show of hands follows only then."""

    name: str
    ground: str
    challenger: str
    gm_allows: bool
    detail: int = 0
    for_detail: tuple[str, ...] = ()
    for_challenger: tuple[str, ...] = ()
    gm_tie_break: Literal["detail", "challenger"] | None = None


@dataclass(frozen=True)
class ChooseTheme:
    """The next episode's theme; ``chosen_by`` defaults to the player the theme rota names."""

    theme: str
    chosen_by: str | None = None


@dataclass(frozen=True)
class DrawPrecedence:
    """A precedence order: ``order`` as drawn (see :func:`shuffled` for the tool's own shuffle)."""

    purpose: Purpose
    order: tuple[str, ...]
    source: Literal["shuffled", "entered"] = "entered"
    note: str = ""


def shuffled(players: Sequence[str], rng: random.Random | None = None) -> tuple[str, ...]:
    """The players' cards shuffled, from a secure source unless ``rng`` is given."""
    rng = rng or secrets.SystemRandom()
    return tuple(rng.sample(list(players), len(players)))


def payload_of(payload_type: type[Payload]) -> Callable[[Any, Any], Payload]:
    """The builder of a payload whose fields are the command's own (checked by its validator after)."""
    return lambda command, campaign: payload_type(**{f.name: getattr(command, f.name) for f in fields(command)})


# -- validation -----------------------------------------------------------------------------


def _name(name: str) -> str:
    name = name.strip()
    invalid(bool(name), "a name cannot be empty")
    return name


def require_participant(campaign: Campaign, name: str) -> None:
    invalid(campaign.table.knows(name) and name not in campaign.table.departed, f"{name} is not at the table")


def _scene(campaign: Campaign):
    timeline = campaign.timeline
    return timeline.scenes.get(timeline.scene) if timeline.scene is not None else None


#: The GM's tie-break in a location challenge: for the detail (the side of whoever described it) or the challenger.
TIE_SIDES: Final = {"detail": Side.CALLER, "challenger": Side.CHALLENGER}


FIRST_THEME = "the first episode's theme is chosen as it starts (episode start --theme)"


def next_theme_episode(campaign: Campaign) -> int:
    """The episode whose theme is chosen now: the one after the episode in play or last played."""
    return campaign.timeline.next_episode


def _validate_precedence(p: PrecedenceDrawn, campaign: Campaign, referee: Referee) -> PrecedenceDrawn:
    players = campaign.table.players
    for name in p.order:
        invalid(name in players, f"{name} draws no card: not a player")
    invalid(len(set(p.order)) == len(p.order), "a player's card comes out once")
    # Multiple Petitioners: "The GM quizzes each participating player": only those in the scene.
    if p.purpose != Purpose.PETITIONERS:
        missing = [name for name in players if name not in p.order]
        referee.require(not missing, ONE_CARD_PER_PLAYER, f"no card drawn for {', '.join(missing)}")
    timeline = campaign.timeline
    if p.purpose == Purpose.THEME_ROTA:
        referee.require(list(timeline.episodes[-1:]) == [1], THEME_ROTA,
                        "the theme rota is drawn at the end of the first session")
    if p.purpose == Purpose.CALLING_ORDER:
        referee.require(
            # Scenes are numbered in the order they open: the episode has had one if the last one is its.
            timeline.episode is not None and timeline.scene_episode.get(timeline.last_scene) != timeline.episode,
            CALLING_ORDER, "a calling order is drawn in an episode, before its scenes",
        )
    return p


THEMES = Rule(
    BOOK, "Themes",
    "The first player in the precedence order chooses the theme for the second session, the second choose "
    "for the third session, and so on. Once everyone has had a chance to pick a theme, start over again",
)


@dataclass(frozen=True)
class CastEvents:
    """The cast's payloads as one ruleset registers them under its prefix."""

    introduced: type[SupportingIntroduced]
    promoted: type[SupportingPromoted]
    described: type[SupportingDescribed]
    location_introduced: type[LocationIntroduced]
    location_elaborated: type[LocationElaborated]
    location_challenged: type[LocationChallenged]
    theme_chosen: type[ThemeChosen]
    precedence_drawn: type[PrecedenceDrawn]


@dataclass(frozen=True)
class SupportingCast:
    """The supporting cast, locations, precedence orders and themes as one ruleset has them: its
    :class:`Dramatic` (whose roster holds the :class:`Cast`) and its payloads."""

    dramatic: Dramatic
    events: CastEvents

    def cast(self, campaign: Campaign) -> Cast:
        """The campaign's cast (its roster's)."""
        cast: Cast = self.dramatic.roster(campaign).cast
        return cast

    def check_new_character_name(self, campaign: Campaign, name: str) -> str:
        """A new character's name, unless a character or a participant already bears it."""
        name = _name(name)
        folded = name.casefold()
        characters = self.dramatic.roster(campaign)
        taken = folded in characters.cast.supporting_folded or any(n.casefold() == folded for n in characters.pcs)
        invalid(not taken, f"there is already a character called {name}")
        people = {n.casefold() for n in campaign.table.roles} | RESERVED_NAMES
        invalid(folded not in people,
                f"{name} is a participant's name (or a reserved word): characters and people need distinct names")
        return name

    def require_active_pc(self, campaign: Campaign, name: str) -> None:
        sheet = present(self.dramatic.roster(campaign).pcs.get(name), f"{name} is not a player character")
        invalid(sheet.active, f"{name} is retired from play")

    def _validate_introduced(self, p: SupportingIntroduced, campaign: Campaign,
                             referee: Referee) -> SupportingIntroduced:
        name = self.check_new_character_name(campaign, p.name)
        require_participant(campaign, p.introduced_by)
        referee.require(_scene(campaign) is not None, INTRODUCING, f"{name} is introduced outside a scene")
        referee.require(bool(p.description.strip()), BRIEF_DESCRIPTION, f"{name} has no description")
        if p.kind == RECURRING:
            petitioner = present(p.petitioner,
                                 "a character who starts out recurring grants a PC's petition: name the PC")
            self.require_active_pc(campaign, petitioner)
            scene = _scene(campaign)
            referee.require(scene is not None and scene.mode == "dramatic", STARTS_RECURRING,
                            f"{name} does not first appear in a dramatic scene")
        else:
            invalid(p.petitioner is None, "only a character who starts out recurring names the petitioner")
        return p.model_copy(update={"name": name, "description": p.description.strip()})

    def _validate_promoted(self, p: SupportingPromoted, campaign: Campaign, referee: Referee) -> SupportingPromoted:
        found = present(self.cast(campaign).supporting.get(p.name), f"{p.name} is not a supporting character")
        invalid(found.kind == MINOR, f"{p.name} is already a recurring character")
        self.require_active_pc(campaign, p.by_character)
        referee.require(bool(p.need.strip()), PROMOTION, f"{p.by_character} names no emotional need of {p.name}")
        return p

    def _validate_described(self, p: SupportingDescribed, campaign: Campaign, referee: Referee) -> SupportingDescribed:
        invalid(p.name in self.cast(campaign).supporting, f"{p.name} is not a supporting character")
        invalid(bool(p.detail.strip()), "a detail needs some text")
        return p

    def validate_location(self, p: LocationIntroduced, campaign: Campaign, referee: Referee) -> LocationIntroduced:
        name = _name(p.name)
        known = self.cast(campaign).locations_folded
        invalid(name.casefold() not in known, f"the location {name} is already introduced")
        require_participant(campaign, p.introduced_by)
        referee.require(bool(p.description.strip()), LOCATIONS, f"{name} has no introductory description")
        return p.model_copy(update={"name": name, "description": p.description.strip()})

    def _validate_elaborated(self, p: LocationElaborated, campaign: Campaign, referee: Referee) -> LocationElaborated:
        invalid(p.name in self.cast(campaign).locations, f"{p.name} is not an introduced location")
        invalid(bool(p.detail.strip()), "a detail needs some text")
        return p

    def _validate_location_challenge(self, p: LocationChallenged, campaign: Campaign,
                                     referee: Referee) -> LocationChallenged:
        """"Introducing Locations": a detail out of bounds, the GM's leave, then the standard vote ("Challenges")."""
        place = present(self.cast(campaign).locations.get(p.name), f"{p.name} is not an introduced location")
        invalid(0 <= p.detail <= len(place.details),
                f"{p.name} has {len(place.details)} elaboration(s): detail 0 is its introductory description")
        invalid(p.detail not in place.struck, f"that detail of {p.name} was already struck by a challenge")
        require_participant(campaign, p.challenger)
        invalid(p.ground in GROUNDS,
                f"a location detail is challenged on {', '.join(GROUNDS)} ({LOCATION_GROUNDS.cite()})")
        text = place.details[p.detail - 1] if p.detail else place.description
        if not p.gm_allows:
            # No vote: "If the GM agrees that the detail fails one of the above tests, she allows a challenge".
            invalid(not (p.for_detail or p.for_challenger or p.gm_tie_break),
                    f"the GM did not allow the challenge: there is no vote ({LOCATION_CHALLENGE.cite()})")
            return p.model_copy(update={"text": text, "upheld": False})
        vote = challenge_vote(referee, players=campaign.table.players, challenger=p.challenger, for_caller=p.for_detail,
                              for_challenger=p.for_challenger,
                              gm_tie_break=TIE_SIDES[p.gm_tie_break] if p.gm_tie_break else None)
        return p.model_copy(update={"text": text, "for_detail": sorted(vote.for_caller),
                                    "for_challenger": sorted(vote.for_challenger),
                                    "upheld": vote.winner is Side.CHALLENGER})

    def _validate_theme_chosen(self, p: ThemeChosen, campaign: Campaign, referee: Referee) -> ThemeChosen:
        """"Themes": the next episode's theme, by the player the rota names, at the end of the session before."""
        timeline = campaign.timeline
        invalid(bool(timeline.episodes), FIRST_THEME)
        invalid(p.episode == next_theme_episode(campaign),
                f"a theme is chosen for the next episode, {next_theme_episode(campaign)}, not {p.episode}")
        invalid(bool(p.theme.strip()), "a theme needs some words")
        chooser = theme_chooser(self.cast(campaign), p.episode)
        if chooser is None:
            invalid(p.chosen_by in campaign.table.players or campaign.table.is_gm(p.chosen_by),
                    f"{p.chosen_by} is not at the table to choose a theme")
        else:
            referee.require(p.chosen_by == chooser, THEMES,
                            f"by the theme rota {chooser} chooses the theme of episode {p.episode}, not {p.chosen_by}")
        return p.model_copy(update={"theme": p.theme.strip()})

    def _theme_chosen(self, command: ChooseTheme, campaign: Campaign) -> ThemeChosen:
        invalid(bool(campaign.timeline.episodes), FIRST_THEME)
        episode = next_theme_episode(campaign)
        chooser = command.chosen_by or theme_chooser(self.cast(campaign), episode)
        chooser = present(chooser, "no theme rota is drawn: name who chooses the theme")
        return self.events.theme_chosen(episode=episode, theme=command.theme, chosen_by=chooser)

    def _location_challenged(self, command: ChallengeLocation, campaign: Campaign) -> LocationChallenged:
        invalid(command.ground in GROUNDS,
                f"a location detail is challenged on {', '.join(GROUNDS)}, not {command.ground!r}")
        invalid(command.gm_tie_break in (None, *TIE_SIDES), "the GM breaks a tie for the detail or the challenger")
        return self.events.location_challenged(name=command.name, detail=command.detail, text="", ground=command.ground,
                                  challenger=command.challenger, gm_allows=command.gm_allows,
                                  for_detail=list(command.for_detail), for_challenger=list(command.for_challenger),
                                  gm_tie_break=command.gm_tie_break, upheld=False)

    def _introduction(self, command: IntroduceSupporting, campaign: Campaign) -> SupportingIntroduced:
        return self.events.introduced(name=command.name, description=command.description,
                                    introduced_by=command.introduced_by,
                                    kind=RECURRING if command.recurring else MINOR, petitioner=command.petitioner)

    def _episode_started(self, command: StartEpisode, campaign: Campaign) -> EpisodeStarted:
        """The journal's episode start, naming the theme's chooser from the rota when none is given."""
        decided = decide_timeline(command, campaign.timeline)
        assert decided is not None  # StartEpisode is the journal's own command
        [payload] = decided
        assert isinstance(payload, EpisodeStarted)  # what StartEpisode decides
        cast = self.cast(campaign)
        chosen = cast.chosen_themes.get(payload.number)
        if chosen is not None and not payload.theme:  # chosen at the end of the session before
            payload = payload.model_copy(update={"theme": chosen.theme,
                                                 "theme_chosen_by": payload.theme_chosen_by or chosen.chosen_by})
        chooser = theme_chooser(cast, payload.number)
        if payload.theme_chosen_by is None and chooser is not None:
            payload = payload.model_copy(update={"theme_chosen_by": chooser})
        return payload

    def _validate_theme_chooser(self, payload: EpisodeStarted, campaign: Campaign, referee: Referee) -> EpisodeStarted:
        """The journal's episode start, whose theme is chosen by the player the rota names; the first
        one also waits for every PC to be wanted by two others where the ruleset says so (step 14, DS9)."""
        # Imported here: the relationship map reads this module's kinds of supporting character.
        from yarnlog.rulesets.dramatic.parts.relationship_map import check_wants_before_play

        checked = check_timeline(payload, campaign.timeline)
        assert isinstance(checked, EpisodeStarted)  # check_timeline gives back the payload it checks, numbered
        payload = checked
        check_wants_before_play(self.dramatic, campaign, referee, payload.number)
        chooser = theme_chooser(self.cast(campaign), payload.number)
        if chooser is not None and payload.theme_chosen_by is not None:
            referee.require(payload.theme_chosen_by == chooser, THEMES,
                            f"by the theme rota {chooser} chooses the theme of episode {payload.number}, "
                            f"not {payload.theme_chosen_by}")
        chosen = self.cast(campaign).chosen_themes.get(payload.number)
        if chosen is not None:
            referee.require(payload.theme == chosen.theme, NEXT_THEME,
                            f"{chosen.chosen_by} chose {chosen.theme!r} for episode {payload.number}: start it so")
        return payload

    @property
    def COMMANDS(self) -> Mapping[type, Callable[[Any, Any], Payload]]:  # noqa: N802 (a module's name)
        """Command type -> builder ``(command, campaign) -> payload`` (validated afterwards)."""
        e = self.events
        return {
            StartEpisode: self._episode_started,
            IntroduceSupporting: self._introduction,
            PromoteSupporting: payload_of(e.promoted),
            DescribeSupporting: payload_of(e.described),
            IntroduceLocation: payload_of(e.location_introduced),
            ElaborateLocation: payload_of(e.location_elaborated),
            DrawPrecedence: payload_of(e.precedence_drawn),
            ChallengeLocation: self._location_challenged,
            ChooseTheme: self._theme_chosen,
        }

    @property
    def VALIDATORS(self) -> Mapping[type, Callable[[Any, Any, Referee], Payload]]:  # noqa: N802 (a module's name)
        """Payload type -> validator ``(payload, campaign, referee) -> payload``, citing the ruleset's book."""
        e, cite = self.events, self.dramatic.referee
        checks: dict[type, Callable[[Any, Any, Referee], Payload]] = {
            e.introduced: self._validate_introduced,
            e.promoted: self._validate_promoted,
            e.described: self._validate_described,
            e.location_introduced: self.validate_location,
            e.location_elaborated: self._validate_elaborated,
            e.precedence_drawn: _validate_precedence,
            EpisodeStarted: self._validate_theme_chooser,
            e.location_challenged: self._validate_location_challenge,
            e.theme_chosen: self._validate_theme_chosen,
        }
        return {t: (lambda check: lambda p, c, r: check(p, c, cite(r)))(check) for t, check in checks.items()}

    def decide(self, command: Any, campaign: Campaign, referee: Referee) -> list[Payload] | None:
        """The payload of a command of the cast, validated (the characters part's way: built, then checked)."""
        build = self.COMMANDS.get(type(command))
        if build is None:
            return None
        payload = build(command, campaign)
        return [self.VALIDATORS[type(payload)](payload, campaign, referee)]


# -- projections ----------------------------------------------------------------------------


def latest_precedence(cast: Cast, purpose: Purpose | None = None) -> PrecedenceOrder | None:
    """The last order drawn (for ``purpose``, if given)."""
    if purpose is not None:
        return cast.latest_of_purpose.get(purpose)
    return cast.precedence[-1] if cast.precedence else None


def theme_chooser(cast: Cast, episode: int) -> str | None:
    """Who chooses the theme of ``episode`` by the rota ("Themes"), or None before it or without one.

    "The first player in the precedence order chooses the theme for the second session, the second
    choose for the third session, and so on. Once everyone has had a chance to pick a theme, start
    over again". The rota starts with the episode after the one it was drawn at (the second, by
    the book); a rota redrawn later under a GM override starts after its own episode.
    """
    rota = latest_precedence(cast, Purpose.THEME_ROTA)
    if rota is None:
        return None
    first = rota.after_episode + 1
    if episode < first:
        return None
    return rota.order[(episode - first) % len(rota.order)]


def theme_rota(cast: Cast) -> list[dict]:
    """Each episode from the rota's first until everyone has chosen once (and any played since)."""
    rota = latest_precedence(cast, Purpose.THEME_ROTA)
    if rota is None:
        return []
    first = rota.after_episode + 1
    last = max(first + len(rota.order) - 1, cast.last_episode)
    rows = []
    for number in range(first, last + 1):
        played = cast.themes.get(number)
        chosen = played or cast.chosen_themes.get(number)
        rows.append({"episode": number, "chooser": theme_chooser(cast, number),
                     "theme": chosen.theme if chosen else None, "chosen_by": chosen.chosen_by if chosen else None})
    return rows


#: A scene as it was opened: (number, episode, sequence of its ``scene.opened``).
Opening = tuple[int, int | None, int]


def scene_of_draw(order: PrecedenceOrder, openings: Iterable[Opening]) -> int | None:
    """The scene a draw belongs to: the scene in play when it was drawn or, for one drawn between scenes
    (after one closed, or before an episode's first), the next scene opened in its episode: the one it
    was drawn for, not the one just closed. None while that scene is not called yet."""
    if not order.between_scenes:
        return order.scene
    later = [number for number, episode, opened_at in openings
             if episode == order.episode and opened_at > order.sequence]
    return min(later, default=None)


def precedence_data(cast: Cast, openings: Iterable[Opening] = ()) -> dict:
    """Every precedence order drawn (with its scene, given the scenes' ``openings``), and the theme rota."""
    openings = tuple(openings)
    return {
        "orders": [{"sequence": o.sequence, "purpose": o.purpose.value, "order": list(o.order), "source": o.source,
                    "note": o.note, "episode": o.episode, "scene": scene_of_draw(o, openings)}
                   for o in cast.precedence],
        "theme_rota": theme_rota(cast),
        "chosen_themes": [{"episode": n, "theme": t.theme, "chosen_by": t.chosen_by}
                          for n, t in sorted(cast.chosen_themes.items())],
    }


def supporting_data(s: Supporting) -> dict:
    return {"name": s.name, "kind": s.kind, "description": s.description, "details": list(s.details),
            "introduced_by": s.introduced_by, "scene": s.scene, "petitioner": s.petitioner,
            "promoted_by": s.promoted_by, "need": s.need}


def location_data(loc: Location) -> dict:
    return {"name": loc.name, "description": loc.description, "details": list(loc.details),
            "introduced_by": loc.introduced_by, "scene": loc.scene, "struck": list(loc.struck)}
