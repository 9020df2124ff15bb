"""``yarnlog recap``: an episode, a range of scenes or episodes, or the series, told for one audience.

The recap is a projection of what the audience may see (:mod:`yarnlog.rulesets.yarn.recap`),
rendered through :mod:`yarnlog.render` with the ruleset's templates (``recap.md.j2``,
``recap.html.j2``), which the user may shadow file by file with ``--templates DIR``.
"""

from pathlib import Path
from typing import Any

import typer

from yarnlog.cli.options import AsOfOpt, CampaignOpt, JsonOpt
from yarnlog.cli.recaps import (
    TEMPLATES,
    AudienceOpt,
    EpisodeAsked,
    EpisodeOpt,
    EpisodesOpt,
    FormatOpt,
    OutputOpt,
    PlayersOpt,
    PreviouslyOpt,
    ScenesOpt,
    SeriesOpt,
    TemplatesOpt,
    episode_asked,
    recap_asked,
    write_document,
)


def recap(
    episode: EpisodeOpt = None, episodes: EpisodesOpt = None, scenes: ScenesOpt = None, series: SeriesOpt = False,
    as_name: AudienceOpt = None, players: PlayersOpt = False, fmt: FormatOpt = "md", output: OutputOpt = None,
    templates: TemplatesOpt = None, campaign: CampaignOpt = None, as_of: AsOfOpt = None, as_json: JsonOpt = False,
    previously: PreviouslyOpt = False,
) -> None:
    """The recap: per scene the call, the cast, notes, challenges, petitions, forces, rolls and tokens;
    per episode the theme, calling order, balances, bennie vote, experience and moments worth retelling.

    Alone it is the GM's recap (everything); --as NAME and --players leave out all a player may not see.
    """
    from yarnlog.core.referee import InvalidCommand
    from yarnlog.rulesets.yarn.recap import GM, PLAYERS, Scope, build_recap, player

    options: dict[str, Any] = dict(episode=episode, episodes=episodes, scenes=scenes, series=series, as_name=as_name,
                   players=players, fmt=fmt, as_json=as_json, campaign=campaign, as_of=as_of)
    alone = episode_asked(**options)
    if alone is not None:  # the GM's recap of one episode: told from its own events
        scope = Scope(episodes=(alone.span.number, alone.span.number), label=f"episode {alone.span.number}")
        table = alone.head.table
        told = build_recap(alone.span.events, table, GM, scope, before=_before(alone))
    else:
        asked = recap_asked(**options)
        audience = player(asked.player) if asked.player is not None else PLAYERS if asked.players else GM
        scope = Scope(**asked.scope)
        table = asked.state.table
        told = build_recap(asked.history, table, audience, scope)
    if not told.episodes and not told.series_notes:
        raise InvalidCommand(f"nothing to recap in {scope.label}")

    if as_json:
        from yarnlog.cli.output import json_text

        # json escapes C0 controls only: DEL, C1 (an 8-bit CSI rewrites a terminal) and the bidi
        # overrides too, as \u escapes (the shell's one rule for JSON, yarnlog.cli.output).
        text = json_text(told.to_data()) + "\n"
    elif previously:
        from yarnlog.rulesets.yarn.recap.previously import previously_on

        text = previously_on(told) + "\n"
    else:
        text = render_recap(told, fmt, templates, table.ruleset)
        if fmt == "chat":
            from yarnlog.render.chat import chat_text

            text = chat_text(text)
    write_document(text, output, f"{told.audience_label} of {told.scope}")


def _before(alone: EpisodeAsked):
    """What telling the episode of ``alone`` reads from the rest of the history (:class:`.build.Before`)."""
    from yarnlog.app.episodes import event_at, events_of
    from yarnlog.rulesets.yarn.recap.build import RECALLED, Before, rolls_named

    span, states = alone.span, alone.journal.states
    earlier = events_of(states, alone.campaign_id, RECALLED, upto=span.first - 1)
    for sequence in sorted(n for n in rolls_named(span.events) if n < span.first):
        found = event_at(states, alone.campaign_id, sequence)
        if found is not None:
            earlier.append(found)
    return Before(state=alone.before.state, head=alone.head, earlier=sorted(earlier, key=lambda r: r.sequence),
                  amendments=span.amendments, as_of=span.head)


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

    series = {e.number: e.token_series for e in told.episodes if e.token_series and e.token_series.scenes}
    relationships = draw.relationship_map_picture(told.relationships, fmt)
    if fmt == "html":
        return {"relationships": relationships,
                "tokens": {n: Markup(draw.token_series_svg(s)) for n, s in series.items()}}
    return {"relationships": relationships,
            "tokens": {n: MarkdownSafe(draw.mermaid_block(draw.token_series_mermaid(s)) + "\n"
                                       + draw.token_series_table(s))
                       for n, s in series.items()}}


def register(app: typer.Typer) -> None:
    app.command("recap")(recap)
