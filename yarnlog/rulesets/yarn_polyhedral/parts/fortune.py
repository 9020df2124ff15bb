"""Fortune and trouble: each character's fortune for the session, the narrator's trouble.

Fortune is the level at each session's start, and what is left is lost (P7, line 48; reading 6);
each fortune a player uses gives the narrator one trouble, which carries from session to session
(P26, line 754). The narrator spends trouble to force a kept 1 (in the feat, P27), to put an
impediment in the way or to make a routine act a roll (P28, line 758). Each movement is a line of
the ledger with its event, scene and rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import Field

from yarnlog.core.composition import Part, folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.referee import Referee
from yarnlog.core.timeline import EpisodeStarted
from yarnlog.rulesets.yarn_polyhedral.parts.characters import CharacterCreated, Characters
from yarnlog.rulesets.yarn_polyhedral.parts.feats import FeatRolled
from yarnlog.rulesets.yarn_polyhedral.rules import points, rule

IMPEDIMENT = rule("Trouble", "Trouble may also be used to put impediments in your way, such as bringing in "
                             "reinforcements when the group is winning, or revealing a trap. It can also be used "
                             "to make you roll for what would ordinarily be routine. (line 758)")


@event("yarn-polyhedral.trouble.spent")
class TroubleSpent(Payload):
    """The narrator spends trouble outside a feat: an impediment, or a routine act made a roll (P28)."""

    gm_records = "a spend of trouble"

    purpose: str = Field(pattern="^(impediment|routine-roll)$")
    amount: int = Field(default=1, ge=1)
    against: str | None = None
    text: str = Field(default="", max_length=400)


@dataclass(frozen=True)
class SpendTrouble:
    purpose: str
    amount: int = 1
    against: str | None = None
    text: str = ""


@dataclass(frozen=True)
class FortuneLine:
    """A line of the fortune and trouble ledger."""

    sequence: int
    scene: int | None
    holder: str  # a character, or "narrator" for trouble
    currency: str  # fortune or trouble
    change: int
    balance: int
    what: str
    rule: str


@dataclass(frozen=True)
class Fortune:
    fortune: Mapping[str, int] = field(default_factory=dict)
    trouble: int = 0
    ledger: tuple[FortuneLine, ...] = ()


def decide(command: Any, campaign: Any, referee: Referee) -> list[Payload] | None:
    if not isinstance(command, SpendTrouble):
        return None
    payload = TroubleSpent(purpose=command.purpose, amount=command.amount, against=command.against,
                           text=command.text)
    return [validate(payload, campaign, referee)]


def validate(p: TroubleSpent, campaign: Any, referee: Referee) -> TroubleSpent:
    held = campaign.rules.fortune.trouble
    if p.against is not None:
        campaign.rules.characters.get(p.against)
    referee.require(p.amount <= held, IMPEDIMENT, f"the narrator holds {held} trouble, not {p.amount}")
    return p


def _line(state: Fortune, recorded: Recorded, holder: str, currency: str, change: int, balance: int,
          what: str, cited: str) -> tuple[FortuneLine, ...]:
    return (*state.ledger, FortuneLine(recorded.sequence, recorded.scene, holder, currency, change, balance,
                                       what, cited))


def evolve(state: Fortune, recorded: Recorded, before: Any = None) -> Fortune:
    p = recorded.payload
    characters: Characters | None = getattr(before, "characters", None)
    if isinstance(p, EpisodeStarted) and characters is not None:
        for who in characters.by_name.values():
            level = points.fortune_for(who.level)
            state = replace(state, fortune={**state.fortune, who.name: level},
                            ledger=_line(state, recorded, who.name, "fortune", level - state.fortune.get(who.name, 0),
                                         level, f"session {p.number}: fortune set to the level", "P7 (line 48)"))
    elif isinstance(p, CharacterCreated):
        level = points.level_for(p.base_points, sum(q.kind.value == "attribute" for q in p.qualities) or 6)
        state = replace(state, fortune={**state.fortune, p.name: level},
                        ledger=_line(state, recorded, p.name, "fortune", level, level, "fortune for the session",
                                     "P7 (line 48)"))
    elif isinstance(p, FeatRolled):
        spent = p.fortune_keep + len(p.extra_faces)
        if spent:
            left = state.fortune.get(p.character, 0) - spent
            state = replace(state, fortune={**state.fortune, p.character: left},
                            ledger=_line(state, recorded, p.character, "fortune", -spent, left,
                                         f"{p.fortune_keep} kept, {len(p.extra_faces)} exploded", "P23, P24 (205-207)"))
            state = replace(state, trouble=state.trouble + spent,
                            ledger=_line(state, recorded, "narrator", "trouble", spent, state.trouble + spent,
                                         f"{p.character} used fortune", "P26 (line 754)"))
        if p.trouble:
            state = replace(state, trouble=state.trouble - p.trouble,
                            ledger=_line(state, recorded, "narrator", "trouble", -p.trouble,
                                         state.trouble - p.trouble, f"forced {p.character} to keep a 1",
                                         "P27 (line 756)"))
    elif isinstance(p, TroubleSpent):
        state = replace(state, trouble=state.trouble - p.amount,
                        ledger=_line(state, recorded, "narrator", "trouble", -p.amount, state.trouble - p.amount,
                                     p.purpose + (f": {p.text}" if p.text else ""), "P28 (line 758)"))
    return state


PART = Part(name="fortune", initial=Fortune, evolve=evolve, decide=decide, validators={TroubleSpent: validate},
            folds=folds(EpisodeStarted, CharacterCreated, FeatRolled, TroubleSpent),
            reads=frozenset({"characters"}))
