"""Yarn 0.1's pages: the CLI's own projections (``tokens``, ``calling-order``, ``wounds``, ``bennies``,
``ledger``, ``explain``, ``dice-stats``, ``sheet``, ``recap``), over what the viewer may see.

The bennie vote's arithmetic stays the GM's ("Only the GM ever sees the low score", Yarn's
"Bennies"): the board lists bennies held and spent, never a vote's scores.
"""

from __future__ import annotations

from typing import Any

from yarnlog.web.pages import Grid, Link, NotFound, Pages, Rendered, Report
from yarnlog.web.seen import Seen
from yarnlog.web.systems.common import calling_facts, own_character, recap_scope


def _fight(combat: Any) -> str:
    """The fight in play as ``fight status`` heads it (only a detailed fight has rounds: gestalt
    combat is one roll a side), or the last one's number."""
    from yarnlog.rulesets.yarn.parts.combat.fight_records import DETAILED

    fight = combat.in_play
    if fight is None:
        return f"none in play (fight {combat.fought} ended)" if combat.fought else "none in play"
    return f"{fight.number} ({fight.mode})" + (f", round {fight.round}" if fight.mode == DETAILED else "")


def board(seen: Seen) -> Report:
    """What is in play, as the CLI's ``tokens``, ``calling-order``, ``fight status`` and ``bennies``
    show it: the tokens and bennies held, the calling order, the fight in play (its order of action
    and round; the PCs' and its combatants' hit points) and the bennies spent this episode (Yarn's
    "Bennies": they are won at the end of a session and spent in its scenes). Earlier fights and
    spends are in the ledger and the episodes' recaps, linked: the board stays the size of the
    table and its fight however long the campaign runs."""
    from yarnlog.rulesets.yarn.parts.combat.wound_reports import fight_wounds
    from yarnlog.rulesets.yarn.parts.drama.calling_order import calling_view
    from yarnlog.rulesets.yarn.parts.economy.ledger import episode_of_play, episode_spends, token_report

    tokens, order = token_report(seen.state), calling_view(seen.state)
    pool, kitty = tokens["gm_pool"], tokens["kitty"]
    combat = seen.state.rules.combat
    fight = combat.in_play
    episode = episode_of_play(seen.state)
    facts: list[tuple[str, Any]] = [
        ("Episode", tokens["episode"] or "none in play"),
        ("Scene", seen.state.timeline.scene or "none in play"),
        *calling_facts(order),
        ("GM's pool", f"{pool['drama_tokens']} drama token(s) ({pool['gm']})"),
        ("Kitty this episode", f"paid out {kitty['paid_out']}, took back {kitty['taken_in']}"),
        ("Fight", _fight(combat)),
    ]
    if fight is not None and fight.order:
        facts.append(("Order of action", ", ".join(fight.order)))
    facts.append(("Earlier moves", Link("the ledger", "ledger")))
    if episode is not None:
        facts.append(("Recap", Link(f"episode {episode}", "recap", query=(("episode", episode),))))
    grids = [Grid("Tokens", ("participant", "character", "drama tokens", "bennies"),
                  [(p["name"], p["character"], p["drama_tokens"], p["bennies"]) for p in tokens["participants"]])]
    wounds = [w.to_data() for w in fight_wounds(seen.state)]
    if wounds:
        grids.append(Grid("Wounds" + (f" (the PCs and fight {fight.number})" if fight is not None else " (the PCs)"),
                          ("character", "hit points", "status", "penalty dice"),
                          [(w["character"], f"{w['current']}/{w['maximum']}", w["status"], w["penalty_dice"] or "")
                           for w in wounds]))
    spent = episode_spends(seen.state)
    if spent:
        grids.append(Grid(f"Bennies spent in episode {episode}", ("scene", "spender", "for"),
                          [(s["scene"], s["spender"], s["option"].replace("_", " ")) for s in spent]))
    return Report("Board", facts=facts, grids=grids)


def ledger(seen: Seen) -> Report:
    from yarnlog.core.state import as_told
    from yarnlog.rulesets.yarn.parts.economy.ledger_trail import filtered, ledger_trail

    rows = [line.to_data() for line in filtered(ledger_trail(as_told(seen.history)), participant=seen.viewer)]

    def held(row: dict[str, Any]) -> str:
        after = row["drama_after"] if row["currency"] == "drama" else row["bennies_after"]
        return ", ".join(f"{who} {n}" for who, n in after.items())

    return Report(
        "Ledger" + (f" of {seen.viewer}" if seen.viewer else ""),
        grids=[Grid("Every movement, with its rule (B: bennies; struck: removed by an amendment)",
                    ("event", "scene", "move", "exchange", "after", "rule"),
                    [(Link(str(r["sequence"]), "explain", r["sequence"]), r["scene"],
                      f"{r['source']} > {r['destination']} {r['amount']}{'' if r['currency'] == 'drama' else 'B'}"
                      + (" (struck)" if r["struck"] else ""),
                      r["exchange"]["kind"] + (f": {r['exchange']['sought']}" if r["exchange"]["sought"] else ""),
                      held(r), f"{r['chapter']}: {r['rule']}") for r in rows])],
        empty="" if rows else "No token has moved yet.")


def explain(seen: Seen, sequence: int) -> Report:
    from yarnlog.core.referee import InvalidCommand
    from yarnlog.rulesets.yarn.parts.economy.explanations import explain_event

    if not any(r.sequence == sequence for r in seen.history):
        raise NotFound(str(sequence))
    try:
        d = explain_event(seen.history, seen.table, sequence, viewer=seen.viewer)
    except InvalidCommand:
        raise NotFound(str(sequence)) from None
    e, x = d["event"], d["exchange"]
    after = {h["name"]: h for h in d["balances_after"]}
    holdings = [(h["name"], h["drama_tokens"], after.get(h["name"], {}).get("drama_tokens"), h["bennies"],
                 after.get(h["name"], {}).get("bennies")) for h in d["balances_before"]]
    return Report(
        f"Event {sequence}",
        facts=[("What", x["kind"] if x else e["event_type"]), ("Recorded by", e["recorded_by"]),
               ("Episode", e["episode"]), ("Scene", e["scene"]), ("Standing", d["standing"])]
        + ([("Sought", x["sought"])] if x and x["sought"] else []),
        grids=[Grid("The rule", ("book", "chapter", "text"),
                    [(r["book"], r["chapter"], r["text"]) for r in d["rules"]]),
               Grid("Movements", ("from", "to", "amount", "currency", "chapter"),
                    [(m["from"], m["to"], m["amount"], m["currency"], m["chapter"]) for m in d["movements"]]),
               Grid("Holdings", ("who", "tokens before", "tokens after", "bennies before", "bennies after"),
                    holdings)])


def dice(seen: Seen) -> Report:
    from yarnlog.rulesets.yarn.parts.procedure.roll_statistics import dice_statistics

    d = dice_statistics(seen.state, viewer=seen.viewer, history=list(seen.history))

    def row(who: str, s: dict[str, Any]) -> tuple[Any, ...]:
        o = s["outcomes"]
        return (who, s["rolls"], s["good_breaks"], s["bad_breaks"], s["botches"], o["beats"], o["fails"],
                s["expected_beats"]["value"], s["luck"])

    columns = ("who", "rolls", "good breaks", "bad breaks", "botches", "beats", "fails", "expected beats", "luck")
    return Report("Dice statistics" + (f" as {seen.viewer} sees them" if seen.viewer else ""),
                  grids=[Grid("By participant", columns,
                              [row(p["participant"], p) for p in d["by_participant"]] + [row("all", d["total"])])])


def characters(seen: Seen) -> list[str]:
    from yarnlog.rulesets.yarn.parts.economy.ledger import token_report

    return [p["character"] for p in token_report(seen.state)["participants"]
            if p["character"] and (seen.viewer is None or p["name"] == seen.viewer)]


def sheet(seen: Seen, name: str) -> Rendered:
    from yarnlog.rulesets.yarn.parts.characters.printable_sheet import printable_sheet

    own_character(seen, name, characters(seen))
    return Rendered("sheet.html.j2", {"sheet": printable_sheet(seen.state, name)})


def recap(seen: Seen, episode: int | None) -> Rendered:
    from markupsafe import Markup

    from yarnlog.render import diagrams as draw
    from yarnlog.rulesets.yarn.recap import GM, Scope, build_recap, player

    audience = GM if seen.viewer is None else player(seen.viewer)
    told = build_recap(seen.history, seen.table, audience, Scope(**recap_scope(seen, episode)))
    if not told.episodes and not told.series_notes:
        raise NotFound("nothing to recap")
    series = {e.number: e.token_series for e in told.episodes if e.token_series and e.token_series.scenes}
    pictures = {"relationships": draw.relationship_map_picture(told.relationships, "html"),
                "tokens": {n: Markup(draw.token_series_svg(s)) for n, s in series.items()}}
    return Rendered("recap.html.j2", {"recap": told, "diagrams": pictures})


PAGES = Pages(board=board, ledger=ledger, explain=explain, dice=dice, characters=characters, sheet=sheet,
              recap=recap)
