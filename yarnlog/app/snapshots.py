"""Snapshots and views of a campaign: what is cached beside the events, and under which fingerprint.

A **state snapshot** (kind ``"state"``) is a :class:`~yarnlog.core.ruleset.CampaignState` encoded by
the safe codec (:mod:`yarnlog.core.codec`), whose whitelist is the core's classes and those of the
ruleset's ``Rules.state_packages``. A **view** (kind ``"view:NAME"``) is the JSON of one of the
ruleset's named projections (``Views.projections``) at some sequence.

Both are keyed by a fingerprint; one written under any other fingerprint is treated as missing:

- a state snapshot's covers the codec's version, the ruleset, the structure of every class it may
  hold, the schema version of every event type, and a digest of the code (the core and the
  ruleset's package), since a fold that changed gives other state from the same events;
- a view's covers the codec's version, the ruleset, the view's name and the same code digest. It
  is worked out without importing the ruleset (the digest reads source files, and is cached:
  :mod:`yarnlog.app.code_digest`), so that serving a stored view costs no more start-up than the
  storage code itself.

This module is the shell around those pure parts: it imports packages and reads files.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import importlib
import json
import pkgutil
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from yarnlog.app.code_digest import code_digest
from yarnlog.core.codec import CODEC_VERSION, Codec, CodecError, fingerprint

if TYPE_CHECKING:
    from yarnlog.core.ruleset import CampaignState, Ruleset
    from yarnlog.core.timeline import Timeline
    from yarnlog.persistence.protocol import Snapshot

STATE = "state"
#: The kinds of a campaign's state snapshots, newest or not (``STATE`` is the one kept first). Several
#: are kept so that an amendment of an event before the newest one (which that state no longer
#: matches) starts the fold from an older one before that event instead of from the first event.
STATE_KINDS = (STATE, "state:2", "state:3")
VIEW_PREFIX = "view:"

#: The core modules whose classes a campaign's state holds (the table, the timeline, recorded events).
CORE_STATE_MODULES = ("yarnlog.core.table", "yarnlog.core.timeline", "yarnlog.core.events",
                      "yarnlog.core.corrections")


def view_kind(name: str) -> str:
    return VIEW_PREFIX + name


def slot_for(kept: list[Snapshot], fingerprint: str) -> str:
    """The kind a new state snapshot goes to, given the campaign's snapshots (their text not needed):
    one not holding a state of this fingerprint (free, or another code's, never read again), else
    the one holding the oldest state."""
    mine = {s.kind: s.sequence for s in kept if s.kind in STATE_KINDS and s.fingerprint == fingerprint}
    unused = [kind for kind in STATE_KINDS if kind not in mine]
    return unused[0] if unused else min(mine, key=mine.__getitem__)


def _modules(names: tuple[str, ...]) -> list[Any]:
    """The modules ``names`` name, each package with every module under it (imported)."""
    found = []
    for name in names:
        module = importlib.import_module(name)
        found.append(module)
        for info in pkgutil.walk_packages(getattr(module, "__path__", []), prefix=name + "."):
            found.append(importlib.import_module(info.name))
    return found


def _stateful(obj: Any) -> bool:
    return isinstance(obj, type) and (issubclass(obj, (enum.Enum, BaseModel)) or dataclasses.is_dataclass(obj))


def state_classes(ruleset: Ruleset) -> list[type]:
    """The codec's whitelist for ``ruleset``: the dataclasses, enums and pydantic models defined in
    the core's state modules and in the ruleset's ``state_packages`` (nothing imported from elsewhere)."""
    classes: dict[str, type] = {}
    for module in _modules(CORE_STATE_MODULES + tuple(ruleset.rules.state_packages)):
        for obj in vars(module).values():
            if _stateful(obj) and obj.__module__ == module.__name__:
                classes[f"{obj.__module__}:{obj.__qualname__}"] = obj
    return [classes[name] for name in sorted(classes)]


@functools.cache
def state_codec(ruleset_name: str) -> tuple[Codec, str]:
    """The codec for states of campaigns playing ``ruleset_name``, and their fingerprint."""
    from yarnlog.core.events import known_event_types, payload_class
    from yarnlog.core.ruleset import get_ruleset
    from yarnlog.core.state import CORE_EVENT_TYPES

    ruleset = get_ruleset(ruleset_name)
    classes = state_classes(ruleset)
    versions = {t: payload_class(t).schema_version for t in known_event_types()
                if t in CORE_EVENT_TYPES or ruleset.owns(t)}
    codec = Codec(classes)
    return codec, fingerprint(ruleset=ruleset.name, ruleset_title=ruleset.title, classes=classes,
                              event_versions=versions, extra=code_digest(ruleset_name))


@functools.cache
def view_fingerprint(ruleset_name: str, view: str) -> str:
    """The fingerprint of view ``view`` of ``ruleset_name`` (no import of the ruleset)."""
    material = [CODEC_VERSION, ruleset_name, view, code_digest(ruleset_name)]
    return hashlib.sha256(json.dumps(material).encode()).hexdigest()[:24]


def encode_state(codec: Codec, state: CampaignState[Any], recorded: Timeline) -> str:
    """``state`` and the timeline as recorded up to it (amendments not applied: it gives the next
    events their context) as snapshot text. The ruleset is written by name (a ruleset is code).
    A timeline no amendment changed is the recorded one: it is written once (``None`` in its place),
    so it is read once."""
    ruleset = state.ruleset.name if state.ruleset is not None else None
    timeline = None if state.timeline is recorded or state.timeline == recorded else state.timeline
    return codec.encode(["campaign", ruleset, state.sequence, state.table, timeline, state.rules, recorded])


def decode_state(codec: Codec, text: str) -> tuple[CampaignState[Any], Timeline]:
    """The state and recorded timeline snapshot ``text`` holds (:func:`encode_state`).

    Raises :class:`CodecError` if it is not one this code wrote.
    """
    from yarnlog.core.ruleset import CampaignState, get_ruleset
    from yarnlog.core.table import Table
    from yarnlog.core.timeline import Timeline

    decoded = codec.decode(text)
    if not (isinstance(decoded, list) and len(decoded) == 7 and decoded[0] == "campaign"):
        raise CodecError("not a campaign state snapshot")
    _, ruleset, sequence, table, timeline, rules, recorded = decoded
    if not (isinstance(sequence, int) and (ruleset is None or isinstance(ruleset, str)) and isinstance(table, Table)
            and (timeline is None or isinstance(timeline, Timeline)) and isinstance(recorded, Timeline)):
        raise CodecError("not a campaign state snapshot")
    if timeline is None or timeline == recorded:
        timeline = recorded  # shared, as the journal shares them when no amendment changed the timeline
    state = CampaignState(table=table, timeline=timeline, rules=rules,
                          ruleset=get_ruleset(ruleset) if ruleset is not None else None, sequence=sequence)
    return state, recorded


def encode_view(data: Any) -> str:
    """A projection's data as stored (plain JSON, as ``--json`` prints it)."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
