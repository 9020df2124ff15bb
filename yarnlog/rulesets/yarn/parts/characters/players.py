"""Who plays whom in a Yarn campaign: the shared core's roles (:mod:`yarnlog.rulesets.scenes_and_tokens.parts.roles`)
read from Yarn's characters part (``campaign.rules.characters``)."""

from __future__ import annotations

from collections.abc import Iterable

from yarnlog.core.referee import Referee
from yarnlog.rulesets.scenes_and_tokens.parts import roles
from yarnlog.rulesets.scenes_and_tokens.parts.roles import (
    CAST,
    MINOR,
    PC,
    RECURRING,
    TALKING,
    Role,
    player_character,
    role_of,
    tracks_characters,
)
from yarnlog.rulesets.yarn.parts.characters.sheets import Characters
from yarnlog.rulesets.yarn.state import YarnCampaign

__all__ = ["CAST", "MINOR", "PC", "RECURRING", "TALKING", "Role", "cast_roles", "characters_of", "holders_present",
           "player_character", "require_character", "require_party", "require_role", "role_of", "tracks_characters"]


def characters_of(campaign: YarnCampaign) -> Characters:
    """The characters part's slice."""
    return campaign.rules.characters


def require_role(campaign: YarnCampaign, name: str) -> Role:
    return roles.require_role(characters_of(campaign), campaign, name)


def require_character(campaign: YarnCampaign, name: str) -> Role:
    return roles.require_character(characters_of(campaign), campaign, name)


def require_party(referee: Referee, campaign: YarnCampaign, name: str) -> Role:
    return roles.require_party(referee, characters_of(campaign), campaign, name)


def cast_roles(campaign: YarnCampaign, cast: Iterable[str]) -> list[Role]:
    return roles.cast_roles(characters_of(campaign), campaign, cast)


def holders_present(campaign: YarnCampaign, cast: Iterable[str]) -> set[str]:
    return roles.holders_present(characters_of(campaign), campaign, cast)
