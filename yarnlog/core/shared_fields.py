"""Typed events built in a replay share pydantic's record of the fields they were given.

Every pydantic model keeps, beside its values, the set of the names of the fields it was given
(``model_fields_set``): a set of its own per instance, 216 to 2,264 bytes, more than the values of
most small models. A stored payload gives every field (its canonical text is a full dump), so the
events of a type, and the models of a type nested in them, record the same few sets of names. A
replay keeps many of them in the state (rolls, tallies, scenes: measured at 100K events, these
sets were 40% of the state's memory), so the events a replay builds share one set per model type
and set of names instead.

Only frozen models share (pydantic adds a name to the set when a field of a model that is not frozen
is assigned); a copy with changes (``model_copy(update=...)``) copies the set before changing it.
"""

from __future__ import annotations

import functools
import typing
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

#: The sets of names shared, by model type: a few each (a payload's versions), so a short list.
_SHARED: dict[type, list[set[str]]] = {}
#: More distinct sets of names than this for one type: the type's other sets are left unshared.
_MOST = 8


def _holds_models(annotation: Any) -> bool:
    """Whether a field so annotated may hold a pydantic model (itself, or in a list, tuple or union)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    return any(_holds_models(arg) for arg in typing.get_args(annotation))


@functools.cache
def _nested_fields(kind: type[BaseModel]) -> tuple[str, ...]:
    """The fields of ``kind`` that may hold models, worked out once per type."""
    return tuple(name for name, info in kind.model_fields.items() if _holds_models(info.annotation))


#: Per model type, what :func:`share_fields_sets` does with its models: the set of all its field names
#: and their count (None, 0 if it is not frozen), the sets of names its models share, and its fields
#: that may hold models. Every event a replay builds asks this, so it is one lookup.
_PLANS: dict[type, tuple[set[str] | None, int, list[set[str]] | None, tuple[str, ...]]] = {}


def _plan(kind: type[BaseModel]) -> tuple[set[str] | None, int, list[set[str]] | None, tuple[str, ...]]:
    shared: list[set[str]] | None = None
    every: set[str] | None = None
    if kind.model_config.get("frozen"):
        shared = _SHARED.setdefault(kind, [])
        every = next((known for known in shared if known == set(kind.model_fields)), None)
        if every is None:
            every = set(kind.model_fields)
            shared.append(every)
    plan = _PLANS[kind] = (every, len(every or ()), shared, _nested_fields(kind))
    return plan


@functools.cache
def _every_field(kind: type[BaseModel]) -> set[str]:
    """The shared set of all of ``kind``'s field names (a model given every field records it)."""
    plan = _PLANS.get(kind) or _plan(kind)
    if plan[0] is None or kind.__private_attributes__ or kind.model_config.get("extra") == "allow":
        raise TypeError(f"{kind.__name__} is not a frozen model with neither private nor extra attributes")
    return plan[0]


_new = object.__new__
_set = object.__setattr__


def trusted(kind: type[M], values: dict[str, Any]) -> M:
    """A frozen model of ``kind`` given every field in ``values``, which are known valid (the store's
    typed columns), built without validating them: equal to ``kind(**values)``, sharing the type's
    set of field names. Nested models are not walked (share them with :func:`share_fields_sets`)."""
    model = _new(kind)
    _set(model, "__dict__", values)
    _set(model, "__pydantic_fields_set__", _every_field(kind))
    _set(model, "__pydantic_extra__", None)
    _set(model, "__pydantic_private__", None)
    return model


def share_fields_sets(model: BaseModel) -> None:
    """``model`` and the frozen models nested in it (in fields, lists and tuples) made to share, type by
    type, one set of the names of their given fields. Values, equality and dumps are unchanged."""
    pending: list[BaseModel] = [model]
    plans = _PLANS
    while pending:
        item = pending.pop()
        kind = type(item)
        every, count, known, nested = plans.get(kind) or _plan(kind)
        if known is not None:
            names = item.__pydantic_fields_set__
            if len(names) == count:  # every field given (a stored payload's): the names are a subset of them
                if names is not every:
                    _set(item, "__pydantic_fields_set__", every)
            else:
                for shared in known:
                    if shared is names:
                        break
                    if shared == names:
                        _set(item, "__pydantic_fields_set__", shared)
                        break
                else:
                    if len(known) < _MOST:
                        known.append(names)
        if nested:
            values = item.__dict__
            for name in nested:
                value = values.get(name)
                if isinstance(value, BaseModel):
                    pending.append(value)
                elif isinstance(value, (list, tuple)):
                    pending.extend(v for v in value if isinstance(v, BaseModel))
