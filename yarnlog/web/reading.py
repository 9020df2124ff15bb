"""The journal as the server reads it: the heads of its campaigns, polled, and what each participant
may see at a head, worked out once and shared by every reader of that head.

The journal is reached through one lock (its store and remembered state are one process's, not
made for many threads); a page served from a head already read takes no lock at all.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from yarnlog.core.events import Recorded
from yarnlog.core.state import CampaignState, as_told, evolve, replay, stream_stored_in_context, visible_to
from yarnlog.core.timeline import Note
from yarnlog.web.seen import Seen, seen_by

if TYPE_CHECKING:
    from yarnlog.app.journal import Journal

#: The event types that change an earlier event: a view is replayed again after one.
AMENDMENTS = frozenset({"correction", "retraction"})
#: How many (campaign, head) histories and (campaign, viewer, point) views are kept in memory.
KEPT = 32


class _Kept(OrderedDict[Any, Any]):
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


class Reader:
    """Reads ``journal`` for the pages: heads, tables (for the links), and each viewer's :class:`Seen`."""

    def __init__(self, journal: Journal):
        self.journal = journal
        self.lock = threading.Lock()
        #: Taken to work out what is not kept yet: many readers arriving at once wait for one of them.
        self.working = threading.RLock()
        self.heads: dict[str, int] = {}
        self.polled = False
        self._full: _Kept = _Kept()
        self._seen: _Kept = _Kept()
        #: The newest history read of each campaign, and each viewer's newest view of it: a head that
        #: moves is read and folded from there (sequences count from 1, so a history's length is its head).
        self._latest: dict[str, tuple[list[Recorded], CampaignState[Any]]] = {}
        self._latest_seen: _Kept = _Kept(limit=256)
        self._pages: _Kept = _Kept(limit=256)

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

    def kept_table(self, campaign_id: str) -> Any | None:
        """The campaign's table at its polled head if it is in memory, else ``None`` (no query)."""
        found = self._full.get((campaign_id, self.heads.get(campaign_id)))
        return None if found is None else found[1].table

    def kept_page(self, key: Any) -> str | None:
        """A page already drawn for ``key``, else ``None``."""
        found = self._pages.get(key)
        return found if isinstance(found, str) else None

    def full(self, campaign_id: str) -> tuple[Sequence[Recorded], CampaignState[Any]]:
        """The whole history at the campaign's head as last polled, and its state (cached per head)."""
        head = self.head(campaign_id)
        key = (campaign_id, head)
        found = self._full.get(key)
        if found is not None:
            return found
        with self.working:
            found = self._full.get(key)
            if found is not None:
                return found
            with self.lock:
                last = self._latest.get(campaign_id)
                if last is not None and head is not None and len(last[0]) < head:
                    # Only the events after the head last read are read, placed in their context.
                    rows = self.journal.store.read(campaign_id, after=len(last[0]), upto=head)
                    history = [*last[0], *(r for r, _ in stream_stored_in_context(rows, last[1].timeline))]
                else:
                    history = self.journal.history(campaign_id, upto=head)
                state = self.journal.state(campaign_id)
            if state.sequence != history[-1].sequence:  # a write landed between the two reads
                state = replay(history)
            self._latest[campaign_id] = (history, state)
            return self._full.keep(key, (history, state))

    def table(self, campaign_id: str) -> Any:
        return self.full(campaign_id)[1].table

    def seen(self, campaign_id: str, name: str, end_of_scene: int | None = None) -> Seen:
        """What ``name`` may see of the campaign, at its head or at the end of scene ``end_of_scene``
        (``LookupError`` if there is no such scene)."""
        history, state = self.full(campaign_id)
        key = (campaign_id, history[-1].sequence, name, end_of_scene)
        if end_of_scene is not None:
            return self.once(self._seen, key, lambda: self._seen_by(campaign_id, name, history, state, end_of_scene))
        return self.once(self._seen, key, lambda: self._seen_now(campaign_id, name, history, state))

    def _seen_now(self, campaign_id: str, name: str, history: Sequence[Recorded], state: CampaignState[Any]) -> Seen:
        """``name``'s view at the head: their previous view with the events since folded in (the ones
        they may see), or a replay of all they may see when there is none or an amendment came since
        (it may change an earlier event)."""
        before = self._latest_seen.get((campaign_id, name))
        seen = None
        if before is not None and not state.table.is_gm(name) and before[0] < len(history):
            new = [r for r in history[before[0]:] if visible_to(r, name, state.table)]
            if not any(r.event_type in AMENDMENTS for r in new):
                folded = before[1].state
                for recorded in new:
                    folded = evolve(folded, recorded)
                seen = Seen(campaign_id, name, name, [*before[1].history, *new], folded, state.table,
                            new[-1].sequence if new else before[1].upto)
        if seen is None:
            seen = seen_by(campaign_id, name, history, state)
        self._latest_seen.keep((campaign_id, name), (len(history), seen))
        return seen

    @staticmethod
    def _seen_by(campaign_id: str, name: str, history: Sequence[Recorded], state: CampaignState[Any],
                 end_of_scene: int) -> Seen:
        """``name``'s view at the end of scene ``end_of_scene``: the history cut there, replayed."""
        upto = scene_end(history, end_of_scene)
        history = [r for r in history if r.sequence <= upto]
        return seen_by(campaign_id, name, history, replay(history))

    def once(self, kept: _Kept, key: Any, work: Callable[[], Any]) -> Any:
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
