"""A safe, canonical JSON codec for replayed state (snapshots), and the fingerprint of its schema.

Snapshots are caches read back from a database, so decoding one must never be able to run code
of the writer's choosing: there is no pickle here. The codec writes tagged JSON and rebuilds only
plain values, the containers listed below, and instances of the classes it was built with (a
whitelist: the dataclasses, enums and pydantic models a ruleset and the core declare). Anything
else is refused, on the way out as on the way in, with a :class:`CodecError`.

The text is ``["yarnlog-state", CLASSES, VALUE]``: ``CLASSES`` is a short hash of the codec's
class list (its version and the names of the classes, in order), so that a text written by a codec
of other classes is refused rather than misread, and ``VALUE`` is tagged JSON. In it every
container is a JSON array whose first item is its tag (so a JSON string is always a ``str``):

- ``None``, ``bool``, ``int``, ``float``, ``str`` (exact types): themselves;
- ``["l", ...]`` list, ``["t", ...]`` tuple, ``["pv", ...]`` PVector;
- ``["d", [k, v], ...]`` dict in insertion order (its order is observable: reports print it);
- ``["pm", [k, v], ...]`` PMap, ``["s", ...]`` set, ``["fs", ...]`` frozenset, ``["ps", ...]`` PSet,
  all sorted by their encoded items so that equal values encode to the same text;
- ``["F", numerator, denominator]`` Fraction;
- ``["e", class, value]`` enum member, ``["c", class, value, ...]`` dataclass (its fields' values in
  declaration order), ``["m", class, [value, ...]]`` pydantic model (plus, when not every field was
  set, the sorted names of those that were); ``class`` is the class's number in the codec's list
  (its classes sorted by name), which the ``CLASSES`` hash pins. Numbers and positions rather than
  names keep a snapshot of a long campaign small; the fingerprint covers names and field order.

Keys of any type survive (a dict keyed by frozensets or tuples), tuples stay tuples, floats
round-trip through ``repr``. The module is pure: it imports nothing of storage or rulesets.
"""

from __future__ import annotations

import bisect
import contextlib
import dataclasses
import enum
import functools
import gc
import hashlib
import inspect
import json
import re
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Any, cast

from pydantic import BaseModel
from pyrsistent import PMap, PSet, PVector, pmap, pset, pvector

from yarnlog.core.referee import YarnlogError

#: Bumped whenever the encoding changes: it is part of every fingerprint, so old snapshots go unread.
CODEC_VERSION = 2


class CodecError(YarnlogError):
    """A value the codec will not write, or a text it will not read (a snapshot to ignore)."""

    exit_code = 70


def class_name(cls: type) -> str:
    """The name a class is written under: ``module:qualname``."""
    return f"{cls.__module__}:{cls.__qualname__}"


def _kind(cls: type) -> str | None:
    """``"e"``, ``"m"`` or ``"c"`` for the classes the codec can write, None for any other."""
    if isinstance(cls, type) and issubclass(cls, enum.Enum):
        return "e"
    if isinstance(cls, type) and issubclass(cls, BaseModel):
        return "m"
    if dataclasses.is_dataclass(cls) and isinstance(cls, type):
        return "c"
    return None


#: The JSON values a snapshot holds as themselves (exact types: what ``json.loads`` gives).
_PLAIN = frozenset({str, int, float, bool, type(None)})


def _plain_attributes(cls: type, fields: tuple[str, ...]) -> bool:
    """Whether an instance of dataclass ``cls`` keeps ``fields`` in its ``__dict__``, none of them
    reached through a descriptor of the class (a slot, a property). Empty slots (``typing.Generic``'s) do not count."""
    if not cls.__dictoffset__ or any(vars(klass).get("__slots__") for klass in cls.__mro__[:-1]):
        return False
    return not any(hasattr(type(inspect.getattr_static(cls, f, None)), "__set__") for f in fields)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused (if it ran) while a snapshot is decoded.

    Decoding builds a great many containers and no cycle among them; the collector would walk the
    ones already built again and again as more are made, most of the decoding's time on a long
    campaign. Paused, it walks them at its next run instead. Refcounting frees as usual."""
    running = gc.isenabled()
    if running:
        gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


def _canonical(encoded: Any) -> str:
    return json.dumps(encoded, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Codec:
    """Encodes and decodes values built of plain data, the containers above and ``classes``.

    ``classes`` is the whitelist: dataclasses, enums and pydantic models (any other class is
    refused when the codec is built). Only these are ever instantiated by :meth:`decode`, and a
    dataclass or model is rebuilt field by field without running its ``__init__``, so the fields
    come back exactly as they were written.
    """

    def __init__(self, classes: Iterable[type], *, names: Iterable[str] = (),
                 resolve: Callable[[str], type] | None = None):
        by_name: dict[str, type | None] = dict.fromkeys(names)
        for cls in classes:
            if _kind(cls) is None:
                raise CodecError(f"{class_name(cls)} is not a dataclass, an enum or a pydantic model")
            by_name[class_name(cls)] = cls
        self._names: list[str] = sorted(by_name)
        self._index: dict[str, int] = {name: n for n, name in enumerate(self._names)}
        self._resolve = resolve
        self._classes: list[type | None] = [None] * len(self._names)
        self._numbers: dict[type, int] = {}
        self._kinds: dict[type, str] = {}
        # Field names per class, in declaration order (pydantic's as declared), worked out once.
        self._fields: dict[type, tuple[str, ...]] = {}
        # Dataclasses whose instances keep their fields in ``__dict__`` under their own names (no
        # slots, no descriptor on a field): decoding fills that dict at once, as setting each would.
        self._plain_attributes: set[type] = set()
        for name, known in by_name.items():
            if known is not None:
                self._learn(self._index[name], known)
        listed = _canonical([CODEC_VERSION, self._names])
        self.classes_hash = hashlib.sha256(listed.encode()).hexdigest()[:16]

    @classmethod
    def named(cls, names: Iterable[str], resolve: Callable[[str], type]) -> Codec:
        """A codec of the classes ``names`` (``module:qualname``), each found by ``resolve(name)`` when a
        value first needs it, so that a process imports only the modules of the classes it reads or
        writes. Equal to ``Codec`` of the resolved classes (the same numbers, the same text)."""
        return cls((), names=names, resolve=resolve)

    def _learn(self, number: int, cls: type) -> None:
        kind = _kind(cls)
        if kind is None or class_name(cls) != self._names[number]:
            raise CodecError(f"{self._names[number]} is not a dataclass, an enum or a pydantic model")
        self._classes[number] = cls
        self._numbers[cls] = number
        self._kinds[cls] = kind
        if kind != "e":
            self._fields[cls] = (tuple(cast(type[BaseModel], cls).model_fields) if kind == "m"
                                 else tuple(f.name for f in dataclasses.fields(cls)))
        if kind == "c" and _plain_attributes(cls, self._fields[cls]):
            self._plain_attributes.add(cls)

    def _class(self, number: int) -> type:
        """The class written under ``number`` (a valid one), found now if it was not yet."""
        cls = self._classes[number]
        if cls is None:
            if self._resolve is None:
                raise CodecError(f"a snapshot names class {number}, which is not a registered class")
            self._learn(number, self._resolve(self._names[number]))
            cls = self._classes[number]
        return cast(type, cls)

    def _found(self, cls: type) -> bool:
        """Whether ``cls`` is one of the classes named but not found yet (then it is learnt)."""
        number = self._index.get(class_name(cls)) if self._resolve is not None else None
        if number is None or self._classes[number] is not None:
            return False
        return self._class(number) is cls

    @property
    def classes(self) -> list[type]:
        """The whitelisted classes, sorted by name (a class is written as its number in this list)."""
        return [self._class(n) for n in range(len(self._names))]

    def number_of(self, cls: type) -> int:
        """The number ``cls`` is written under. Raises :class:`CodecError` for a class not registered."""
        base = getattr(cls, "__deferred_base__", cls)
        number = self._numbers.get(base)
        if number is None and self._found(base):
            number = self._numbers.get(base)
        if number is None:
            raise CodecError(f"cannot write a {class_name(cls)} into a snapshot: not a registered class")
        return number

    def plain_dataclass(self, number: Any) -> type:
        """The registered dataclass written under ``number`` whose instances keep their fields in their
        ``__dict__`` (:func:`deferred_instance` can build one). Raises :class:`CodecError` otherwise."""
        cls = self._registered(number, "c")
        if cls not in self._plain_attributes or hasattr(cls, "__post_init__"):
            raise CodecError(f"a snapshot names {class_name(cls)} as a state of parts, which it cannot be")
        return cls

    # -- writing ---------------------------------------------------------------------------

    def encode(self, value: Any) -> str:
        """``value`` as canonical JSON text (equal values give equal text). Raises :class:`CodecError`."""
        return json.dumps(["yarnlog-state", self.classes_hash, self.to_json(value)], separators=(",", ":"),
                          ensure_ascii=False)

    def to_json(self, value: Any) -> Any:
        """``value`` as tagged JSON data (see the module's docstring)."""
        t = type(value)
        if value is None or t is str or t is int or t is float or t is bool:
            return value
        kind = self._kinds.get(t)
        if kind == "c":
            return ["c", self._numbers[t], *(self.to_json(getattr(value, name)) for name in self._fields[t])]
        if t is list:
            return ["l", *map(self.to_json, value)]
        if t is tuple:
            return ["t", *map(self.to_json, value)]
        if t is dict:
            return ["d", *([self.to_json(k), self.to_json(v)] for k, v in value.items())]
        if isinstance(value, PMap):
            return ["pm", *self._sorted([self.to_json(k), self.to_json(v)] for k, v in value.items())]
        if isinstance(value, PVector):
            return ["pv", *map(self.to_json, value)]
        if t is frozenset:
            return ["fs", *self._sorted(map(self.to_json, value))]
        if t is set:
            return ["s", *self._sorted(map(self.to_json, value))]
        if isinstance(value, PSet):
            return ["ps", *self._sorted(map(self.to_json, value))]
        if t is Fraction:
            return ["F", value.numerator, value.denominator]
        if kind == "e":
            return ["e", self._numbers[t], self.to_json(value.value)]
        if kind == "m":
            fields = self._fields[t]
            encoded = ["m", self._numbers[t], [self.to_json(getattr(value, name)) for name in fields]]
            if len(value.model_fields_set) != len(fields):
                encoded.append(sorted(value.model_fields_set))
            return encoded
        base = getattr(t, "__deferred_base__", None)  # a dataclass with fields decoded when first read
        if base is not None and (self._kinds.get(base) == "c" or self._found(base)) and self._kinds[base] == "c":
            return ["c", self._numbers[base], *(self.to_json(getattr(value, name)) for name in self._fields[base])]
        if base is None and self._found(t):  # a class named but not found yet: now it is
            return self.to_json(value)
        raise CodecError(f"cannot write a {class_name(t)} into a snapshot: not a registered class")

    @staticmethod
    def _sorted(items: Iterable[Any]) -> list[Any]:
        return sorted(items, key=_canonical)

    # -- reading ---------------------------------------------------------------------------

    def decode(self, text: str) -> Any:
        """The value ``text`` encodes. Raises :class:`CodecError` for anything it did not write."""
        with collector_paused():
            data = _parsed(text, "a snapshot")
            if not (isinstance(data, list) and len(data) == 3 and data[0] == "yarnlog-state"):
                raise CodecError("not a snapshot: no yarnlog-state header")
            if data[1] != self.classes_hash:
                raise CodecError("a snapshot written for other classes than this code's")
            return self.from_json(data[2])

    def encode_value(self, value: Any) -> str:
        """``value`` as tagged JSON text on one line, without :meth:`encode`'s header (a piece of a
        larger text that carries the header once: a state snapshot's parts, one a line)."""
        return json.dumps(self.to_json(value), separators=(",", ":"), ensure_ascii=False)

    def decode_value(self, text: str) -> Any:
        """The value :meth:`encode_value` wrote as ``text``. Raises :class:`CodecError` for anything else."""
        with collector_paused():
            return self.from_json(_parsed(text, "a snapshot value"))

    def from_json(self, data: Any) -> Any:
        """The value tagged JSON ``data`` stands for (see the module's docstring)."""
        if type(data) is not list:
            if data is None or isinstance(data, (str, int, float, bool)):
                return data
            raise CodecError(f"not a snapshot value: a bare {type(data).__name__}")
        try:
            tag = data[0]
            reader = self._readers[tag]
        except (IndexError, KeyError, TypeError):
            raise CodecError(f"not a snapshot value: unknown tag {str(data[:1])[:40]}") from None
        try:
            return reader(self, data)
        except CodecError:
            raise
        except (TypeError, ValueError, IndexError, AttributeError, ArithmeticError, RecursionError) as exc:
            raise CodecError(f"malformed {tag!r} value in a snapshot: {exc}") from None

    def _registered(self, number: Any, kind: str) -> type:
        cls = self._class(number) if type(number) is int and 0 <= number < len(self._classes) else None
        if cls is None or self._kinds[cls] != kind:
            raise CodecError(f"a snapshot names class {str(number)[:40]}, which is not a registered {kind!r} class")
        return cls

    # Most values in a snapshot are plain (a name, a number): a container reads those in place and
    # calls :meth:`from_json` only for the tagged ones, which it checks as before.

    def _values(self, values: list[Any]) -> list[Any]:
        read = self.from_json
        return [v if type(v) in _PLAIN else read(v) for v in values]

    def _items(self, data: list[Any]) -> list[Any]:
        return self._values(data[1:])

    def _pairs(self, data: list[Any]) -> list[tuple[Any, Any]]:
        read = self.from_json
        return [(k if type(k) in _PLAIN else read(k), v if type(v) in _PLAIN else read(v)) for k, v in data[1:]]

    def _enum(self, data: list[Any]) -> Any:
        _, number, value = data
        cls = self._registered(number, "e")
        if type(value) in _PLAIN:
            member = cast(type[enum.Enum], cls)._value2member_map_.get(value)
            if member is not None:
                return member
        return cls(self.from_json(value))

    def _dataclass(self, data: list[Any]) -> Any:
        cls = self._registered(data[1], "c")
        fields = self._fields[cls]
        if len(data) - 2 != len(fields):
            raise CodecError(f"a snapshot's {class_name(cls)} has other fields than this code's")
        obj: Any = object.__new__(cls)
        values = self._values(data[2:])
        if cls in self._plain_attributes:
            obj.__dict__.update(zip(fields, values))
        else:
            for field, value in zip(fields, values):
                # Frozen dataclasses refuse setattr; object's own is what their generated __init__ uses too.
                object.__setattr__(obj, field, value)
        return obj

    def _model(self, data: list[Any]) -> Any:
        cls = self._registered(data[1], "m")
        fields, values = self._fields[cls], data[2]
        if not isinstance(values, list) or len(values) != len(fields):
            raise CodecError(f"a snapshot's {class_name(cls)} has other fields than this code's")
        fields_set = set(data[3]) if len(data) > 3 else None
        decoded = dict(zip(fields, self._values(values)))
        return cast(type[BaseModel], cls).model_construct(_fields_set=fields_set, **decoded)

    _readers: Mapping[str, Callable[[Codec, list[Any]], Any]] = {
        "l": lambda self, d: self._items(d),
        "t": lambda self, d: tuple(self._items(d)),
        "pv": lambda self, d: pvector(self._items(d)),
        "d": lambda self, d: dict(self._pairs(d)),
        "pm": lambda self, d: pmap(dict(self._pairs(d))),
        "fs": lambda self, d: frozenset(self._items(d)),
        "s": lambda self, d: set(self._items(d)),
        "ps": lambda self, d: pset(self._items(d)),
        "F": lambda self, d: Fraction(int(d[1]), int(d[2])),
        "e": _enum,
        "c": _dataclass,
        "m": _model,
    }


# -- the schema fingerprint -----------------------------------------------------------------


#: A memory address in a repr (``<function check at 0x7f...>``): it differs in every process.
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _annotation(text: str) -> str:
    """A field's annotation as written, without the addresses its metadata's reprs carry (a
    validator function in ``Annotated``), so that every process works out the same structure."""
    return _ADDRESS.sub("", text)


def class_structure(cls: type) -> list[Any]:
    """What a snapshot's reader relies on in ``cls``: its name, kind and fields with their types
    (members with their values for an enum). A field's type is the annotation as written."""
    kind = _kind(cls)
    if kind == "e":
        return [class_name(cls), "e", [[m.name, repr(m.value)] for m in cast(type[enum.Enum], cls)]]
    if kind == "m":
        fields = cast(type[BaseModel], cls).model_fields
        return [class_name(cls), "m", [[n, _annotation(repr(f.annotation))] for n, f in fields.items()]]
    if kind == "c":
        return [class_name(cls), "c", [[f.name, _annotation(str(f.type))] for f in dataclasses.fields(cls)]]
    raise CodecError(f"{class_name(cls)} is not a dataclass, an enum or a pydantic model")


def fingerprint(*, ruleset: str, ruleset_title: str, classes: Iterable[type],
                event_versions: Mapping[str, int], extra: str = "") -> str:
    """A short hash of everything a snapshot's meaning depends on.

    The codec's version, the ruleset (name and title, which carries its version: "My Game 1.0"), the
    structure of every class the snapshot may hold (:func:`class_structure`, sorted by name), the
    schema version of every event type, and ``extra`` (whatever else the caller keys on, e.g. a
    digest of the code that folds). A snapshot written under another fingerprint is never read.
    """
    structure = sorted((class_structure(cls) for cls in classes), key=lambda s: str(s[0]))
    material = [CODEC_VERSION, ruleset, ruleset_title, structure, sorted(event_versions.items()), extra]
    return hashlib.sha256(_canonical(material).encode()).hexdigest()[:24]


# -- fields decoded when first read ------------------------------------------------------------


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
    return _plain_attributes(cls, tuple(f.name for f in dataclasses.fields(cls)))


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


def _parsed(text: str, what: str) -> Any:
    """``text`` parsed as JSON; :class:`CodecError` ("not {what}: ...") when it is not JSON."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise CodecError(f"not {what}: {exc}") from None


# -- a map kept in chunks of its entries, each decoded when first read -------------------------

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
    return _canonical(codec.to_json(key))


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
