"""The journal as the server reads it: the heads of its campaigns, polled, and each campaign kept
live, followed from head to head, with what each participant may see.

A campaign is read once (from the journal's state snapshot and the events after it, a replay of
the log only when there is none) and then followed: each new head's events are read alone and
folded into the campaign's state and into every participant's view kept (:mod:`yarnlog.web.viewer_states`,
whose own snapshots spare a player's view its replay after a restart). A page is drawn once per
head and viewer, and served as drawn to every reader of that head. The history itself is read only
for the pages that list it (ledger, recap, a scene's end), and then followed too.

The journal is reached through one lock (its store and remembered state are one process's, not
made for many threads); a page served from a head already read takes no lock at all.
"""

from __future__ import annotations

import gc
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, overload

from yarnlog.core.events import Recorded
from yarnlog.core.state import CampaignState, as_told, replay, stream_stored_in_context, visible_to
from yarnlog.core.timeline import Note
from yarnlog.web.seen import Seen, seen_by
from yarnlog.web.viewer_states import ViewerState, keep, read_kept, replayed

if TYPE_CHECKING:
    from yarnlog.app.journal import Journal
    from yarnlog.core.timeline import Timeline

#: How many (campaign, head, viewer, point) views are kept in memory.
KEPT = 32


class Kept(OrderedDict[Any, Any]):
    """A small map that forgets its oldest entries beyond ``limit``."""

    def __init__(self, limit: int = KEPT):
        super().__init__()
        self.limit = limit

    def keep(self, key: Any, value: Any) -> Any:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)
        return value


@dataclass
class Live:
    """A campaign as the server follows it: the whole state at event ``head`` (the GM's view), the
    timeline as recorded there and that event's hash, the participants' views folded to the same
    event, and the history up to it once a page has needed it."""

    campaign_id: str
    state: CampaignState[Any]
    timeline: Timeline
    head_hash: str
    views: dict[str, ViewerState] = field(default_factory=dict)
    history: list[Recorded] | None = None

    @property
    def head(self) -> int:
        return self.state.sequence


class History(Sequence[Recorded]):
    """A viewer's history, read the first time a page looks at it (the board never does)."""

    def __init__(self, load: Callable[[], list[Recorded]]):
        self._load: Callable[[], list[Recorded]] | None = load
        self._events: list[Recorded] = []

    def _all(self) -> list[Recorded]:
        if self._load is not None:
            self._events, self._load = self._load(), None
        return self._events

    @overload
    def __getitem__(self, index: int) -> Recorded: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Recorded]: ...

    def __getitem__(self, index: int | slice) -> Recorded | Sequence[Recorded]:
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[Recorded]:
        return iter(self._all())


class Reader:
    """Reads ``journal`` for the pages: heads, tables (for the links), and each viewer's :class:`Seen`."""

    def __init__(self, journal: Journal):
        self.journal = journal
        self.lock = threading.Lock()
        #: Taken to work out what is not kept yet: many readers arriving at once wait for one of them.
        self.working = threading.RLock()
        self.heads: dict[str, int] = {}
        self.polled = False
        self._live: dict[str, Live] = {}
        self._seen: Kept = Kept(limit=256)
        self._pages: Kept = Kept(limit=256)

    def poll(self) -> dict[str, int]:
        """Read every campaign's head (one query each); the heads that moved since the last poll."""
        with self.lock:
            heads = {}
            for cid in self.journal.campaigns():
                head = self.journal.store.head(cid)
                if head is not None:
                    heads[cid] = head[0]
        moved = {cid: n for cid, n in heads.items() if self.heads.get(cid) != n}
        self.heads, self.polled = heads, True
        return moved

    def head(self, campaign_id: str) -> int | None:
        """The campaign's head as last polled (a campaign made since shows at the next poll: a link
        to a campaign that does not exist costs no query)."""
        if not self.polled:
            self.poll()
        return self.heads.get(campaign_id)

    def at_head(self, campaign_id: str) -> Live | None:
        """The campaign as followed, if it is at (or past) its polled head; else ``None`` (no work done)."""
        live = self._live.get(campaign_id)
        head = self.heads.get(campaign_id)
        return live if live is not None and head is not None and live.head >= head else None

    def kept_table(self, campaign_id: str) -> Any | None:
        """The campaign's table at its polled head if it is in memory, else ``None`` (no query)."""
        live = self.at_head(campaign_id)
        return None if live is None else live.state.table

    def kept_page(self, key: Any) -> str | None:
        """A page already drawn for ``key``, else ``None``."""
        found = self._pages.get(key)
        return found if isinstance(found, str) else None

    def is_followed(self, campaign_id: str) -> bool:
        return campaign_id in self._live

    def live(self, campaign_id: str) -> Live:
        """The campaign followed to its polled head (read first from its snapshot, then only the new events)."""
        found = self.at_head(campaign_id)
        if found is not None:
            return found
        with self.working:
            found = self.at_head(campaign_id)
            return found if found is not None else self._follow(campaign_id)

    def _follow(self, campaign_id: str) -> Live:
        before, head = self._live.get(campaign_id), self.head(campaign_id)
        with self.lock:
            remembered, new = self.journal.states.follow(campaign_id, head)
            state = remembered.state
            if before is not None and before.head == state.sequence:
                return before
            if before is None or not new or new[0].sequence != before.head + 1:
                # First read, or the journal's remembered state moved without us: views start again.
                live = Live(campaign_id, state, remembered.timeline, remembered.head_hash)
            else:
                views = {}
                for name, view in before.views.items():
                    folded = view.fold(new, state.table, state.sequence)
                    if folded is not None:  # else it saw an amendment: replayed when next asked for
                        views[name] = keep(self.journal.store, campaign_id, folded, remembered.timeline,
                                           remembered.head_hash, self._clock)
                history = None if before.history is None else [*before.history, *new]
                live = Live(campaign_id, state, remembered.timeline, remembered.head_hash, views, history)
        self._live[campaign_id] = live
        return live

    @property
    def _clock(self) -> Callable[[], str]:
        return self.journal.states.snapshots.clock

    def warm(self, campaign_id: str) -> None:
        """Follow the campaign and work out the view of every participant invited (at start-up)."""
        live = self.live(campaign_id)
        for name in live.state.table.invites:
            self.seen(campaign_id, name)

    def table(self, campaign_id: str) -> Any:
        return self.live(campaign_id).state.table

    def history(self, live: Live) -> list[Recorded]:
        """The whole history up to the live head (read the first time, then followed)."""
        if live.history is None:
            with self.working:
                if live.history is None:
                    with self.lock:
                        live.history = self.journal.history(live.campaign_id, upto=live.head)
        return live.history

    def view(self, live: Live, name: str) -> ViewerState:
        """``name``'s view at the live head: kept, else from its snapshot and the events since, else replayed."""
        found = live.views.get(name)
        if found is not None:
            return found
        with self.working:
            found = live.views.get(name)
            if found is not None:
                return found
            store, cid, table = self.journal.store, live.campaign_id, live.state.table
            with self.lock:
                kept = read_kept(store, cid, name, table.ruleset)
                if kept is not None and kept[0].at <= live.head:
                    rows = store.read(cid, after=kept[0].at, upto=live.head)
                    found = kept[0].fold([r for r, _ in stream_stored_in_context(rows, kept[1])], table, live.head)
                if found is None:
                    found = replayed(store, cid, name, table, live.head)[0]
                found = keep(store, cid, found, live.timeline, live.head_hash, self._clock)
            # The view lives as long as the server follows the campaign and holds no cycle: frozen,
            # the collector never walks it again (a full collection walked the 3.5 million objects of
            # a 1M-event campaign's view in 2 s, every reader waiting); refcounting frees it as usual.
            gc.freeze()
            live.views[name] = found
            return found

    def seen(self, campaign_id: str, name: str, end_of_scene: int | None = None) -> Seen:
        """What ``name`` may see of the campaign, at its head or at the end of scene ``end_of_scene``
        (``LookupError`` if there is no such scene)."""
        live = self.live(campaign_id)
        key = (campaign_id, live.head, name, end_of_scene)
        if end_of_scene is not None:
            return self.once(self._seen, key, lambda: self._seen_by(live, name, end_of_scene))
        return self.once(self._seen, key, lambda: self._seen_now(live, name))

    def _seen_now(self, live: Live, name: str) -> Seen:
        """``name``'s view at the head: the live state for the GM, the player's own view for a player;
        the history read only if a page asks for it."""
        table, cid = live.state.table, live.campaign_id
        if table.is_gm(name):
            return Seen(cid, name, None, History(lambda: self.history(live)), live.state, table, live.head)
        view = self.view(live, name)
        visible = History(lambda: [r for r in self.history(live) if visible_to(r, name, table)])
        return Seen(cid, name, name, visible, view.state, table, view.upto)

    def _seen_by(self, live: Live, name: str, end_of_scene: int) -> Seen:
        """``name``'s view at the end of scene ``end_of_scene``: the history cut there, replayed."""
        history = self.history(live)
        upto = scene_end(history, end_of_scene)
        cut = [r for r in history if r.sequence <= upto]
        return seen_by(live.campaign_id, name, cut, replay(cut))

    def once(self, kept: Kept, key: Any, work: Callable[[], Any]) -> Any:
        """``kept[key]``, worked out by ``work`` the first time only, however many ask at once."""
        found = kept.get(key)
        if found is None:
            with self.working:
                found = kept.get(key)
                if found is None:
                    found = kept.keep(key, work())
        return found

    def page(self, key: Any, work: Callable[[], Any]) -> Any:
        """A page as drawn for ``key`` (campaign, head, viewer, path and query), drawn once."""
        return self.once(self._pages, key, work)


def scene_end(history: Sequence[Recorded], scene: int) -> int:
    """The last event of scene ``scene`` (as ``--end-of-scene`` finds it): a note filed under the scene
    afterwards and an order drawn between scenes are not its end."""
    in_scene = [r.sequence for r in as_told(history)
                if r.scene == scene and not (isinstance(r.payload, Note) and r.payload.scene is not None)]
    if not in_scene:
        raise LookupError(f"no scene {scene}")
    return in_scene[-1]
