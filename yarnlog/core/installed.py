"""The rulesets installed: the ``yarnlog.rulesets`` entry points, read once per process, and the
objects their ``module:attribute`` paths name. Imports nothing of yarnlog, so that reading an event
can find the ruleset that registers its type (:func:`yarnlog.core.events.payload_class`).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterator, Mapping
from typing import Any

#: The entry-point group a package registers its rulesets in: ``name = "module:RULESET"``.
ENTRY_POINT_GROUP = "yarnlog.rulesets"
#: Where the package of the ruleset that claims to be the default (``Ruleset.default``) says so
#: again, so that ``init`` finds it without importing every installed ruleset to ask.
DEFAULT_GROUP = "yarnlog.default_ruleset"

@functools.cache
def _entry_points() -> Any:
    from importlib.metadata import entry_points

    return entry_points()


def installed_entry_points(group: str) -> list[tuple[str, str]]:
    """``(name, "module:attribute")`` of every installed entry point of ``group``. Every package's
    entry points are read once per process (that opens each installed package's metadata)."""
    return [(point.name, point.value) for point in _entry_points().select(group=group)]


class _Registry(Mapping[str, str]):
    """Installed rulesets, name -> "module:attribute", read from the entry points on first use."""

    def __init__(self, group: str):
        self.group = group

    @functools.cached_property
    def _found(self) -> tuple[dict[str, str], frozenset[str]]:
        found: dict[str, str] = {}
        twice: set[str] = set()
        for name, value in installed_entry_points(self.group):
            if name in found and found[name] != value:
                twice.add(name)
            found[name] = value
        return found, frozenset(twice)

    @property
    def duplicates(self) -> frozenset[str]:
        """Names two installed packages both claim (neither is used)."""
        return self._found[1]

    def __getitem__(self, name: str) -> str:
        return self._found[0][name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._found[0])

    def __len__(self) -> int:
        return len(self._found[0])


#: name -> "module:attribute" of its :class:`Ruleset`, from the ``yarnlog.rulesets`` entry points.
RULESETS: _Registry = _Registry(ENTRY_POINT_GROUP)


def module_beside(ruleset_name: str, module: str) -> str | None:
    """The dotted name of ``module`` beside the module the ruleset's entry point names
    (``pkg.ruleset:RULESET`` -> ``pkg.<module>``; a package named whole -> its ``<module>``), found
    without importing it; ``None`` when there is none. How the shell finds a ruleset's verbs
    (``cli``) and the players' page its pages (``pages``). ``KeyError`` for a ruleset not installed."""
    import importlib.util

    target = RULESETS[ruleset_name].split(":")[0]
    spec = importlib.util.find_spec(target)
    package = target if spec is not None and spec.submodule_search_locations else target.rpartition(".")[0]
    if not package:
        return None
    try:
        found = importlib.util.find_spec(f"{package}.{module}")
    except ModuleNotFoundError:
        found = None
    return None if found is None else f"{package}.{module}"


def import_object(target: str) -> Any:
    """The object a ``module:attribute`` path names (how entry points name things)."""
    module, attribute = target.split(":")
    return getattr(importlib.import_module(module), attribute.strip())
