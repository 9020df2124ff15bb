"""``yarnlog recap``: an episode, a range of scenes or episodes, or the series, told for one audience.

The recap is a projection of what the audience may see (:mod:`yarnlog.rulesets.yarn.recap`),
rendered through :mod:`yarnlog.render` with the ruleset's templates (``recap.md.j2``,
``recap.html.j2``), which the user may shadow file by file with ``--templates DIR``.
"""

from pathlib import Path
from typing import Annotated, Optional

import typer

from yarnlog.cli.options import AsOfOpt, CampaignOpt, JsonOpt, number_range

#: The template each format renders with.
TEMPLATES = {"md": "recap.md.j2", "html": "recap.html.j2"}




def recap(
    episode: Annotated[Optional[int], typer.Option("--episode", help="Episode N (default: the last one).")] = None,
    episodes: Annotated[Optional[str], typer.Option("--episodes", help="A range of episodes, like 1-2.")] = None,
    scenes: Annotated[Optional[str], typer.Option("--scenes", help="A range of scenes, like 4-9.")] = None,
    series: Annotated[bool, typer.Option("--series", help="The whole series.")] = False,
    as_name: Annotated[Optional[str], typer.Option("--as", help="What player NAME may see.")] = None,
    players: Annotated[bool, typer.Option("--players",
                                          help="What every player may see (to post to the group).")] = False,
    fmt: Annotated[str, typer.Option("--format", help="md (Markdown) or html (one standalone page).")] = "md",
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write to FILE instead of stdout.")] = None,
    templates: Annotated[Optional[Path], typer.Option(
        "--templates", envvar="YARNLOG_TEMPLATES",
        help="A folder of templates that shadow the defaults file by file (recap.md.j2, recap.html.j2...).")] = None,
    campaign: CampaignOpt = None, as_of: AsOfOpt = None, as_json: JsonOpt = False,
) -> None:
    """The recap: per scene the call, the cast, notes, challenges, petitions, forces, rolls and tokens;
    per episode the theme, calling order, balances, bennie vote, experience and moments worth retelling.

    Alone it is the GM's recap (everything); --as NAME and --players leave out all a player may not see.
    """
    from yarnlog.cli.context import open_journal, pick_campaign, resolve_as_of
    from yarnlog.core.referee import InvalidCommand
    from yarnlog.rulesets.yarn.recap import GM, PLAYERS, Scope, build_recap, player

    if sum(x is not None for x in (episode, episodes, scenes)) + series > 1:
        raise InvalidCommand("give one of --episode, --episodes, --scenes or --series")
    if as_name is not None and players:
        raise InvalidCommand("give --as NAME or --players, not both")
    if fmt not in TEMPLATES:
        raise InvalidCommand(f"--format is md or html, not {fmt!r}")
    if as_json and fmt != "md":
        raise InvalidCommand("--json prints the recap as data; it takes no --format")
    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    history = journal.history(cid, upto=resolve_as_of(journal, cid, as_of, None))
    table = journal.state(cid, upto=history[-1].sequence if history else None).table
    if as_name is not None and not table.knows(as_name):
        raise InvalidCommand(f"{as_name!r} is not at this table (players: {', '.join(table.players)})")
    if as_name is not None and table.is_gm(as_name):
        as_name = None  # the GM's own view is the GM's recap
    audience = player(as_name) if as_name is not None else PLAYERS if players else GM

    numbers = sorted({r.episode for r in history if r.event_type == "episode.started" and r.episode is not None})
    if scenes is not None:
        first, last = number_range(scenes, "scenes")
        scope = Scope(scenes=(first, last), label=f"scenes {first}-{last}" if first != last else f"scene {first}")
    elif episodes is not None:
        first, last = number_range(episodes, "episodes")
        scope = Scope(episodes=(first, last), label=f"episodes {first}-{last}" if first != last else f"episode {first}")
    elif series:
        scope = Scope()
    else:
        if not numbers:
            raise InvalidCommand("no episode has started yet: nothing to recap ('yarnlog episode start')")
        n = numbers[-1] if episode is None else episode
        if n not in numbers:
            raise InvalidCommand(f"there is no episode {n} (episodes: {', '.join(map(str, numbers))})")
        scope = Scope(episodes=(n, n), label=f"episode {n}")
    told = build_recap(history, table, audience, scope)
    if not told.episodes and not told.series_notes:
        raise InvalidCommand(f"nothing to recap in {scope.label}")

    if as_json:
        from yarnlog.cli.output import json_text

        # json escapes C0 controls only: DEL, C1 (an 8-bit CSI rewrites a terminal) and the bidi
        # overrides too, as \u escapes (the shell's one rule for JSON, yarnlog.cli.output).
        text = json_text(told.to_data()) + "\n"
    else:
        text = render_recap(told, fmt, templates, table.ruleset)
    if output is None:
        typer.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InvalidCommand(f"cannot write {output}: {exc.strerror or exc}") from None
    from yarnlog.cli.output import one_line

    typer.echo(one_line(f"Wrote {told.audience_label} of {told.scope} to {output}"), err=True)


def render_recap(told, fmt: str, templates: Path | None, ruleset: str) -> str:
    """The recap rendered with the ruleset's templates, shadowed by the user's folder if given."""
    import jinja2

    from yarnlog.core.referee import InvalidCommand
    from yarnlog.core.ruleset import get_ruleset
    from yarnlog.render import Templates

    try:
        loaded = Templates(get_ruleset(ruleset).templates, user=templates)
    except FileNotFoundError as exc:
        raise InvalidCommand(str(exc)) from None
    name = TEMPLATES[fmt]
    try:
        return loaded.render(name, recap=told, diagrams=_diagrams(told, fmt))
    except jinja2.TemplateError as exc:
        where = f" (line {exc.lineno})" if isinstance(exc, jinja2.TemplateSyntaxError) else ""
        message = " ".join(str(exc).split())
        raise InvalidCommand(f"template {getattr(exc, 'name', None) or name}{where}: {message}") from None


def _diagrams(told, fmt: str) -> dict:
    """The pictures a template may place: ``relationships`` (the map) and ``tokens[episode]`` (the
    drama-token series), as fenced Mermaid blocks with the series' table for Markdown and as inline
    SVG for HTML; built by :mod:`yarnlog.render.diagrams` from the recap's own (audience-filtered) data."""
    from markupsafe import Markup

    from yarnlog.render import MarkdownSafe
    from yarnlog.render import diagrams as draw

    def mermaid(body: str) -> str:
        return f"```mermaid\n{body}```\n"

    series = {e.number: e.token_series for e in told.episodes if e.token_series and e.token_series.scenes}
    graph = told.relationships if told.relationships and told.relationships.nodes else None
    if fmt == "html":
        return {"relationships": Markup(draw.relationship_map_svg(graph)) if graph else None,
                "tokens": {n: Markup(draw.token_series_svg(s)) for n, s in series.items()}}
    return {"relationships": MarkdownSafe(mermaid(draw.relationship_map_mermaid(graph))) if graph else None,
            "tokens": {n: MarkdownSafe(mermaid(draw.token_series_mermaid(s)) + "\n" + draw.token_series_table(s))
                       for n, s in series.items()}}


def register(app: typer.Typer) -> None:
    app.command("recap")(recap)
