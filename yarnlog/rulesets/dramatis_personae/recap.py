"""Dramatis Personae's recap: what happened in an episode, a range of scenes or the series, for one
audience, as plain data (``yarnlog recap`` renders it with this ruleset's ``recap.md.j2`` or
``recap.html.j2``).

Per episode: its notes, the moves before its first scene, its scenes (caller, setting, notes,
every move in the book's words), the moves after them (and between it and the next episode), and
every character's dice at its end. The audience is the GM (everything),
one player (what that player may see) or every player at once (only what everyone may see):
events recorded for the GM alone never reach a player's recap, and the dice at an episode's end
are replayed from what the audience may see.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from yarnlog.core.audience import Audience
from yarnlog.core.corrections import effective
from yarnlog.core.events import Recorded
from yarnlog.core.state import replay
from yarnlog.core.table import Table
from yarnlog.core.timeline import EpisodeStarted, Note, SceneClosed, SceneOpened
from yarnlog.rulesets.dramatis_personae.parts.reports import dice_board
from yarnlog.rulesets.dramatis_personae.words import retell


@dataclass(frozen=True)
class Scope:
    """Episodes ``first..last`` and/or scenes ``first..last`` (``None``: open); ``Scope()`` is the series."""

    episodes: tuple[int | None, int | None] = (None, None)
    scenes: tuple[int | None, int | None] = (None, None)
    label: str = "the whole series"

    @staticmethod
    def _within(n: int | None, bounds: tuple[int | None, int | None]) -> bool:
        first, last = bounds
        return (first is None or (n is not None and n >= first)) and (last is None or (n is not None and n <= last))

    def has_episode(self, n: int | None) -> bool:
        return self._within(n, self.episodes)

    def has_scene(self, n: int | None) -> bool:
        return self._within(n, self.scenes)


def build_recap(history: Sequence[Recorded], table: Table, audience: Audience, scope: Scope) -> dict[str, Any]:
    """The recap of ``scope`` as ``audience`` may see it, as plain data."""
    seen = [r for r in history if audience.sees(r, table)]
    episodes: dict[int, dict[str, Any]] = {}
    scenes: dict[int, dict[str, Any]] = {}
    last_of_episode: dict[int, int] = {}
    before_play: list[str] = []
    series_notes: list[dict[str, Any]] = []
    last_started: int | None = None
    for rec in effective(seen):
        p = rec.payload
        if rec.episode is not None:
            last_of_episode[rec.episode] = rec.sequence
        if isinstance(p, EpisodeStarted):
            episodes[p.number] = {"number": p.number, "title": p.title, "notes": [], "opening": [], "scenes": [],
                                  "after": [], "dice": []}
            last_started = p.number
        elif isinstance(p, SceneOpened):
            scenes[p.number] = {"number": p.number, "title": p.title, "caller": p.caller, "setting": p.setting,
                                "cast": list(p.cast), "situation": p.situation, "summary": "", "notes": [],
                                "moves": []}
            if rec.episode in episodes:
                episodes[rec.episode]["scenes"].append(scenes[p.number])
        elif isinstance(p, SceneClosed) and p.number in scenes:
            scenes[p.number]["summary"] = p.summary
        elif isinstance(p, Note):
            note = {"by": rec.recorded_by, "gm": table.is_gm(rec.recorded_by), "text": p.text}
            where = p.scene or rec.scene
            if where in scenes:
                scenes[where]["notes"].append(note)
            elif rec.episode in episodes:
                episodes[rec.episode]["notes"].append(note)
            else:
                series_notes.append(note)
        elif rec.event_type.startswith("dramatis-personae."):
            said = retell(rec)
            if not said:
                continue
            if rec.scene in scenes:
                scenes[rec.scene]["moves"].append(said)
            elif rec.episode in episodes:  # before its first scene, or after its scenes
                episode = episodes[rec.episode]
                episode["after" if episode["scenes"] else "opening"].append(said)
            elif last_started in episodes:  # between episodes: after the last one's end
                episodes[last_started]["after"].append(said)
            else:
                before_play.append(said)
    told = []
    for number, episode in episodes.items():
        if not scope.has_episode(number):
            continue
        episode["scenes"] = [s for s in episode["scenes"] if scope.has_scene(s["number"])]
        if scope.scenes != (None, None) and not episode["scenes"]:
            continue
        at_end = replay([r for r in seen if r.sequence <= last_of_episode.get(number, 0)])
        board = dice_board(at_end)
        episode.update(dice=board["characters"], adventure=board["adventure"], as_of=board["as_of"])
        told.append(episode)
    whole_series = scope.episodes == (None, None) and scope.scenes == (None, None)
    return {"campaign": table.campaign_id, "title": table.title, "gm": table.gm, "scope": scope.label,
            "audience_label": audience.label(), "as_of": history[-1].sequence if history else 0,
            "series_notes": series_notes if whole_series else [], "whole_series": whole_series,
            "before_play": before_play if whole_series else [], "episodes": told}
