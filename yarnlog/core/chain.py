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

__all__ = ["GENESIS", "HASHED_FIELDS", "canonical", "chained_hash", "event_hash", "seal"]

#: The hashed body's keys in canonical (sorted) order, split around ``payload``: the body's text is
#: the fields before it, the payload's own canonical text, then the fields after it.
_BODY_KEYS = sorted((*HASHED_FIELDS, "payload", "prev_hash"))
_BEFORE_PAYLOAD = tuple(_BODY_KEYS[:_BODY_KEYS.index("payload")])
_AFTER_PAYLOAD = tuple(_BODY_KEYS[_BODY_KEYS.index("payload") + 1:])


def event_hash(envelope: Mapping[str, Any], payload: Any, prev_hash: str) -> str:
    """The SHA-256 of an event, chained to ``prev_hash``: of the canonical JSON of its hashed
    envelope fields, its payload and ``prev_hash``."""
    return chained_hash(envelope, canonical(payload), prev_hash)


def chained_hash(envelope: Mapping[str, Any], payload_text: str, prev_hash: str) -> str:
    """:func:`event_hash` from the payload's canonical text (``canonical(payload)``), as stored.

    The canonical JSON of an object nests each value's own canonical text unchanged, so the body
    is spliced from the payload's text instead of serializing the payload a second time (the
    largest part of the body, and of an event's cost to seal or to verify).
    """
    fields = dict(envelope)
    fields["prev_hash"] = prev_hash
    before = canonical({name: fields[name] for name in _BEFORE_PAYLOAD})[:-1]
    after = canonical({name: fields[name] for name in _AFTER_PAYLOAD})[1:]
    body = f'{before}{"," if _BEFORE_PAYLOAD else ""}"payload":{payload_text}{"," if _AFTER_PAYLOAD else ""}{after}'
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def seal(campaign_id: str, sequence: int, new: NewEvent, prev_hash: str) -> StoredEvent:
    """``new`` placed in the chain at ``sequence`` after ``prev_hash``: the event as it is stored."""
    placed = {"campaign_id": campaign_id, "sequence": sequence}
    header: dict[str, Any] = {name: placed[name] if name in placed else getattr(new, name) for name in HASHED_FIELDS}
    payload = canonical(new.payload)
    return StoredEvent(**header, payload=payload, prev_hash=prev_hash, hash=chained_hash(header, payload, prev_hash))
