"""The SHA-256 hash chain that makes a journal tamper-evident.

Every event's hash covers its envelope (:mod:`yarnlog.core.envelope`) and payload in the
canonical JSON form (sorted keys, no insignificant white space, UTF-8) together with the hash
of the previous event of the same campaign, so changing any byte of any stored event breaks
every hash from there on.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from yarnlog.core.envelope import HASHED_FIELDS, NewEvent, StoredEvent, canonical

GENESIS = "0" * 64

__all__ = ["GENESIS", "HASHED_FIELDS", "canonical", "event_hash", "seal", "stored_event_hash"]


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
    # canonical()'s own layout (keys sorted, no white space) in two encodings of the fields either
    # side of "payload", with the payload's text set in between as it is: an import hashes every event.
    before = canonical({name: header[name] for name in _BEFORE_PAYLOAD})
    after = canonical({name: prev_hash if name == "prev_hash" else header[name] for name in _AFTER_PAYLOAD})
    return hashlib.sha256(f"{before[:-1]},\"payload\":{payload_text},{after[1:]}".encode()).hexdigest()


#: The hashed body's fields sorted as canonical JSON sorts them, those before "payload" and those after.
_BEFORE_PAYLOAD = tuple(sorted(name for name in HASHED_FIELDS if name < "payload"))
_AFTER_PAYLOAD = tuple(sorted(name for name in (*HASHED_FIELDS, "prev_hash") if name > "payload"))


def seal(campaign_id: str, sequence: int, new: NewEvent, prev_hash: str) -> StoredEvent:
    """``new`` placed in the chain at ``sequence`` after ``prev_hash``: the event as it is stored."""
    placed = {"campaign_id": campaign_id, "sequence": sequence}
    header: dict[str, Any] = {name: placed[name] if name in placed else getattr(new, name) for name in HASHED_FIELDS}
    payload = canonical(new.payload)
    return StoredEvent(**header, payload=payload, prev_hash=prev_hash,
                       hash=stored_event_hash(header, payload, prev_hash))
