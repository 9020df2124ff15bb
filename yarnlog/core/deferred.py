"""A snapshot's values decoded when first read: a field, a dataclass's fields, a vector's items."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pyrsistent import PVector, pvector

from yarnlog.core.codec import Codec, CodecError, class_name, plain_attributes


class Deferred:
    """A value kept as the text it was read from, decoded the first time it is asked for (then kept).

    ``text`` is ``source[start:end]``, sliced only when needed (a snapshot's parts share its text);
    or ``source`` is a callable that fetches the text when first needed (a snapshot's piece kept as
    a row of its own: :meth:`fetched`). ``fallback`` gives the value another way when the text
    cannot be fetched or decoded (a snapshot is a cache: a damaged one must never fail a command);
    without one, the :class:`CodecError` is raised. ``origin`` is what the writer of the next
    snapshot may write in the value's place while it is the value read (the row it was read from).
    """

    __slots__ = ("_source", "_start", "_end", "_decode", "_fallback", "_value", "_done", "origin")

    def __init__(self, source: str | Callable[[], str], start: int, end: int, decode: Callable[[str], Any],
                 fallback: Callable[[], Any] | None = None, origin: Any = None):
        self._source: str | Callable[[], str] | None = source
        self._start, self._end = start, end
        self._decode = decode
        self._fallback = fallback
        self._value: Any = None
        self._done = False
        self.origin = origin

    @classmethod
    def ready(cls, value: Any) -> Deferred:
        """A :class:`Deferred` of a value already at hand."""
        cell = cls("", 0, 0, _unused)
        cell._value, cell._done, cell._source = value, True, None
        return cell

    @classmethod
    def later(cls, build: Callable[[], Any], fallback: Callable[[], Any] | None = None) -> Deferred:
        """A :class:`Deferred` of a value built by ``build()`` when first asked for; it has no text of
        its own (:attr:`text` is None), so a snapshot that keeps it undecoded writes its value again."""
        cell = cls("", 0, 0, lambda _text: build(), fallback)
        cell._source = None
        return cell

    @classmethod
    def fetched(cls, fetch: Callable[[], str], decode: Callable[[str], Any], fallback: Callable[[], Any] | None,
                origin: Any) -> Deferred:
        """A value whose text ``fetch`` reads when it is first asked for (:class:`CodecError` if it cannot)."""
        return cls(fetch, 0, 0, decode, fallback, origin)

    @property
    def decoded(self) -> bool:
        return self._done

    @property
    def value_read(self) -> Any:
        """The value decoded (None before it is)."""
        return self._value

    @property
    def text(self) -> str | None:
        """The text the value was read from, while it is not decoded (then it is let go)."""
        if self._source is None:
            return None
        return self._source[self._start:self._end] if isinstance(self._source, str) else self._source()

    def value(self) -> Any:
        if not self._done:
            try:
                source = self._source
                text = "" if source is None else source[self._start:self._end] if isinstance(source, str) \
                    else source()
                value = self._decode(text)
            except CodecError:
                if self._fallback is None:
                    raise
                value = self._fallback()
            self._value, self._done, self._source = value, True, None
        return self._value


def _unused(text: str) -> Any:
    raise CodecError("nothing to decode")


#: Where a dataclass instance built by :func:`deferred_instance` keeps its fields not decoded yet.
_PENDING = "_yarnlog_deferred"


class _DeferredField:
    """A field of a :func:`deferred_instance` not read yet: decoded on first read, then kept in the
    instance's ``__dict__`` (which a non-data descriptor gives way to, so later reads cost nothing)."""

    __slots__ = ("name", "default")

    def __init__(self, name: str, default: Any):
        self.name, self.default = name, default

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self.default
        value = obj.__dict__[_PENDING][self.name].value()
        obj.__dict__[self.name] = value
        return value


_MISSING = object()


@functools.cache
def _deferring(cls: type) -> type:
    """A subclass of dataclass ``cls`` whose fields may be decoded when first read; equal to (and
    printed as) an instance of ``cls`` with the same fields."""
    names = tuple(f.name for f in dataclasses.fields(cls))

    def __eq__(self: Any, other: Any) -> bool:
        if not isinstance(other, cls):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in names)

    namespace: dict[str, Any] = {name: _DeferredField(name, getattr(cls, name, _MISSING)) for name in names}
    namespace.update(__eq__=__eq__, __hash__=cls.__hash__, __qualname__=cls.__qualname__,
                     __module__=cls.__module__, __deferred_base__=cls)
    return type(cls.__name__, (cls,), namespace)


def can_defer(obj: Any) -> bool:
    """Whether ``obj`` is a dataclass instance :func:`deferred_instance` can rebuild with deferred fields
    (its fields kept in its ``__dict__``: no slots, no descriptor on a field, no ``__post_init__``)."""
    cls = type(obj)
    cls = getattr(cls, "__deferred_base__", cls)
    if not (dataclasses.is_dataclass(cls) and isinstance(cls, type)) or hasattr(cls, "__post_init__"):
        return False
    return plain_attributes(cls, tuple(f.name for f in dataclasses.fields(cls)))


def deferred_instance(cls: type, pending: Mapping[str, Deferred]) -> Any:
    """An instance of dataclass ``cls`` (a subclass of it, equal to one) whose every field is decoded
    from its :class:`Deferred` when first read: a fold or a rule that never reads a field never
    decodes it. Copies made with :func:`yarnlog.core.frozen.replace` share what is not decoded yet."""
    if set(pending) != {f.name for f in dataclasses.fields(cls)}:
        raise CodecError(f"a snapshot's {class_name(cls)} has other fields than this code's")
    obj: Any = object.__new__(_deferring(cls))
    obj.__dict__[_PENDING] = dict(pending)
    return obj


def deferred_fields(obj: Any) -> Mapping[str, Deferred]:
    """The fields of ``obj`` (built by :func:`deferred_instance`) not read yet, with their text: a
    snapshot writes them back as that text, undecoded. Empty for any other object."""
    held = getattr(obj, "__dict__", {}).get(_PENDING)
    if not held:
        return {}
    return {name: cell for name, cell in held.items() if name not in obj.__dict__ and not cell.decoded}


def fields_as_read(obj: Any) -> Mapping[str, Deferred]:
    """The fields of ``obj`` (built by :func:`deferred_instance`) whose value is still the one read
    from the snapshot, decoded since or not: the next snapshot may refer to where each was read
    from instead of writing it again. A mutable container decoded is left out (it may have been
    changed in place). Empty for any other object."""
    held = getattr(obj, "__dict__", {}).get(_PENDING)
    if not held:
        return {}
    found = {}
    for name, cell in held.items():
        if name not in obj.__dict__:
            if not cell.decoded or type(cell.value_read) not in _MUTABLE:
                found[name] = cell
        elif cell.decoded and obj.__dict__[name] is cell.value_read and type(cell.value_read) not in _MUTABLE:
            found[name] = cell
    return found


_MUTABLE = frozenset({dict, list, set})


class PendingVector(PVector):  # type: ignore[type-arg]
    """A persistent vector read from a snapshot and not decoded yet: appended to without decoding (a
    fold that adds an entry to a ledger need not read the ledger), decoded by anything else it is
    asked. Equal to (and behaving as) the :class:`~pyrsistent.PVector` it stands for; written back
    as its text with the items appended after it (:meth:`text`)."""

    __slots__ = ("_prefix", "_appended", "_whole")

    #: Past this many items appended, the vector is decoded (an append copies the items appended).
    MOST_APPENDED = 64

    def __init__(self, prefix: Deferred, appended: tuple[Any, ...] = ()):
        self._prefix = prefix
        self._appended = appended
        self._whole: PVector[Any] | None = None

    def _vector(self) -> PVector[Any]:
        if self._whole is None:
            self._whole = self._prefix.value().extend(self._appended)
        return self._whole

    def text(self, codec: Codec) -> str | None:
        """The vector's tagged JSON text, while what it was read as is not decoded (else None)."""
        text = self._prefix.text if self._whole is None else None
        if text is None or not text.endswith("]"):
            return None
        return text[:-1] + "".join("," + codec.encode_value(item) for item in self._appended) + "]"

    def append(self, item: Any) -> PVector[Any]:
        if self._whole is None and len(self._appended) < self.MOST_APPENDED and not self._prefix.decoded:
            return PendingVector(self._prefix, (*self._appended, item))
        return self._vector().append(item)

    def extend(self, items: Iterable[Any]) -> PVector[Any]:
        items = tuple(items)
        if self._whole is None and len(self._appended) + len(items) <= self.MOST_APPENDED \
                and not self._prefix.decoded:
            return PendingVector(self._prefix, (*self._appended, *items))
        return self._vector().extend(items)

    def __eq__(self, other: object) -> bool:
        return self._vector() == (other._vector() if isinstance(other, PendingVector) else other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._vector())

    def __reduce__(self) -> Any:
        return pvector, (list(self._vector()),)


def _delegate(name: str) -> Any:
    def method(self: PendingVector, *args: Any, **kwargs: Any) -> Any:
        return getattr(self._vector(), name)(*args, **kwargs)
    method.__name__ = name
    return method


for _name in ("__getitem__", "__len__", "__iter__", "__reversed__", "__contains__", "__repr__", "__lt__",
              "__le__", "__gt__", "__ge__", "__add__", "__mul__", "__rmul__", "delete", "mset", "evolver",
              "index", "set", "transform", "remove", "count", "tolist"):
    setattr(PendingVector, _name, _delegate(_name))
PendingVector.__abstractmethods__ = frozenset()
