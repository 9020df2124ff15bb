"""What people read of a Will & Descriptors campaign, as plain data: the board of every character
(Will, the Power track, descriptors, Injuries, keys, XP, Advances, in or out), one sheet, and the
ledger of Will, XP and Advances with the event, scene and rule of each movement."""

from __future__ import annotations

from typing import Any

from yarnlog.rulesets.will_descriptors.state import Character, WillCampaign, settings_of


def track_text(who: Character) -> str:
    """The Power track as boxes, ``[1][x][3]``: crossed boxes are x."""
    return "".join("[x]" if box in who.crossed else f"[{box}]" for box in range(1, who.track + 1))


def sheet_data(who: Character) -> dict[str, Any]:
    return {
        "name": who.name, "player": who.player, "will": who.will, "starting_will": who.starting_will,
        "track": who.track, "crossed": sorted(who.crossed), "track_text": track_text(who),
        "out": who.out, "why_out": who.why_out if who.out else None,
        "descriptors": [{"name": d.name, "dice": d.dice, "category": d.category, "stuck": d.stuck}
                        for d in who.descriptors.values()],
        "injuries": [{"name": n, "dice": d} for n, d in who.injuries.items()],
        "background": list(who.background),
        "keys": [{"name": k, "framework": f.value} for k, f in who.keys.items()],
        "xp": who.xp, "advances": who.advances, "advances_spent": who.advances_spent,
    }


def board(campaign: WillCampaign) -> dict[str, Any]:
    state, settings = campaign.rules, settings_of(campaign)
    return {
        "settings": {"track": settings.track, "starting_will": settings.starting_will, "sides": settings.sides},
        "characters": [sheet_data(who) for who in state.characters.values()],
        "scene_descriptors": [{"name": s.name, "dice": s.dice, "scene": s.scene, "about": s.about, "roll": s.roll}
                              for s in state.scene_descriptors.values()],
    }


def ledger(campaign: WillCampaign, character: str | None = None) -> list[dict[str, Any]]:
    return [{"character": e.character, "currency": e.currency, "amount": e.amount, "balance": e.balance,
             "event": e.sequence, "scene": e.scene, "rule": e.rule, "what": e.what}
            for e in campaign.rules.ledger if character is None or e.character == character]


def odds_rows(dice_a: int, dice_b: int, sides: int) -> list[dict[str, Any]]:
    """Each outcome's exact chance (a fraction, and a percentage) of ``dice_a`` against ``dice_b``."""
    from yarnlog.rulesets.will_descriptors.rules.odds import opposed_odds

    odds = opposed_odds(dice_a, dice_b, sides)
    rows = [{"outcome": "A wins", "successes": k, "chance": str(p), "percent": float(p) * 100}
            for k, p in odds.a_wins.items()]
    rows += [{"outcome": "B wins", "successes": k, "chance": str(p), "percent": float(p) * 100}
             for k, p in odds.b_wins.items()]
    if odds.stalemate:
        rows.append({"outcome": "stalemate", "successes": 0, "chance": str(odds.stalemate),
                     "percent": float(odds.stalemate) * 100})
    return rows


def rolls(history: Any) -> list[dict[str, Any]]:
    """Every roll recorded, with its pools, faces, outcome and the prior odds kept in its event; as
    corrected, and without those retracted (the amendments in ``history``)."""
    from fractions import Fraction

    from yarnlog.core.corrections import effective
    from yarnlog.rulesets.will_descriptors.parts.rolls import RollMade

    rows = []
    for recorded in effective(history):
        p = recorded.payload
        if not isinstance(p, RollMade):
            continue
        chance = {"a": Fraction(0), "b": Fraction(0), "stalemate": Fraction(0)}
        for line in p.odds:
            chance[line.side] += Fraction(line.chance)
        names = {"a": p.a.character, "b": p.b.character or (p.recovery.injury if p.recovery else "")}
        outcome = "stalemate" if p.winner is None else f"{names[p.winner]} wins, {p.successes}"
        rows.append({"event": recorded.sequence, "scene": recorded.scene, "a": names["a"], "b": names["b"],
                     "dice_a": len(p.a.faces), "dice_b": len(p.b.faces), "faces_a": ",".join(map(str, p.a.faces)),
                     "faces_b": ",".join(map(str, p.b.faces)), "outcome": outcome, "winner": p.winner,
                     "successes": p.successes, "recovery": p.recovery is not None, "stakes": p.stakes,
                     "p_a": float(chance["a"]), "p_b": float(chance["b"]), "p_stalemate": float(chance["stalemate"]),
                     "odds": [line.model_dump() for line in p.odds]})
    return rows


def explanation(recorded: Any, campaign: WillCampaign, history: Any = ()) -> dict[str, Any]:
    """Event ``recorded`` explained with the state after it: its sentence, its rule quoted, every
    movement of Will, XP or Advances with its rule, a roll's prior odds of each outcome, and what of
    ``history`` (the journal as far as it is read) points at it: the GM's override it was recorded
    under, the corrections and retractions of it."""
    from yarnlog.core.corrections import Correction, OverrideRecorded, Retraction
    from yarnlog.core.words import core_sentence
    from yarnlog.rulesets.will_descriptors.words import narrate

    p = recorded.payload
    lines = [f"Event {recorded.sequence} ({recorded.event_type}), recorded by {recorded.recorded_by}"
             + (f" in scene {recorded.scene}" if recorded.scene else "") + ":",
             narrate(recorded, campaign) or core_sentence(recorded) or "(no sentence)"]
    rule = getattr(p, "rule", "")
    if rule:
        lines.append(f"The rule: {rule}")
    movements = getattr(p, "movements", [])
    for m in movements:
        lines.append(f"{m.character} {m.amount:+d} {m.currency} ({m.rule}): {m.what}")
    odds = getattr(p, "odds", [])
    for line in odds:
        who = "stalemate" if line.side == "stalemate" else f"side {line.side.upper()} wins with {line.successes}"
        lines.append(f"Prior odds, {who}: {line.chance}")
    amended = []
    for other in history:
        q = other.payload
        if isinstance(q, OverrideRecorded) and other.sequence < recorded.sequence <= other.sequence + q.covers:
            amended.append(f"Recorded under {q.by}'s override (event {other.sequence}): {q.reason}")
        elif isinstance(q, Correction) and q.corrects == recorded.sequence:
            amended.append(f"Corrected by event {other.sequence} ({q.approved_by}): {q.reason}")
        elif isinstance(q, Retraction) and q.retracts == recorded.sequence:
            amended.append(f"Retracted by event {other.sequence} ({q.approved_by}): {q.reason}")
    lines += amended
    return {"event": recorded.sequence, "type": recorded.event_type, "lines": lines,
            "movements": [m.model_dump() for m in movements], "odds": [o.model_dump() for o in odds],
            "amended": amended}
