"""The seam between the players' page and a game system: the pages a ruleset offers, found by name.

The server never asks which ruleset a campaign plays to decide what to show: it takes ``PAGES``, a
:class:`Pages`, from the ``pages`` module beside the ruleset's module (as the shell takes ``VERBS``
from its ``cli`` module: :func:`yarnlog.core.installed.module_beside`), whose functions turn what a
participant may see (:class:`~yarnlog.web.seen.Seen`) into plain :class:`Report` s (facts and
tables, rendered by one template) or into the context of the ruleset's own templates (its
``sheet.html.j2`` and ``recap.html.j2``, the ones the CLI renders). A ruleset without pages gets
:data:`BASIC`: the table, the timeline and the notes it may see.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from yarnlog.core.installed import import_object, module_beside
from yarnlog.web.seen import Seen


@dataclass(frozen=True)
class Link:
    """A cell that opens another page: ``page`` (``explain``, ``sheet``...) with ``arg`` and ``query``
    (``recap`` of one episode)."""

    text: str
    page: str
    arg: str | int | None = None
    query: tuple[tuple[str, str | int], ...] = ()


Cell = str | int | float | Link | None


@dataclass(frozen=True)
class Grid:
    """One table of a report: its caption, column heads and rows of cells."""

    caption: str
    columns: Sequence[str]
    rows: Sequence[Sequence[Cell]]


@dataclass(frozen=True)
class Report:
    """A page of plain data: a title, facts (label, text) and tables; ``empty`` says why there is nothing."""

    title: str
    facts: Sequence[tuple[str, Cell]] = ()
    grids: Sequence[Grid] = ()
    empty: str = ""


class NotFound(Exception):
    """What a page was asked for does not exist (or is not the viewer's to see): the page answers 404."""


@dataclass(frozen=True)
class Rendered:
    """A page drawn by one of the ruleset's own templates: its name and context."""

    template: str
    context: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Pages:
    """What a ruleset shows on the players' page. Each function gets what the viewer may see.

    ``board``: who holds what (tokens, bennies, piles, wounds), the calling order and whose turn it
    is; ``ledger``: the viewer's movements (the GM's: everyone's), each with its rule and a link to
    ``explain`` (one event, its holdings before and after, the rule quoted); ``dice``: the dice
    statistics the viewer may see; ``characters``: the sheets the viewer may open, and ``sheet`` one
    of them through the ruleset's ``sheet.html.j2``; ``episodes`` and ``recap`` (an episode, or the
    series with ``None``) through its ``recap.html.j2``.
    """

    board: Callable[[Seen], Report]
    ledger: Callable[[Seen], Report] | None = None
    explain: Callable[[Seen, int], Report] | None = None
    dice: Callable[[Seen], Report] | None = None
    characters: Callable[[Seen], Sequence[str]] = lambda seen: ()
    sheet: Callable[[Seen, str], Rendered] | None = None
    recap: Callable[[Seen, int | None], Rendered] | None = None

    def offered(self) -> list[str]:
        """The pages beyond the board, for the navigation."""
        return [name for name in ("ledger", "dice", "recap") if getattr(self, name) is not None]


def _basic_board(seen: Seen) -> Report:
    table, timeline = seen.state.table, seen.state.timeline
    people = [(name, "GM" if table.is_gm(name) else "player") for name in [table.gm, *table.players]]
    return Report("The table", facts=[("Episode", timeline.episode or "none in play"),
                                      ("Scene", timeline.scene or "none in play")],
                  grids=[Grid("At the table", ("participant", "role"), people)])


#: The pages of a ruleset that names none: the table and the timeline, which every campaign has.
BASIC = Pages(board=_basic_board)


@functools.cache
def pages_for(ruleset: str) -> Pages:
    """The pages the ruleset called ``ruleset`` offers: ``PAGES`` in the ``pages`` module beside its
    ruleset module (:data:`BASIC` if it has none, or is not installed)."""
    try:
        module = module_beside(ruleset, "pages")
    except KeyError:
        return BASIC
    found = None if module is None else import_object(f"{module}:PAGES")
    return found if isinstance(found, Pages) else BASIC
