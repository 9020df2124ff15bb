"""Dice statistics: each participant's and each episode's rolls, breaks and botches, and how the results
compared with their prior odds (Yarn 0.1, "Chancy Actions", "Breaks", "Botch").

Every roll records the exact chances it had of beating, equalling or failing what it was against, so
luck can be read off the journal: the beats a participant's rolls were expected to bring (the sum of
their chances of beating) against the beats they brought, and each roll's chance of the outcome it got.

Procedural rolls (``yarn.roll.made``) are counted from the replayed campaign; given the history, the
attack and defense rolls of detailed fights (``yarn.combat.attacked``) count too, each against the
other with the exact odds of the opposed roll ("Attacks": "Generally, the higher roll wins").

Counted over the rolls ``viewer`` may see (``core.state.visible_to``): a player's statistics leave
out the GM's secret rolls entirely, their count and totals included. Pure projections of a replayed
campaign (``journal.state(cid, upto=N)``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from yarnlog.core.corrections import effective
from yarnlog.core.events import Recorded
from yarnlog.core.state import visible_to
from yarnlog.rulesets.yarn.parts.combat.fight_records import AttackMade
from yarnlog.rulesets.yarn.parts.procedure.dice_facts import DiceFacts
from yarnlog.rulesets.yarn.parts.procedure.roll_making import options_of
from yarnlog.rulesets.yarn.parts.procedure.roll_records import PriorOdds
from yarnlog.rulesets.yarn.parts.procedure.roll_reports import MIRROR, roll_rows
from yarnlog.rulesets.yarn.rules import dice, odds, personal_consequences
from yarnlog.rulesets.yarn.state import YarnCampaign

OUTCOMES = ("beats", "equals", "fails")


def _fraction(chance: Mapping[str, str] | None) -> Fraction | None:
    return Fraction(chance["exact"]) if chance else None


def tally(rows: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Counts over some rolls: breaks, botches, outcomes, and expected against actual beats.

    ``expected_beats`` sums the prior chance of beating over the rolls that had one (rolls against
    nothing, or against a hidden number, have none); ``beats_with_odds`` counts the beats among
    those same rolls, so the two compare like with like.
    """
    rows = list(rows)
    with_odds = [r for r in rows if r["odds"] and r["outcome"]]
    expected = sum((_fraction(r["odds"]["beats"]) or Fraction(0) for r in with_odds), Fraction(0))
    beats_with_odds = sum(r["outcome"] == "beats" for r in with_odds)
    return {
        "rolls": len(rows),
        "dice_total": sum(r["total"] for r in rows),
        "good_breaks": sum(bool(r["breaks"]["good"]) for r in rows),
        "bad_breaks": sum(bool(r["breaks"]["bad"]) for r in rows),
        "botches": sum(bool(r["botch"]) for r in rows),
        "outcomes": {o: sum(r["outcome"] == o for r in rows) for o in OUTCOMES},
        "rolls_with_odds": len(with_odds),
        "expected_beats": {"exact": f"{expected.numerator}/{expected.denominator}", "value": round(float(expected), 2)},
        "beats_with_odds": beats_with_odds,
        "luck": round(beats_with_odds - float(expected), 2),
    }


def _roll_line(row: Mapping[str, Any]) -> dict[str, Any]:
    odds = row["odds"]
    return {
        "sequence": row["sequence"], "episode": row["episode"], "scene": row["scene"],
        "participant": row["participant"], "character": row["character"], "trait": row["trait"],
        "dice": row["dice"], "total": row["total"], "outcome": row["outcome"],
        "against": (row["against"] or {}).get("label") or (row["against"] or {}).get("kind"),
        "against_number": (row["against"] or {}).get("number"),
        "chance_of_beating": odds["beats"]["percent"] if odds else None,
        "chance_of_outcome": row["odds_of_outcome"],
        "good_break": bool(row["breaks"]["good"]), "bad_break": bool(row["breaks"]["bad"]), "botch": bool(row["botch"]),
    }


def _fight_roll(campaign: YarnCampaign, rec: Recorded, who: str, mine: DiceFacts, theirs: DiceFacts,
                outcome: str, against: str, kind: str) -> dict[str, Any]:
    """One side of an attack as a row shaped like :func:`~.roll_reports.roll_data`'s."""
    characters = campaign.rules.characters
    sheet = characters.pcs.get(who)
    options = options_of(campaign)
    prior = PriorOdds.of(odds.opposed_odds(mine.spec(), theirs.spec(), options))
    result = mine.result()
    found = personal_consequences.breaks(result)
    return {
        "sequence": rec.sequence, "episode": rec.episode, "scene": rec.scene,
        "participant": sheet.player if sheet else campaign.table.gm, "character": who, "trait": kind,
        "dice": mine.describe(), "total": mine.total, "outcome": outcome,
        "against": {"kind": "opponent", "label": against, "number": theirs.total},
        "odds": prior.model_dump(mode="json"), "odds_of_outcome": prior.of_outcome(outcome).percent,
        "breaks": {"good": found.good, "bad": found.bad}, "botch": dice.is_botch(result, options),
    }


def fight_rows(campaign: YarnCampaign, history: Sequence[Recorded], *, viewer: str | None = None,
               episode: int | None = None) -> list[dict[str, Any]]:
    """The attack and defense rolls of every detailed-fight attack ``viewer`` may see (amendments applied)."""
    rows = []
    for rec in effective(history):
        p = rec.payload
        if not isinstance(p, AttackMade) or not visible_to(rec, viewer, campaign.table):
            continue
        if episode is not None and rec.episode != episode:
            continue
        d, outcome = p.declared, str(p.outcome.value)
        rows.append(_fight_roll(campaign, rec, d.attacker, p.attack, p.defense, outcome, d.defender, "attack"))
        rows.append(_fight_roll(campaign, rec, d.defender, p.defense, p.attack, MIRROR[outcome], d.attacker,
                                "defense"))
    return rows


def dice_statistics(campaign: YarnCampaign, *, history: Sequence[Recorded], viewer: str | None = None,
                    episode: int | None = None, participant: str | None = None,
                    fights: bool = True) -> dict[str, Any]:
    """Statistics of every roll of ``history`` (the campaign's, up to the same point) ``viewer`` may see
    (None: the GM's view), by participant and by episode; with ``fights``, the rolls of detailed
    fights as well."""
    rows = roll_rows(campaign, history, episode=episode, viewer=viewer)
    if fights:
        rows = sorted(rows + fight_rows(campaign, history, viewer=viewer, episode=episode),
                      key=lambda r: r["sequence"])
    rows = [r for r in rows if participant is None or r["participant"] == participant]
    participants = list(dict.fromkeys(r["participant"] for r in rows))
    episodes = list(dict.fromkeys(r["episode"] for r in rows))
    return {
        "as_of": campaign.sequence,
        "viewer": viewer,
        "total": tally(rows),
        "by_participant": [{"participant": p, **tally(r for r in rows if r["participant"] == p)} for p in participants],
        "by_episode": [{"episode": e, **tally(r for r in rows if r["episode"] == e)} for e in episodes],
        "rolls": [_roll_line(r) for r in rows],
    }
