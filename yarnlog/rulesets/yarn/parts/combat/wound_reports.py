"""Hit points at any point of the campaign, as ``yarnlog wounds`` shows them (a projection of the wounds)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, cast

from yarnlog.core.referee import invalid
from yarnlog.rulesets.yarn.parts.combat.wounds import hit_points, pcs, status
from yarnlog.rulesets.yarn.rules.hit_points import action_penalty_dice

if TYPE_CHECKING:
    from yarnlog.rulesets.yarn.parts.combat.fight_records import Combat
    from yarnlog.rulesets.yarn.parts.combat.wounds import YarnCampaign


@dataclass(frozen=True)
class WoundsRow:
    """One character's hit points for ``yarnlog wounds``."""

    character: str
    kind: Literal["pc", "combatant"]
    maximum: int
    current: int
    temporary: int
    last_recovered: int
    status: str
    penalty_dice: int
    serious_wounds: tuple[str, ...]
    death_options: tuple[str, ...]

    def to_data(self) -> dict:
        return dict(self.__dict__)


def wounds_report(campaign: YarnCampaign, character: str | None = None) -> list[WoundsRow]:
    """Hit points of every PC and registered combatant (or of one ``character``), at any point."""
    rules = campaign.rules
    wounds = rules.combat.wounds
    if character is not None:
        invalid(character in pcs(rules) or character in wounds.registered,
                f"{character} has no hit points: not a PC, nor a registered combatant")
        return [_row(campaign, character)]
    # The combatants by name: a persistent map's order is its hashes', which differ from process to process.
    names = list(pcs(rules)) + sorted(n for n in wounds.registered if n not in pcs(rules))
    return [_row(campaign, name) for name in names]


def fight_wounds(campaign: YarnCampaign) -> list[WoundsRow]:
    """Hit points of the PCs and of the combatants of the fight in play (``yarnlog fight status``'s):
    what a player at the table follows, as long as the campaign runs (``wounds_report`` lists every
    combatant ever registered, and a long campaign registers new extras fight after fight)."""
    rules = campaign.rules
    fight = cast("Combat | None", rules.combat.in_play)
    names = list(pcs(rules))
    names += [n for n in (fight.combatants if fight is not None else ()) if n not in names]
    return [_row(campaign, name) for name in names]


def _row(campaign: YarnCampaign, name: str) -> WoundsRow:
    rules = campaign.rules
    wounds = rules.combat.wounds
    hp = hit_points(rules, name)
    dead = name in wounds.dead
    return WoundsRow(
        character=name, kind="combatant" if name in wounds.registered else "pc", maximum=hp.maximum,
        current=hp.current, temporary=hp.temporary, last_recovered=hp.last_recovered, status=status(hp, dead),
        penalty_dice=0 if dead else action_penalty_dice(hp),
        serious_wounds=tuple(f"{w.description} ({w.kind})" for w in wounds.serious.get(name, ())),
        death_options=tuple(str(o) for o in wounds.death_options.get(name, ())),
    )
