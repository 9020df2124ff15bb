"""Corrections, retractions and GM overrides: how a journal is amended without editing it.

A wrong entry is never changed. A later event points at it by sequence number: a correction
replaces its payload for every projection from then on, a retraction removes it from them.
Both carry a reason and who approved them, and the original stays in the log and the audit.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import Field

from yarnlog.core.events import Payload, Recorded, event, load_payload


@event("correction")
class Correction(Payload):
    """Replaces the payload of event ``corrects`` (same event type) in all projections."""

    corrects: int = Field(ge=1)
    replacement: dict[str, Any]
    reason: str = Field(min_length=1)
    approved_by: str = Field(min_length=1)


@event("retraction")
class Retraction(Payload):
    """Removes event ``retracts`` from all projections."""

    retracts: int = Field(ge=1)
    reason: str = Field(min_length=1)
    approved_by: str = Field(min_length=1)


class OverriddenRule(Payload):
    book: str
    chapter: str
    text: str
    message: str


@event("override.recorded")
class OverrideRecorded(Payload):
    """A GM set rules aside for the next ``covers`` events, which were recorded with it."""

    by: str
    reason: str = Field(min_length=1)
    rules: list[OverriddenRule]
    covers: int = Field(ge=1)


def effective(events: Iterable[Recorded]) -> list[Recorded]:
    """The events as projections see them: retractions and corrections applied.

    Only amendments inside ``events`` count, so replaying a prefix of the log shows the
    journal as it stood then. The amending events themselves stay in the list.
    """
    events = list(events)
    retracted: set[int] = set()
    replaced: dict[int, Correction] = {}
    for rec in events:
        if isinstance(rec.payload, Retraction):
            retracted.add(rec.payload.retracts)
        elif isinstance(rec.payload, Correction):
            replaced[rec.payload.corrects] = rec.payload
    out = []
    for rec in events:
        if rec.sequence in retracted:
            continue
        fix = replaced.get(rec.sequence)
        if fix is not None:
            payload = load_payload(rec.event_type, type(rec.payload).schema_version, fix.replacement)
            rec = rec.model_copy(update={"payload": payload})
        out.append(rec)
    return out
