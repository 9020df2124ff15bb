"""Small phrasings the recap's sentences share: a list of names, a counted thing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: A payload's data, as ``payload.model_dump()`` gives it.
Data = Mapping[str, Any]


def _names(names: Sequence[str]) -> str:
    """``Ana``, ``Ana and Ben``, ``Ana, Ben and Cy``."""
    names = list(names)
    return " and ".join(names) if len(names) < 3 else f"{', '.join(names[:-1])} and {names[-1]}"


def _counted(n: int, what: str, plural: str | None = None) -> str:
    """``a bonus die``, ``an experience die``, ``2 bonus dice``."""
    if n == 1:
        return f"{'an' if what[:1] in 'aeiou' else 'a'} {what}"
    return f"{n} {plural or what + 's'}"


def _dice(d: Data | None) -> str:
    if not d:
        return "?"
    faces = d["faces"]
    kept = set(d.get("kept") or range(len(faces)))
    shown = [str(f) if i in kept else f"({f})" for i, f in enumerate(faces)]
    return f"{' + '.join(shown)} = {d['total']}" if len(faces) > 1 else f"{d['total']}"
