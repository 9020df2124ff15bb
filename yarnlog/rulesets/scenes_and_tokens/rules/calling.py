"""What calling a scene costs the caller (the "Calling Scenes" rule both books share, and where
they differ: digest 001, section 5, and reading 4.18).

"To cast a scene your player character is not in costs you a drama token" (Yarn 0.1 and
DramaSystem line 181, DS12). DramaSystem adds a specific rule for procedural scenes: "To call a
procedural scene your character is not in, spend a green token. (This requirement does not apply
to the GM.)" (lines 441, 792, DS33). The specific rule replaces the general one, and the GM, who
has no player character, pays neither (reading 4.18). Yarn has no procedural tokens: its
procedural scenes cost the drama token (Yarn 788).
"""

from __future__ import annotations

from enum import Enum

from yarnlog.core.referee import Referee, Rule
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import BOOK as SHARED_BOOK
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import NO_TWO_RECURRING


class CallPrice(Enum):
    """What the caller pays for a call."""

    NOTHING = "nothing"
    DRAMA_TOKEN = "a drama token"
    GREEN_TOKEN = "a green procedural token"


def price_of_call(*, mode: str | None, caller_is_gm: bool, caller_character_cast: bool,
                  procedural_price: CallPrice) -> CallPrice:
    """The price of a call: nothing when the caller's character is cast or the caller is the GM; for a
    procedural scene ``procedural_price`` (the ruleset's), for any other a drama token."""
    if caller_is_gm or caller_character_cast:
        return CallPrice.NOTHING
    return procedural_price if mode == "procedural" else CallPrice.DRAMA_TOKEN


GM_CASTS = Rule(
    SHARED_BOOK, "Calling Dramatic Scenes",
    "When the GM calls a dramatic scene, she may cast any participants in the scene, provided at least "
    "one of them is a player character.",
)


def check_dramatic_cast(referee: Referee, *, pcs: int, recurring: int, caller_is_gm: bool) -> bool:
    """Who a dramatic scene may be between ("Calling Dramatic Scenes"; DS17, lines 303-305): never two
    recurring characters alone ("No one wants to listen to the GM talk to herself"), and a GM's call
    casts a player character. ``True`` when one of these rules decided the call (refused, or noted
    under an override); ``False`` when the cast has a PC and the ruleset's other checks apply."""
    if pcs:
        return False
    if recurring >= 2:
        referee.require(False, NO_TWO_RECURRING, "this dramatic scene is between recurring characters only")
        return True
    if caller_is_gm:
        referee.require(False, GM_CASTS, "the GM's dramatic scene casts no player character")
        return True
    return False
