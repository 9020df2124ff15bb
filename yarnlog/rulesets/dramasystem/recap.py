"""DramaSystem's recap: what happened in an episode, a range of scenes or the series, for one audience.

A pure projection (no storage, no templates): :func:`build_recap` turns the history an audience may
see into plain data; ``yarnlog recap`` renders it with ``templates/dramasystem``'s
``recap.md.j2`` or ``recap.html.j2`` (user text made literal in Markdown, escaped and sanitized in
HTML, as Yarn's recaps are).

A whole-series recap opens with the relationship map as the audience may see it at the recap's
end (the shared core's :func:`~yarnlog.rulesets.scenes_and_tokens.parts.relationship_map.graph_of`, drawn
as Yarn's is), then the series' own moves before the first episode: precedence orders,
relationships and wants. Per episode: its theme, its calling order (DS11) and the moves before its
first scene, notes, scenes, the moves made between its scenes (the bennie vote) and after its end
(the theme rota, the next theme), and every participant's procedural pile at its end (drama tokens
and bennies beside them when the state keeps them). Per scene: the call (caller, mode, setting,
cast, situation), notes, each move in the SRD's words, and each card resolution or contest in
short (:mod:`.parts.resolution_reports`).

The audience is the GM (everything), one player (what that player may see) or every player at
once (only what everyone may see, to post to the group). Filtering comes first, so the GM's secret
token for a simple resolution is in no player's recap before its reveal, neither as a sentence nor
through the odds; and while a resolution may still be open the GM's pile is left out (reading 16).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict
from types import SimpleNamespace
from typing import Any

from yarnlog.core.audience import Audience
from yarnlog.core.corrections import effective
from yarnlog.core.events import Recorded
from yarnlog.core.scope import Scope
from yarnlog.core.state import replay
from yarnlog.core.table import Table
from yarnlog.core.timeline import EpisodeStarted, Note, SceneClosed, SceneOpened
from yarnlog.rulesets.dramasystem.parts.player_views import resolution_pending
from yarnlog.rulesets.dramasystem.parts.resolution_reports import describe, resolution_reports
from yarnlog.rulesets.dramasystem.parts.token_ledger import token_board
from yarnlog.rulesets.dramasystem.words import narrate, vote_winners
from yarnlog.rulesets.scenes_and_tokens import story
from yarnlog.rulesets.scenes_and_tokens.parts.calling_order import current_order
from yarnlog.rulesets.scenes_and_tokens.parts.relationship_map import (
    CharacterNode,
    RelationshipEdge,
    RelationshipGraph,
    WantEdge,
    graph_of,
)
from yarnlog.rulesets.scenes_and_tokens.previously import previously


def _new_scene(p: SceneOpened) -> dict[str, Any]:
    return {"number": p.number, "title": p.title, "caller": p.caller, "mode": p.mode or "", "kind": p.kind or "",
            "setting": p.setting, "cast": list(p.cast), "situation": p.situation, "time_break": p.time_break,
            "summary": "", "notes": [], "moves": [], "resolutions": [], "story": []}


#: DramaSystem's own moves whose sentence, its tokens left out, belongs in the story.
_TOLD = ("procedure.resolved", "advanced.clinched", "contest.ended", "contest.stopped", "bennie.spent",
         "challenge.novelty_ruled", "challenge.procedural_demanded", "location.challenged", "location.introduced",
         "location.elaborated", "supporting.introduced", "supporting.promoted", "supporting.described",
         "procedure.extra_card", "ruling.recorded", "scene.called")
#: Moves the economy table and the highlights tell: not retold between the scenes.
_LEDGER_ONLY = ("dramasystem.bennie.ballot_cast", "dramasystem.tokens.returned")
_TOKENS = re.compile(r"\b(gives|pays|returns|burned|refresh)\b|\btokens? (is|are) treated")
_CITED = re.compile(r" \((?:DS[\d\-, ]+|reading \d+|[A-Z][a-z]+(?: [A-Za-z]+)*)\)(?=[.;]|$)")


def _story_line(kind: str, p: dict[str, Any], said: str, wants: dict[tuple[str, str], str]) -> str | None:
    """The move in the scene's story: a shared move in plain words, another without its tokens and sections."""
    move = kind.split(".", 1)[1]
    shared = story.shared_move(move, p, wants)  # told alike in both rulesets
    if shared is not None:
        return shared
    if move not in _TOLD:
        return None
    kept = [part for part in re.split(r"(?<=[.!?])\s+", said) if part and not _TOKENS.search(part)]
    text = " ".join(_CITED.sub("", part) for part in kept).replace("..", ".").strip()
    if not text:
        return None
    return story.stop(text[:1].upper() + text[1:])


def build_recap(history: Sequence[Recorded], table: Table, audience: Audience, scope: Scope) -> dict[str, Any]:
    """The recap of ``scope`` as ``audience`` may see it, as plain data."""
    seen = [r for r in history if audience.sees(r, table)]
    events = effective(seen)
    episodes: dict[int, dict[str, Any]] = {}
    scenes: dict[int, dict[str, Any]] = {}
    last_of_episode: dict[int, int] = {}
    series_notes: list[dict[str, Any]] = []
    before_play: list[str] = []  # moves before the first episode: session zero
    last_started: int | None = None
    wants: dict[tuple[str, str], str] = {}
    highlights: dict[int, list[str]] = {}
    for rec in events:
        p = rec.payload
        if rec.event_type == "dramasystem.character.want_declared":
            w = p.model_dump()
            wants[(w["character"], w["withholder"])] = w["want"]
        if rec.episode is not None:
            last_of_episode[rec.episode] = rec.sequence
        if isinstance(p, EpisodeStarted):
            episodes[p.number] = {"number": p.number, "title": p.title, "theme": p.theme,
                                  "theme_chosen_by": p.theme_chosen_by, "notes": [], "scenes": [], "piles": [],
                                  "drama": False, "opening": [], "moves": [], "after": [], "calling_order": []}
            last_started = p.number
        elif isinstance(p, SceneOpened):
            scene = _new_scene(p)
            scenes[p.number] = scene
            if rec.episode in episodes:
                episodes[rec.episode]["scenes"].append(scene)
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
        elif rec.event_type.startswith("dramasystem."):
            said = narrate(rec, None)  # type: ignore[arg-type]  # DramaSystem's sentences read the payload only
            if rec.event_type == "dramasystem.bennie.vote_tallied" and not audience.is_gm:
                said = vote_winners(rec.payload.model_dump())  # DS74: only the GM ever sees the scores
            if not said or rec.event_type in _LEDGER_ONLY:
                continue
            if rec.scene in scenes:
                scenes[rec.scene]["moves"].append(said)
                data = p.model_dump(mode="json")
                told_line = _story_line(rec.event_type, data, said, wants)
                if told_line:
                    scenes[rec.scene]["story"].append(told_line)
                    if rec.event_type.endswith(("petition.forced", "contest.ended")) and rec.episode is not None:
                        highlights.setdefault(rec.episode, []).append(told_line)
            elif rec.episode in episodes:  # before its first scene (a calling order), or between them
                episode = episodes[rec.episode]
                episode["opening" if not episode["scenes"] else "moves"].append(said)
                if rec.event_type == "dramasystem.bennie.vote_tallied" and rec.episode is not None:
                    won = [t["player"] for t in p.model_dump()["tallies"] if t["gains_bennie"]]
                    if won:
                        highlights.setdefault(rec.episode, []).append(story.vote_won(won))
            elif last_started in episodes:  # between episodes: after the last one's end
                episodes[last_started]["after"].append(said)
            else:
                before_play.append(said)
    viewer = audience.name if audience.kind == "player" else None
    for report in resolution_reports(seen, table, viewer=viewer):
        if report["scene"] in scenes:
            scenes[report["scene"]]["resolutions"].append({**report, "lines": list(describe(report))})
    told = []
    for number, episode in episodes.items():
        if not scope.has_episode(number):
            continue
        episode["scenes"] = [s for s in episode["scenes"] if scope.has_scene(s["number"])]
        if scope.scenes != (None, None) and not episode["scenes"]:
            continue
        at_end = replay([r for r in seen if r.sequence <= last_of_episode.get(number, 0)])
        hide_gm = audience.kind != "gm" and resolution_pending(at_end)
        board = token_board(at_end, hide_gm=hide_gm)
        for scene in episode["scenes"]:
            opened = SimpleNamespace(**{**scene, "role": None, "cast_called": scene["cast"]})
            scene["story"].insert(0, story.opening(opened))
            if scene["summary"]:
                scene["story"].append(story.ending(scene["summary"]))
        episode["highlights"] = highlights.get(number, [])
        episode.update(piles=board["participants"], drama=board["drama"], as_of=board["as_of"],
                       calling_order=list(current_order(at_end.rules.sheets, table.gm, number) or ()))
        told.append(episode)
    whole_series = scope.episodes == (None, None) and scope.scenes == (None, None)
    at_last = replay(seen) if whole_series and seen else None
    graph = graph_of(at_last.rules.roster) if at_last is not None and at_last.rules is not None else None
    return {"campaign": table.campaign_id, "title": table.title, "gm": table.gm, "scope": scope.label,
            "audience_label": audience.label(), "as_of": history[-1].sequence if history else 0,
            "series_notes": series_notes if whole_series else [], "whole_series": whole_series,
            "before_play": before_play if whole_series else [],
            "relationships": asdict(graph) if graph is not None and graph.nodes else None,
            "episodes": told}


def relationship_graph(told: dict[str, Any]) -> RelationshipGraph | None:
    """The relationship map of a recap's data (``told["relationships"]``), for the diagrams to draw."""
    data = told.get("relationships")
    if not data:
        return None
    return RelationshipGraph(nodes=tuple(CharacterNode(**n) for n in data["nodes"]),
                             relationships=tuple(RelationshipEdge(**r) for r in data["relationships"]),
                             wants=tuple(WantEdge(**w) for w in data["wants"]))


def previously_on(told: dict[str, Any]) -> str:
    """DramaSystem's "previously on" (``recap --previously``): the shared core's, over a recap's data."""
    scenes = [(scene["summary"], next((n["text"] for n in reversed(scene["notes"]) if n["gm"]), ""),
               [line for line in scene["story"] if not story.is_ending(line)])
              for episode in told["episodes"] for scene in episode["scenes"]]
    return previously(told["title"] or told["campaign"], scenes)
