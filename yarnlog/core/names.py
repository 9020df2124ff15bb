"""Names as typed at the table, resolved to names as registered: one resolver for every command.

People type ``mara`` for Mara. A command is resolved once, before any decider sees it
(:func:`yarnlog.core.decide.decide`): every name it carries that equals exactly one registered
name ignoring case becomes that name, so the recorded event carries the name as registered and
``verify``, which compares names exactly, keeps holding. A name that matches nothing is left as
typed for the decider to refuse; :func:`did_you_mean` then adds the nearest registered names.

Which fields of a command hold names is said here once (:data:`NAME_FIELDS`), by field name,
across the journal's and the rulesets' commands: free text (a setting, a reason, a note) is
never touched, even when it happens to read like a name.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import fields, is_dataclass, replace
from functools import cached_property
from typing import Any

#: The fields of commands (and of the dataclasses nested in them) that name participants,
#: characters, supporting characters, locations or combatants. A tuple of strings or a mapping
#: keyed by names in such a field is resolved item by item.
NAME_FIELDS = frozenset({
    "name", "caller", "cast", "character", "characters", "player", "petitioner", "petitioners", "granter",
    "first", "second", "voter", "ranking", "spender", "burn_target", "challenger", "for_caller",
    "for_challenger", "narrator", "objectors", "roller", "attacker", "defender", "withholder", "other", "pc",
    "introduced_by", "theme_chosen_by", "order", "tie_order", "players_around_table", "absent", "individual",
    "among", "supporters", "blockers", "helpers", "members", "target", "participant", "by", "chosen_by",
    "for_detail", "location", "primary", "contestant", "assistant", "drawn_by",
})
#: The fields of :data:`NAME_FIELDS` that name a character, never a participant (a roll is a
#: character's): a refusal suggests a character's name for them, not a player's.
CHARACTER_FIELDS = frozenset({
    "character", "characters", "cast", "petitioner", "petitioners", "granter", "roller", "pc", "attacker",
    "defender",
})


class Registered(Collection[str]):
    """The names registered in a campaign, looked up where the state keeps them (its maps of
    participants, characters, locations...), never copied into one list: a name typed as registered
    is found in a few lookups, so resolving a command does not grow with the campaign. They are
    walked, once per command, only when a name is typed in another case (:attr:`folded`).

    ``other`` holds the names registered that are not characters (locations, a scene's descriptors),
    matched alike, kept apart so a reader tells them from the characters (:func:`characters`)."""

    def __init__(self, *groups: Collection[str], other: Collection[str] = ()):
        self._groups = (*groups, other)
        self.other = other

    def __contains__(self, name: object) -> bool:
        return any(name in group for group in self._groups)

    def __iter__(self) -> Iterator[str]:
        for group in self._groups:
            yield from group

    def __len__(self) -> int:
        return sum(1 for _ in self)

    @cached_property
    def folded(self) -> dict[str, str | None]:
        """:func:`casefold_index` of the names, built on first use."""
        return casefold_index(self)


def characters(names: Iterable[str]) -> list[str]:
    """The characters among a ruleset's registered names (``Rules.names``): its names but its
    :attr:`Registered.other` (locations, descriptors)."""
    other = names.other if isinstance(names, Registered) else ()
    return [name for name in names if name not in other]


def casefold_index(known: Iterable[str]) -> dict[str, str | None]:
    """Registered names by their case-folded form; ``None`` where two differ only in case (ambiguous)."""
    index: dict[str, str | None] = {}
    for name in known:
        key = name.casefold()
        index[key] = name if index.get(key, name) == name else None
    return index


def canonical(name: str, known: Iterable[str]) -> str:
    """``name`` as registered: itself when registered exactly, else the one registered name equal to
    it ignoring case (and surrounding spaces), else ``name`` unchanged (the decider refuses it)."""
    return _one(name, Registered(known if isinstance(known, Collection) else tuple(known)))


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``; did you mean Mara?`` for the registered names closest to ``name``; empty when none is close."""
    known = sorted(set(known))
    folded = {k.casefold(): k for k in known}
    close = difflib.get_close_matches(name.casefold(), list(folded), n=3, cutoff=0.6)
    if not close:
        return ""
    return f"; did you mean {' or '.join(folded[c] for c in close)}?"


def starting_with(name: str, known: Iterable[str]) -> list[str]:
    """The registered names that ``name`` begins, ignoring case (``marek`` begins ``Marek Dunn``), sorted."""
    start = name.strip().casefold()
    return sorted(k for k in set(known) if start and k.casefold().startswith(start)) if start else []


def which_match(name: str, known: Iterable[str]) -> str:
    """``; Marek matches Marek Dunn and Marek Vas: say which`` when ``name`` begins two registered names
    or more; empty otherwise."""
    matches = starting_with(name, known)
    return f"; {name} matches {' and '.join(matches)}: say which" if len(matches) > 1 else ""


def completed(command: Any, known: Iterable[str], refusal: str) -> Any | None:
    """``command`` with each name the ``refusal`` names, registered under no such name but begun by
    exactly one (a first name, a prefix: ``Marek`` for ``Marek Dunn``), replaced by that one; ``None``
    when there is none to replace. Only after a refusal, so a new name (``join Tom`` beside Tomas)
    is never taken for an old one."""
    registered = set(known)
    found = {name: matches[0] for name in mentioned(command)
             if name and name not in registered and name in refusal
             and len(matches := starting_with(name, registered)) == 1}
    if not found:
        return None
    return _resolve(command, Registered({**{name: name for name in registered}, **found}), found)


def resolve_command(command: Any, known: Iterable[str]) -> Any:
    """``command`` with every name in its :data:`NAME_FIELDS` as registered (see :func:`canonical`).

    Walks the command's dataclass fields and the dataclasses nested in them (a fight's combatants);
    returns the very same object when nothing changed.
    """
    names = known if isinstance(known, Registered) else Registered(tuple(known))
    return _resolve(command, names)


def _one(value: str, names: Registered, begun: Mapping[str, str] | None = None) -> str:
    if begun and value in begun:
        return begun[value]
    if value in names:
        return value
    return names.folded.get(value.strip().casefold()) or value


def _names(value: Any, names: Registered, begun: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        return _one(value, names, begun)
    if isinstance(value, tuple):
        return tuple(_names(v, names, begun) for v in value)
    if isinstance(value, list):
        return [_names(v, names, begun) for v in value]
    if isinstance(value, Mapping):
        return {(_one(k, names, begun) if isinstance(k, str) else k): v for k, v in value.items()}
    return _resolve(value, names, begun)


def _resolve(value: Any, names: Registered, begun: Mapping[str, str] | None = None) -> Any:
    """``value`` with its names as registered; ``begun`` maps names typed as a prefix to the one they begin."""
    begun = begun or {}
    if isinstance(value, tuple):
        return tuple(_resolve(v, names, begun) for v in value)
    if not is_dataclass(value) or isinstance(value, type):
        return value
    changes = {}
    for f in fields(value):
        old = getattr(value, f.name)
        new = _names(old, names, begun) if f.name in NAME_FIELDS else _resolve(old, names, begun)
        if new != old:
            changes[f.name] = new
    return replace(value, **changes) if changes else value


def mentioned(command: Any, named_by: frozenset[str] = NAME_FIELDS) -> list[str]:
    """Every name the command carries in its :data:`NAME_FIELDS` (for suggestions after a refusal), or
    in the fields ``named_by`` names (:data:`CHARACTER_FIELDS`: the characters it names)."""
    found: list[str] = []

    def walk(value: Any, named: bool) -> None:
        if isinstance(value, str):
            if named:
                found.append(value)
        elif isinstance(value, (tuple, list)):
            for v in value:
                walk(v, named)
        elif isinstance(value, Mapping):
            for k in value:
                walk(k, named)
        elif is_dataclass(value) and not isinstance(value, type):
            for f in fields(value):
                walk(getattr(value, f.name), f.name in named_by)

    walk(command, False)
    return found
