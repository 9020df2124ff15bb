"""What people read of a polyhedral Yarn campaign: the board and the ledgers, as plain data."""

from __future__ import annotations

from typing import Any

from yarnlog.rulesets.yarn_polyhedral.rules import combat, injuries, points


def board(campaign: Any) -> dict[str, Any]:
    """Each character's level, points, fortune, effort and injuries; the narrator's trouble."""
    rules = campaign.rules
    rows = []
    for who in rules.characters.by_name.values():
        wounds = rules.bodies.injuries.get(who.name, {})
        health = who.rank("health") or 0
        total = injuries.total_severity(wounds)
        fatal = points.fatal_severity(who.level, health) if campaign.table.options.get("death") else None
        effects = [f"{w.location}: {combat.LOCATIONS[w.location].effect}" for w in wounds.values()
                   if injuries.location_effect(w, health)]
        rows.append({
            "name": who.name, "player": who.player, "level": who.level, "base_points": who.base_points,
            "unspent": who.unspent, "fortune": rules.fortune.fortune.get(who.name, 0),
            "effort": rules.bodies.effort.get(who.name, 0), "effort_max": health,
            "flashbacks_left": who.flashbacks_left, "specialties": points.specialties_for(who.level),
            "total_severity": total, "penalty": combat.severity_penalty(total, health) if health else 0,
            "injuries": {k: {"severity": w.severity, "location": w.location} for k, w in wounds.items()},
            "stance": rules.bodies.stance.get(who.name), "training": who.training,
            "fatal_severity": fatal, "dead": injuries.is_dead(total, fatal), "effects": effects,
        })
    return {"characters": rows, "trouble": rules.fortune.trouble, "tension": rules.bodies.tension.value}


def ledger(campaign: Any) -> list[dict[str, Any]]:
    """Every movement of points, fortune and trouble, in the journal's order, with event, scene and rule."""
    rules = campaign.rules
    lines = [{"sequence": x.sequence, "scene": x.scene, "holder": x.character, "currency": "points",
              "change": x.change, "balance": x.unspent, "what": x.what, "rule": x.rule}
             for x in rules.characters.ledger]
    lines += [{"sequence": x.sequence, "scene": x.scene, "holder": x.holder, "currency": x.currency,
               "change": x.change, "balance": x.balance, "what": x.what, "rule": x.rule}
              for x in rules.fortune.ledger]
    return sorted(lines, key=lambda line: line["sequence"])
