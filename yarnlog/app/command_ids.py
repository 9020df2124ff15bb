"""Command ids: a write that is sent twice (re-run after a crash, a lost connection, a timeout) is
recorded once, as EventStoreDB does with event ids.

Every write carries an id, given by the client (``--command-id``) or minted by the shell and
shown to the user. The store keeps it with the events the command recorded, and a unique index
per campaign lets it record once; a command sent again with the same id gets back the events
first recorded and writes nothing, and the same id sent with another command is refused.

The id is kept beside the envelope, not inside it: the hash chain does not cover it and an
export does not carry it. It says how a command was delivered, not what happened at the table;
hashing it would make the same move's bytes depend on the client's retry token, and change the
shape of every exported event. It is guarded as the events are (no UPDATE, no DELETE): altering
it could at worst let a retry record again, never change what is recorded.

Whether a command sent again is *the same* is told by a digest of the command as typed (before
the tool rolls any dice: a re-run rolls afresh, and must still count as the same command), who
records it, its visibility and any GM's override.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import re
import uuid
from typing import Any

from yarnlog.core.referee import Override, invalid
from yarnlog.persistence.protocol import CommandKey

#: What a command id may be: what a client can type or generate (a UUID, a ULID, "session3-roll17").
COMMAND_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")


def new_command_id() -> str:
    """A fresh id for a command the client gave none (random: no other command has it)."""
    return str(uuid.uuid4())


def checked_command_id(text: str) -> str:
    """``text`` as a command id, or a refusal saying what one looks like (exit 2)."""
    invalid(COMMAND_ID.fullmatch(text) is not None,
            f"a command id is 1 to 64 letters, digits, '.', '_', ':' or '-', not {text[:80]!r}")
    return text


def command_key(command_id: str, command: Any, *, by: str | None = None, visibility: str = "everyone",
                override: Override | None = None) -> CommandKey:
    """The id and the digest of ``command`` (as typed) that the store keeps with its events."""
    return CommandKey(checked_command_id(command_id),
                      command_digest(command, by=by, visibility=visibility, override=override))


def command_digest(command: Any, *, by: str | None = None, visibility: str = "everyone",
                   override: Override | None = None) -> str:
    """A SHA-256 of the command's kind and fields, who records it, its visibility and the override."""
    kind = type(command)
    body = {
        "command": f"{kind.__module__}.{kind.__qualname__}",
        "fields": _plain(command),
        "by": by,
        "visibility": visibility,
        "override": _plain(override),
    }
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    # surrogatepass: text that is no UTF-8 still has a digest; the limits then refuse it in one line
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _plain(value: Any) -> Any:
    """``value`` (a command: dataclasses, enums, tuples, mappings) as JSON data."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if hasattr(value, "model_dump"):  # a pydantic model a command carries (a sheet)
        return _plain(value.model_dump(mode="json"))
    if isinstance(value, enum.Enum):
        return _plain(value.value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((_plain(v) for v in value), key=repr)
    return value
