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
        fatal = points.agreed_fatal_severity(who.level, health, agreed=campaign.table.settings.get("fatal_severity"),
                                           death=bool(campaign.table.options.get("death")))
        effects = [f"{w.location}: {combat.LOCATIONS[w.location].effect}" for w in wounds.values()
                   if injuries.location_effect(w, health)]
        # P48, lines 644-645: an arm's severity is its feats' penalty; the legs' slows movement.
        effects += [f"arm (injury {k}): +{injuries.arm_penalty(w)} to feats with that arm"
                    for k, w in wounds.items() if injuries.arm_penalty(w)]
        if injuries.leg_slowing(wounds):
            effects.append(f"legs: {injuries.leg_slowing(wounds)} fewer steps to move")
        rows.append({
            "name": who.name, "player": who.player, "level": who.level, "base_points": who.base_points,
            "unspent": who.unspent, "power_points_left": who.power_points_left,
            "fortune": rules.fortune.fortune.get(who.name, 0),
            "effort": rules.bodies.effort.get(who.name, 0), "effort_max": health,
            "flashbacks_left": who.flashbacks_left, "specialties": points.specialties_for(who.level),
            "total_severity": total, "penalty": combat.severity_penalty(total, health) if health else 0,
            "injuries": {k: {"severity": w.severity, "location": w.location} for k, w in wounds.items()},
            "stance": rules.bodies.stance.get(who.name), "training": who.training,
            "fatal_severity": fatal, "dead": injuries.is_dead(total, fatal), "effects": effects,
        })
    rounds = rules.rounds
    turn = None if rounds.current is None else {
        "round": rounds.number, "of": rounds.current, "group": list(rounds.group),
        "initiatives": dict(rounds.initiatives), "acts_at": rounds.acts_at,
        "steps_left": {name: rounds.steps_left(name) for name in rounds.group}}
    return {"characters": rows, "trouble": rules.fortune.trouble, "tension": rules.bodies.tension.value,
            "turn": turn, "narrator": rules.characters.narrator or campaign.table.gm}


def ledger(campaign: Any) -> list[dict[str, Any]]:
    """Every movement of points, fortune and trouble, in the journal's order, with event, scene and rule."""
    rules = campaign.rules
    lines = [{"sequence": x.sequence, "scene": x.scene, "holder": x.character, "currency": x.currency,
              "change": x.change, "balance": x.unspent, "what": x.what, "rule": x.rule}
             for x in rules.characters.ledger]
    lines += [{"sequence": x.sequence, "scene": x.scene, "holder": x.holder, "currency": x.currency,
               "change": x.change, "balance": x.balance, "what": x.what, "rule": x.rule}
              for x in (*rules.fortune.ledger, *rules.bodies.ledger)]
    return sorted(lines, key=lambda line: line["sequence"])


KIND_ORDER = ("attribute", "skill", "specialty", "advantage", "drawback", "property", "power")


def sheet(campaign: Any, name: str) -> dict[str, Any]:
    """A character sheet: qualities by kind with rank, die and point cost; points, level, fortune,
    effort, flashbacks, injuries (the book's sheet, lines 874-889, made whole)."""
    from yarnlog.rulesets.yarn_polyhedral.rules import dice

    rules = campaign.rules
    who = rules.characters.get(name)
    row = next(c for c in board(campaign)["characters"] if c["name"] == who.name)
    qualities = []
    for kind in KIND_ORDER:
        for q in sorted((q for q in who.qualities.values() if q.kind.value == kind), key=lambda q: q.name.lower()):
            size = dice.skill_die(q.rank) if kind == "skill" else dice.die_for(q.rank)
            qualities.append({"name": q.name, "kind": kind, "rank": q.rank,
                              "die": f"d{size}" if size and kind in ("attribute", "skill") else "",
                              "points": points.rank_cost(q.rank) * (-1 if kind == "drawback" else 1)})
    level_die = dice.level_die(who.level)
    return {**row, "as_of": campaign.sequence, "episode": campaign.timeline.episode,
            "scene": campaign.timeline.scene, "qualities": qualities,
            "level_die": f"d{level_die}" if level_die else "", "drawback_points": who.drawback_points,
            "spent": who.spent}


def explain(campaign: Any, recorded: Any) -> list[str]:
    """Why an event came out as it did, line by line, with the rules it applied."""
    p = recorded.payload
    kind = recorded.event_type.removeprefix("yarn-polyhedral.")
    lines: list[str] = []
    if kind in ("turn.taken", "turn.joined") and p.slowed:
        lines.append(f"{p.steps} steps (P30); injured legs of severity {p.slowed} leave "
                     f"{injuries.movement_steps(p.steps, p.slowed)} to move (P48, line 645).")
    if kind == "feat.rolled":
        lines.append("Dice (P16-P19): " + ", ".join(f"{label} d{size}" for label, size in
                                                     zip(p.labels, p.sizes, strict=True)) + ".")
        mods = ", ".join(m.value for m in p.modifiers) or "none"
        lines.append(f"Kept {len(p.kept)} (P20-P23): two, keep modifiers {mods}, {p.fortune_keep} fortune.")
        lines.append("Faces " + ", ".join(f"d{s}:{f}" for s, f in zip(p.sizes, p.faces, strict=True))
                     + "; kept " + ", ".join(str(p.faces[i]) for i in p.kept) + ".")
        if p.extra_faces:
            lines.append(f"Explosions (P24, line 207): {', '.join(map(str, p.extra_faces))}, one fortune each.")
        if p.trouble:
            lines.append(f"Trouble (P27, line 756): {p.trouble} spent to force a rolled 1 kept.")
        lines.append(f"Total {p.total} (P25, line 211).")
        for applied in p.hindrances:
            lines.append(f"Drawback {applied.drawback} ({applied.hindrance.value}): +{applied.penalty} (P62, lines "
                         f"549, 561).")
        for arm in p.arms:
            lines.append(f"Injured arm, injury {arm.injury}: +{arm.penalty}, its severity (P48, line 644).")
        if p.challenge is not None:
            lines.append(f"Challenge {p.challenge} + penalties {p.penalties} (reading 4): margin {p.margin}, "
                         f"{'success' if p.success else 'miss'} (P25, lines 161-165).")
            lines.append(f"Prior odds, exact: {p.odds_plain} for the pool; {p.odds} as declared "
                         f"({p.explode_budget} fortune set aside for explosions bounds the figure).")
        if p.attack is not None:
            a = p.attack
            lines.append(f"Margin spent (P40; reading 5): location {a.location or 'none'}, damage +{a.margin_damage},"
                         f" knock-back {a.knock_back}. Damage {a.damage} less protection {a.protection}: "
                         f"{a.cleared} cleared (P41-P44).")
        rounds = campaign.rules.rounds
        if p.purpose == "initiative" and len(rounds.group) > 1 and p.character in rounds.group:
            lines.append(f"Cooperating in {rounds.current}'s turn: {', '.join(rounds.group)} act at "
                         f"{rounds.acts_at}, the lowest initiative rolled (P34, line 740).")
        if p.resistance is not None:
            lines.append(f"Severity {p.resistance.severity} (P46; reading 3: 1, plus the shortfall on a miss).")
    for line in ledger(campaign):
        if line["sequence"] == recorded.sequence:
            lines.append(f"{line['holder']}: {line['currency']} {line['change']:+d} -> {line['balance']} "
                         f"({line['what']}; {line['rule']}).")
    return lines


def recap(history: list[Any], campaign: Any, players: bool) -> dict[str, Any]:
    """The story so far, session by session, each move in the book's words; ``players`` leaves out
    every event recorded for the GM's eyes only. The board closes it: points, fortune, trouble."""
    from yarnlog.core.words import core_sentence
    from yarnlog.rulesets.yarn_polyhedral.words import narrate

    before: list[str] = []
    episodes: list[dict[str, Any]] = []
    for recorded in history:
        if players and recorded.visibility != "everyone":
            continue
        kind = recorded.event_type
        if kind in ("campaign.created", "participant.joined"):
            continue
        if kind == "episode.started":
            episodes.append({"number": recorded.payload.number, "title": recorded.payload.title, "lines": [],
                             "after": []})
            continue
        sentence = narrate(recorded, None) or core_sentence(recorded)
        if sentence is None:
            continue
        if not episodes:
            before.append(sentence)
        else:  # in the session, or between it and the next
            episodes[-1]["lines" if recorded.episode is not None else "after"].append(sentence)
    table = campaign.table
    return {"title": table.title, "campaign": table.campaign_id, "gm": table.gm, "as_of": campaign.sequence,
            "audience": "players" if players else "GM", "before_play": before, "episodes": episodes,
            "board": board(campaign)}
