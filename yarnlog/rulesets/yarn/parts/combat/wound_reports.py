"""Hit points at any point of the campaign, as ``yarnlog wounds`` shows them (a projection of the wounds)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from yarnlog.core.referee import invalid
from yarnlog.rulesets.yarn.parts.combat.wounds import hit_points, pcs, status
from yarnlog.rulesets.yarn.rules.hit_points import action_penalty_dice

if TYPE_CHECKING:
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
    # The combatants by name: a persistent map's order is its hashes', which differ from process to process.
    names = list(pcs(rules)) + sorted(n for n in wounds.registered if n not in pcs(rules))
    if character is not None:
        invalid(character in names, f"{character} has no hit points: not a PC, nor a registered combatant")
        names = [character]
    rows = []
    for name in names:
        hp = hit_points(rules, name)
        dead = name in wounds.dead
        rows.append(WoundsRow(
            character=name, kind="combatant" if name in wounds.registered else "pc", maximum=hp.maximum,
            current=hp.current, temporary=hp.temporary, last_recovered=hp.last_recovered, status=status(hp, dead),
            penalty_dice=0 if dead else action_penalty_dice(hp),
            serious_wounds=tuple(f"{w.description} ({w.kind})" for w in wounds.serious.get(name, ())),
            death_options=tuple(str(o) for o in wounds.death_options.get(name, ())),
        ))
    return rows

