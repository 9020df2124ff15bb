"""What a Dramatis Personae move answers: each recorded event in the book's words (one or two
short sentences naming its rule), then one line on the dice held after it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from yarnlog.core.events import Recorded
from yarnlog.rulesets.dramatis_personae.parts.characters import (
    AttributeDeveloped,
    CharacterCreated,
    LevelBought,
    MinutiaAdded,
)
from yarnlog.rulesets.dramatis_personae.parts.ledger import AdventureEnded, AdventureStarted, DiceAwarded, PoolRestored
from yarnlog.rulesets.dramatis_personae.parts.reports import side_odds_sentence, success_chance
from yarnlog.rulesets.dramatis_personae.parts.roll_events import (
    ChallengeRolled,
    ContestRolled,
    FightEnded,
    RollFacts,
    RulingRecorded,
)
from yarnlog.rulesets.dramatis_personae.rules.advancement import pool_size
from yarnlog.rulesets.dramatis_personae.state import DPCampaign


def _n(count: int, word: str) -> str:
    """``1 die``, ``2 dice``, ``1 strength``, ``3 strengths``."""
    if count == 1:
        return f"1 {word}"
    if word.endswith("die"):
        return f"{count} {word[:-3]}dice"
    return f"{count} {word}es" if word.endswith("ss") else f"{count} {word}s"


def _dice(facts: RollFacts) -> str:
    after = f", then {','.join(map(str, facts.after_faces))}" if facts.after_faces else ""
    return (f"{facts.character} rolls {len(facts.faces)}d6 (net {facts.net:+d}): "
            f"{','.join(map(str, facts.faces))}{after}, keeps {'-'.join(map(str, facts.kept))} = {facts.total}")


def _chance(odds: dict[str, str]) -> str:
    return f"{float(Fraction(success_chance(odds))) * 100:.1f}%"


def _chances_to_win(p: ContestRolled) -> str:
    """``Chances to win: Bryn 66.1%, Hound 24.6%; standoff 9.3%.``: the recap's short form of a contest's
    recorded odds (the move's answer, ``rolls`` and ``explain`` give every tier)."""
    sides = ", ".join(f"{r.character} {_chance(p.odds[r.character])}" for r in p.rolls if r.character in p.odds)
    standoff = next(iter(p.odds.values()), {}).get("standoff", "0")
    return f"Chances to win: {sides}; standoff {float(Fraction(standoff)) * 100:.1f}%."


def retell(recorded: Recorded) -> str | None:
    """A move as the recap tells it: the answer's sentence, with a contest's odds in short."""
    p = recorded.payload
    if isinstance(p, ContestRolled):
        return _contest(p, _chances_to_win(p))
    return narrate(recorded, None)  # type: ignore[arg-type]  # the sentences read the payload only


def _contest(p: ContestRolled, odds: str) -> str:
    rolls = "; ".join(_dice(r) for r in p.rolls)
    if p.winner is None:
        return f"{rolls}. A tie: a standoff, the GM rules what follows (reading 2). {odds}"
    beats = ", ".join(f"a {b.tier.value} over {b.loser}"
                      + (f" ({b.loser} suffers {_n(b.penalty, 'penalty die')})" if b.penalty else "")
                      + (" (finished)" if b.outcome is not None and b.outcome.value == "finished" else "")
                      for b in p.beats)
    return f"{rolls}. {p.winner} wins with {beats} ({'DP27' if p.melee else 'DP24'}). {odds}"


def narrate(recorded: Recorded, state: DPCampaign) -> str | None:
    p = recorded.payload
    if isinstance(p, CharacterCreated):
        return (f"{p.name}, level {p.level}, joins with {_n(len(p.strengths), 'strength')} and "
                f"{_n(len(p.weaknesses), 'weakness')} (DP1-DP4).")
    if isinstance(p, MinutiaAdded):
        return f"{p.character} gains the minutia {p.minutia} (no quirk needed later, reading 13)."
    if isinstance(p, AttributeDeveloped):
        return f"The GM rules for {p.character}: {p.change.replace('-', ' ')}, {p.trait} (line 65)."
    if isinstance(p, LevelBought):
        return f"{p.character} spends {p.cost} saved bonus dice and reaches level {p.level} (DP38)."
    if isinstance(p, AdventureStarted):
        pools = ", ".join(f"{n} {d}" for n, d in sorted(p.pools.items()))
        return f"The adventure {p.title or ''} begins. Pools of level² dice: {pools or 'none'} (DP33)."
    if isinstance(p, AdventureEnded):
        return f"The adventure {p.title} ends; unused pool dice lapse (DP34)."
    if isinstance(p, DiceAwarded):
        return f"The GM awards {p.character} {_n(p.dice, p.kind + ' die')}: {p.reason} (DP37)."
    if isinstance(p, PoolRestored):
        return f"The GM makes {_n(p.dice, 'pool die')} of {p.character}'s available again: {p.ruling} (DP34)."
    if isinstance(p, ChallengeRolled):
        what = {"challenge": "in a challenge", "ranged": "in a ranged attack",
                "finishing-blow": "for a finishing blow", "wound": "for wounds"}[p.kind]
        wound = f" The wound: {p.wound} (line 221)." if p.wound else ""
        lent = "".join(f" {name}'s player spends {_n(dice, 'saved bonus die')} on it (line 221, DP37)."
                       for name, dice in p.lent.items())
        opposed = "".join(f" The GM applies {_n(dice, 'penalty die')} {name} holds: {p.ruling}"
                          for name, dice in p.opposed.items())
        wound += lent + opposed
        return (f"{_dice(p.roll)} against {p.difficulty}+ {what}: {p.tier.value} "
                f"(odds of success {_chance(p.odds)}).{wound}")
    if isinstance(p, ContestRolled):
        return _contest(p, " ".join(side_odds_sentence(name, side) for name, side in p.odds.items()))
    if isinstance(p, FightEnded):
        return f"The fight {p.fight} ends; penalty dice in hand clear (reading 7)."
    if isinstance(p, RulingRecorded):
        return f"The GM rules{' on ' + p.about if p.about else ''}: {p.ruling}"
    return None


def follow_up(state: DPCampaign) -> str | None:
    """``Dice: Faust 2 good, pool 2/4; Bryn debt 2``: every character's dice held after the move."""
    rules: Any = state.rules
    if rules is None or not rules.characters.pcs:
        return None
    told = []
    for name, sheet in sorted(rules.characters.pcs.items()):
        b = rules.ledger.balance(name)
        bits = [f"{n} {what}" for n, what in ((b.good, "good"), (b.bad, "bad")) if n]
        if rules.ledger.adventure:
            bits.append(f"pool {b.pool}/{pool_size(sheet.level)}")
        if b.debt:
            bits.append(f"debt {b.debt}")
        if bits:
            told.append(f"{name} {', '.join(bits)}")
    return "Dice: " + "; ".join(told) + "." if told else None
