"""Persistent maps and vectors thawed for a replay (:class:`yarnlog.core.ruleset.SliceBuilder` s use them).

A fold of one event grows a slice's persistent map with ``set`` (a new map sharing the rest); a
replay of many events folds into a plain ``dict`` or ``list`` instead and makes the persistent
value only when the slice is frozen. Freezing is incremental: only what changed since the last
freeze is written into the persistent value frozen then, so a slice that other parts read at
every event, or a replay frozen every few hundred events (a journal's snapshots), stays linear in
the history instead of converting the whole map each time.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Generic, Protocol, TypeVar

from pyrsistent import PVector

K = TypeVar("K")
V = TypeVar("V")


V_co = TypeVar("V_co", covariant=True)


class Persistent(Protocol[K, V_co]):
    """What :class:`ThawedMap` thaws: a persistent mapping with an evolver (a PMap, a Numbered)."""

    def keys(self) -> Iterable[K]: ...

    def __getitem__(self, key: K, /) -> V_co: ...

    def __contains__(self, key: object, /) -> bool: ...

    def evolver(self) -> Any: ...


class ThawedMap(Generic[K, V]):
    """A :class:`~pyrsistent.PMap` thawed: read and set in place, frozen by :meth:`freeze`.

    Thawing copies the map into a dict once; :meth:`freeze` writes into the map it froze last only
    the keys set or discarded since (a persistent map frozen earlier is never changed). It thaws
    the timeline's :class:`~yarnlog.core.timeline.Numbered` alike (its evolver takes numbers as keys);
    :meth:`freeze` then gives one back.
    """

    __slots__ = ("_items", "_frozen", "_changed")

    def __init__(self, frozen: Persistent[K, V]):
        self._frozen: Any = frozen
        self._items: dict[K, V] = dict(frozen)
        self._changed: set[K] = set()

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def get(self, key: K, default: V | None = None) -> V | None:
        return self._items.get(key, default)

    def values(self) -> Iterable[V]:
        return self._items.values()

    def __setitem__(self, key: K, value: V) -> None:
        self._items[key] = value
        self._changed.add(key)

    def discard(self, key: K) -> None:
        """Remove ``key`` if it is there (as :meth:`PMap.discard <pyrsistent.PMap.discard>`)."""
        if key in self._items:
            del self._items[key]
            self._changed.add(key)

    def freeze(self) -> Any:
        """The map as set so far, sharing what did not change with the map frozen before."""
        if self._changed:
            evolver, frozen, items = self._frozen.evolver(), self._frozen, self._items
            for key in self._changed:
                if key in items:
                    evolver[key] = items[key]
                elif key in frozen:  # discarded since the last freeze (and not set again)
                    evolver.remove(key)
            self._frozen = evolver.persistent()
            self._changed.clear()
        return self._frozen


class ThawedVector(Generic[V]):
    """A :class:`~pyrsistent.PVector` that only grows, thawed: appended to a list, frozen by :meth:`freeze`
    (the items appended since the last freeze added to the vector frozen then)."""

    __slots__ = ("_frozen", "_appended")

    def __init__(self, frozen: PVector[V]):
        self._frozen = frozen
        self._appended: list[V] = []

    def __len__(self) -> int:
        return len(self._frozen) + len(self._appended)

    def append(self, item: V) -> None:
        self._appended.append(item)

    def extend(self, items: Iterable[V]) -> None:
        self._appended.extend(items)

    def freeze(self) -> PVector[V]:
        """The vector as appended to so far."""
        if self._appended:
            self._frozen = self._frozen.extend(self._appended)
            self._appended = []
        return self._frozen
