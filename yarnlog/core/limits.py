"""How much the journal accepts: the size of every name, text and number, and what a name may hold.

The book gives few limits (a trait's score: "Raising a score to 6 is pretty much beyond the scope
of the rules"; its biggest dice pool is a gang's ten combining dice), so most are common sense,
set far above any table's needs and far below what would make one event, or one line of an
export, heavy to store, hash and replay. Each is checked where input comes in: a command is
checked before it is decided (:func:`check_command`, for every shell), an import line by the
interchange's parser (:func:`check_data`), and the payload types that carry names and notes say
the same (:data:`Name`, :data:`Text`), so a forged export cannot carry what no command could.
Every refusal says the limit in words ("a name is at most 80 characters").
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import fields, is_dataclass
from typing import Annotated, Any

from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

from yarnlog.core.referee import InvalidCommand

#: A name: a participant, a character, a supporting character, a location, a combatant.
MAX_NAME = 80
#: Any text typed at the table (a note, a setting, a reason, a sheet's story): about 20 KB.
MAX_TEXT = 20_000
#: Any whole number typed at the table (a count, an event or scene number): well inside SQLite's
#: and PostgreSQL's 64-bit integers, and far above any count a campaign reaches.
MAX_NUMBER = 1_000_000_000
#: Nesting of a payload's JSON (a sheet nests four levels deep).
MAX_DEPTH = 16
#: Items in one list or mapping of a command or payload (cast, faces, ballots, a sheet's lists).
MAX_ITEMS = 1_000
#: A campaign id: what ``campaign.created`` has always required of it.
CAMPAIGN_ID = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")

#: Characters a name or an id may not hold: every control character (C0 with tab and newline,
#: DEL, C1), the bidirectional embeddings, overrides and isolates, and the line and paragraph
#: separators. Text may hold them (the shell shows them as symbols); a name is typed again and
#: again, matched, listed, put in lists, and must read the same everywhere.
_NOT_IN_NAMES = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


#: Lone surrogates: what Python makes of bytes that are not UTF-8 (a terminal in Latin-1, say).
_NOT_UNICODE = re.compile("[\ud800-\udfff]")


def name_problem(value: str, what: str = "a name") -> str | None:
    """Why ``value`` cannot be a name (``what`` says which: "a name", "--by"), or ``None``."""
    if value.isascii() and len(value) <= MAX_NAME and value.isprintable():
        return None  # (an ASCII name is one if printable: no C0, no DEL; the usual case, without the patterns)
    if _NOT_UNICODE.search(value):
        return f"{what} is not valid UTF-8"
    if len(value) > MAX_NAME:
        return f"{what} is at most {MAX_NAME} characters, not {len(value)}"
    if _NOT_IN_NAMES.search(value):
        return f"{what} holds no control or text-direction characters"
    return None


def text_problem(value: str, what: str = "a text") -> str | None:
    """Why ``value`` is too long to record (``what`` says which text), or ``None``."""
    if len(value) > MAX_TEXT:
        return f"{what} is at most {MAX_TEXT:,} characters, not {len(value):,}"
    if _NOT_UNICODE.search(value):
        return f"{what} is not valid UTF-8"
    return None


def number_problem(value: int, what: str = "a number") -> str | None:
    """Why ``value`` is out of range for any number typed at the table, or ``None``."""
    if abs(value) > MAX_NUMBER:
        return f"{what} is at most {MAX_NUMBER:,}"
    return None


def campaign_id_problem(value: str) -> str | None:
    """Why ``value`` cannot be a campaign id, or ``None``."""
    if CAMPAIGN_ID.fullmatch(value) is None:
        return "a campaign id is 1 to 64 lowercase letters, digits, '.', '_' or '-', starting with a letter or digit"
    return None


def check_campaign_id(value: str) -> str:
    """``value`` if it is a well-formed campaign id, else :class:`InvalidCommand` saying what one is."""
    problem = campaign_id_problem(value)
    if problem is not None:
        raise InvalidCommand(problem)
    return value


def _pydantic_check(problem: Any, kind: str) -> Any:
    def check(value: str) -> str:
        found = problem(value)
        if found is not None:
            raise PydanticCustomError(kind, found)
        return value

    return check


#: A name in a payload: at most :data:`MAX_NAME` characters, no control characters.
Name = Annotated[str, AfterValidator(_pydantic_check(name_problem, "name"))]
#: A free text in a payload: at most :data:`MAX_TEXT` characters.
Text = Annotated[str, AfterValidator(_pydantic_check(text_problem, "text"))]


def check_data(value: Any, name_keys: Iterable[str] = (), *, where: str = "") -> str | None:
    """The first limit ``value`` (plain JSON data, a payload) breaks, worded with its place, or ``None``.

    Every text at most :data:`MAX_TEXT` characters, every number within :data:`MAX_NUMBER`, every
    list or mapping at most :data:`MAX_ITEMS` long and :data:`MAX_DEPTH` deep, and the texts under
    ``name_keys`` (and the keys of mappings under them) valid names. The depth limit bounds the
    walk's recursion: no data can exhaust the stack.
    """
    names = name_keys if isinstance(name_keys, frozenset) else frozenset(name_keys)
    if _is_container(value):
        found = _walk(value, 0, False, names)
    else:
        problem = _leaf_problem(value, False)
        found = None if problem is None else (problem, [])
    if found is None:
        return None
    # The place is spelt only for the problem found: every value of every imported or audited
    # payload passes here, nearly always within its limits.
    problem, keys = found
    spelt = where
    for key in reversed(keys):
        spelt = f"{spelt}.{key}" if spelt else str(key)
    return f"{spelt}: {problem}" if spelt else problem


def _is_container(item: Any) -> bool:
    kind = type(item)
    # (a parsed payload's mappings and lists are dicts and lists: told apart without the ABCs' test)
    return kind is dict or kind is list or (kind is not str and isinstance(item, (list, tuple, Mapping)))


def _walk(item: Any, depth: int, is_name: bool, names: frozenset[str]) -> tuple[str, list[Any]] | None:
    """The first problem in container ``item`` at ``depth``, and its place as keys, innermost first.

    The children are checked last to first, each one's own children before the next: the order in
    which the first of several problems is found, and so named, is the same as ever. A leaf (nearly
    every value) is checked in the loop; only a container is a call.
    """
    problem = _container_problem(item, depth)
    if problem is not None:
        return problem, []
    depth += 1
    mapping = type(item) is dict or (type(item) is not list and isinstance(item, Mapping))
    pairs: Iterable[tuple[Any, Any]]
    if mapping:
        if is_name:  # a mapping keyed by names (awards by PC): its keys are named before its values
            for key in item:
                wrong = name_problem(key) if isinstance(key, str) else None
                if wrong is not None:
                    return wrong, []
        pairs = reversed(item.items()) if type(item) is dict else reversed(list(item.items()))
    else:
        pairs = zip(range(len(item) - 1, -1, -1), reversed(item))
    for key, child in pairs:
        child_is_name = key in names if mapping else is_name
        kind = type(child)
        if kind is str:
            # An ASCII text holds no lone surrogate; an ASCII name is one if printable (no C0, no DEL).
            if child_is_name:
                if child.isascii() and len(child) <= MAX_NAME and child.isprintable():
                    continue
            elif len(child) <= MAX_TEXT and child.isascii():
                continue
        elif kind is int:
            if -MAX_NUMBER <= child <= MAX_NUMBER:
                continue
        elif kind is bool or child is None:
            continue
        elif _is_container(child):
            found = _walk(child, depth, child_is_name, names)
            if found is None:
                continue
            found[1].append(key)
            return found
        problem = _leaf_problem(child, child_is_name)
        if problem is not None:
            return problem, [key]
    return None


def _leaf_problem(item: Any, is_name: bool) -> str | None:
    """The limit a value that holds no other breaks: a name, a text, a number."""
    kind = type(item)
    if kind is str:
        return name_problem(item) if is_name else text_problem(item)
    if kind is bool or item is None:
        return None
    if isinstance(item, str):
        return name_problem(item) if is_name else text_problem(item)
    if isinstance(item, int):
        return number_problem(item)
    if isinstance(item, float):
        return (None if abs(item) <= MAX_NUMBER else f"a number is at most {MAX_NUMBER:,}") \
            if math.isfinite(item) else "a number is finite"
    return None


def _container_problem(item: Any, depth: int) -> str | None:
    if depth >= MAX_DEPTH:
        return f"data is nested at most {MAX_DEPTH} levels deep"
    if len(item) > MAX_ITEMS:
        return f"a list holds at most {MAX_ITEMS:,} items, not {len(item):,}"
    return None


def check_command(command: Any, name_keys: Iterable[str]) -> None:
    """Refuse ``command`` (a frozen dataclass as a shell builds it) with :class:`InvalidCommand` when
    a name, text, number or list in it breaks a limit; the message names the field."""
    problem = check_data(_as_data(command), name_keys)
    if problem is not None:
        raise InvalidCommand(problem)


def _as_data(value: Any) -> Any:
    """A command as plain data, field by field (nested dataclasses too), without copying deeply
    more than the fields themselves: names and limits are checked on what was typed."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _as_data(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Mapping):
        return {key: _as_data(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_as_data(item) for item in value]
    if hasattr(value, "value") and isinstance(getattr(value, "value"), (str, int)):  # an Enum
        return value.value
    return value
