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
from yarnlog.core.limits import Name, Text


@event("correction")
class Correction(Payload):
    """Replaces the payload of event ``corrects`` (same event type) in all projections."""

    corrects: int = Field(ge=1)
    replacement: dict[str, Any]
    reason: Text = Field(min_length=1)
    approved_by: Name = Field(min_length=1)


@event("retraction")
class Retraction(Payload):
    """Removes event ``retracts`` from all projections."""

    retracts: int = Field(ge=1)
    reason: Text = Field(min_length=1)
    approved_by: Name = Field(min_length=1)


class OverriddenRule(Payload):
    book: str
    chapter: str
    text: str
    message: str


@event("override.recorded")
class OverrideRecorded(Payload):
    """A GM set rules aside for the next ``covers`` events, which were recorded with it."""

    by: Name
    reason: Text = Field(min_length=1)
    rules: list[OverriddenRule]
    covers: int = Field(ge=1)


class Amendments:
    """The corrections and retractions of a history, gathered before it is folded.

    An amendment reaches back to an earlier event, so whoever folds a history one event at a
    time (a streaming replay, a streaming ``verify``) gathers them first and then applies them
    as the events go by (:meth:`apply`).

    An amendment may itself be retracted, which undoes it: the event it retracted counts again,
    the payload it replaced is back. So amendments are settled from the newest back: one that a
    standing later retraction names does not stand (and does not undo anything in its turn).
    Of two standing corrections of one event, the later one applies.
    """

    __slots__ = ("_amendments", "_settled")

    def __init__(self, events: Iterable[Recorded] = ()) -> None:
        self._amendments: list[tuple[int, Correction | Retraction]] = []
        self._settled: tuple[set[int], dict[int, Correction]] | None = None
        for rec in events:
            self.add(rec)

    def add(self, rec: Recorded) -> None:
        """Note ``rec`` if it is an amendment (any other event is ignored)."""
        if isinstance(rec.payload, (Retraction, Correction)):
            self._amendments.append((rec.sequence, rec.payload))
            self._settled = None

    def _settle(self) -> tuple[set[int], dict[int, Correction]]:
        if self._settled is None:
            retracted: set[int] = set()
            replaced: dict[int, Correction] = {}
            for sequence, amendment in sorted(self._amendments, key=lambda item: item[0], reverse=True):
                if sequence in retracted:
                    continue  # retracted by a later amendment that stands: it amends nothing
                if isinstance(amendment, Retraction):
                    retracted.add(amendment.retracts)
                else:
                    replaced.setdefault(amendment.corrects, amendment)
            self._settled = (retracted, replaced)
        return self._settled

    @property
    def retracted(self) -> set[int]:
        """The sequences of the events that standing retractions remove."""
        return self._settle()[0]

    @property
    def replaced(self) -> dict[int, Correction]:
        """The standing correction that applies to each corrected event."""
        return self._settle()[1]

    def __bool__(self) -> bool:
        return bool(self._amendments)

    def apply(self, rec: Recorded) -> Recorded | None:
        """``rec`` as projections see it: None if retracted, its payload replaced if corrected."""
        retracted, replaced = self._settle()
        if rec.sequence in retracted:
            return None
        fix = replaced.get(rec.sequence)
        if fix is not None:
            payload = load_payload(rec.event_type, type(rec.payload).schema_version, fix.replacement)
            rec = rec.model_copy(update={"payload": payload})
        return rec


def effective(events: Iterable[Recorded]) -> list[Recorded]:
    """The events as projections see them: retractions and corrections applied.

    Only amendments inside ``events`` count, so replaying a prefix of the log shows the
    journal as it stood then. The amending events themselves stay in the list.
    """
    events = list(events)
    amendments = Amendments(events)
    if not amendments:
        return events
    return [rec for rec in map(amendments.apply, events) if rec is not None]
