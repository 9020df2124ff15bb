"""Why the piles are what they are after a DramaSystem event: the event explained from the journal.

For an event number: what was recorded (in the SRD's words), every participant's procedural pile
before and after it, each token it moved with the rule that moved it (:mod:`.token_ledger`), drama
tokens and bennies beside them when the state keeps them, and every correction or retraction that
points at it. A player's view is built from what that player may see (:mod:`.player_views`): the
GM's secret token is not there, and while a resolution may be open (at that point or now) her pile
is left out. Pure functions of a history (``Journal.history``) and the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from yarnlog.core.corrections import Correction, Retraction, effective
from yarnlog.core.events import Recorded
from yarnlog.core.referee import invalid, present
from yarnlog.core.state import replay, visible_to
from yarnlog.core.table import Table
from yarnlog.core.words import core_sentence
from yarnlog.rulesets.dramasystem.parts.player_views import check_viewer, gm_pile_hidden, seen_by
from yarnlog.rulesets.dramasystem.parts.token_ledger import token_board, token_ledger
from yarnlog.rulesets.dramasystem.words import narrate


def _amendments(seen: Sequence[Recorded], sequence: int) -> list[dict[str, Any]]:
    """The corrections and retractions that point at event ``sequence``, oldest first."""
    found = []
    for rec in seen:
        p = rec.payload
        if isinstance(p, Retraction) and p.retracts == sequence:
            found.append({"sequence": rec.sequence, "kind": "retraction", "reason": p.reason,
                          "approved_by": p.approved_by})
        elif isinstance(p, Correction) and p.corrects == sequence:
            found.append({"sequence": rec.sequence, "kind": "correction", "reason": p.reason,
                          "approved_by": p.approved_by, "replacement": p.replacement})
    return found


def explain_event(history: Sequence[Recorded], table: Table, sequence: int, *,
                  viewer: str | None = None) -> dict[str, Any]:
    """Event ``sequence`` explained, as ``viewer`` may see it (``None``: the GM's view)."""
    check_viewer(table, viewer)
    rec = present(next((r for r in history if r.sequence == sequence), None),
                  f"there is no event {sequence} in this campaign (it has {len(history)})")
    invalid(visible_to(rec, viewer, table), f"event {sequence} is not visible to {viewer}")
    seen = seen_by(history, table, viewer)
    # Amendments recorded later count too: a retracted event moved nothing, before or after.
    upto = [r for r in effective(seen) if r.sequence <= sequence]
    before = replay([r for r in upto if r.sequence < sequence])
    after = replay(upto)
    # Once a resolution has ended its token is known to all, so what the GM held at any point is
    # hidden from a player only while a resolution may be open now (reading 16).
    hidden = gm_pile_hidden(replay(seen), viewer)
    lines = [line for line in token_ledger(after, upto, viewer=viewer, hide_gm=hidden)
             if line["sequence"] == sequence]
    rules: dict[str, dict[str, str]] = {}
    for line in lines:
        if line["rule_number"] is not None:
            rules.setdefault(line["rule_number"], {"number": line["rule_number"], "chapter": line["chapter"],
                                                   "text": line["rule"]})
    amendments = _amendments(seen, sequence)
    return {
        "event": {"sequence": rec.sequence, "event_type": rec.event_type, "recorded_by": rec.recorded_by,
                  "visibility": rec.visibility, "episode": rec.episode, "scene": rec.scene,
                  "payload": rec.payload.to_data()},
        "said": narrate(rec, after) or core_sentence(rec),
        "standing": "retracted" if any(a["kind"] == "retraction" for a in amendments)
        else "corrected" if amendments else "as recorded",
        "piles_before": token_board(before, viewer=viewer, hide_gm=hidden)["participants"],
        "piles_after": token_board(after, viewer=viewer, hide_gm=hidden)["participants"],
        "lines": lines,
        "rules": list(rules.values()),
        "amendments": amendments,
    }


def explain_scene(history: Sequence[Recorded], table: Table, scene: int, *,
                  viewer: str | None = None) -> dict[str, Any]:
    """Every event of scene ``scene`` that ``viewer`` may see, in words with the tokens each moved, and
    every pile before the scene's first event and after its last."""
    check_viewer(table, viewer)
    in_scene = [r for r in history if r.scene == scene]
    invalid(bool(in_scene), f"there is no scene {scene} in this campaign")
    seen = seen_by(history, table, viewer)
    effective_seen = effective(seen)
    first, last = in_scene[0].sequence, in_scene[-1].sequence
    before = replay([r for r in effective_seen if r.sequence < first])
    upto = [r for r in effective_seen if r.sequence <= last]
    after = replay(upto)
    hidden = gm_pile_hidden(replay(seen), viewer)
    lines = token_ledger(after, upto, viewer=viewer, hide_gm=hidden, scene=scene)
    events = [{"sequence": rec.sequence, "event_type": rec.event_type,
               "said": narrate(rec, after) or core_sentence(rec),
               "lines": [line for line in lines if line["sequence"] == rec.sequence]}
              for rec in in_scene if visible_to(rec, viewer, table)]
    return {"scene": scene, "episode": in_scene[0].episode, "first": first, "last": last,
            "piles_before": token_board(before, viewer=viewer, hide_gm=hidden)["participants"],
            "piles_after": token_board(after, viewer=viewer, hide_gm=hidden)["participants"],
            "events": events}
