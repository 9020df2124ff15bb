"""Why the table holds what it holds: one event (or a whole scene) explained from the journal.

For an event: what was recorded, what everyone held of drama tokens and bennies before it, the rules
its movements applied (quoted from the book as stored with them), every movement from and to whom,
the holdings after it, and every later event that points at it (a correction, a retraction) or the
GM override it was recorded under, each with who approved it and why.

Holdings are the journal's as it stands now: an event retracted since moved nothing, so its movements
are shown struck and its holdings after equal those before (:mod:`.ledger_trail`).

A player's view (``viewer``) leaves out what the player may not see (``core.state.visible_to``): the
events themselves, the amendments and overrides recorded for other eyes, and any movement they made,
which then counts in no balance the player is shown.
Pure functions of a history (``Journal.history``) and the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from yarnlog.core.corrections import Correction, OverrideRecorded, Retraction
from yarnlog.core.events import Recorded
from yarnlog.core.referee import invalid, present
from yarnlog.core.state import visible_to
from yarnlog.core.table import Table
from yarnlog.rulesets.scenes_and_tokens.parts.economy import BENNIE, DRAMA
from yarnlog.rulesets.yarn.parts.economy.ledger_trail import (
    Trail,
    TrailLine,
    corrected_payload,
    holdings_before,
    in_force,
    ledger_trail,
)


def _holdings(table: Table, held: dict[str, dict[str, int]]) -> list[dict[str, Any]]:
    """Everyone at the table (and any other account holding something): drama tokens and bennies."""
    names = [*table.players, table.gm]
    names += sorted((set(held[DRAMA]) | set(held[BENNIE])) - set(names))
    return [{"name": n, "drama_tokens": held[DRAMA].get(n, 0), "bennies": held[BENNIE].get(n, 0)} for n in names]


def _after(trail: Trail, sequence: int) -> dict[str, dict[str, int]]:
    return holdings_before(trail, sequence + 1)


def _movement(line: TrailLine) -> dict[str, Any]:
    return {"currency": line.currency, "amount": line.amount, "from": line.source, "to": line.destination,
            "chapter": line.chapter, "rule": line.rule, "struck": line.struck_by is not None,
            "struck_by": line.struck_by.to_data() if line.struck_by else None,
            "replaces": line.replaces.to_data() if line.replaces else None}


def _set_aside(p: OverrideRecorded) -> list[dict[str, str]]:
    """The rules an override set aside, each quoted, with how the move broke it."""
    return [{"book": r.book, "chapter": r.chapter, "text": r.text, "broken": r.message} for r in p.rules]


def _override_covering(history: Sequence[Recorded], sequence: int) -> dict[str, Any] | None:
    """The GM override an event was recorded under: ``override.recorded`` covers the next ``covers`` events."""
    for rec in history:
        p = rec.payload
        if isinstance(p, OverrideRecorded) and rec.sequence < sequence <= rec.sequence + p.covers:
            return {"sequence": rec.sequence, "by": p.by, "reason": p.reason, "rules": _set_aside(p)}
    return None


def _points_at(rec: Recorded) -> dict[str, Any] | None:
    """What an amendment or override event itself points at."""
    p = rec.payload
    if isinstance(p, Retraction):
        return {"retracts": p.retracts, "reason": p.reason, "approved_by": p.approved_by}
    if isinstance(p, Correction):
        return {"corrects": p.corrects, "replacement": p.replacement, "reason": p.reason,
                "approved_by": p.approved_by}
    if isinstance(p, OverrideRecorded):
        return {"covers": list(range(rec.sequence + 1, rec.sequence + p.covers + 1)), "by": p.by,
                "reason": p.reason, "rules": _set_aside(p)}
    return None


def _rules(lines: Sequence[TrailLine]) -> list[dict[str, str]]:
    seen: dict[tuple[str, str], None] = {}
    for line in lines:
        seen.setdefault((line.chapter, line.rule))
    return [{"book": "Yarn 0.1", "chapter": chapter, "text": text} for chapter, text in seen]


def _explained(history: Sequence[Recorded], trail: Trail, table: Table, rec: Recorded) -> dict[str, Any]:
    lines = [line for line in trail.lines if line.sequence == rec.sequence]
    found = list(trail.amended.get(rec.sequence, ()))
    amendment = in_force(found)
    standing = "as recorded" if amendment is None else amendment.kind
    payload = rec.payload
    if amendment is not None and amendment.kind == "corrected":
        payload = corrected_payload(rec, history, amendment)
    return {
        "event": {"sequence": rec.sequence, "event_type": rec.event_type, "recorded_by": rec.recorded_by,
                  "recorded_at": rec.recorded_at, "visibility": rec.visibility, "episode": rec.episode,
                  "scene": rec.scene, "payload": rec.payload.to_data()},
        "standing": standing,
        "effective_payload": payload.to_data() if payload is not rec.payload else None,
        # The trail's reading of the exchange knows the scene's call and the wants declared before it.
        "exchange": lines[-1].exchange.to_data() if lines else None,
        "balances_before": _holdings(table, holdings_before(trail, rec.sequence)),
        "rules": _rules(lines),
        "movements": [_movement(line) for line in lines],
        "balances_after": _holdings(table, _after(trail, rec.sequence)),
        "amendments": [a.to_data() for a in found],
        "override": _override_covering(history, rec.sequence),
        "points_at": _points_at(rec),
    }


def _viewer_checked(table: Table, viewer: str | None) -> None:
    invalid(viewer is None or table.knows(viewer), f"{viewer} is not at the table")


def _seen_by(history: Sequence[Recorded], table: Table, viewer: str | None) -> list[Recorded]:
    """The history as ``viewer`` may see it: a movement recorded for other eyes counts in no balance she is shown."""
    return [r for r in history if visible_to(r, viewer, table)]


def explain_event(history: Sequence[Recorded], table: Table, sequence: int, *,
                  viewer: str | None = None) -> dict[str, Any]:
    """Event ``sequence`` explained (as ``viewer`` may see it; None: the GM's view)."""
    _viewer_checked(table, viewer)
    rec = present(next((r for r in history if r.sequence == sequence), None),
                  f"there is no event {sequence} in this campaign (it has {len(history)})")
    invalid(visible_to(rec, viewer, table), f"event {sequence} is not visible to {viewer}")
    seen = _seen_by(history, table, viewer)
    return _explained(seen, ledger_trail(seen), table, rec)


def explain_scene(history: Sequence[Recorded], table: Table, scene: int, *,
                  viewer: str | None = None) -> dict[str, Any]:
    """Every event of scene ``scene`` that ``viewer`` may see, explained, with the holdings around the scene."""
    _viewer_checked(table, viewer)
    in_scene = [r for r in history if r.scene == scene]
    invalid(bool(in_scene), f"there is no scene {scene} in this campaign")
    seen = _seen_by(history, table, viewer)
    trail = ledger_trail(seen)
    events = [_explained(seen, trail, table, rec) for rec in in_scene if visible_to(rec, viewer, table)]
    return {
        "scene": scene,
        "episode": in_scene[0].episode,
        "first": in_scene[0].sequence,
        "last": in_scene[-1].sequence,
        "balances_before": _holdings(table, holdings_before(trail, in_scene[0].sequence)),
        "balances_after": _holdings(table, _after(trail, in_scene[-1].sequence)),
        "events": events,
    }
