"""The SHA-256 hash chain that makes a journal tamper-evident.

Every event's hash covers its envelope (:mod:`yarnlog.core.envelope`) and payload in the
canonical JSON form (sorted keys, no insignificant white space, UTF-8) together with the hash
of the previous event of the same campaign, so changing any byte of any stored event breaks
every hash from there on.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from json.encoder import encode_basestring as _encode_text
from typing import Any

from yarnlog.core.envelope import HASHED_FIELDS, NewEvent, StoredEvent, canonical

GENESIS = "0" * 64

__all__ = ["GENESIS", "HASHED_FIELDS", "canonical", "event_hash", "hash_of_row", "remembered_hashes", "seal",
           "stored_event_hash"]

#: The hashes worked out while :func:`remembered_hashes` is open, by the row's values (header, payload text,
#: previous hash): an import checks each event's hash, then the store's trigger checks the same row again.
_REMEMBERED: ContextVar[dict[tuple[Any, ...], str] | None] = ContextVar("yarnlog_remembered_hashes", default=None)


@contextmanager
def remembered_hashes() -> Iterator[None]:
    """Within it, the hash of a row's bytes is worked out once: :func:`hash_of_row` of a row
    :func:`stored_event_hash` has just hashed is looked up (the same bytes, so the same hash)."""
    token = _REMEMBERED.set({})
    try:
        yield
    finally:
        _REMEMBERED.reset(token)


def hash_of_row(values: tuple[Any, ...]) -> str:
    """:func:`stored_event_hash` of a row's values: the hashed fields in :data:`HASHED_FIELDS`' order,
    then the payload's text and the previous hash (the SQLite trigger's arguments)."""
    known = _REMEMBERED.get()
    if known is not None:
        try:
            found = known.get(values)
        except TypeError:
            found = None
        if found is not None:
            return found
    *header, payload, prev_hash = values
    return stored_event_hash(dict(zip(HASHED_FIELDS, header)), payload, prev_hash)


def event_hash(envelope: Mapping[str, Any], payload: Any, prev_hash: str) -> str:
    """The SHA-256 of an event, chained to ``prev_hash``: of the canonical JSON of its hashed
    envelope fields, its payload and ``prev_hash`` (the payload serialized once, then set in:
    :func:`stored_event_hash`)."""
    return stored_event_hash(envelope, canonical(payload), prev_hash)


def stored_event_hash(header: Mapping[str, Any], payload_text: str, prev_hash: str) -> str:
    """The SHA-256 over an event's stored bytes: ``payload_text`` as stored, not parsed again.

    For a canonical payload (every event the journal writes) it equals :func:`event_hash`; the
    database triggers compute this one, so they hash exactly the bytes a row holds (a payload
    stored in another spelling gets another hash, and ``verify`` says it is not canonical).
    """
    # canonical()'s own layout (keys sorted, no white space), written field by field with the
    # encoder's own pieces, with the payload's text set in as it is: an import hashes every event.
    body = [_encoded(name, header[name]) for name in _BEFORE_PAYLOAD]
    body.append(f'"payload":{payload_text}')
    body.extend(_encoded(name, prev_hash if name == "prev_hash" else header[name]) for name in _AFTER_PAYLOAD)
    digest = hashlib.sha256(f"{{{','.join(body)}}}".encode()).hexdigest()
    known = _REMEMBERED.get()
    if known is not None:
        try:
            known[(*(header[name] for name in HASHED_FIELDS), payload_text, prev_hash)] = digest
        except TypeError:
            pass  # a value no key can hold (a list in a forged header): the trigger hashes it again
    return digest


#: The hashed body's fields sorted as canonical JSON sorts them, those before "payload" and those after.
_BEFORE_PAYLOAD = tuple(sorted(name for name in HASHED_FIELDS if name < "payload"))
_AFTER_PAYLOAD = tuple(sorted(name for name in (*HASHED_FIELDS, "prev_hash") if name > "payload"))


def _encoded(name: str, value: Any) -> str:
    """``"name":value`` as :func:`canonical` writes a member (a text or an integer without the
    whole encoder; any other value through it)."""
    kind = type(value)
    if kind is str:
        return f'"{name}":{_encode_text(value)}'
    if kind is int:
        return f'"{name}":{int.__repr__(value)}'
    return f'"{name}":{canonical(value)}'


def seal(campaign_id: str, sequence: int, new: NewEvent, prev_hash: str) -> StoredEvent:
    """``new`` placed in the chain at ``sequence`` after ``prev_hash``: the event as it is stored."""
    placed = {"campaign_id": campaign_id, "sequence": sequence}
    header: dict[str, Any] = {name: placed[name] if name in placed else getattr(new, name) for name in HASHED_FIELDS}
    payload = canonical(new.payload)
    return StoredEvent(**header, payload=payload, prev_hash=prev_hash,
                       hash=stored_event_hash(header, payload, prev_hash))
