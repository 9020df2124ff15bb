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
import gc
import hashlib
import importlib
import json
import pkgutil
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, cast

from pydantic import BaseModel

from yarnlog.app.code_digest import code_digest
from yarnlog.core.codec import CODEC_VERSION, Codec, CodecError, class_name, collector_paused, fingerprint
from yarnlog.core.deferred import Deferred, PendingVector, can_defer, deferred_fields, deferred_instance

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
    """The codec for states of campaigns playing ``ruleset_name``, and their fingerprint.

    Working both out imports every module of the whitelist; they depend on nothing but the code, so
    they are kept in the cache directory under the code's digest (:func:`codec_cache_key`), and a
    process that finds them there builds a codec that imports each class's module when a state it
    reads or writes first holds one of that class (:meth:`Codec.named`): a command imports the modules
    of the pieces of state it reads, not every part's."""
    from yarnlog.core.ruleset import get_ruleset

    ruleset = get_ruleset(ruleset_name)
    cache = _codec_cache_file(ruleset_name)
    kept = _read_kept_codec(cache)
    if kept is not None:
        names, kept_fingerprint = kept
        packages = CORE_STATE_MODULES + tuple(ruleset.rules.state_packages)
        return Codec.named(names, functools.partial(_whitelisted_class, packages)), kept_fingerprint
    codec, found = _codec_and_fingerprint(ruleset)
    _keep_codec(cache, [class_name(cls) for cls in codec.classes], found)
    return codec, found


def _codec_and_fingerprint(ruleset: Ruleset) -> tuple[Codec, str]:
    """The codec of ``ruleset``'s states with every class of its whitelist imported, and their fingerprint."""
    from yarnlog.core.events import known_event_types, payload_class
    from yarnlog.core.state import CORE_EVENT_TYPES

    classes = state_classes(ruleset)
    versions = {t: payload_class(t).schema_version for t in known_event_types()
                if t in CORE_EVENT_TYPES or ruleset.owns(t)}
    return Codec(classes), fingerprint(ruleset=ruleset.name, ruleset_title=ruleset.title, classes=classes,
                                       event_versions=versions, extra=code_digest(ruleset.name))


def codec_cache_key(ruleset_name: str) -> str:
    """What a kept codec is keyed by: the code's digest, the codec's version and what reads the
    classes' structure (Python's and pydantic's versions)."""
    import sys

    from pydantic import VERSION

    material = [CODEC_VERSION, ruleset_name, code_digest(ruleset_name), sys.version, VERSION]
    return hashlib.sha256(json.dumps(material).encode()).hexdigest()[:24]


def _codec_cache_file(ruleset_name: str) -> Any:
    from yarnlog.app.code_digest import cache_dir

    try:
        return cache_dir() / f"state-codec-{codec_cache_key(ruleset_name)}"
    except Exception:  # no cache directory to be had: work the codec out every time
        return None


def _read_kept_codec(cache: Any) -> tuple[list[str], str] | None:
    """The class names and fingerprint kept in ``cache`` (None when there is none to be read)."""
    if cache is None:
        return None
    try:
        kept = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not (isinstance(kept, dict) and isinstance(kept.get("fingerprint"), str) and isinstance(kept.get("names"), list)
            and all(isinstance(name, str) for name in kept["names"])):
        return None
    return kept["names"], kept["fingerprint"]


def _keep_codec(cache: Any, names: list[str], found: str) -> None:
    """Keep the class names and fingerprint in ``cache`` (whole or not at all; a failure is ignored)."""
    import os

    if cache is None:
        return
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        partial = cache.with_name(f"{cache.name}.{os.getpid()}")
        partial.write_text(json.dumps({"names": names, "fingerprint": found}), encoding="utf-8")
        os.replace(partial, cache)
    except OSError:
        pass


def _whitelisted_class(packages: tuple[str, ...], name: str) -> type:
    """The class ``name`` (``module:qualname``) names, imported, if it may be in a state: a dataclass,
    enum or pydantic model defined in one of ``packages`` (a module, or any module under a package)
    at the top of its module, as :func:`state_classes` finds them. :class:`CodecError` otherwise."""
    module_name, _, qualname = name.partition(":")
    if not any(module_name == p or module_name.startswith(p + ".") for p in packages) or "." in qualname:
        raise CodecError(f"{name[:80]} is not a class a state may hold")
    try:
        obj = getattr(importlib.import_module(module_name), qualname)
    except (ImportError, AttributeError):
        raise CodecError(f"{name[:80]} is not a class of this code") from None
    if not (_stateful(obj) and obj.__module__ == module_name and obj.__qualname__ == qualname):
        raise CodecError(f"{name[:80]} is not a class a state may hold")
    return cast(type, obj)


@functools.cache
def view_fingerprint(ruleset_name: str, view: str) -> str:
    """The fingerprint of view ``view`` of ``ruleset_name`` (no import of the ruleset)."""
    material = [CODEC_VERSION, ruleset_name, view, code_digest(ruleset_name)]
    return hashlib.sha256(json.dumps(material).encode()).hexdigest()[:24]


#: The first item of a state snapshot's first line (its header); the state's pieces follow, one a
#: line, so that a reader decodes only the pieces it reads (:func:`decode_state`).
PARTS_HEADER = "yarnlog-state-parts"

#: How deep each of a snapshot's four values is split into pieces: the table is small and whole;
#: the timelines by field (a note reads where the campaign stands, not every scene); the ruleset's
#: state by slice (a Composition's parts), each slice by field (a balance, not the ledger) and
#: their fields by field again (the cast's precedence draws, not its supporting characters).
_DEPTHS = (0, 1, 1, 3)
_VALUES = ("table", "timeline", "recorded", "rules")


def encode_state(codec: Codec, state: CampaignState[Any], recorded: Timeline) -> str:
    """``state`` and the timeline as recorded up to it (amendments not applied: it gives the next
    events their context) as snapshot text. The ruleset is written by name (a ruleset is code).
    A timeline no amendment changed is the recorded one: it is written once (``None`` in its place),
    so it is read once.

    The text is a header line, then the pieces of the table, the timeline, the recorded timeline
    and the ruleset's state, one a line: a dataclass of plain fields (a timeline, the ruleset's
    state of slices, a slice) is split into its fields, down to :data:`_DEPTHS`; the header gives
    that layout and each line's length, so a reader finds any piece without reading the others. A
    piece read from a snapshot and never decoded since (:func:`~yarnlog.core.deferred.deferred_fields`)
    is written back as the text it was read from."""
    ruleset = state.ruleset.name if state.ruleset is not None else None
    timeline = None if state.timeline is recorded or state.timeline == recorded else state.timeline
    lines: list[str] = []
    layouts = [_pieces(codec, value, depth, lines)
               for value, depth in zip((state.table, timeline, recorded, state.rules), _DEPTHS)]
    head = [PARTS_HEADER, codec.classes_hash, "campaign", ruleset, state.sequence, layouts, [len(p) for p in lines]]
    return "\n".join([json.dumps(head, separators=(",", ":"), ensure_ascii=False), *lines])


def _pieces(codec: Codec, value: Any, depth: int, lines: list[str]) -> Any:
    """``value``'s lines appended to ``lines``; its layout: ``None`` for one line, ``[class number,
    [[field, layout], ...]]`` for a dataclass split into its fields."""
    if isinstance(value, PendingVector):  # read, and appended to without decoding: written back so
        text = value.text(codec)
        if text is not None:
            lines.append(text)
            return None
    if (depth <= 0 and not _split_anyway(value)) or value is None or not can_defer(value):
        lines.append(codec.encode_value(value))
        return None
    base = getattr(type(value), "__deferred_base__", type(value))
    held = deferred_fields(value)
    layout = []
    for name in (f.name for f in dataclasses.fields(base)):
        text = held[name].text if name in held else None  # read and never decoded: as it was read
        if text is not None:
            lines.append(text)
            layout.append([name, None])
        else:
            layout.append([name, _pieces(codec, getattr(value, name), depth - 1, lines)])
    return [codec.number_of(base), layout]


def _split_anyway(value: Any) -> bool:
    """Whether ``value`` is split into its fields below :data:`_DEPTHS` too: a class that says so
    (``split_in_snapshots``: the timeline's :class:`~yarnlog.core.timeline.Numbered`, whose map of
    blocks is then kept in chunks)."""
    return getattr(type(value), "split_in_snapshots", False) is True


def decode_state(codec: Codec, text: str, *, deferred: bool = False,
                 fallback: Callable[[tuple[str, ...]], Any] | None = None) -> tuple[CampaignState[Any], Timeline]:
    """The state and recorded timeline snapshot ``text`` holds (:func:`encode_state`).

    With ``deferred``, each piece of the timelines and of the ruleset's state is decoded when first
    read (:func:`~yarnlog.core.deferred.deferred_instance`): a command decodes what its rules read, and
    a piece never read is written back as it was read. ``fallback(path)`` gives a piece whose text
    turns out not to decode (path: ``("rules", "economy", "ledger")``; a cache must never fail a
    command); without one that is a :class:`CodecError` then. Raises :class:`CodecError` if
    ``text`` is not one this code wrote (found at once for everything but the deferred pieces' text).
    """
    from yarnlog.core.ruleset import CampaignState, get_ruleset
    from yarnlog.core.table import Table
    from yarnlog.core.timeline import Timeline

    newline = text.find("\n")
    try:
        head = json.loads(text[:newline]) if newline > 0 else None
    except ValueError:
        head = None
    if not (isinstance(head, list) and len(head) == 7 and head[0] == PARTS_HEADER and head[2] == "campaign"):
        raise CodecError("not a campaign state snapshot")
    _, classes, _, ruleset, sequence, layouts, lengths = head
    if classes != codec.classes_hash:
        raise CodecError("a snapshot written for other classes than this code's")
    if not (isinstance(lengths, list) and all(type(n) is int and n >= 0 for n in lengths)
            and isinstance(layouts, list) and len(layouts) == len(_VALUES)):
        raise CodecError("not a campaign state snapshot")
    bounds, at = [], newline + 1
    for length in lengths:
        bounds.append((at, at + length))
        at += length + 1
    if at - 1 != len(text):
        raise CodecError("a campaign state snapshot cut short or run long")
    reader = _Reader(codec, text, bounds, deferred, fallback)
    with collector_paused():  # across the pieces, not just within each: see collector_paused
        table, timeline, recorded, rules = [reader.value(layout, (name,)) for name, layout in zip(_VALUES, layouts)]
    if reader.next != len(bounds):
        raise CodecError("a campaign state snapshot with lines its layout does not name")
    if not (isinstance(sequence, int) and (ruleset is None or isinstance(ruleset, str)) and isinstance(table, Table)
            and (timeline is None or isinstance(timeline, Timeline)) and isinstance(recorded, Timeline)):
        raise CodecError("not a campaign state snapshot")
    if timeline is None or timeline is recorded or timeline == recorded:
        timeline = recorded  # shared, as the journal shares them when no amendment changed the timeline
    state = CampaignState(table=table, timeline=timeline, rules=rules,
                          ruleset=get_ruleset(ruleset) if ruleset is not None else None, sequence=sequence)
    return state, recorded


class _Reader:
    """The values of a state snapshot's lines, in order, as :func:`decode_state` reads them."""

    def __init__(self, codec: Codec, text: str, bounds: list[tuple[int, int]], deferred: bool,
                 fallback: Callable[[tuple[str, ...]], Any] | None):
        self.codec, self.text, self.bounds = codec, text, bounds
        self.deferred, self.fallback = deferred, fallback
        self.decode = functools.partial(_decoded_and_frozen, codec) if deferred else codec.decode_value
        self.next = 0  # the next line to read

    def _line(self) -> tuple[int, int]:
        if self.next >= len(self.bounds):
            raise CodecError("a campaign state snapshot with fewer lines than its layout names")
        self.next += 1
        return self.bounds[self.next - 1]

    def value(self, layout: Any, path: tuple[str, ...]) -> Any:
        """The value of the lines ``layout`` spans (at the top, decoded at once)."""
        if layout is None:
            start, end = self._line()
            return self.codec.decode_value(self.text[start:end])
        return self._split(layout, path)

    def _split(self, layout: Any, path: tuple[str, ...]) -> Any:
        cls = _layout_class(self.codec, layout)
        if not self.deferred:
            return _built(cls, ((name, self.value(sub, (*path, name))) for name, sub in layout[1]))
        pending = {}
        for name, sub in layout[1]:
            if sub is None:
                start, end = self._line()
                fallback = None if self.fallback is None else functools.partial(self.fallback, (*path, name))
                cell = Deferred(self.text, start, end, self.decode, fallback)
                # A vector (a ledger) is appended to without decoding it: see PendingVector.
                pending[name] = Deferred.ready(PendingVector(cell)) if self.text.startswith('["pv"', start) else cell
            else:
                pending[name] = self._split_later(sub, (*path, name))
        return deferred_instance(cls, pending)

    def _split_later(self, layout: Any, path: tuple[str, ...]) -> Deferred:
        """A dataclass split into pieces (a slice of the ruleset's state), built when first read: its
        class is found then, so a command imports the modules of the slices it reads, not every part's."""
        first = self.next
        self.next += _lines_of(layout)
        if self.next > len(self.bounds):
            raise CodecError("a campaign state snapshot with fewer lines than its layout names")
        reader = _Reader(self.codec, self.text, self.bounds[first:self.next], True, self.fallback)

        def build() -> Any:
            value = reader._split(layout, path)
            if reader.next != len(reader.bounds):
                raise CodecError("a campaign state snapshot with lines its layout does not name")
            return value

        return Deferred.later(build, None if self.fallback is None else functools.partial(self.fallback, path))


def _lines_of(layout: Any) -> int:
    """How many lines ``layout`` spans (one for a piece, its fields' for a dataclass split into them)."""
    if layout is None:
        return 1
    if not (isinstance(layout, list) and len(layout) == 2 and isinstance(layout[1], list)
            and all(isinstance(entry, list) and len(entry) == 2 for entry in layout[1])):
        raise CodecError("not a campaign state snapshot")
    return sum(_lines_of(entry[1]) for entry in layout[1])


def _layout_class(codec: Codec, layout: Any) -> type:
    """The dataclass a piece's layout splits into its fields (``[class number, [[field, layout],
    ...]]``), checked against this code's fields; :class:`CodecError` otherwise."""
    if not (isinstance(layout, list) and len(layout) == 2 and isinstance(layout[1], list)):
        raise CodecError("not a campaign state snapshot")
    cls = codec.plain_dataclass(layout[0])
    names = [f.name for f in dataclasses.fields(cls)]
    if [entry[0] if isinstance(entry, list) and len(entry) == 2 else None for entry in layout[1]] != names:
        raise CodecError(f"a snapshot's {cls.__qualname__} has other fields than this code's")
    return cls


def _built(cls: type, fields: Iterable[tuple[str, Any]]) -> Any:
    """An instance of dataclass ``cls`` with ``fields`` (its ``__init__`` not run, as the codec builds one)."""
    obj: Any = object.__new__(cls)
    obj.__dict__.update(fields)
    return obj


def _decoded_and_frozen(codec: Codec, text: str) -> Any:
    """A slice decoded when first read. It lives as long as the state read with it, which is frozen
    (``gc.freeze``, see :mod:`yarnlog.app.state_snapshots`): so is the slice, so no later run of the
    collector walks it."""
    value = codec.decode_value(text)
    gc.freeze()
    return value


def encode_view(data: Any) -> str:
    """A projection's data as stored (plain JSON, as ``--json`` prints it)."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
