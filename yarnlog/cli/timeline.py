"""The verbs of the story's timeline: ``episode start|end``, ``scene open|close``, ``note``.
"""

from typing import Annotated, Optional

import typer

from yarnlog.cli.context import run_command
from yarnlog.cli.options import ByOpt, CampaignOpt, JsonOpt, OverrideOpt, VisibilityOpt
from yarnlog.cli.root import app, episode_app, scene_app


@episode_app.command("start")
def episode_start(
    title: Annotated[str, typer.Option("--title")] = "",
    theme: Annotated[str, typer.Option("--theme")] = "",
    theme_by: Annotated[Optional[str], typer.Option("--theme-by", help="Who chose the theme.")] = None,
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Start the next episode (its system may ask first: who chooses the theme)."""
    from yarnlog.core.timeline import StartEpisode

    run_command(campaign, StartEpisode(title=title, theme=theme, theme_chosen_by=theme_by), by=by,
                override_reason=override, as_json=as_json)


@episode_app.command("end")
def episode_end(campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None,
                as_json: JsonOpt = False) -> None:
    """End the episode in play (and whatever its system does then: a vote, tokens back)."""
    from yarnlog.core.timeline import EndEpisode

    run_command(campaign, EndEpisode(), by=by, override_reason=override, as_json=as_json)


@scene_app.command("open")
def scene_open(
    caller: Annotated[str, typer.Option("--caller", help="Who calls the scene.")],
    title: Annotated[str, typer.Option("--title")] = "",
    setting: Annotated[str, typer.Option("--setting")] = "",
    cast: Annotated[Optional[list[str]], typer.Option("--cast", help="Characters in the scene (A,B or "
                                                      "repeated).")] = None,
    mode: Annotated[Optional[str], typer.Option("--mode", help="dramatic or procedural")] = None,
    kind: Annotated[Optional[str], typer.Option("--kind", help="montage, healing, training, ...")] = None,
    situation: Annotated[str, typer.Option("--situation")] = "",
    time_break: Annotated[str, typer.Option("--time-break")] = "",
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Open (call) a scene."""
    from yarnlog.core.timeline import OpenScene

    # A comma list and a repeated option alike, as every --cast of the command line takes them.
    names = tuple(n.strip() for value in cast or () for n in value.split(",") if n.strip())
    run_command(campaign, OpenScene(caller=caller, title=title, setting=setting, cast=names,
                                    mode=mode, kind=kind, situation=situation, time_break=time_break),
                by=by, as_json=as_json)


@scene_app.command("close")
def scene_close(
    summary: Annotated[str, typer.Option("--summary")] = "",
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Close the scene in play."""
    from yarnlog.core.timeline import CloseScene

    run_command(campaign, CloseScene(summary=summary), by=by, as_json=as_json)


@app.command()
def note(
    text: Annotated[str, typer.Argument(help="Narration, a quote, an aside.")],
    scene: Annotated[Optional[int], typer.Option("--scene", help="File it under scene N, already called "
                                                 "(default: where play is now).")] = None,
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    visibility: VisibilityOpt = "everyone",
    as_json: JsonOpt = False,
) -> None:
    """Record narration for the recap."""
    from yarnlog.core.timeline import AddNote

    run_command(campaign, AddNote(text=text, scene=scene), by=by, visibility=visibility, as_json=as_json)
