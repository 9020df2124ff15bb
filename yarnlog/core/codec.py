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

import contextlib
import dataclasses
import enum
import gc
import hashlib
import inspect
import json
import re
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


def plain_attributes(cls: type, fields: tuple[str, ...]) -> bool:
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


def canonical_json(encoded: Any) -> str:
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
        self.plain_attributes: set[type] = set()
        for name, known in by_name.items():
            if known is not None:
                self._learn(self._index[name], known)
        listed = canonical_json([CODEC_VERSION, self._names])
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
        if kind == "c" and plain_attributes(cls, self._fields[cls]):
            self.plain_attributes.add(cls)

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
        if cls not in self.plain_attributes or hasattr(cls, "__post_init__"):
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
        return sorted(items, key=canonical_json)

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
        if cls in self.plain_attributes:
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
    return hashlib.sha256(canonical_json(material).encode()).hexdigest()[:24]


def _parsed(text: str, what: str) -> Any:
    """``text`` parsed as JSON; :class:`CodecError` ("not {what}: ...") when it is not JSON."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise CodecError(f"not {what}: {exc}") from None
