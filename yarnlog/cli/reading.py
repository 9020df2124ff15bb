"""Reading the journal: ``log`` (the events, filtered) and ``status`` (the campaign at a glance).
"""

from typing import Annotated, Any, Optional

import typer

from yarnlog.cli.context import open_journal, participant_named, pick_campaign, resolve_as_of
from yarnlog.cli.options import AsOfOpt, CampaignOpt, EndOfSceneOpt, JsonOpt
from yarnlog.cli.output import console, emit, show_recorded, terminal_text
from yarnlog.cli.root import app


@app.command()
def log(
    campaign: CampaignOpt = None,
    episode: Annotated[Optional[int], typer.Option("--episode", help="Only events of episode N.")] = None,
    scene: Annotated[Optional[int], typer.Option("--scene", help="Only events of scene N.")] = None,
    event_type: Annotated[Optional[str], typer.Option("--type", help="Only events of this type or family, with or "
                                                      "without the ruleset's prefix: roll finds yarn.roll.*.")] = None,
    grep: Annotated[Optional[str], typer.Option("--grep", help="Only events whose text contains this (any case).")] \
        = None,
    participant: Annotated[
        Optional[str], typer.Option("--participant", help="Only events recorded by or naming this participant.")
    ] = None,
    viewer: Annotated[
        Optional[str], typer.Option("--as", help="Show only what this participant may see.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """List the campaign's events, as recorded (corrections shown as their own events)."""
    from yarnlog.core.state import as_told, replay, visible_to

    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    history = journal.history(cid)
    table = replay(history).table
    viewer = participant_named(table, viewer)
    rows = [
        r for r in as_told(history)  # a precedence order drawn between scenes: in the scene it was drawn for
        if (episode is None or r.episode == episode)
        and (scene is None or r.scene == scene)
        and (event_type is None or _type_matches(r.event_type, event_type, table.ruleset))
        and (grep is None or _contains(r.payload.to_data(), grep.casefold()))
        and (participant is None or r.recorded_by == participant or _names(r.payload.to_data(), participant))
        and visible_to(r, viewer, table)
    ]
    show_recorded(rows, as_json, title=f"{table.title}: events")


def _type_matches(event_type: str, wanted: str, ruleset: str) -> bool:
    """Whether ``event_type`` starts with ``wanted``, read with or without the ruleset's prefix (a
    ruleset's event types start with its name): ``roll`` finds ``yarn.roll.made``."""
    bare = event_type.removeprefix(f"{ruleset}.") if ruleset else event_type
    return event_type.startswith(wanted) or bare.startswith(wanted)


def _contains(data: Any, folded: str) -> bool:
    """Whether any text in ``data`` (a payload as data) contains ``folded``, ignoring case."""
    if isinstance(data, str):
        return folded in data.casefold()
    if isinstance(data, dict):
        return any(_contains(v, folded) for v in data.values())
    if isinstance(data, list):
        return any(_contains(v, folded) for v in data)
    return False


def _names(data: Any, name: str) -> bool:
    if isinstance(data, str):
        return data == name
    if isinstance(data, dict):
        return any(_names(v, name) for v in data.values())
    if isinstance(data, list):
        return any(_names(v, name) for v in data)
    return False


def _scene_casts(state) -> dict:
    """Each scene's cast as its ruleset follows it (Yarn: after ducks and rushes), by scene number.

    The timeline keeps a scene's cast as it was called; a ruleset that changes it in play offers a
    ``scene-casts`` projection (number -> {"cast": [...], ...}), and a ruleset without one has none.
    """
    from yarnlog.core.ruleset import get_ruleset

    projection = get_ruleset(state.table.ruleset).views.projections.get("scene-casts") if state.table.ruleset else None
    return projection(state) if projection is not None else {}


@app.command()
def status(
    campaign: CampaignOpt = None,
    as_of: AsOfOpt = None,
    end_of_scene: EndOfSceneOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The campaign at a glance: table, episodes and scenes (at any point in history)."""
    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    state = journal.state(cid, upto=resolve_as_of(journal, cid, as_of, end_of_scene))
    casts = _scene_casts(state)
    data = {
        "campaign_id": cid,
        "title": state.table.title,
        "ruleset": state.table.ruleset,
        "options": state.table.options,
        "as_of": state.sequence,
        "gm": state.table.gm,
        "players": state.table.players,
        "episode_in_play": state.timeline.episode,
        "scene_in_play": state.timeline.scene,
        "episodes": list(state.timeline.episodes),
        "scenes": [
            {"number": n, "episode": state.timeline.scene_episode.get(n), "caller": s.caller, "title": s.title,
             "mode": s.mode, "cast": casts.get(n, {}).get("cast", s.cast), "called_cast": s.cast}
            for n, s in sorted(state.timeline.scenes.items())
        ],
    }

    def render(d):
        from rich.table import Table
        from rich.text import Text

        out = console()
        # A Text is printed as it is: user text in it goes through terminal_text first.
        out.print(Text.assemble((terminal_text(d["title"]), "bold"),
                                terminal_text(f" ({d['ruleset']}), GM {d['gm']}, as of event {d['as_of']}")))
        out.print(f"Players: {', '.join(d['players']) or '-'}")
        out.print(f"Episode in play: {d['episode_in_play'] or '-'}, scene in play: {d['scene_in_play'] or '-'}")
        table = Table(title="Scenes")
        for col in ("#", "episode", "caller", "mode", "title", "cast"):
            table.add_column(col)
        for s in d["scenes"]:
            table.add_row(str(s["number"]), str(s["episode"] or ""), s["caller"], s["mode"] or "",
                          s["title"], ", ".join(s["cast"]))
        out.print(table)

    emit(data, as_json, render)
