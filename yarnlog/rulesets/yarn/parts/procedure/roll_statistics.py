"""Dice statistics: each participant's and each episode's rolls, breaks and botches, and how the results
compared with their prior odds (Yarn 0.1, "Chancy Actions", "Breaks", "Botch").

Every roll records the exact chances it had of beating, equalling or failing what it was against, so
luck can be read off the journal: the beats a participant's rolls were expected to bring (the sum of
their chances of beating) against the beats they brought, and each roll's chance of the outcome it got.

Counted over the rolls ``viewer`` may see (``core.state.visible_to``): a player's statistics leave
out the GM's secret rolls entirely, their count and totals included. Pure projections of a replayed
campaign (``journal.state(cid, upto=N)``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from yarnlog.rulesets.yarn.parts.procedure.roll_reports import roll_rows
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


def dice_statistics(campaign: YarnCampaign, *, viewer: str | None = None, episode: int | None = None,
                    participant: str | None = None) -> dict[str, Any]:
    """Statistics of every roll ``viewer`` may see (None: the GM's view), by participant and by episode."""
    rows = [r for r in roll_rows(campaign, episode=episode, viewer=viewer)
            if participant is None or r["participant"] == participant]
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
