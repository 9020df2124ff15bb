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
    ``name_keys`` (and the keys of mappings under them) valid names. Iterative: no depth can
    exhaust the stack.
    """
    names = name_keys if isinstance(name_keys, frozenset) else frozenset(name_keys)
    # A place is kept as (parent place, key) and spelt out only for the problem found: every
    # value of every imported or audited payload passes here, nearly always within its limits.
    stack: list[tuple[Any, Any, int, bool]] = [(value, None, 0, False)]
    pop, push = stack.pop, stack.append
    while stack:
        item, place, depth, is_name = pop()
        kind = type(item)
        if kind is str:
            # An ASCII text holds no lone surrogate; an ASCII name is one if printable (no C0, no DEL).
            if is_name:
                if item.isascii() and len(item) <= MAX_NAME and item.isprintable():
                    continue
                problem = name_problem(item)
            else:
                if len(item) <= MAX_TEXT and item.isascii():
                    continue
                problem = text_problem(item)
        elif kind is int:
            problem = None if -MAX_NUMBER <= item <= MAX_NUMBER else number_problem(item)
        elif kind is bool or item is None:
            continue
        elif kind is dict or kind is list or isinstance(item, (list, tuple, Mapping)):
            problem = _container_problem(item, depth)
            # (a parsed payload's mappings are dicts: told apart from lists without the ABC's test)
            if problem is None and (kind is dict or (kind is not list and isinstance(item, Mapping))):
                for key, child in item.items():
                    if is_name and isinstance(key, str) and name_problem(key) is not None:
                        problem = name_problem(key)  # a mapping keyed by names (awards by PC)
                        break
                    push((child, (place, key), depth + 1, key in names))
            elif problem is None:
                # The items of a list of names are names (a cast); nested records say their own.
                stack.extend((child, (place, i), depth + 1, is_name) for i, child in enumerate(item))
        elif isinstance(item, str):
            problem = name_problem(item) if is_name else text_problem(item)
        elif isinstance(item, int):
            problem = number_problem(item)
        elif isinstance(item, float):
            problem = (None if abs(item) <= MAX_NUMBER else f"a number is at most {MAX_NUMBER:,}") \
                if math.isfinite(item) else "a number is finite"
        else:
            problem = None
        if problem is not None:
            spelt = _place(place, where)
            return f"{spelt}: {problem}" if spelt else problem
    return None


def _place(place: Any, where: str) -> str:
    """A place kept as nested (parent, key) pairs, spelt ``where.key.key``."""
    keys: list[Any] = []
    while place is not None:
        place, key = place
        keys.append(key)
    spelt = where
    for key in reversed(keys):
        spelt = f"{spelt}.{key}" if spelt else str(key)
    return spelt


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
