"""What the table reads of procedural play: rolls, group efforts and consequences as plain data.

Projections of the ``procedure`` part's events for the CLI and reports, each as a viewer may see it.
The state keeps what the rules read of each roll (:class:`~.roll_records.RollFact`); a report of
whole rolls reads them from the history the campaign was folded from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from yarnlog.core.events import Recorded
from yarnlog.core.referee import present
from yarnlog.rulesets.yarn.parts.procedure.consequence_rolls import (
    consequence_scene,
    consequences_due,
    scene_consequences,
)
from yarnlog.rulesets.yarn.parts.procedure.roll_making import options_of
from yarnlog.rulesets.yarn.parts.procedure.roll_records import (
    Against,
    PriorOdds,
    RollFact,
    RollMade,
    group_resolved,
    groups_in,
    roll_made,
    roll_read,
    rolls_in,
)
from yarnlog.rulesets.yarn.rules import odds
from yarnlog.rulesets.yarn.state import YarnCampaign

# -- projections ----------------------------------------------------------------------------


def _visible(campaign: YarnCampaign, recorded: Recorded | RollFact, viewer: str | None) -> bool:
    from yarnlog.core.state import visible_to

    return visible_to(recorded, viewer, campaign.table)


MIRROR = {"beats": "fails", "fails": "beats", "equals": "equals"}


def _against_data(campaign: YarnCampaign, against: Against | None, viewer: str | None) -> dict[str, Any] | None:
    if against is None:
        return None
    data: dict[str, Any] = {"kind": against.kind, "number": against.number, "label": against.label,
                            "roll": against.roll}
    if against.kind == "opponent" and against.number is None and against.roll is not None:
        opponent = campaign.rules.procedure.rolls.get(against.roll)
        if opponent is not None and _visible(campaign, opponent, viewer):
            data.update(number=opponent.total, label=opponent.character)
    if against.dice is not None:
        data["dice"] = against.dice.describe()
    return data


def roll_data(campaign: YarnCampaign, recorded: Recorded, viewer: str | None = None) -> dict[str, Any]:
    """One roll as plain data, with what a recap says of it."""
    p = roll_made(recorded)
    procedure = campaign.rules.procedure
    against = _against_data(campaign, p.against, viewer)
    margin, prior = p.margin, p.odds
    # (an opponent shown to the viewer: ``against`` found the roll, so ``p.against.roll`` is set)
    if p.against is not None and p.against.number is None and against is not None and against["number"] is not None \
            and p.against.roll is not None:
        margin = p.dice.total - against["number"]
        opposed = procedure.rolls[p.against.roll]
        prior = PriorOdds.of(odds.opposed_odds(p.dice.spec(), opposed.spec, options_of(campaign)))
    answers = [procedure.rolls[s] for s in procedure.answers.get(recorded.sequence, ()) if s in procedure.rolls]
    data: dict[str, Any] = {
        "sequence": recorded.sequence, "episode": recorded.episode, "scene": recorded.scene,
        "participant": p.participant, "character": p.character, "gmc": p.gmc, "trait": p.trait,
        "trait_use": p.trait_use.value, "purpose": p.purpose, "notation": p.dice.notation,
        "faces": p.dice.faces, "kept": p.dice.kept, "top_off": p.dice.top_off, "dice": p.dice.describe(),
        "total": p.dice.total, "source": p.dice.source, "experience_dice": p.experience_dice,
        "helpers": [h.character for h in p.helpers],
        "psychic": p.psychic.model_dump(mode="json") if p.psychic else None,
        "against": against, "outcome": p.outcome, "margin": margin, "decided_by": p.decided_by,
        "odds": prior.model_dump(mode="json") if prior else None,
        "odds_of_outcome": prior.of_outcome(p.outcome).percent if prior and p.outcome else None,
        "breaks": p.breaks.model_dump(mode="json"), "botch": p.botch, "sixes": p.sixes,
        # A roll answered by others is lost or drawn when they beat or equal it: its sixes still count.
        "limited_success": p.limited_success or (p.sixes > 0 and any(
            a.outcome in ("beats", "equals") for a in answers)),
        "answered_by": [{"roll": a.sequence, "character": a.character, "outcome": MIRROR[a.outcome]}
                        for a in answers if a.outcome and _visible(campaign, a, viewer)],
        "group": procedure.grouped.get(recorded.sequence),
        "readings": [p.reading] * bool(p.reading) + [roll_read(r).reading for r in procedure.readings.get(
            recorded.sequence, ()) if _visible(campaign, r, viewer)],
    }
    if p.against is not None and p.against.kind == "spell":
        from yarnlog.rulesets.yarn.rules.magic import resists_spell

        level = present(p.against.number, "a spell resisted is recorded with its level")
        data["resisted"] = not p.botch and resists_spell(level, p.dice.total)
        if prior is not None:  # always recorded against a spell's level
            resisting = prior.beats.fraction() + prior.equals.fraction()  # "at least equal" resists
            data["odds_of_outcome"] = odds.percent(resisting if data["resisted"] else 1 - resisting)
    data["recap"] = recap(data)
    return data


def recap(row: Mapping[str, Any]) -> str:
    """One line for a recap, e.g. "Iris rolls Military Background, 3d6: 6 6 2 = 14, beats Hard 11 by 3
    (against 38% odds) [good break]"; a spell is resisted at least equal to its level."""
    what = row["trait"] or "no trait"
    line = f"{row['character']} rolls {what} ({row['trait_use']})" if row["trait_use"] != "trait" else \
        f"{row['character']} rolls {what}"
    if row["helpers"]:
        line += f" with {', '.join(row['helpers'])}"
    if row["psychic"]:
        line += f" ({row['psychic']['kind']}, {row['psychic']['shots']} shot{'s' * (row['psychic']['shots'] > 1)})"
    line += f", {row['dice']}"
    against = row["against"]
    if row["outcome"] and against:
        name = against["label"] or against["kind"]
        number = against["number"] if against["number"] is not None else "?"
        verb = {"beats": "beats", "equals": "equals", "fails": "fails against"}[row["outcome"]]
        if against["kind"] == "spell":
            verb = "resists" if row["resisted"] else "does not resist"
        line += f", {verb} {name} {number}"
        if row["margin"]:
            line += f" by {abs(row['margin'])}"
        if row["odds_of_outcome"]:
            made_it = row.get("resisted", row["outcome"] == "beats")
            line += f" (against {row['odds_of_outcome']} odds)" if made_it else f" ({row['odds_of_outcome']} odds)"
    extras = [label for label, on in (("botch", row["botch"]), ("good break", row["breaks"]["good"]),
                                      ("bad break", row["breaks"]["bad"]),
                                      ("limited success", row["limited_success"])) if on]
    return line + (f" [{', '.join(extras)}]" if extras else "")


def roll_rows(campaign: YarnCampaign, history: Iterable[Recorded], *, scene: int | None = None,
              episode: int | None = None, character: str | None = None,
              viewer: str | None = None) -> list[dict[str, Any]]:
    """Every roll of ``history`` (the events ``campaign`` was folded from) visible to ``viewer`` (None:
    the GM's view), optionally of one scene, episode or character."""
    return [roll_data(campaign, rec, viewer) for rec in rolls_in(campaign.rules.procedure, history)
            if (scene is None or rec.scene == scene) and (episode is None or rec.episode == episode)
            and (character is None or roll_made(rec).character == character) and _visible(campaign, rec, viewer)]


def group_rows(campaign: YarnCampaign, history: Iterable[Recorded], *, scene: int | None = None,
               viewer: str | None = None) -> list[dict[str, Any]]:
    """Group efforts of ``history`` (as :func:`roll_rows`): resolved ones, and rolls that combined
    several characters' dice."""
    history = list(history)
    procedure = campaign.rules.procedure
    rows: list[dict[str, Any]] = []
    for seq, rec in sorted({**{r.sequence: r for r in groups_in(procedure, history)}, **{
            r.sequence: r for r in rolls_in(procedure, history) if roll_made(r).helpers}}.items()):
        if (scene is not None and rec.scene != scene) or not _visible(campaign, rec, viewer):
            continue
        p = rec.payload
        if isinstance(p, RollMade):
            rows.append({"sequence": seq, "scene": rec.scene, "method": "combining dice",
                         "characters": [p.character, *(h.character for h in p.helpers)], "rolls": [seq],
                         "counting": seq, "total": p.dice.total, "outcome": p.outcome, "margin": p.margin})
        else:
            g = group_resolved(rec)
            rows.append({"sequence": seq, "scene": rec.scene, "method": g.method, "characters": g.characters,
                         "rolls": g.rolls, "counting": g.counting, "total": g.total, "outcome": g.outcome,
                         "margin": g.margin})
    return rows


def consequence_data(campaign: YarnCampaign, scene: int | None = None) -> dict[str, Any]:
    """The consequence rolls due at the end of ``scene`` and those made, with what they brought."""
    number = consequence_scene(campaign, scene)
    made = scene_consequences(campaign.rules.procedure, number)
    return {
        "scene": number,
        "in_play": campaign.timeline.scene == number,
        "due": [{"character": d.character, "kind": d.kind.value, "breaks": list(d.breaks)}
                for d in consequences_due(campaign, number)],
        "rolled": [{"sequence": c.sequence, "character": c.character, "kind": c.kind,
                    "face": c.face, "consequence": c.consequence, "breaks": list(c.breaks)}
                   for c in made],
    }
