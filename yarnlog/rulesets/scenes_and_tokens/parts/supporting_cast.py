"""The cast around the player characters, and the order of the players.

Implements "Supporting Characters" (Minor Characters, Introducing Minor Characters, Recurring
Characters, Introducing Locations), "Order of Precedence" and the theme rota of "Themes": Yarn
0.1, and DramaSystem (lines 61-65, 159-170, 643-693; DS10) in the same words. A ruleset keeps the
:class:`Cast` beside its player characters (its roster's ``cast``: Yarn's
``campaign.rules.characters.cast``, DramaSystem's ``campaign.rules.sheets.cast``), registers the
payloads under its own prefix and composes the moves on them (:mod:`.cast_moves`).

Here: the rules quoted, the payloads, the :class:`Cast` they fold into, and the cast's views.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final, Literal

from pydantic import Field
from pyrsistent import PMap, PSet, PVector, pmap, pset, pvector

from yarnlog.core.composition import folds
from yarnlog.core.events import Payload, Recorded
from yarnlog.core.frozen import replace
from yarnlog.core.referee import Rule
from yarnlog.core.timeline import EpisodeStarted

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
