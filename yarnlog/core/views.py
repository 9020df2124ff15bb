"""Views kept in pieces: how a write brings a long view to the head at a cost flat in the history.

A ruleset's view (``Views.projections``) is worked out whole from the state. Some grow with the
campaign (every bennie spent, every scene's cast): working one out whole and rewriting its JSON at
every write costs more the longer the campaign. A ruleset may say how such a view is made of
**pieces** (``Views.pieces``, a :class:`ViewPieces`): a small head worked out at every write,
and numbered pieces of which a write touches only a few (the scenes still in play, the spends just
recorded). The journal keeps the pieces in blocks of :data:`BLOCK` (one stored row each) and the
head in a **manifest** that lists the blocks, and after a write works out and rewrites only the
blocks holding pieces that may have changed (:mod:`yarnlog.app.views`).

Which pieces may have changed is the ruleset's to say, from a **mark** it left in the manifest (the
number of spends then, the scene in play then): events after it change only pieces it points past,
as long as no amendment reaches back to an event at or before the manifest's (then every piece is
worked out again). Assembling the view from its head and pieces needs no ruleset: the manifest
carries the **layout** (which member of the head each family of pieces fills, as a list or a map),
so a reader serves it without importing the rules. The pieces are caches, never evidence:
``verify --snapshots`` compares the view they assemble, and each block, with a full replay.

Pure functions over plain JSON data.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

#: Pieces per stored block: a write rewrites a block whole, a read fetches every block listed.
BLOCK = 32
#: The manifest's tag: a stored view holding it is a manifest, not the view itself.
TAG = "yarnlog-view-pieces"
#: How a family of pieces fills the view: a list in the pieces' order, or a map keyed by their number.
LIST, MAP = "list", "map"

#: A piece: its family (the member of the view it goes to; "" for the view itself) and its number.
Key = tuple[str, int]


class Update(NamedTuple):
    """What :attr:`ViewPieces.update` works out from a state.

    ``head``: the view without its pieces (a JSON object). ``mark``: what the next update needs to
    know which pieces may have changed since (plain JSON, never shown). ``pieces``: every piece when
    asked with no mark, else those that may have changed since the mark; None for a piece that is no
    longer there.
    """

    head: dict[str, Any]
    mark: Any
    pieces: Mapping[Key, Any]


@dataclass(frozen=True)
class ViewPieces:
    """How a ruleset's view is kept in pieces (the optional hook ``Views.pieces``).

    ``update(state, mark)``: the head, the new mark and the pieces (:class:`Update`); ``mark`` is one
    an earlier update returned for an earlier event of the same history, no amendment since reaching
    back to it, or None for every piece. ``layout``: each family and how its pieces fill the view
    (:data:`LIST` or :data:`MAP`), in the order the view's members come. The view assembled from an
    update with no mark must equal the projection (a property test checks it against full replays).
    """

    update: Callable[[Any, Any], Update]
    layout: tuple[tuple[str, str], ...] = field(default=())


def block_of(key: Key) -> str:
    """The block a piece is stored in: its family and its number divided by :data:`BLOCK`."""
    family, number = key
    return f"{family}.{number // BLOCK}"


def blocks(pieces: Mapping[Key, Any]) -> dict[str, dict[str, Any]]:
    """``pieces`` grouped in their blocks, each piece under its number (as JSON keys are: text)."""
    grouped: dict[str, dict[str, Any]] = {}
    for key, piece in pieces.items():
        if piece is not None:
            grouped.setdefault(block_of(key), {})[str(key[1])] = piece
    return grouped


def merged(name: str, block: Mapping[str, Any], changed: Mapping[Key, Any]) -> dict[str, Any]:
    """Block ``name`` as stored (``block``) with the ``changed`` pieces that fall in it put in (None: taken out)."""
    out = dict(block)
    for key, piece in changed.items():
        if block_of(key) != name:
            continue
        if piece is None:
            out.pop(str(key[1]), None)
        else:
            out[str(key[1])] = piece
    return out


def manifest(update: Update, layout: Iterable[tuple[str, str]], listed: Mapping[str, Any]) -> dict[str, Any]:
    """The manifest stored as the view: the head, the mark, the layout and each block with the event
    it was stored at (a block row stored at another event is not the one listed: it is not read)."""
    return {TAG: 1, "head": update.head, "mark": update.mark, "layout": [list(pair) for pair in layout],
            "blocks": dict(sorted(listed.items()))}


def is_manifest(data: Any) -> bool:
    return (isinstance(data, dict) and data.get(TAG) == 1 and isinstance(data.get("head"), dict)
            and isinstance(data.get("blocks"), dict) and isinstance(data.get("layout"), list))


def assemble(head: Mapping[str, Any], layout: Iterable[Iterable[str]], stored: Mapping[str, Mapping[str, Any]]) -> Any:
    """The view from its head and its blocks (block name -> number -> piece), as the projection gives
    it in JSON: each family's pieces in the order of their numbers, as a list or a map, after the
    head's members (the view itself for the family "")."""
    view = dict(head)
    for family, form in (tuple(pair) for pair in layout):
        items: list[tuple[int, Any]] = []
        for name, block in stored.items():
            if name.rpartition(".")[0] == family:
                items.extend((int(number), piece) for number, piece in block.items())
        items.sort(key=lambda item: item[0])
        if form == LIST:
            view[family] = [piece for _, piece in items]
        elif family == "":
            view.update((str(number), piece) for number, piece in items)
        else:
            view[family] = {str(number): piece for number, piece in items}
    return view
