"""What the moves share: looking characters up, and a fold's ledger entries (W5, W6, W14, W23, W25-W30)."""

from __future__ import annotations

from dataclasses import replace

from pydantic import BaseModel, Field

from yarnlog.core.events import Recorded
from yarnlog.core.referee import Referee, invalid
from yarnlog.rulesets.will_descriptors.rules.harm import OUT_AT_TOP
from yarnlog.rulesets.will_descriptors.rules.will import OUT_AT_ZERO
from yarnlog.rulesets.will_descriptors.state import Character, LedgerEntry, WillCampaign, WillState


class Movement(BaseModel):
    """A movement of Will, XP or Advances that an event makes, with the rule that makes it (derived)."""

    character: str
    currency: str = Field(pattern="^(will|xp|advances)$")
    amount: int
    rule: str
    what: str = ""


def character(campaign: WillCampaign, name: str) -> Character:
    found = campaign.rules.characters.get(name)
    invalid(found is not None, f"no character is called {name}")
    assert found is not None
    return found


def check_in_scene(who: Character, referee: Referee) -> None:
    """An out character takes no part until a Refreshment scene (W3, W18)."""
    rule = OUT_AT_ZERO if who.will <= 0 else OUT_AT_TOP
    # The refusal names the rule itself: the reason is said without its number.
    why = "0 Will" if who.will <= 0 else "the highest box crossed"
    referee.require(not who.out, rule, f"{who.name} is out of the scene: {why}")


def apply_movements(state: WillState, movements: list[Movement], recorded: Recorded) -> WillState:
    """Each movement applied to its character and written in the ledger."""
    characters = dict(state.characters)
    ledger = state.ledger
    for m in movements:
        who = characters.get(m.character)
        if who is None:
            continue
        if m.currency == "will":
            who = replace(who, will=who.will + m.amount)
            balance = who.will
        elif m.currency == "xp":
            who = replace(who, xp=who.xp + m.amount)
            balance = who.xp
        else:
            who = replace(who, advances_spent=who.advances_spent - m.amount)
            balance = who.advances
        characters[who.name] = who
        ledger = ledger.append(LedgerEntry(m.character, m.currency, m.amount, balance, recorded.sequence,
                                           recorded.scene, m.rule, m.what))
    return replace(state, characters=characters, ledger=ledger)
