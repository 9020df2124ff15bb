"""What a write says in words: one short sentence per event, naming the draft's rule where it decides,
and a line of the Will each character holds after the move."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from yarnlog.core.events import Recorded
from yarnlog.core.table import CampaignCreated
from yarnlog.rulesets.will_descriptors.parts.harm import HarmTaken, InjuryRemoved
from yarnlog.rulesets.will_descriptors.parts.keys import AdvanceSpent, RulingRecorded, XpAwarded
from yarnlog.rulesets.will_descriptors.parts.rolls import RollMade, SideEntry
from yarnlog.rulesets.will_descriptors.parts.scenes import (
    RefreshmentHad,
    SceneDescriptorCreated,
    SceneDescriptorStuck,
    StalemateShifted,
)
from yarnlog.rulesets.will_descriptors.parts.sheets import CharacterCreated
from yarnlog.rulesets.will_descriptors.rules.will import DEFAULT_SIDES, DEFAULT_STARTING_WILL
from yarnlog.rulesets.will_descriptors.state import WillCampaign


def _pool(side: SideEntry) -> str:
    used = ", ".join(f"{c.owner}'s {c.name}" if c.owner and c.owner != side.character else c.name
                     for c in side.contributions)
    return f"{len(side.faces)}D ({used or 'no descriptor'}) rolled {','.join(map(str, side.faces)) or 'nothing'}"


def _roll(p: RollMade) -> str:
    b = p.b.character or (f"the Injury {p.recovery.injury}" if p.recovery else "")
    said = f"{p.a.character} {_pool(p.a)} against {b} {_pool(p.b)}."
    if not p.a.faces or not p.b.faces:
        said += " A pool of no dice is the all-tied case (reading 5): a GM's ruling may say more."
    chance = sum(float(Fraction(line.chance)) for line in p.odds if line.side == "a")
    if p.winner is None:
        return (f"{said} A real stalemate: the GM shifts the situation (W11). Prior odds: {chance:.0%} "
                f"for {p.a.character}.")
    winner = p.a.character if p.winner == "a" else b
    versus = f" over {p.tn}" if p.tn is not None else " by more dice"
    tied = f" after {p.cancelled} tied pair{'s' if p.cancelled != 1 else ''}" if p.cancelled else ""
    return (f"{said} {winner} wins with {p.successes} success{'es' if p.successes != 1 else ''}{versus}{tied} "
            f"(W7-W10). Prior odds: {chance:.0%} for {p.a.character}.")


def narrate(recorded: Recorded, campaign: WillCampaign) -> str | None:
    p: Any = recorded.payload
    if isinstance(p, CampaignCreated):
        boxes = (f"a Power track of {p.settings['track']} boxes" if "track" in p.settings
                 else "no Power track length (each character's own)")
        return (f"Campaign {p.campaign_id} \u201c{p.title}\u201d created (will-descriptors), GM {p.gm}: {boxes}, "
                f"starting Will {p.settings.get('starting_will', DEFAULT_STARTING_WILL)}, "
                f"d{p.settings.get('sides', DEFAULT_SIDES)} (readings 1, 15).")
    if isinstance(p, CharacterCreated):
        dice = ", ".join(f"{d.name} {d.dice}D" for d in p.descriptors) or "no descriptors"
        return f"{p.name} ({p.player}): Will {p.starting_will}, {p.track} boxes; {dice}."
    if isinstance(p, RollMade):
        if p.recovery is not None and p.winner == "a":
            left = max(0, len(p.b.faces) - p.successes)
            after = f"{p.recovery.injury} is {left}D" if left else f"{p.recovery.injury} is gone"
            return f"{_roll(p)} Recovery: {after} (W20)."
        return _roll(p)
    if isinstance(p, HarmTaken):
        parts = [f"crosses off box {p.box}"] if p.box is not None else []
        if p.injury:
            parts.append(f"takes the Injury {p.injury_name} {p.injury}D")
        tail = " and is out of the scene" if p.out else ""
        rule = "W17" if p.collided else "W16" if p.injury_instead else "W15"
        return f"{p.character} {' and '.join(parts)}{tail} ({rule}{', W18' if p.out else ''})."
    if isinstance(p, InjuryRemoved):
        return f"{p.character}'s Injury {p.injury} is gone: {p.reason} (W19)."
    if isinstance(p, SceneDescriptorCreated):
        return f"{p.by} makes the Scene Descriptor {p.name} {p.dice}D (W13)."
    if isinstance(p, SceneDescriptorStuck):
        return f"{p.payer} pays 1 Will: {p.name} {p.dice}D sticks to {p.to} (W14)."
    if isinstance(p, RefreshmentHad):
        gained = sum(m.amount for m in p.movements)
        track = f" with {p.partner}: the Power track is restored (W22)" if p.track_restored else ""
        escalation = f" The GM escalates: {p.escalation}" if p.escalation else ""
        will = f"Will +{gained} (W23)" if gained else "Will is not below its start (W23)"
        return f"{p.character} has a Refreshment scene{track}; {will}.{escalation}"
    if isinstance(p, StalemateShifted):
        return f"The GM shifts the situation: {p.shift} (W11)."
    if isinstance(p, XpAwarded):
        return f"{p.character} earns {p.xp} XP from {p.key} ({p.trigger.value})."
    if isinstance(p, AdvanceSpent):
        return f"{p.character} spends {p.cost} Advance{'s' if p.cost != 1 else ''}: {p.change.value} {p.target}."
    if isinstance(p, RulingRecorded):
        return f"GM ruling: {p.text}"
    return None


def follow_up(campaign: WillCampaign) -> str | None:
    characters = campaign.rules.characters.values()
    if not characters:
        return None
    return "Will: " + ", ".join(f"{c.name} {c.will}" + (" (out)" if c.out else "") for c in characters) + "."
