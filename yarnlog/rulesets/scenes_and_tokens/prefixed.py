"""The shared payloads under one ruleset's prefix.

Each payload is declared once, in the shared part that records it; a ruleset records it under its
own event type (``yarn.petition.resolved``, ``dramasystem.petition.resolved``), so that a journal
holds only its ruleset's events. :func:`under_prefix` makes that ruleset's class, once per prefix.
"""

from __future__ import annotations

from functools import cache
from typing import TypeVar

from yarnlog.core.events import Payload, event

P = TypeVar("P", bound=Payload)


@cache
def under_prefix(base: type[P], prefix: str, name: str, **class_vars: object) -> type[P]:
    """``base`` registered as ``{prefix}.{name}``: the class a ruleset of that prefix records, with
    the ruleset's own ``class_vars`` (such as :attr:`Payload.told_with_next_scene`)."""
    concrete = type(base.__name__, (base,), {
        "__module__": base.__module__,
        "__qualname__": f"{base.__qualname__}[{prefix}]",
        "__doc__": base.__doc__,
        **class_vars,
    })
    return event(f"{prefix}.{name}")(concrete)
