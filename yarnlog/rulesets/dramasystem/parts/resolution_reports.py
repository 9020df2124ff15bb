"""Every card resolution of a DramaSystem campaign, as people read it: who, tokens, cards, result, odds.

One report per simple resolution (SRD 443-567), advanced resolution (776-913), contest or solo
action (579-635, 915-975), built from the events as recorded (every card as drawn, never drawn
again): who took part and with which token, the cards in the order they came (knocked-out cards
marked), the result in the book's words, and the prior odds (:mod:`..rules.odds`): the chance the
side that acts succeeds given the tokens spent, before any card was drawn.

The GM's token for a simple resolution is secret until the end (SRD 445). A player's report is
built from what that player may see (:mod:`.player_views`), so an open resolution shows neither
her token nor odds against it: it shows the odds against each of the three tokens she might have
spent (digest, section 6; reading 16). Pure functions of a history.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from yarnlog.core.corrections import effective
from yarnlog.core.events import Recorded
from yarnlog.core.table import Table
from yarnlog.rulesets.dramasystem.parts.advanced_procedure import AdvancedOpened, Clinched, PrimaryDrew, Redrawn
from yarnlog.rulesets.dramasystem.parts.card_procedure import CardsPlayed, OppositionSet, ProcedureResolved, TargetDrawn
from yarnlog.rulesets.dramasystem.parts.contests import (
    GM_SIDE,
    ContestAssisted,
    ContestDrew,
    ContestEnded,
    ContestRedrew,
    ContestStarted,
    ContestStopped,
)
from yarnlog.rulesets.dramasystem.parts.extra_cards import ADVANCED, SIMPLE, ExtraCard
from yarnlog.rulesets.dramasystem.parts.player_views import check_viewer, seen_by
from yarnlog.rulesets.dramasystem.rules.action_types import Grade
from yarnlog.rulesets.dramasystem.rules.advanced_resolution import Band
from yarnlog.rulesets.dramasystem.rules.cards import Card
from yarnlog.rulesets.dramasystem.rules.odds import advanced_contest, advanced_outcomes, simple_contest, simple_success
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour
from yarnlog.rulesets.dramasystem.rules.simple_resolution import NEEDED, OPPOSITION, Match

#: What the advanced contest's figure assumes (the contest is a game with choices).
ADVANCED_CONTEST_POLICY = ("both play to win, no one else intervenes, new cards come from the 50 not in play")
_NEEDED_WORDS = {Match.VALUE: "same value", Match.SUIT: "same suit", Match.COLOUR: "same colour"}


def _card(text: str) -> str:
    return Card.parse(text).display


def _chance(value: Fraction) -> dict[str, Any]:
    return {"chance": str(value), "percent": round(float(value) * 100)}


def _said(o: dict[str, Any]) -> str:
    """A chance as people read it: the exact fraction when it is short, and the percentage."""
    exact = o["chance"] if len(o["chance"]) <= 13 else ""
    return f"{exact} ({o['percent']}%)" if exact else f"{o['percent']}%"


def _simple_odds(tokens: list[Colour], gm_token: Colour | None, extra_cards: int = 0) -> list[dict[str, Any]]:
    """P(the players succeed) with ``tokens`` (and ``extra_cards``, reading 5) against the GM's token, or
    against each one when it is unknown; none before any player has spent a token."""
    if not tokens:
        return []
    against = [gm_token] if gm_token is not None else [Colour.RED, Colour.YELLOW, Colour.GREEN]
    return [{"against": c.value, **_chance(simple_success(tokens, c, extra_cards))} for c in against]


def _extras(report: dict[str, Any]) -> int:
    return sum(1 for c in report["cards"] if c.get("extra"))


def _base(kind: str, rec: Recorded, scene: int) -> dict[str, Any]:
    return {"kind": kind, "sequence": rec.sequence, "last": rec.sequence, "episode": rec.episode, "scene": scene,
            "who": [], "tokens": [], "cards": [], "knocked_out": [], "result": None, "open": True, "odds": [],
            "odds_policy": None, "consequences": []}


def resolution_reports(history: Sequence[Recorded], table: Table, *, viewer: str | None = None,
                       scene: int | None = None) -> list[dict[str, Any]]:
    """Every resolution and contest ``viewer`` may see (``None``: the GM), oldest first."""
    check_viewer(table, viewer)
    reports: list[dict[str, Any]] = []
    simple: dict[int, dict[str, Any]] = {}
    advanced: dict[int, dict[str, Any]] = {}
    contests: dict[int, dict[str, Any]] = {}
    secret: dict[int, Colour] = {}
    for rec in effective(seen_by(history, table, viewer)):
        p = rec.payload
        if isinstance(p, OppositionSet):  # only the GM's view holds it
            secret[p.scene] = p.token
        elif isinstance(p, (TargetDrawn, CardsPlayed, ProcedureResolved)) or (
                isinstance(p, ExtraCard) and p.procedure == SIMPLE):
            _simple_step(simple, reports, rec, secret)
        elif isinstance(p, (AdvancedOpened, PrimaryDrew, Redrawn, Clinched)) or (
                isinstance(p, ExtraCard) and p.procedure == ADVANCED):
            _advanced_step(advanced, reports, rec)
        elif isinstance(p, ExtraCard):
            _contest_step(contests, reports, rec)
        elif isinstance(p, (ContestStarted, ContestAssisted, ContestDrew, ContestRedrew, ContestStopped,
                            ContestEnded)):
            _contest_step(contests, reports, rec)
    for report in reports:
        if report["kind"] == "simple" and report["open"]:
            token = secret.get(report["scene"])
            report["gm_token"] = token.value if token is not None else None
            report["odds"] = _simple_odds([Colour(c) for _, c in report["tokens"] if c], token, _extras(report))
    return [r for r in reports if scene is None or r["scene"] == scene]


def _simple_step(open_: dict[int, dict[str, Any]], reports: list[dict[str, Any]], rec: Recorded,
                 secret: dict[int, Colour]) -> None:
    p: Any = rec.payload
    if isinstance(p, TargetDrawn):
        report = _base("simple", rec, p.scene)
        report.update(target=p.target, order=list(p.order), gm_token=None, who=list(p.order))
        open_[p.scene] = report
        reports.append(report)
        return
    going = open_.get(p.scene)
    if going is None:
        return
    report = going
    report["last"] = rec.sequence
    if isinstance(p, CardsPlayed):
        report["tokens"].append((p.player, p.token.value if p.token else None))
        for card, found in zip(p.cards, p.matches):
            report["cards"].append({"by": p.player, "card": card, "match": found.value, "token": _value(p.token)})
        report["knocked_out"] += p.knocked_out
    elif isinstance(p, ExtraCard) and p.card is not None:
        report["cards"].append({"by": p.player, "card": p.card, "match": _value(p.match), "token": None,
                                "extra": _paid_by(p)})
        if p.knocked_out:
            report["knocked_out"].append(p.card)
    elif isinstance(p, ProcedureResolved):
        secret.pop(p.scene, None)
        del open_[p.scene]
        needed = _NEEDED_WORDS[NEEDED[p.gm_token]]
        prevail = "the characters prevail" if p.success else "they fail"
        best = Match(p.best)
        report.update(open=False, gm_token=p.gm_token.value,
                      result=f"GM {p.gm_token.value}, {OPPOSITION[p.gm_token]}: {needed} needed; "
                             f"{prevail} ({best.narration})",
                      success=p.success,
                      consequences=[{"player": c.player, "card": c.card, "kind": c.kind} for c in p.consequences],
                      odds=_simple_odds([Colour(c) for _, c in report["tokens"] if c], p.gm_token,
                                        _extras(report)))


def _value(token: Any) -> str | None:
    return token.value if token is not None else None


def _paid_by(p: ExtraCard) -> str:
    """What bought an additional card: a bennie (DS76) or the GM's ruling (How I Do It, 149)."""
    return "bennie" if p.ruling is None else "ruling"


def _advanced_step(open_: dict[int, dict[str, Any]], reports: list[dict[str, Any]], rec: Recorded) -> None:
    p: Any = rec.payload
    if isinstance(p, AdvancedOpened):
        report = _base("advanced", rec, p.scene)
        chances = advanced_outcomes(p.gm_token, Grade(p.grade))
        up = chances[Band.UP_FACE] + chances[Band.UP_NUMBER]
        report.update(who=[p.primary], primary=p.primary, action_type=p.action_type, grade=Grade(p.grade).value,
                      gm_token=p.gm_token.value, tokens=[(p.gm, p.gm_token.value)],
                      cards=[{"by": "opening run", "card": c} for c in p.opening],
                      odds=[{"against": p.gm_token.value, **_chance(up)}],
                      odds_policy="an up clincher, with no redraw",
                      active=p.opening[-1])  # the card the scene starts from, then each one that replaces it
        open_[p.scene] = report
        reports.append(report)
        return
    going = open_.get(p.scene)
    if going is None:
        return
    report = going
    report["last"] = rec.sequence
    if isinstance(p, PrimaryDrew):
        report["cards"] += [{"by": "primary", "card": c, "kept": c == p.kept} for c in p.cards]
        report["active"] = p.kept
    elif isinstance(p, Redrawn):
        if p.player not in report["who"]:
            report["who"].append(p.player)
        if p.token is not None:
            report["tokens"].append((p.player, p.token.value))
        report["cards"].append({"by": p.player, "card": p.card, "redraw": p.means.value})
        report["active"] = p.card
        if p.consequence_card:
            report["consequences"].append({"player": p.player, "card": p.consequence_card,
                                           "kind": p.consequence or "none"})
    elif isinstance(p, ExtraCard) and p.card is not None:
        if p.player not in report["who"]:
            report["who"].append(p.player)
        report["cards"].append({"by": p.player, "card": p.card, "redraw": _paid_by(p), "extra": _paid_by(p)})
        report["active"] = p.card
    elif isinstance(p, Clinched):
        del open_[p.scene]
        teller = p.narrator if p.success else "the GM"
        report.update(open=False, success=p.success,
                      result=f"clincher {_card(p.clincher)}: {p.outcome}; {teller} describes it")


def _contest_step(open_: dict[int, dict[str, Any]], reports: list[dict[str, Any]], rec: Recorded) -> None:
    p: Any = rec.payload
    if isinstance(p, ContestStarted):
        kind = "solo" if p.second == GM_SIDE else "advanced contest" if p.advanced else "contest"
        report = _base(kind, rec, p.scene)
        allowance = [*p.allowance, 0, 0][:2]
        report.update(who=[p.first, p.second], allowance=allowance,
                      tokens=[(p.first, p.first_token.value), (p.second, p.second_token.value)],
                      stakes=list(p.goals), outright=p.outright_winner)
        if p.outright_winner:  # "no resolution system required" (SRD 581): no token is spent
            report.update(tokens=[], open=False,
                          result=f"{p.outright_winner} wins outright (Strong against Weak), no card drawn")
        else:
            _contest_odds(report)
        open_[p.scene] = report
        reports.append(report)
        return
    going = open_.get(p.scene)
    if going is None:
        return
    report = going
    report["last"] = rec.sequence
    if isinstance(p, ContestAssisted):
        report["tokens"].append((p.assistant, p.token.value))
        side = 0 if p.side == report["who"][0] else 1
        report["allowance"][side] += p.extra
        report.setdefault("assists", []).append({"assistant": p.assistant, "side": p.side, "extra": p.extra})
        _contest_odds(report)
    elif isinstance(p, ExtraCard) and p.side is not None:
        side = 0 if p.side == report["who"][0] else 1
        report["allowance"][side] += 1
        report.setdefault("extras", []).append({"player": p.player, "side": p.side, "paid_by": _paid_by(p)})
        _contest_odds(report)
    elif isinstance(p, ContestDrew):
        report["cards"].append({"by": p.side, "card": p.card, "drawn_by": p.drawn_by})
    elif isinstance(p, ContestRedrew):
        report["cards"].append({"by": p.target, "card": p.card, "redraw_by": p.actor})
        if p.procedural_spends:
            report["tokens"].append((p.actor, Colour.GREEN.value))
    elif isinstance(p, ContestEnded):
        del open_[p.scene]
        report["open"] = False
        if p.surprise:
            report["result"] = f"equal values: a surprise outcome, {p.surprise}"
        elif p.winning_card:
            over = f" over {_card(p.losing_card)}" if p.losing_card else ""
            suit = " (the suit decides)" if p.by_suit else ""
            report["result"] = f"{p.winner} wins with {_card(p.winning_card)}{over}{suit}"
        report["winner"] = p.winner
        report["consequences"] = [{"player": c.player, "card": c.card, "kind": c.kind} for c in p.consequences]


def _contest_odds(report: dict[str, Any]) -> None:
    """The first side's chance: best in hand (reading 1) for the simple contest and solo actions,
    a stated play policy for the advanced contest."""
    first, second = report["allowance"]
    if report["kind"] == "advanced contest":
        chance = advanced_contest(first, second)
        report["odds_policy"] = ADVANCED_CONTEST_POLICY
    else:
        chance = simple_contest(first, second)
        report["odds_policy"] = "each side draws every card it may; the best in hand counts"
    report["odds"] = [{"for": report["who"][0], **_chance(chance)}]


def _odds_words(report: dict[str, Any]) -> str:
    odds = report["odds"]
    if not odds:
        return ""
    so_far = " with the tokens spent so far" if report["open"] and report["kind"] == "simple" else ""
    if len(odds) > 1:  # the GM's token is not known to this view: every token she might have spent
        return f"Prior odds{so_far}: " + ", ".join(f"{o['percent']}% against {o['against']}" for o in odds) + "."
    o = odds[0]
    whose = f" for {o['for']}" if "for" in o else ""
    return f"Prior odds{whose}{so_far} {_said(o)}."


def _card_words(card: dict[str, Any], knocked_out: list[str]) -> str:
    text = _card(card["card"])
    if card["card"] in knocked_out:
        text += " (knocked out)"
    if card.get("kept"):
        text += " (kept)"
    return text


def describe(report: dict[str, Any]) -> tuple[str, str]:
    """Two short lines of ``report``: its kind, who, tokens and cards as drawn; then the result and the odds."""
    cards, out = report["cards"], report["knocked_out"]

    def of(who: str) -> str:
        return " ".join(_card_words(c, out) for c in cards if c["by"] == who and not c.get("extra"))

    kind = report["kind"]
    head = f"{kind[0].upper()}{kind[1:]}: "
    if kind == "simple":
        turns = [f"{who} {token} {of(who)}".rstrip() if token else f"{who} passes" for who, token in report["tokens"]]
        first = head + f"target {_card(report['target'])}" + "".join(f"; {t}" for t in turns)
        first += "".join(f"; {c['by']} extra {_card_words(c, out)} ({c['extra']})" for c in cards if c.get("extra"))
    elif kind == "advanced":
        first = (head + f"{report['primary']} ({report['action_type']}, {report['grade']}), GM {report['gm_token']}; "
                 f"run {of('opening run')}")
        if of("primary"):
            first += f"; primary {of('primary')}"
        first += "".join(f"; {c['by']} {_card(c['card'])}" for c in cards if "redraw" in c)
    else:
        sides = " v ".join(f"{who} {token}" for who, token in report["tokens"][:2]) or " v ".join(report["who"])
        draws = ", ".join(f"{c['by']} {_card(c['card'])}" for c in cards)
        first = head + sides + (f"; {draws}" if draws else "")
    result = report["result"] or ("open" + ("" if report.get("gm_token") is None or kind != "simple"
                                            else f"; the GM spent {report['gm_token']} in secret"))
    second = f"{result[0].upper()}{result[1:]}. {_odds_words(report)}".rstrip()
    return first, second
