"""The stored event's envelope: the one declaration of what a journal entry is made of.

Every layer sees the same entry: the store writes and reads it, the hash chain covers its
fields, an export line is it as plain data, and the journal turns it into a typed
:class:`~yarnlog.core.events.Recorded`. Declaring it once here, and deriving the hashed fields,
the export line and the typed view from it, keeps those from drifting apart (a field added
to one and forgotten in another would silently change what the hash protects).

It lives in the core, not in persistence, because the hash chain is core and hashes the
envelope, and the core may not import the storage layer; the database's row mapping of
this envelope lives in :mod:`yarnlog.persistence.sql`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, fields
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

from yarnlog.core.referee import InvalidCommand

if TYPE_CHECKING:
    from yarnlog.core.events import Payload, Recorded

#: What a campaign id may be, on every backend alike: at most 64 characters (PostgreSQL's column
#: refuses more, SQLite would keep them), lowercase letters, digits, ``.``, ``_``, ``-``.
CAMPAIGN_ID_PATTERN = r"^[a-z0-9][a-z0-9._-]{0,63}$"
CAMPAIGN_ID = re.compile(CAMPAIGN_ID_PATTERN[1:-1])  # use fullmatch: re's $ would let a final newline through

#: The canonical encoder, made once: ``json.dumps`` with these options builds a new encoder at each
#: call, which costs about as much as encoding a small object (an envelope's fields).
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def canonical(value: Any) -> str:
    """The one serialization used for storage, hashing and export.

    Sorted keys, no insignificant white space, UTF-8 text: equal data always gives equal bytes.
    """
    return _CANONICAL.encode(value)


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One event exactly as the journal keeps it; rows are only ever added, never changed.

    ``payload`` is the canonical JSON text (the stored bytes, not parsed data), so what is
    read back is what was hashed.
    """

    campaign_id: str
    sequence: int
    event_id: str
    event_type: str
    schema_version: int
    recorded_at: str
    recorded_by: str
    visibility: str
    payload: str
    prev_hash: str
    hash: str

    def header(self) -> dict[str, Any]:
        """The envelope fields the hash covers besides the payload and the previous hash."""
        return {name: getattr(self, name) for name in HASHED_FIELDS}


#: Every field of a stored event, in declaration order (the store's column order).
STORED_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(StoredEvent))

#: The fields that chain one event to the next; everything else is the event's header.
CHAIN_FIELDS = ("payload", "prev_hash", "hash")

#: The envelope fields covered by the hash, in addition to ``payload`` and ``prev_hash``.
HASHED_FIELDS: tuple[str, ...] = tuple(name for name in STORED_FIELDS if name not in CHAIN_FIELDS)


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append: everything but its place in the chain (campaign, sequence, hashes).

    ``event_id`` and ``recorded_at`` are set by the caller (the journal service mints them, an
    import carries them), so the same input always produces the same stored bytes.
    """

    event_id: str
    event_type: str
    schema_version: int
    recorded_at: str
    recorded_by: str
    visibility: str
    payload: dict[str, Any]


# -- mappers ------------------------------------------------------------------------------------


def to_line(stored: StoredEvent) -> dict[str, Any]:
    """The stored event as plain data: one line of an export, before canonical serialization."""
    data = {name: getattr(stored, name) for name in STORED_FIELDS}
    data["payload"] = json.loads(stored.payload)
    return data


def from_line(data: dict[str, Any]) -> StoredEvent:
    """A stored event from plain data in the export's shape (its payload stored canonically)."""
    return StoredEvent(**{**data, "payload": canonical(data["payload"])})


@cache
def _events() -> ModuleType:
    """:mod:`yarnlog.core.events`, imported on first use, not with the envelope: the store and a
    command served from a stored view (a one-shot ``tokens``) build none of its pydantic models.
    A cached call, not an import statement in each mapper, which would cost more than the call
    on every event of a replay."""
    from yarnlog.core import events

    return events


def to_recorded(stored: StoredEvent) -> Recorded:
    """The stored event as a typed :class:`Recorded`, its payload upcast and validated."""
    recorded: Recorded = _events().Recorded(**{name: getattr(stored, name) for name in HASHED_FIELDS},
                                            payload=stored_payload(stored))
    return recorded


def stored_payload(stored: StoredEvent) -> Payload:
    """The stored event's payload, upcast and validated.

    A payload of the current schema is validated straight from its stored text by pydantic's
    JSON parser, with no ``json.loads`` first (about half the cost). Anything else, and any
    payload that does not validate, takes the general path, which upcasts it and words the error.
    """
    events = _events()
    try:
        payload: Payload | None = events.validate_current_json(stored.event_type, stored.schema_version,
                                                                stored.payload)
    except events.ValidationError:
        payload = None  # the general path below raises the error, worded as for any payload
    return payload if payload is not None else parsed_payload(stored, _loads(stored))


def parsed_payload(stored: StoredEvent, data: Any) -> Payload:
    """The payload of ``stored`` from ``data``, its text already parsed: upcast and validated."""
    payload: Payload = _events().load_payload(stored.event_type, stored.schema_version, data)
    return payload


def _loads(stored: StoredEvent) -> Any:
    try:
        return json.loads(stored.payload)
    except ValueError:
        raise InvalidCommand(
            f"event {stored.sequence} ({stored.event_type}) has an unreadable payload; run 'yarnlog verify'"
        ) from None


def recorded_data(recorded: Recorded) -> dict[str, Any]:
    """A recorded event as plain data for people and scripts (what ``--json`` prints).

    The header without ``campaign_id`` (the command already names the campaign), then the
    episode and scene it was recorded in, then the payload.
    """
    data = {name: getattr(recorded, name) for name in HASHED_FIELDS if name != "campaign_id"}
    data["episode"] = recorded.episode
    data["scene"] = recorded.scene
    data["payload"] = recorded.payload.to_data()
    return data
