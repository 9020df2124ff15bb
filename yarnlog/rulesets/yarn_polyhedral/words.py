"""What a polyhedral Yarn move answers: one sentence of each recorded event in the book's words,
and one line on the fortune and trouble that follow."""

from __future__ import annotations

from typing import Any

from yarnlog.core.events import Recorded
from yarnlog.core.seats import Seat, Seats
from yarnlog.rulesets.yarn_polyhedral.rules import injuries


def _dice(p: dict[str, Any]) -> str:
    faces = ", ".join(f"d{s} {f}" for s, f in zip(p["sizes"], p["faces"], strict=True))
    kept = " + ".join(str(p["faces"][i]) for i in p["kept"])
    extra = "".join(f" + {f}" for f in p["extra_faces"])
    return f"rolls {faces}; keeps {kept}{extra} = {p['total']}"


def _feat(p: dict[str, Any]) -> str:
    head = f"{p['character']} {_dice(p)}"
    if p.get("purpose") == "initiative":
        head = f"{p['character']}'s initiative: {_dice(p).removeprefix('rolls ')}"
    if p["challenge"] is None:
        return head + "."
    target = p["challenge"] + p["penalties"]
    verdict = "succeeds" if p["success"] else "misses"
    odds = f" (odds {p['odds']})" if p["odds"] else ""
    text = f"{head} against {target}: {verdict}, margin {p['margin']}{odds}."
    for arm in p.get("arms", ()):
        text += f" The injured arm (injury {arm['injury']}) adds {arm['penalty']} to the challenge."
    for applied in p.get("hindrances", ()):
        text += f" {applied['drawback']} adds {applied['penalty']} to the challenge."
    if p.get("range_result"):
        text += f" The result: {p['range_result']} (from {p['range_minimum']}, +10% a point of margin)."
    attack = p.get("attack")
    if attack and p["success"]:
        where = f" to the {attack['location']}" if attack["location"] else ""
        text += (f" The {attack['weapon']} hits {attack['target']}{where} for {attack['damage']};"
                 f" {attack['cleared']} clears protection.")
    resistance = p.get("resistance")
    if resistance:
        text += f" Injury {resistance['injury']} of severity {resistance['severity']}."
    spent = p["fortune_keep"] + len(p["extra_faces"])
    if spent:
        text += f" {spent} fortune used: the narrator gains {spent} trouble."
    if p["trouble"]:
        text += f" The narrator spends {p['trouble']} trouble: a 1 is kept."
    return text


def _slowed(p: dict[str, Any]) -> str:
    slowed = p.get("slowed", 0)
    return f", {slowed} fewer to move (injured legs)" if slowed else ""


def narrate(recorded: Recorded, state: Any) -> str | None:
    """``recorded`` in the book's words (``None``: the journal's own words)."""
    kind = recorded.event_type
    if not kind.startswith("yarn-polyhedral."):
        return None
    p = recorded.payload.model_dump(mode="json")
    kind = kind.removeprefix("yarn-polyhedral.")
    if kind == "character.created":
        who = state.rules.characters.by_name.get(p["name"].lower()) if state is not None else None
        level = f" at level {who.level}" if who is not None else ""
        return f"{p['name']} joins as {p['player']}'s character{level}, with {p['base_points']} points."
    if kind == "points.awarded":
        return f"{p['character']} is awarded {p['points']} point{'s' if p['points'] != 1 else ''}."
    if kind == "quality.changed":
        q = p["quality"]
        how = {"paid-down": "paid down", "flashback": "claimed in a flashback",
               "training": "raised by training"}.get(p["how"], p["how"])
        return f"{p['character']}: {q['name']} {how} to rank {q['rank']} for {p['cost']} points."
    if kind == "narrator.passed":
        return f"{p['narrator']} is the narrator from the next session."
    if kind == "training.set":
        return f"{p['character']} trains {p['quality'] or 'nothing'} between scenes."
    if kind == "feat.rolled":
        return _feat(p)
    if kind == "trouble.spent":
        return f"The narrator spends {p['amount']} trouble: {p['purpose']}. {p['text']}".strip()
    if kind == "injury.healed":
        return f"{p['character']}'s injury {p['injury']} heals by one severity."
    if kind == "rested":
        return f"{p['character']} rests" + (" a full sleep: effort restored." if p["full"]
                                            else f" a while: {p['regained']} effort back.")
    if kind == "stance.taken":
        return f"{p['character']} takes {p['stance'] or 'no'} stance until the next turn."
    if kind == "tension.changed":
        return f"Tension is now {p['tier']}."
    if kind == "round.started":
        return f"Round {p['number']} begins."
    if kind == "turn.taken":
        return f"{p['character']}'s turn, on {p['attribute']}: {p['steps']} steps{_slowed(p)}."
    if kind == "turn.joined":
        return (f"{p['character']} joins {p['turn_of']}'s turn, on {p['attribute']}: {p['steps']} steps; "
                f"the group acts at its lowest initiative.").replace(" steps;", f" steps{_slowed(p)};", 1)
    if kind == "steps.spent":
        times = f" x{p['times']}" if p["times"] > 1 else ""
        return f"{p['character']} spends {p['steps']} steps: {p['action']}{times}."
    if kind == "ruling":
        return f"Ruling ({p['topic']}): {p['text']}"
    return None


def follow_up(state: Any) -> str | None:
    """Fortune held by each character and the narrator's trouble."""
    rules = getattr(state, "rules", None)
    if rules is None or not rules.characters.by_name:
        return None
    held = ", ".join(f"{name} {n}" for name, n in rules.fortune.fortune.items())
    return f"Fortune: {held}. Trouble: {rules.fortune.trouble}."


def seats(state: Any, names: list[str]) -> Seats:
    """The console's status line: each player's characters with their fortune, effort and total
    severity; the narrator's trouble on the GM's seat. Lookups in the state in memory only."""
    rules = state.rules
    shown = []
    for name in names:
        if name == state.table.gm:
            shown.append(Seat(name, figures=(f"{rules.fortune.trouble} trouble",)))
            continue
        mine = [c for c in rules.characters.by_name.values() if c.player == name]
        if not mine:
            shown.append(Seat(name))
        for who in mine:
            health = who.rank("health") or 0
            severity = injuries.total_severity(rules.bodies.injuries.get(who.name, {}))
            shows = [f"{rules.fortune.fortune.get(who.name, 0)} fortune",
                     f"{rules.bodies.effort.get(who.name, 0)}/{health} effort"]
            if severity:
                shows.append(f"severity {severity}")
            shown.append(Seat(name, character=who.name, figures=tuple(shows)))
    return Seats(None, tuple(shown))
