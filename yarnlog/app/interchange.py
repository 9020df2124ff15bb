"""JSON Lines interchange: one canonical event per line, hashes included.

An export is the journal's exact bytes in a portable form; an import checks every line, the
chain and the rules before it writes anything, so a bad file changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from yarnlog.app.verify import verify
from yarnlog.core.chain import canonical
from yarnlog.core.referee import InvalidCommand
from yarnlog.persistence.store import EventRecord, EventStore

HEX64 = r"^[0-9a-f]{64}$"


class ExportedEvent(BaseModel):
    """The shape of one line of an export."""

    model_config = ConfigDict(extra="forbid", strict=True)

    campaign_id: str = Field(min_length=1)
    sequence: int = Field(ge=1)
    event_id: str = Field(pattern=r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
    event_type: str = Field(min_length=1)
    schema_version: int = Field(ge=1)
    recorded_at: str = Field(pattern=r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")
    recorded_by: str = Field(min_length=1)
    visibility: str = Field(min_length=1)
    payload: dict
    prev_hash: str = Field(pattern=HEX64)
    hash: str = Field(pattern=HEX64)


def export_lines(store: EventStore, campaign_id: str) -> Iterator[str]:
    records = store.read(campaign_id)
    if not records:
        raise InvalidCommand(f"no campaign {campaign_id!r} in this journal")
    for record in records:
        yield canonical(record.envelope()) + "\n"


def parse_lines(lines: Iterable[str]) -> list[EventRecord]:
    """Validate every line's shape; the first bad line raises, naming the line and field."""
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except ValueError as exc:
            raise InvalidCommand(f"line {number}: not valid JSON ({exc.msg} at column {exc.colno})") from None
        try:
            line_event = ExportedEvent.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"]) or "line"
            raise InvalidCommand(f"line {number}, field {where}: {err['msg']}") from None
        fields = line_event.model_dump()
        fields["payload"] = canonical(fields["payload"])
        records.append(EventRecord(**fields))
    if not records:
        raise InvalidCommand("the file holds no events")
    ids = {r.campaign_id for r in records}
    if len(ids) != 1:
        raise InvalidCommand(f"an export holds one campaign; this file mixes {', '.join(sorted(ids))}")
    return records


def import_records(store: EventStore, records: list[EventRecord]) -> tuple[int, int]:
    """Write the events the store lacks; return (already present, newly written).

    Importing an export of a campaign already in the store is a no-op when it is identical,
    appends only the newer events when it extends the stored journal, and is refused when
    the two journals diverge.
    """
    campaign_id = records[0].campaign_id
    stored = store.read(campaign_id)
    for mine, theirs in zip(stored, records):
        if mine.hash != theirs.hash:
            raise InvalidCommand(
                f"the file diverges from the stored campaign {campaign_id!r} at event {mine.sequence}: "
                "nothing imported"
            )
    if len(records) < len(stored):
        return len(records), 0
    combined = stored + records[len(stored):]
    report = verify(combined, campaign_id)
    if not report.ok:
        first = report.faults[0]
        raise InvalidCommand(
            f"line {first.sequence}: event {first.sequence} ({first.event_type}): {first.problem}; nothing imported"
        )
    store.append_verbatim(records[len(stored):], expected_sequence=len(stored))
    return len(stored), len(records) - len(stored)
