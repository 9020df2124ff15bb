"""Who plays whom, and whose tokens a character spends ("Calling Scenes", "Drama with Recurring
Characters", "Drama vs. Talking": Yarn 0.1 and DramaSystem DS12, DS28, DS29 alike).

A scene's cast names characters; drama tokens belong to participants. A player character's
tokens are its player's; every supporting character is played by the GM, and "The GM plays all
recurring characters drawing on a single pool of drama tokens", so their tokens are the GM's.
The characters themselves are the ruleset's: the core reads them as a
:class:`~yarnlog.rulesets.scenes_and_tokens.parameters.Roster` (its player characters and supporting cast).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from yarnlog.core.referee import Referee, Rule, present
from yarnlog.rulesets.scenes_and_tokens.parameters import Roster
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import Campaign

BOOK = "Yarn 0.1"
PC = "player character"
RECURRING = "recurring character"
MINOR = "minor character"

CAST = Rule(BOOK, "Calling Scenes", "Cast: names the main or recurring characters taking part in the scene.")
TALKING = Rule(
    BOOK,
    "Drama vs. Talking",
    "all dialogue interactions with minor characters are procedural, and resolved with the Talking "
    "ability. They can never grant meaningful dramatic concessions",
)


@dataclass(frozen=True)
class Role:
    """A character, what kind of character it is, and who holds its tokens."""

    character: str
    kind: str
    holder: str

    @property
    def is_pc(self) -> bool:
        return self.kind == PC


def tracks_characters(characters: Roster | None) -> bool:
    """Whether the journal knows this campaign's characters (any PC or supporting character)."""
    return characters is not None and bool(characters.pcs or characters.supporting)


def role_of(characters: Roster | None, gm: str, name: str) -> Role | None:
    """``name``'s role, or ``None`` if the journal does not know that character."""
    if characters is None:
        return None
    if name in characters.pcs:
        return Role(name, PC, characters.pcs[name].player)
    supporting = characters.supporting.get(name)
    if supporting is None:
        return None
    return Role(name, RECURRING if supporting.kind == "recurring" else MINOR, gm)


def player_character(characters: Roster | None, player: str) -> str | None:
    """The player character ``player`` plays in the series, if any ("one protagonist"; the latest, if a
    GM override allowed two)."""
    if characters is None:
        return None
    mine = [name for name, sheet in characters.pcs.items() if sheet.player == player and sheet.active]
    return mine[-1] if mine else None


def require_role(characters: Roster, campaign: Campaign, name: str) -> Role:
    """The role of a character the journal knows; nonsense otherwise."""
    return present(role_of(characters, campaign.table.gm, name),
                   f"{name} is not a character of this campaign (register characters first)")


def require_character(characters: Roster, campaign: Campaign, name: str) -> Role:
    """A character named directly, or the player character of the player named ``name``."""
    if role_of(characters, campaign.table.gm, name) is None and name in campaign.table.players:
        name = present(player_character(characters, name), f"{name} plays no character in this campaign")
    return require_role(characters, campaign, name)


def require_party(referee: Referee, characters: Roster, campaign: Campaign, name: str) -> Role:
    """A party to a dramatic exchange: a player character or a recurring character."""
    role = require_character(characters, campaign, name)
    referee.require(role.kind != MINOR, TALKING, f"{role.character} is a minor character")
    return role


def cast_roles(characters: Roster, campaign: Campaign, cast: Iterable[str]) -> list[Role]:
    """The roles of a scene's cast, every name known to the journal."""
    return [require_role(characters, campaign, name) for name in cast]


def holders_present(characters: Roster, campaign: Campaign, cast: Iterable[str]) -> set[str]:
    """Participants whose characters are in ``cast`` (the GM for supporting characters)."""
    gm = campaign.table.gm
    return {role.holder for name in cast if (role := role_of(characters, gm, name)) is not None}
