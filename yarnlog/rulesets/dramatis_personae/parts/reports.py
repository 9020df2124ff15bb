"""What people read of a Dramatis Personae campaign, as plain data: the sheet, the board of dice,
the ledger, the rolls with their prior odds, and one event explained. The shell renders them."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from yarnlog.core.events import Recorded
from yarnlog.core.referee import invalid
from yarnlog.rulesets.dramatis_personae.parts.ledger import DiceAwarded, PoolRestored
from yarnlog.rulesets.dramatis_personae.parts.roll_events import ChallengeRolled, ContestRolled, RollFacts
from yarnlog.rulesets.dramatis_personae.rules.advancement import level_cost, pool_size
from yarnlog.rulesets.dramatis_personae.rules.characters import strengths_allowed
from yarnlog.rulesets.dramatis_personae.state import DPCampaign


def _where(state: DPCampaign) -> dict[str, Any]:
    return {"as_of": state.sequence, "episode": state.timeline.episode, "scene": state.timeline.scene}


def character_sheet(state: DPCampaign, name: str) -> dict[str, Any]:
    """A character's sheet: level, traits, minutiae and quirks, the story so far, and the dice held."""
    found = next((s for n, s in state.rules.characters.pcs.items() if n.lower() == name.strip().lower()), None)
    invalid(found is not None, f"no character is called {name}")
    assert found is not None
    balance = state.rules.ledger.balance(found.name)
    return {
        **_where(state), "name": found.name, "player": found.player, "level": found.level,
        "strengths": [{"trait": t.trait, "general": t.general} for t in found.strengths],
        "weaknesses": [{"trait": t.trait, "general": t.general} for t in found.weaknesses],
        "strengths_allowed": strengths_allowed(found.level, len(found.weaknesses)),
        "minutiae": list(found.minutiae), "quirks": list(found.quirks), "background": found.background,
        "description": found.description, "status": found.status, "possessions": list(found.possessions),
        "developments": list(found.developments),
        "dice": {"saved_good": balance.good, "saved_bad": balance.bad, "pool": balance.pool,
                 "pool_size": pool_size(found.level), "debt": balance.debt,
                 "next_level_costs": level_cost(found.level + 1)},
        "adventure": state.rules.ledger.adventure,
    }


def dice_board(state: DPCampaign) -> dict[str, Any]:
    """Every character's saved dice, pool and debt, and the adventure in play (the system's board)."""
    ledger = state.rules.ledger
    return {**_where(state), "adventure": ledger.adventure, "characters": [
        {"character": name, "level": sheet.level, "saved_good": ledger.balance(name).good,
         "saved_bad": ledger.balance(name).bad, "pool": ledger.balance(name).pool,
         "pool_size": pool_size(sheet.level), "debt": ledger.balance(name).debt}
        for name, sheet in sorted(state.rules.characters.pcs.items())]}


def ledger_rows(state: DPCampaign, character: str | None = None) -> list[dict[str, Any]]:
    """Every movement of saved dice, pool dice and debt with its event, scene and rule."""
    wanted = character.strip().lower() if character is not None else None
    return [{"sequence": m.sequence, "episode": m.episode, "scene": m.scene, "character": m.character,
             "balance": m.balance, "change": m.change, "after": m.after, "rule": m.rule, "what": m.what}
            for m in state.rules.ledger.movements if wanted is None or m.character.lower() == wanted]


def _roll_row(facts: RollFacts) -> dict[str, Any]:
    return {"character": facts.character, "net": facts.net, "faces": facts.faces, "after_faces": facts.after_faces,
            "kept": facts.kept, "total": facts.total, "source": facts.source,
            "sources": [{"label": label, "dice": dice} for label, dice in facts.sources()]}


def success_chance(odds: dict[str, str]) -> str:
    """The prior chance of success of a challenge, from its recorded tier odds."""
    wins = ("partial success", "complete success", "critical success")
    return str(sum((Fraction(v) for k, v in odds.items() if k in wins), Fraction(0)))


def _percent(chance: str) -> str:
    return f"{float(Fraction(chance)) * 100:.1f}%"


def side_odds_sentence(name: str, odds: dict[str, str]) -> str:
    """``Odds for Bryn: critical success 7.0%, complete 13.7%, ...; standoff 9.3%; partial failure ...``: one
    side's prior chance of each result of a contest, best first (DP24; readings 2, 10)."""
    def tiers(kind: str, grades: tuple[str, ...]) -> str:
        return ", ".join(f"{grade if i else grade + ' ' + kind} {_percent(odds.get(f'{grade} {kind}', '0'))}"
                         for i, grade in enumerate(grades))

    return (f"Odds for {name}: {tiers('success', ('critical', 'complete', 'partial'))}; standoff "
            f"{_percent(odds.get('standoff', '0'))}; {tiers('failure', ('partial', 'complete', 'critical'))}.")


def roll_rows(history: Sequence[Recorded]) -> list[dict[str, Any]]:
    """Every challenge and contest with its dice, result and exact prior odds."""
    rows: list[dict[str, Any]] = []
    for recorded in history:
        p = recorded.payload
        if isinstance(p, ChallengeRolled):
            rows.append({"sequence": recorded.sequence, "scene": recorded.scene, "kind": p.kind, "task": p.task,
                         "difficulty": p.difficulty, "tier": p.tier.value, "wound": p.wound,
                         "success_chance": success_chance(p.odds), "odds": dict(p.odds),
                         "rolls": [_roll_row(p.roll)]})
        elif isinstance(p, ContestRolled):
            rows.append({"sequence": recorded.sequence, "scene": recorded.scene,
                         "kind": "melee" if p.melee else "contest", "task": p.task, "fight": p.fight,
                         "winner": p.winner, "beats": [{"loser": b.loser, "tier": b.tier.value, "penalty": b.penalty,
                                                        "outcome": b.outcome.value if b.outcome else None}
                                                       for b in p.beats],
                         "odds": dict(p.odds), "rolls": [_roll_row(r) for r in p.rolls]})
    return rows


def explain_event(history: Sequence[Recorded], sequence: int) -> dict[str, Any]:
    """One event: what it recorded, and for a roll every source of dice, the kept dice and the odds."""
    found = next((r for r in history if r.sequence == sequence), None)
    invalid(found is not None, f"there is no event {sequence} in this campaign")
    assert found is not None
    rolls = roll_rows([found])
    told: dict[str, Any] = {"sequence": found.sequence, "event_type": found.event_type, "episode": found.episode,
                            "scene": found.scene, "recorded_by": found.recorded_by,
                            "payload": found.payload.to_data()}
    if rolls:
        told["roll"] = rolls[0]
    if isinstance(found.payload, (DiceAwarded, PoolRestored)):
        told["rule"] = "DP37, line 61" if isinstance(found.payload, DiceAwarded) else "DP34, line 67"
    return told
