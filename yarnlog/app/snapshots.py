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
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from pydantic import BaseModel
from pyrsistent import PMap, pmap

from yarnlog.app.code_digest import code_digest
from yarnlog.core.codec import (
    CHUNKED_AT,
    CODEC_VERSION,
    ChunkedMap,
    Codec,
    CodecError,
    Deferred,
    PendingVector,
    can_defer,
    chunk_of,
    chunked,
    class_name,
    collector_paused,
    deferred_fields,
    deferred_instance,
    fields_as_read,
    fingerprint,
    key_order,
    starts_chunk,
)

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
    piece read from a snapshot and never decoded since (:func:`~yarnlog.core.codec.deferred_fields`)
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
    read (:func:`~yarnlog.core.codec.deferred_instance`): a command decodes what its rules read, and
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


# -- a state snapshot as rows: a header row, and its pieces as rows of their own, read by key --------

#: The first item of a state snapshot's row when its pieces are rows of their own (:func:`encode_state_rows`).
ROWS_HEADER = "yarnlog-state-rows"
#: A piece whose text is shorter than this is written in the header itself (no row of its own to fetch).
INLINE_UNDER = 200


class StateRows(NamedTuple):
    """A state snapshot as rows: the header (the snapshot row's text), the pieces to store (digest to
    text: those this write made; a piece read and not changed is referred to, not written again)
    and every piece the snapshot refers to (the rows that must be kept for it)."""

    header: str
    pieces: dict[str, str]
    refs: frozenset[str]


def piece_digest(text: str) -> str:
    """The key of a piece's row: a digest of its text (a piece unchanged keeps its row)."""
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def encode_state_rows(codec: Codec, state: CampaignState[Any], recorded: Timeline,
                      fetch: Callable[[str], str], *, refer: bool = True) -> StateRows:
    """``state`` and the timeline as recorded as a header and rows (see :func:`encode_state` for what
    is split how). The layout's leaves say where each piece is: a digest (a row holding the piece's
    text), ``["i", text]`` (a short piece, in the header) or ``["m", digest]`` (a map of
    :data:`~yarnlog.core.codec.CHUNKED_AT` entries or more: an index row of its chunks, each chunk a
    row, :func:`~yarnlog.core.codec.chunked`). A piece still as it was read from a snapshot in rows
    (decoded since or not) is referred to where it was read, not written again; ``fetch(digest)``
    reads an index row such a map was not decoded from (to list the chunks it refers to). Without
    ``refer``, every piece is written from its value (the rows it was read from may be gone)."""
    ruleset = state.ruleset.name if state.ruleset is not None else None
    timeline = None if state.timeline is recorded or state.timeline == recorded else state.timeline
    writer = _RowWriter(codec, fetch, refer)
    layouts = [writer.layout(value, depth)
               for value, depth in zip((state.table, timeline, recorded, state.rules), _DEPTHS)]
    head = [ROWS_HEADER, codec.classes_hash, "campaign", ruleset, state.sequence, layouts]
    return StateRows(json.dumps(head, separators=(",", ":"), ensure_ascii=False), writer.pieces,
                     frozenset(writer.refs))


class _RowWriter:
    def __init__(self, codec: Codec, fetch: Callable[[str], str], refer: bool):
        self.codec, self.fetch, self.refer = codec, fetch, refer
        self.pieces: dict[str, str] = {}
        self.refs: set[str] = set()

    def _row(self, text: str) -> str:
        digest = piece_digest(text)
        self.pieces[digest] = text
        self.refs.add(digest)
        return digest

    def layout(self, value: Any, depth: int) -> Any:
        if (depth <= 0 and not _split_anyway(value)) or value is None or not can_defer(value):
            return self._leaf(value)
        base = getattr(type(value), "__deferred_base__", type(value))
        as_read = fields_as_read(value) if self.refer else {}
        layout = []
        for name in (f.name for f in dataclasses.fields(base)):
            cell = as_read.get(name)
            if cell is not None and cell.origin is not None:  # as read: where it was read from
                layout.append([name, self._referred(cell.origin, cell.value_read if cell.decoded else None)])
            else:
                layout.append([name, self.layout(getattr(value, name), depth - 1)])
        return [self.codec.number_of(base), layout]

    def _referred(self, origin: Any, value: Any) -> Any:
        """``origin`` (a leaf of the layout a piece was read from) again, its rows listed as kept."""
        if isinstance(origin, str):
            self.refs.add(origin)
        elif origin[0] == "m":
            self.refs.add(origin[1])
            if isinstance(value, ChunkedMap):
                self.refs.update(cell.origin for _, _, cell in value.chunks)
            else:
                self.refs.update(entry[1] for entry in _index(self.fetch(origin[1])))
        return origin

    def _leaf(self, value: Any) -> Any:
        if isinstance(value, ChunkedMap) and len(value) >= CHUNKED_AT:
            if value.origin is not None and self.refer:
                return self._referred(value.origin, value)
            entries: list[list[Any]] = []
            for part in _canonical_runs(self.codec, value, self.refer):
                if isinstance(part, list):  # a chunk as read: its index entry
                    self.refs.add(part[1])
                    entries.append(part)
                else:
                    entries.extend(self._chunks(part.items()))
            return ["m", self._row(json.dumps(entries, separators=(",", ":"), ensure_ascii=False))]
        if isinstance(value, PMap) and len(value) >= CHUNKED_AT:
            entries = self._chunks(value.items())
            return ["m", self._row(json.dumps(entries, separators=(",", ":"), ensure_ascii=False))]
        text = self.codec.encode_value(value)
        return ["i", text] if len(text) < INLINE_UNDER else self._row(text)

    def _chunks(self, items: Any) -> list[list[Any]]:
        return [[first, self._row(self.codec.encode_value(chunk)), len(chunk)]
                for first, chunk in chunked(self.codec, items)]


def _canonical_runs(codec: Codec, value: ChunkedMap, refer: bool) -> list[Any]:
    """A chunked map's chunks to write: the index entry of each chunk as read (``[first key, digest,
    size]``: referred to), or the entries of a run of chunks to chunk again (a dict). Chunks are
    merged into a run so that the map is chunked as a full replay's would be
    (:func:`~yarnlog.core.codec.chunked`): a run whose first key does not start a chunk takes in the
    chunk before it (its first key was let go), and a chunk as read that does not start at such a
    key (cut for length) is taken into the run before it."""
    stack: list[Any] = []
    cells: dict[str, Deferred] = {}
    for first, count, cell in value.chunks:
        part: Any = [first, cell.origin, count] if cell.origin is not None and refer else dict(cell.value())
        if isinstance(part, list):
            cells[cell.origin] = cell
            if not starts_chunk(first) and stack and isinstance(stack[-1], dict):
                part = dict(cell.value())
        if isinstance(part, dict):
            if not part:
                continue
            while stack and not starts_chunk(min(key_order(codec, k) for k in part)):
                before = stack.pop()
                part = {**(before if isinstance(before, dict) else cells[before[1]].value()), **part}
        stack.append(part)
    return stack


def _index(text: str) -> list[list[Any]]:
    """A chunked map's index row: ``[[first key, digest, entries], ...]`` in key order, or :class:`CodecError`."""
    try:
        entries = json.loads(text)
    except ValueError:
        entries = None
    if not (isinstance(entries, list) and entries and all(
            isinstance(e, list) and len(e) == 3 and isinstance(e[0], str) and isinstance(e[1], str)
            and type(e[2]) is int and e[2] > 0 for e in entries)
            and all(a[0] < b[0] for a, b in zip(entries, entries[1:]))):
        raise CodecError("not the index of a snapshot's map")
    return entries


def is_rows_header(text: str) -> bool:
    """Whether a state snapshot's text is the header of one kept in rows (:func:`encode_state_rows`)."""
    return text.startswith('["' + ROWS_HEADER + '"')


def decode_state_rows(codec: Codec, header: str, fetch: Callable[[str], str], *, deferred: bool = False,
                      fallback: Callable[[tuple[str, ...]], Any] | None = None
                      ) -> tuple[CampaignState[Any], Timeline]:
    """The state and recorded timeline of a snapshot kept in rows: ``header`` (:func:`encode_state_rows`)
    and ``fetch(digest)``, which reads a piece's row (:class:`CodecError` if there is none).

    With ``deferred``, each piece is fetched and decoded when first read, and a chunked map
    (:class:`~yarnlog.core.codec.ChunkedMap`) fetches and decodes only the chunks read;
    ``fallback(path)`` gives a piece whose row is missing or does not decode (a cache never fails
    a command). Raises :class:`CodecError` if ``header`` is not one this code wrote."""
    from yarnlog.core.ruleset import CampaignState, get_ruleset
    from yarnlog.core.table import Table
    from yarnlog.core.timeline import Timeline

    try:
        head = json.loads(header)
    except ValueError:
        head = None
    if not (isinstance(head, list) and len(head) == 6 and head[0] == ROWS_HEADER and head[2] == "campaign"):
        raise CodecError("not a campaign state snapshot")
    _, classes, _, ruleset, sequence, layouts = head
    if classes != codec.classes_hash:
        raise CodecError("a snapshot written for other classes than this code's")
    if not (isinstance(layouts, list) and len(layouts) == len(_VALUES)):
        raise CodecError("not a campaign state snapshot")
    if not deferred:  # every row is read: fetched in a few queries rather than one a row
        fetch = _Prefetched(fetch, _digests(layouts))
    reader = _RowReader(codec, fetch, deferred, fallback)
    with collector_paused():
        table, timeline, recorded, rules = [reader.value(layout, (name,), top=True)
                                            for name, layout in zip(_VALUES, layouts)]
    if not (isinstance(sequence, int) and (ruleset is None or isinstance(ruleset, str)) and isinstance(table, Table)
            and (timeline is None or isinstance(timeline, Timeline)) and isinstance(recorded, Timeline)):
        raise CodecError("not a campaign state snapshot")
    if timeline is None or timeline is recorded or timeline == recorded:
        timeline = recorded
    state = CampaignState(table=table, timeline=timeline, rules=rules,
                          ruleset=get_ruleset(ruleset) if ruleset is not None else None, sequence=sequence)
    return state, recorded


class _RowReader:
    """The values of a state snapshot kept in rows, as :func:`decode_state_rows` reads them."""

    def __init__(self, codec: Codec, fetch: Callable[[str], str], deferred: bool,
                 fallback: Callable[[tuple[str, ...]], Any] | None):
        self.codec, self.fetch, self.deferred, self.fallback = codec, fetch, deferred, fallback
        self.decode = functools.partial(_decoded_and_frozen, codec) if deferred else codec.decode_value

    def value(self, layout: Any, path: tuple[str, ...], *, top: bool = False) -> Any:
        if isinstance(layout, list) and len(layout) == 2 and type(layout[0]) is int:
            return self._split(layout, path)
        if top or not self.deferred:
            return self._leaf(layout, path)
        # A leaf read when first asked for (its row fetched then).
        fallback = None if self.fallback is None else functools.partial(self.fallback, path)
        if isinstance(layout, str):
            return Deferred.fetched(functools.partial(self.fetch, layout), self.decode, fallback, layout)
        if _leaf_kind(layout) == "i":
            return Deferred(layout[1], 0, len(layout[1]), self.decode, fallback, layout)
        if _leaf_kind(layout) == "m":
            return Deferred.fetched(functools.partial(self.fetch, layout[1]),
                                    functools.partial(self._chunked, layout, path), fallback, layout)
        raise CodecError("not a campaign state snapshot")

    def _leaf(self, layout: Any, path: tuple[str, ...]) -> Any:
        if isinstance(layout, str):
            return self.codec.decode_value(self.fetch(layout))
        if _leaf_kind(layout) == "i":
            return self.codec.decode_value(layout[1])
        if _leaf_kind(layout) == "m":
            items: dict[Any, Any] = {}
            entries = _index(self.fetch(layout[1]))
            if isinstance(self.fetch, _Prefetched):
                self.fetch.prefetch([e[1] for e in entries])
            for _, digest, count in entries:
                chunk = chunk_of(self.codec.decode_value(self.fetch(digest)))
                if len(chunk) != count:
                    raise CodecError("a chunk of a snapshot's map of another size than its index says")
                items.update(chunk)
            return pmap(items)
        raise CodecError("not a campaign state snapshot")

    def _chunked(self, layout: Any, path: tuple[str, ...], text: str) -> ChunkedMap:
        entries = _index(text)
        firsts = [e[0] for e in entries]
        cells = []
        for n, (first, digest, count) in enumerate(entries):
            bounds = (first if n else None, firsts[n + 1] if n + 1 < len(firsts) else None)
            fallback = None if self.fallback is None else functools.partial(self._replayed_chunk, path, bounds)
            decode = functools.partial(self._chunk, count)
            cells.append(Deferred.fetched(functools.partial(self.fetch, digest), decode, fallback, digest))
        return ChunkedMap(self.codec, firsts, cells, [e[2] for e in entries], layout)

    def _chunk(self, count: int, text: str) -> dict[Any, Any]:
        chunk = chunk_of(self.decode(text))
        if len(chunk) != count:
            raise CodecError("a chunk of a snapshot's map of another size than its index says")
        return chunk

    def _replayed_chunk(self, path: tuple[str, ...], bounds: tuple[str | None, str | None]) -> dict[Any, Any]:
        """A chunk whose row is missing or does not decode: its keys' entries of the replayed map."""
        assert self.fallback is not None
        low, high = bounds
        found = {}
        for key, value in self.fallback(path).items():
            order = key_order(self.codec, key)
            if (low is None or order >= low) and (high is None or order < high):
                found[key] = value
        return found

    def _split(self, layout: Any, path: tuple[str, ...]) -> Any:
        cls = _layout_class(self.codec, layout)
        if not self.deferred:
            return _built(cls, ((name, self.value(sub, (*path, name))) for name, sub in layout[1]))
        pending = {}
        for name, sub in layout[1]:
            if isinstance(sub, list) and len(sub) == 2 and type(sub[0]) is int:
                # A slice split into pieces: built, its class found, when first read (see _Reader._split_later).
                fallback = None if self.fallback is None else functools.partial(self.fallback, (*path, name))
                pending[name] = Deferred.later(functools.partial(self._split, sub, (*path, name)), fallback)
                continue
            found = self.value(sub, (*path, name))
            pending[name] = found if isinstance(found, Deferred) else Deferred.ready(found)
        return deferred_instance(cls, pending)


class _Prefetched:
    """``fetch`` with the rows of ``digests`` read ahead in one go (its ``many``, if it has one);
    each row read ahead is let go once read."""

    def __init__(self, fetch: Callable[[str], str], digests: list[str]):
        self.fetch, self.texts = fetch, dict[str, str]()
        self.prefetch(digests)

    def prefetch(self, digests: list[str]) -> None:
        many = getattr(self.fetch, "many", None)
        if many is not None:
            self.texts.update(many(digests))

    def __call__(self, digest: str) -> str:
        text = self.texts.pop(digest, None)
        return text if text is not None else self.fetch(digest)


def _digests(layout: Any) -> list[str]:
    """The rows a layout's leaves name (an index row for a chunked map, not its chunks)."""
    if isinstance(layout, str):
        return [layout]
    if _leaf_kind(layout) == "m":
        return [layout[1]]
    if isinstance(layout, list):
        return [d for item in layout for d in _digests(item)]
    return []


def _leaf_kind(layout: Any) -> str | None:
    if isinstance(layout, list) and len(layout) == 2 and isinstance(layout[1], str) and layout[0] in ("i", "m"):
        return str(layout[0])
    return None


def read_state(codec: Codec, text: str, fetch: Callable[[str], str], *, deferred: bool = False,
               fallback: Callable[[tuple[str, ...]], Any] | None = None) -> tuple[CampaignState[Any], Timeline]:
    """A state snapshot's state and recorded timeline, whichever way it is kept: in rows (``text`` its
    header, ``fetch`` its rows: :func:`decode_state_rows`) or whole (:func:`decode_state`)."""
    if is_rows_header(text):
        return decode_state_rows(codec, text, fetch, deferred=deferred, fallback=fallback)
    return decode_state(codec, text, deferred=deferred, fallback=fallback)
