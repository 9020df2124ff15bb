"""A persistent map kept in a snapshot in chunks of its entries, each decoded when first read."""

from __future__ import annotations

import bisect
import zlib
from collections.abc import Iterable
from typing import Any

from pyrsistent import PMap, pmap

from yarnlog.core.codec import Codec, CodecError, canonical_json
from yarnlog.core.deferred import Deferred

#: A persistent map of at least this many entries is kept in a snapshot in chunks of its entries
#: (:class:`ChunkedMap`), so that reading one key decodes the chunk that holds it, not the map.
CHUNKED_AT = 64
#: A chunk starts at the first key (in :func:`key_order`) and at every key whose CRC-32 is 0 modulo
#: this (about this many entries a chunk, and a key added changes only the chunk it falls in), or
#: after :data:`CHUNK_MOST` entries.
CHUNK_EVERY = 32
CHUNK_MOST = 256


def key_order(codec: Codec, key: Any) -> str:
    """Where ``key`` sorts among a chunked map's keys: its canonical tagged JSON (any type of key)."""
    return canonical_json(codec.to_json(key))


def starts_chunk(order: str) -> bool:
    """Whether a key (its :func:`key_order`) starts a chunk wherever it falls (see :data:`CHUNK_EVERY`)."""
    return zlib.crc32(order.encode()) % CHUNK_EVERY == 0


def chunked(codec: Codec, items: Iterable[tuple[Any, Any]]) -> list[tuple[str, dict[Any, Any]]]:
    """A map's ``items`` in chunks: each chunk's first key (:func:`key_order`) and its entries, in key order."""
    ordered = sorted(((key_order(codec, k), k, v) for k, v in items), key=lambda item: item[0])
    chunks: list[tuple[str, dict[Any, Any]]] = []
    for order, key, value in ordered:
        if not chunks or len(chunks[-1][1]) >= CHUNK_MOST or starts_chunk(order):
            chunks.append((order, {}))
        chunks[-1][1][key] = value
    return chunks


class ChunkedMap(PMap):  # type: ignore[type-arg]
    """A :class:`~pyrsistent.PMap` read from a snapshot in chunks of its entries (:func:`chunked`):
    ``m[key]``, ``get``, ``in``, ``len``, ``set``, ``remove`` and ``discard`` decode at most the
    chunk ``key`` falls in; anything else decodes every chunk once, and the map then behaves as the
    PMap it stands for (to which it is equal). A map built by ``set`` shares the chunks it did not
    change, so the next snapshot refers to them where they were read from (:attr:`chunks`)."""

    __slots__ = ("_codec", "_firsts", "_cells", "_counts", "_whole", "origin")
    _codec: Codec
    _firsts: list[str]
    _cells: list[Deferred]
    _counts: list[int]
    _whole: PMap[Any, Any] | None
    origin: Any

    def __new__(cls, codec: Codec, firsts: list[str], cells: list[Deferred], counts: list[int],
                origin: Any = None) -> ChunkedMap:
        self = object.__new__(cls)
        self._codec, self._firsts, self._cells, self._counts = codec, firsts, cells, counts
        self._whole = None
        self.origin = origin  # what the map was read as, while it is that map
        return self

    # PMap's own methods read these two: the map decoded whole, once.
    @property
    def _buckets(self) -> Any:
        return self._materialized()._buckets

    @property
    def _size(self) -> int:
        return sum(self._counts)

    def _materialized(self) -> PMap[Any, Any]:
        whole = self._whole
        if whole is None:
            items: dict[Any, Any] = {}
            for cell in self._cells:
                items.update(cell.value())
            whole = self._whole = pmap(items)
        return whole

    @property
    def chunks(self) -> list[tuple[str, int, Deferred]]:
        """Each chunk's first key (:func:`key_order`), its number of entries and its cell."""
        return list(zip(self._firsts, self._counts, self._cells))

    def _locate(self, key: Any) -> tuple[int, str] | None:
        try:
            order = key_order(self._codec, key)
        except (CodecError, TypeError):
            return None  # a key no snapshot can hold is in no chunk
        return max(bisect.bisect_right(self._firsts, order) - 1, 0), order

    def __getitem__(self, key: Any) -> Any:
        found = self._locate(key) if self._cells else None
        if found is None:
            raise KeyError(key)
        return self._cells[found[0]].value()[key]

    def get(self, key: Any, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: Any) -> bool:
        try:
            self[key]
        except KeyError:
            return False
        return True

    def __len__(self) -> int:
        return sum(self._counts)

    def _with(self, index: int, order: str, chunk: dict[Any, Any]) -> ChunkedMap:
        firsts, cells, counts = list(self._firsts), list(self._cells), list(self._counts)
        if index == 0 and order < firsts[0]:
            firsts[0] = order
        cells[index], counts[index] = Deferred.ready(chunk), len(chunk)
        return ChunkedMap(self._codec, firsts, cells, counts)

    def set(self, key: Any, val: Any) -> PMap[Any, Any]:
        found = self._locate(key) if self._cells else None
        if found is None:
            return self._materialized().set(key, val)
        chunk = dict(self._cells[found[0]].value())
        chunk[key] = val
        return self._with(found[0], found[1], chunk)

    def discard(self, key: Any) -> PMap[Any, Any]:
        found = self._locate(key) if self._cells else None
        if found is None or key not in self._cells[found[0]].value():
            return self
        chunk = dict(self._cells[found[0]].value())
        del chunk[key]
        return self._with(found[0], self._firsts[found[0]], chunk)

    def remove(self, key: Any) -> PMap[Any, Any]:
        if key not in self:
            raise KeyError(key)
        return self.discard(key)


ChunkedMap.__abstractmethods__ = frozenset()


def chunk_of(data: Any) -> dict[Any, Any]:
    """A chunk's entries as decoded (a dict), or :class:`CodecError`."""
    if type(data) is not dict:
        raise CodecError("not a chunk of a snapshot's map")
    return data
