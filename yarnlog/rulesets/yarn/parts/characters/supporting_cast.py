"""The cast around Yarn's player characters, and the order of the players: the shared core's
(:mod:`yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast`), recorded under Yarn's prefix.

This is one half of the ``characters`` part: :mod:`.part` composes it with the player characters,
so its state is ``campaign.rules.characters.cast``. The core's names are re-exported here.
"""

from __future__ import annotations

from typing import Any

from yarnlog.core.events import event
from yarnlog.rulesets.scenes_and_tokens.parts import supporting_cast as _core
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import (
    CALLING_ORDER,
    FOLDS,
    GROUNDS,
    INTRODUCING,
    LOCATIONS,
    MINOR,
    NEXT_THEME,
    PROMOTION,
    RECURRING,
    THEMES,
    Cast,
    CastEvents,
    ChallengeLocation,
    ChooseTheme,
    DescribeSupporting,
    DrawPrecedence,
    ElaborateLocation,
    IntroduceLocation,
    IntroduceSupporting,
    Location,
    PrecedenceOrder,
    PromoteSupporting,
    Purpose,
    Supporting,
    SupportingCast,
    Theme,
    evolve,
    latest_precedence,
    location_data,
    payload_of,
    precedence_data,
    require_participant,
    shuffled,
    supporting_data,
    theme_chooser,
    theme_rota,
)
from yarnlog.rulesets.yarn.parts.dramatic_side import YARN

__all__ = ["CALLING_ORDER", "FOLDS", "GROUNDS", "INTRODUCING", "LOCATIONS", "MINOR", "NEXT_THEME", "PROMOTION",
           "RECURRING", "THEMES", "Cast", "ChallengeLocation", "ChooseTheme", "DescribeSupporting", "DrawPrecedence",
           "ElaborateLocation", "IntroduceLocation", "IntroduceSupporting", "Location", "LocationChallenged",
           "LocationElaborated", "LocationIntroduced", "PrecedenceDrawn", "PrecedenceOrder", "PromoteSupporting",
           "Purpose", "Supporting", "SupportingDescribed", "SupportingIntroduced", "SupportingPromoted", "Theme",
           "ThemeChosen", "CAST", "COMMANDS", "VALIDATORS", "check_new_character_name", "evolve",
           "latest_precedence", "location_data", "payload_of", "precedence_data", "require_active_pc",
           "require_participant", "shuffled", "supporting_data", "theme_chooser", "theme_rota", "validate_location"]


@event("yarn.supporting.introduced")
class SupportingIntroduced(_core.SupportingIntroduced):
    """A supporting character enters the series: minor, or recurring when first called to grant a petition."""


@event("yarn.supporting.promoted")
class SupportingPromoted(_core.SupportingPromoted):
    """A player made a minor character the object of his character's emotional needs."""


@event("yarn.supporting.described")
class SupportingDescribed(_core.SupportingDescribed):
    """A participant fleshes out a supporting character."""


@event("yarn.location.introduced")
class LocationIntroduced(_core.LocationIntroduced):
    """A location introduced by the caller or a participant during a shift in location."""


@event("yarn.location.elaborated")
class LocationElaborated(_core.LocationElaborated):
    """A participant elaborates on a location."""


@event("yarn.location.challenged")
class LocationChallenged(_core.LocationChallenged):
    """A location detail challenged as out of bounds ("Introducing Locations")."""


@event("yarn.theme.chosen")
class ThemeChosen(_core.ThemeChosen):
    """The next episode's theme, chosen at the end of the session before it ("Themes")."""


@event("yarn.precedence.drawn")
class PrecedenceDrawn(_core.PrecedenceDrawn):
    """A precedence order, noted as the cards came out: shuffled by the tool or entered from the table."""

    told_with_next_scene = True  # drawn between scenes: for the next one (see scene_of_draw)


CAST = SupportingCast(YARN, CastEvents(
    introduced=SupportingIntroduced, promoted=SupportingPromoted, described=SupportingDescribed,
    location_introduced=LocationIntroduced, location_elaborated=LocationElaborated,
    location_challenged=LocationChallenged, theme_chosen=ThemeChosen, precedence_drawn=PrecedenceDrawn))
COMMANDS = CAST.COMMANDS
VALIDATORS = CAST.VALIDATORS
check_new_character_name = CAST.check_new_character_name
require_active_pc = CAST.require_active_pc
validate_location = CAST.validate_location


def __getattr__(name: str) -> Any:
    return getattr(_core, name)
