"""The journal service: the one door to a stored journal, so callers never reach past it into the store.

It puts together units with one job each: handling a command (:mod:`yarnlog.app.commands`), the
state cache (:mod:`yarnlog.app.state_cache`) and its snapshots (:mod:`yarnlog.app.state_snapshots`), the stored views
(:mod:`yarnlog.app.stored_views`) and the audit (:mod:`yarnlog.app.audit`); and it offers the
journal as stored (campaigns, digests, export, import). A write is one call, :meth:`Journal.execute`,
that answers with the events, the state after them and the views brought to it.

Serving a stored view needs only the store and the snapshots' fingerprints: the state, the
deciders, verify and interchange are imported by the methods that use them, so a one-shot read
does not pay for them.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from yarnlog.app.audit import Audit
from yarnlog.app.commands import CommandHandler
from yarnlog.app.state_cache import StateCache
from yarnlog.app.state_snapshots import SNAPSHOT_EVERY
from yarnlog.app.stored_views import StoredViews
from yarnlog.core.referee import InvalidCommand
from yarnlog.persistence.protocol import EventStore

if TYPE_CHECKING:
    from yarnlog.core.digest import ConsistencyProof, Digest
    from yarnlog.core.envelope import StoredEvent
    from yarnlog.core.ruleset import CampaignState


def utc_now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class Journal:
    """A store seen as campaigns that accept commands.

    ``commands`` handles them (``execute``, ``preview``, ``create_campaign`` are its), ``states``
    serves the state, ``views`` the stored views, ``audit`` checks what is stored.
    """

    def __init__(
        self,
        store: EventStore,
        *,
        clock: Callable[[], str] = utc_now,
        new_id: Callable[[], str] = lambda: str(uuid.uuid4()),
        snapshot_every: int = SNAPSHOT_EVERY,
    ):
        self.store = store
        self.clock = clock
        self.states = StateCache(store, clock=clock, snapshot_every=snapshot_every)
        self.views = StoredViews(store, self.states, clock=clock)
        self.audit = Audit(store, self.states)
        self.commands = CommandHandler(store, self.states, self.views, clock=clock, new_id=new_id)
        self.execute = self.commands.execute
        self.preview = self.commands.preview
        self.create_campaign = self.commands.create_campaign
        self.verify = self.audit.verify
        self.check_snapshots = self.audit.check_snapshots
        self.view = self.views.view
        self.refresh_views = self.views.refresh
        self.history = self.states.history
        self.ruleset_name = self.states.ruleset_name

    # -- the journal as stored ------------------------------------------------------------

    def campaigns(self) -> list[str]:
        """The ids of the campaigns in this journal, sorted."""
        return self.store.campaigns()

    def stored_events(self, campaign_id: str, upto: int | None = None) -> list[StoredEvent]:
        """The campaign's events exactly as stored, up to event ``upto`` (empty if there is no such campaign)."""
        return self.store.read(campaign_id, upto=upto)

    def state(self, campaign_id: str, upto: int | None = None) -> CampaignState[Any]:
        """The campaign replayed to its end (from the state cache), or up to event ``upto``."""
        if upto is None:
            return self.states.current(campaign_id)
        from yarnlog.core.state import replay

        return replay(self.history(campaign_id, upto))

    def digest(self, campaign_id: str) -> Digest:
        """The campaign's digest at its last event (see :mod:`yarnlog.core.digest`)."""
        from yarnlog.app.digests import digest_of

        return digest_of(self.store, campaign_id)

    def digest_problem(self, digest: Digest) -> str | None:
        """Why the stored campaign does not extend exactly the history ``digest`` pins (None if it does)."""
        from yarnlog.app.digests import digest_problem

        return digest_problem(self.store, digest)

    def prove_consistency(self, old: Digest) -> ConsistencyProof:
        """The proof that the campaign as stored now extends the older digest ``old``."""
        from yarnlog.app.digests import prove_consistency

        return prove_consistency(self.store, old)

    def grant_writer(self, role: str) -> list[str]:
        """Let ``role`` only read and append events (a PostgreSQL journal); what was granted, in words."""
        grant = getattr(self.store, "grant_writer", None)
        if grant is None:
            raise InvalidCommand("only a PostgreSQL journal has roles: protect a SQLite journal with the file's "
                                 "own permissions (the writer then cannot change it, nor can anyone but its owner)")
        return list(grant(role))

    def export_lines(self, campaign_id: str) -> list[str]:
        """The campaign as JSON Lines, one canonical event per line."""
        from yarnlog.app.interchange import export_lines

        return list(export_lines(self.store, campaign_id))

    def import_events(self, records: list[StoredEvent], *, line_numbers: Sequence[int] | None = None,
                      payloads: Sequence[Any] | None = None) -> tuple[int, int]:
        """Write the events of an export the journal lacks: (already present, newly written).

        ``line_numbers`` (the file line of each record) lets a refusal name the line; ``payloads``
        (each record's payload as parsed from its line) spare the check parsing them again."""
        from yarnlog.app.interchange import import_records

        return import_records(self.store, records, line_numbers=line_numbers, payloads=payloads)

    def close(self) -> None:
        self.store.close()

