"""A ruleset's projection of a campaign as of an earlier event (``--as-of``, ``--end-of-scene``).

At the head, a projection is read through :meth:`yarnlog.app.journal.Journal.view` (the stored
view); as of an earlier event it is worked out from the state replayed to that event, as the
same plain JSON a stored view comes back as.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from yarnlog.core.referee import invalid

if TYPE_CHECKING:
    from yarnlog.app.journal import Journal


def projection_at(journal: Journal, campaign_id: str, name: str, upto: int | None) -> Any:
    """The projection ``name`` as of event ``upto`` (``None``: the campaign's end, the stored view)."""
    if upto is None:
        return journal.view(campaign_id, name)
    state = journal.state(campaign_id, upto=upto)
    projection = state.ruleset.views.projections.get(name) if state.ruleset is not None else None
    invalid(projection is not None, f"this campaign's ruleset has no view called {name!r}")
    # As plain JSON, exactly as a stored view comes back (tuples as lists), whichever way it was read.
    return json.loads(json.dumps(projection(state)))  # type: ignore[misc]
