"""A state snapshot as rows: a header row, and its pieces as rows of their own, read by key."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from pyrsistent import PMap, pmap

from yarnlog.app.snapshots import (
    _DEPTHS,
    _VALUES,
    _built,
    _decoded_and_frozen,
    _layout_class,
    _split_anyway,
    decode_state,
)
from yarnlog.core.chunked_map import CHUNKED_AT, ChunkedMap, chunk_of, chunked, key_order, starts_chunk
from yarnlog.core.codec import Codec, CodecError, collector_paused
from yarnlog.core.deferred import Deferred, can_defer, deferred_instance, fields_as_read

if TYPE_CHECKING:
    from yarnlog.core.ruleset import CampaignState
    from yarnlog.core.timeline import Timeline



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
    :data:`~yarnlog.core.chunked_map.CHUNKED_AT` entries or more: an index row of its chunks, each chunk a
    row, :func:`~yarnlog.core.chunked_map.chunked`). A piece still as it was read from a snapshot in rows
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
    (:func:`~yarnlog.core.chunked_map.chunked`): a run whose first key does not start a chunk takes in the
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
    (:class:`~yarnlog.core.chunked_map.ChunkedMap`) fetches and decodes only the chunks read;
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
