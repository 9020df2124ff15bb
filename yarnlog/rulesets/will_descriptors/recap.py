"""The recap of a Will & Descriptors campaign, per audience, as plain data for the templates.

Scene by scene, each move in the sentence a write answers with (:mod:`.words`) and the journal's own
events (episodes, scenes, notes) in theirs; a player's recap leaves out every event not visible to
that player (GM-only notes and moves); a retracted move is left out and a corrected one told as
corrected (the amendments themselves are told where they were recorded). Closing with each
character's Will, track, XP and Advances.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from yarnlog.core.corrections import effective
from yarnlog.core.events import Recorded
from yarnlog.core.state import as_told, visible_to
from yarnlog.core.timeline import EpisodeStarted, Note, SceneClosed, SceneOpened
from yarnlog.core.words import core_sentence
from yarnlog.rulesets.will_descriptors.reads import sheet_data
from yarnlog.rulesets.will_descriptors.state import WillCampaign
from yarnlog.rulesets.will_descriptors.words import narrate


def recap_data(history: Sequence[Recorded], campaign: WillCampaign, viewer: str | None) -> dict[str, Any]:
    table = campaign.table
    episodes: list[dict[str, Any]] = []
    before: list[str] = []
    for recorded in as_told(effective(history)):
        if not visible_to(recorded, viewer, table):
            continue
        p = recorded.payload
        if isinstance(p, EpisodeStarted):
            episodes.append({"number": p.number, "title": p.title, "scenes": [], "between": []})
            continue
        if isinstance(p, SceneOpened) and episodes:
            episodes[-1]["scenes"].append({"number": p.number, "title": p.title, "moves": []})
            continue
        if isinstance(p, SceneClosed):
            continue
        said: str | None
        if isinstance(p, Note):
            said = f"Note by {recorded.recorded_by}: {p.text}"
        else:
            said = narrate(recorded, campaign) or core_sentence(recorded)
        if not said:
            continue
        if not episodes:
            before.append(said)
        elif recorded.scene is not None and episodes[-1]["scenes"] \
                and episodes[-1]["scenes"][-1]["number"] == recorded.scene:
            episodes[-1]["scenes"][-1]["moves"].append(said)
        else:
            episodes[-1]["between"].append(said)
    return {
        "campaign": campaign.table.campaign_id, "title": table.title, "gm": table.gm,
        "audience": "everyone (GM)" if viewer is None else viewer, "as_of": campaign.sequence,
        "before_play": before, "episodes": episodes,
        "characters": [sheet_data(who) for who in campaign.rules.characters.values()],
    }
