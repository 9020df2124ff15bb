"""Canonical serialization and the SHA-256 hash chain that makes a journal tamper-evident.

Every event's hash covers its envelope and payload in a canonical JSON form (sorted keys, no
insignificant white space, UTF-8) together with the hash of the previous event of the same
campaign, so changing any byte of any stored event breaks every hash from there on.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS = "0" * 64

#: The envelope fields covered by the hash, in addition to ``payload`` and ``prev_hash``.
HASHED_FIELDS = (
    "campaign_id",
    "sequence",
    "event_id",
    "event_type",
    "schema_version",
    "recorded_at",
    "recorded_by",
    "visibility",
)


def canonical(value: Any) -> str:
    """The one serialization used for storage, hashing and export."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def event_hash(envelope: dict[str, Any], payload: Any, prev_hash: str) -> str:
    """The SHA-256 of an event, chained to ``prev_hash``."""
    body = {name: envelope[name] for name in HASHED_FIELDS}
    body["payload"] = payload
    body["prev_hash"] = prev_hash
    return hashlib.sha256(canonical(body).encode("utf-8")).hexdigest()
