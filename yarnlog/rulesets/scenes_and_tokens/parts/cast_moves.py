"""The moves on the supporting cast, locations, precedence orders and themes: the commands typed at
the table, the validator of each payload ``(payload, campaign, referee) -> payload`` (it checks the
payload against the state before it and fills what the rules derive; deciding a command and
auditing a recorded event both run it), and :class:`SupportingCast`, the decider a ruleset composes
with its :class:`Dramatic` and its payloads (:class:`CastEvents`).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Final, Literal

from yarnlog.core.events import Payload
from yarnlog.core.referee import Referee, Rule, invalid, present
from yarnlog.core.table import RESERVED_NAMES
from yarnlog.core.timeline import EpisodeStarted, StartEpisode, check_timeline, decide_timeline
from yarnlog.rulesets.scenes_and_tokens.parameters import Dramatic
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import Campaign
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import (
    BOOK,
    BRIEF_DESCRIPTION,
    CALLING_ORDER,
    GROUNDS,
    INTRODUCING,
    LOCATION_CHALLENGE,
    LOCATION_GROUNDS,
    LOCATIONS,
    MINOR,
    NEXT_THEME,
    ONE_CARD_PER_PLAYER,
    PROMOTION,
    RECURRING,
    STARTS_RECURRING,
    THEME_ROTA,
    Cast,
    LocationChallenged,
    LocationElaborated,
    LocationIntroduced,
    PrecedenceDrawn,
    Purpose,
    SupportingDescribed,
    SupportingIntroduced,
    SupportingPromoted,
    ThemeChosen,
    theme_chooser,
)
from yarnlog.rulesets.scenes_and_tokens.prefixed import under_prefix
from yarnlog.rulesets.scenes_and_tokens.rules.challenges import Side, challenge_vote

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
            CALLING_ORDER, "a calling order comes before the scenes",
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

    @classmethod
    def under(cls, prefix: str, precedence_told_with_next_scene: bool = False) -> CastEvents:
        """The payloads as the ruleset of ``prefix`` records them; a precedence order drawn between
        scenes is told with the next scene if the ruleset says so."""
        return cls(
            introduced=under_prefix(SupportingIntroduced, prefix, "supporting.introduced"),
            promoted=under_prefix(SupportingPromoted, prefix, "supporting.promoted"),
            described=under_prefix(SupportingDescribed, prefix, "supporting.described"),
            location_introduced=under_prefix(LocationIntroduced, prefix, "location.introduced"),
            location_elaborated=under_prefix(LocationElaborated, prefix, "location.elaborated"),
            location_challenged=under_prefix(LocationChallenged, prefix, "location.challenged"),
            theme_chosen=under_prefix(ThemeChosen, prefix, "theme.chosen"),
            precedence_drawn=under_prefix(PrecedenceDrawn, prefix, "precedence.drawn",
                                          told_with_next_scene=precedence_told_with_next_scene),
        )


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
        referee.require(_scene(campaign) is not None, INTRODUCING, f"{name} is introduced out of scene")
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
        from yarnlog.rulesets.scenes_and_tokens.parts.relationship_map import check_wants_before_play

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
