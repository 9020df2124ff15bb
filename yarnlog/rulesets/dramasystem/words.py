"""What a DramaSystem move answers: one sentence of each recorded event, in the SRD's words, and
one line on the procedural tokens that follow."""

from __future__ import annotations

from typing import Any

from yarnlog.core.events import Recorded
from yarnlog.core.state import CampaignState
from yarnlog.rulesets.dramasystem.rules.cards import Card
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour
from yarnlog.rulesets.dramasystem.rules.simple_resolution import OPPOSITION, Match

_NEEDED_WORDS = {Match.VALUE: "the same value", Match.SUIT: "the same suit", Match.COLOUR: "the same colour"}


def _card(text: str) -> str:
    return Card.parse(text).display


def _cards(texts: list[str]) -> str:
    return ", ".join(_card(t) for t in texts)


def _refreshed(spends: list[dict[str, Any]]) -> str:
    names = [s["participant"] for s in spends if s.get("refreshed")]
    return "".join(f" {n}'s procedural tokens refresh." for n in names)


def narrate(recorded: Recorded, state: CampaignState[Any]) -> str | None:
    """``recorded`` in the SRD's words (``None``: the journal's own words)."""
    kind = recorded.event_type
    if not kind.startswith("dramasystem."):
        return None
    p = recorded.payload.model_dump(mode="json")
    if kind == "dramasystem.character.created":
        strong = [t for t, g in p["grades"].items() if g == "strong"]
        weak = [t for t, g in p["grades"].items() if g == "weak"]
        return (f"{p['name']} joins as {p['player']}'s character: Strong {', '.join(strong)}; "
                f"Weak {', '.join(weak)}.")
    if kind == "dramasystem.procedure.opposed":
        token = Colour(p["token"])
        return (f"The GM spends a {token.value} token in secret: a {OPPOSITION[token]} opposition "
                f"for scene {p['scene']}.")
    if kind == "dramasystem.procedure.target_drawn":
        tool = " (drawn by the tool)" if p["order_drawn_by_tool"] else ""
        cut = " (drawn by the tool)" if p["card_drawn_by_tool"] else ""
        return (f"Target card: {Card.parse(p['target']).name} ({_card(p['target'])}){cut}. "
                f"Players draw in this order{tool}: {', '.join(p['order'])}.")
    if kind == "dramasystem.procedure.played":
        return _played(p)
    if kind == "dramasystem.procedure.resolved":
        return _resolved(p)
    return None


def _played(p: dict[str, Any]) -> str:
    if p["token"] is None:
        return f"{p['player']} passes (their character is not present)."
    draws = ", ".join(f"{_card(c)} ({Match(m).narration})" for c, m in zip(p["cards"], p["matches"]))
    by_tool = " (drawn by the tool)" if p["drawn_by_tool"] else ""
    text = f"{p['player']} spends {p['token']} and draws {draws}{by_tool}."
    if p["knocked_out"]:
        text += f" The GM knocks out {_cards(p['knocked_out'])}."
    if p["waiting_knock_outs"]:
        text += " A knock-out waits for the next matching card."
    return text + _refreshed(p["procedural_spends"])


def _resolved(p: dict[str, Any]) -> str:
    token = Colour(p["gm_token"])
    needed = _NEEDED_WORDS[Match(p["needed"])]
    result = ("The characters prevail" if p["success"] else "They fail")
    text = (f"The GM reveals {token.value}: a {OPPOSITION[token]} opposition, {needed} needed. "
            f"{result}.")
    for c in p["consequences"]:
        gains = "gains an advantage" if c["kind"] == "advantage" else "faces an obstacle"
        text += f" {c['player']} {gains} ({_card(c['card'])})."
    return text + _refreshed(p["procedural_spends"])


def follow_up(state: CampaignState[Any]) -> str | None:
    """``Procedural tokens unspent: Ana green, yellow; Ben all three; ...``; the GM's pile is left out while a
    resolution is open, since it would hint at her secret token (reading 16)."""
    rules = state.rules
    if rules is None:
        return None
    piles = rules.piles
    hide_gm = bool(rules.procedure.open)
    shown = [n for n in piles.piles if not (hide_gm and state.table.is_gm(n))]
    if not shown:
        return None

    def unspent(name: str) -> str:
        pile = piles.pile(name)
        return "all three" if len(pile.unspent) == 3 else pile.describe()

    parts = [f"{n}{' (GM)' if state.table.is_gm(n) else ''} {unspent(n)}" for n in shown]
    return f"Procedural tokens unspent: {'; '.join(parts)}."
