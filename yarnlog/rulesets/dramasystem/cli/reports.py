"""What people read of a DramaSystem campaign: ``sheet``, ``tokens``, ``ledger``, ``explain``,
``resolutions`` and ``recap``.

Each reads the journal at its end or at any point (``--as-of N``, ``--end-of-scene N``), and with
``--as NAME`` only what that player may see: the GM's secret token for a simple resolution is in no
player's view before its reveal, neither said nor through the odds, and while a resolution may be
open the GM's pile is left out (:mod:`yarnlog.rulesets.dramasystem.parts.player_views`). Only typer
and :mod:`yarnlog.cli` are imported at start-up; the projections are imported inside the commands.
"""

from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from yarnlog.cli.options import AsOfOpt, CampaignOpt, EndOfSceneOpt, JsonOpt
from yarnlog.cli.recaps import (
    SHEET_FILE_FORMATS,
    TEMPLATES,
    AudienceOpt,
    EpisodeOpt,
    EpisodesOpt,
    FormatOpt,
    OutputOpt,
    PlayersOpt,
    PreviouslyOpt,
    ScenesOpt,
    SeriesOpt,
    TemplatesOpt,
    recap_asked,
    write_document,
)

AsOpt = Annotated[Optional[str], typer.Option("--as", help="Show only what player NAME may see.")]
FORMATS = ("text", "md", "html")


def _seen(campaign: str | None, as_of: int | None, end_of_scene: int | None, viewer: str | None):
    """The history up to the point asked and the campaign there, both as ``viewer`` may see them, and
    ``viewer`` (``None`` for the GM, whose own name sees everything)."""
    from yarnlog.cli.context import open_journal, pick_campaign, resolve_as_of
    from yarnlog.core.state import replay
    from yarnlog.rulesets.dramasystem.parts.player_views import check_viewer, is_player_view, seen_by

    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    upto = resolve_as_of(journal, cid, as_of, end_of_scene)
    history = journal.history(cid, upto=upto)
    state = journal.state(cid, upto=upto)
    check_viewer(state.table, viewer)
    if not is_player_view(state.table, viewer):
        return history, state, None
    seen = seen_by(history, state.table, viewer)
    return seen, replay(seen), viewer


def _line(text: str, indent: str = "", then: str | None = None) -> None:
    """``text`` as plain terminal text wrapped to 80 columns, from ``indent``, its next lines from ``then``."""
    import textwrap

    from yarnlog.cli.output import WIDTH, terminal_text

    typer.echo(textwrap.fill(terminal_text(text), width=WIDTH, initial_indent=indent,
                             subsequent_indent=indent if then is None else then, break_on_hyphens=False))


def _colours(colours: list[str] | None) -> str:
    if colours is None:
        return "hidden"
    return ", ".join(colours) or "none"


# -- sheet ------------------------------------------------------------------------------------------


def sheet(
    name: Annotated[str, typer.Argument(help="A player character.")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="text (the terminal), md or html (a printable "
                                     "page, from the templates sheet.md.j2 / sheet.html.j2).")] = "text",
    templates: Annotated[Optional[Path], typer.Option("--templates", envvar="YARNLOG_TEMPLATES",
                                                      help="A folder whose sheet.md.j2 or sheet.html.j2 "
                                                           "replaces the default.")] = None,
    viewer: AsOpt = None, campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
    output: OutputOpt = None, as_json: JsonOpt = False,
) -> None:
    """A character sheet as of any point: role, desire, poles, action types with their grades (custom
    type, How I Do It), the story sentence, and the player's procedural tokens, unspent and spent."""
    from yarnlog.cli.output import emit
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.dramasystem.parts.printable_sheet import printable_sheet

    invalid(fmt in FORMATS, f"--format is one of {', '.join(FORMATS)}, not {fmt!r}")
    invalid(output is None or (fmt != "text" and not as_json), SHEET_FILE_FORMATS)
    _, state, seen_as = _seen(campaign, as_of, end_of_scene, viewer)
    data = printable_sheet(state, name, viewer=seen_as)
    if as_json or fmt == "text":
        emit(data, as_json, _render_sheet)
        return
    write_document(render_template(f"sheet.{fmt}.j2", state.ruleset.templates if state.ruleset else None,
                                   templates, sheet=data), output, f"{name}'s sheet")


def render_template(name: str, ruleset_templates: str | None, user: Path | None, **context: Any) -> str:
    """``name`` rendered with the ruleset's templates, shadowed by the user's folder if given."""
    from jinja2 import TemplateError, TemplateSyntaxError

    from yarnlog.core.referee import InvalidCommand
    from yarnlog.render import Templates

    try:
        return Templates(ruleset_templates, user).render(name, **context)
    except FileNotFoundError as exc:
        raise InvalidCommand(str(exc)) from None
    except TemplateError as exc:  # a user's template that does not render: say which and why, in one line
        where = f" (line {exc.lineno})" if isinstance(exc, TemplateSyntaxError) else ""
        raise InvalidCommand(f"template {getattr(exc, 'name', None) or name}{where}: "
                             f"{' '.join(str(exc).split())}") from None


def _render_sheet(d: dict) -> None:
    from yarnlog.cli.output import print_table

    where = "".join(f", {k} {v}" for k, v in (("episode", d["episode"]), ("scene", d["scene"])) if v)
    _line(f"{d['name']}, played by {d['player']}: {d['role'] or 'no role given'} (as of event {d['as_of']}{where})")
    if d["desire"] or d["poles"]:
        _line(f"Desire: {d['desire'] or '-'}; dramatic poles: {' / '.join(d['poles']) or '-'}")
    if d["story"]:
        _line(f"My story: {d['story']}")
    print_table("Action types", ("action type", "grade", "How I Do It"),
                [(t["name"] + (" (custom)" if t["custom"] else ""), t["grade"].capitalize(), t["how_i_do_it"])
                 for t in d["action_types"]])
    if d["people_in_my_life"]:
        print_table("People in my life", ("who", "relationship", "I want", "why I can't get it"),
                    [(w["withholder"] + (" (fraught)" if w["fraught"] else ""), w["relationship"], w["want"],
                      w["why_not"]) for w in d["people_in_my_life"]])
    wanted = {w["withholder"] for w in d["people_in_my_life"]}
    others = [(r["other"], r["nature"]) for r in d["relationships"] if r["other"] not in wanted]
    if others:
        print_table("Other relationships", ("who", "relationship"), others)
    tokens = d["procedural_tokens"]
    _line(f"Procedural tokens: unspent {_colours(tokens['unspent'])}; spent {_colours(tokens['spent'])}.")
    if d["drama_tokens"] is not None:
        _line(f"Drama tokens: {d['drama_tokens']}; bennies: {d['bennies']}.")


# -- tokens and the ledger -------------------------------------------------------------------------


def tokens(viewer: AsOpt = None, campaign: CampaignOpt = None, as_of: AsOfOpt = None,
           end_of_scene: EndOfSceneOpt = None, as_json: JsonOpt = False) -> None:
    """Every participant's procedural tokens, unspent and spent (with drama tokens and bennies when
    the campaign keeps them); the GM's token set aside in secret in her view only."""
    from yarnlog.cli.context import campaign_view
    from yarnlog.cli.output import emit, print_table

    if viewer is None and as_of is None and end_of_scene is None:
        data = campaign_view(campaign, "tokens")  # the GM's board at the end: the stored view, a few rows
    else:
        from yarnlog.rulesets.dramasystem.parts.token_ledger import token_board

        _, state, seen_as = _seen(campaign, as_of, end_of_scene, viewer)
        data = token_board(state, viewer=seen_as)

    def render(d: dict) -> None:
        columns: tuple[str, ...] = ("participant", "character", "unspent", "spent")
        if d["drama"]:
            columns += ("drama tokens", "bennies")
        rows = []
        for p in d["participants"]:
            unspent = _colours(p["unspent"])
            if p["set_aside"]:
                unspent += f" ({', '.join(p['set_aside'])} set aside in secret)"
            row: tuple = (p["name"] + (" (GM)" if p["gm"] else ""), p["character"] or "", unspent,
                          _colours(p["spent"]))
            if d["drama"]:
                row += (p["drama_tokens"], p["bennies"])
            rows.append(row)
        print_table(f"Procedural tokens as of event {d['as_of']} (episode {d['episode'] or '-'})", columns, rows)
        if any(p["hidden"] for p in d["participants"]):
            _line("The GM's pile is hidden until the resolution ends: it would hint at her secret token.")

    emit(data, as_json, render)


def ledger(
    participant: Annotated[Optional[str], typer.Option("--participant", help="Only NAME's lines.")] = None,
    episode: Annotated[Optional[int], typer.Option("--episode", help="Only episode N.")] = None,
    scene: Annotated[Optional[int], typer.Option("--scene", help="Only scene N.")] = None,
    quotes: Annotated[bool, typer.Option("--quotes", help="Quote each rule's words.")] = False,
    viewer: AsOpt = None, campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Every procedural token spent, refreshed or set aside: its event, scene, the rule that moved it
    (DS31, DS37...) and the pile after it; drama-token movements beside them when the campaign keeps them."""
    from yarnlog.cli.output import emit, print_table
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.dramasystem.parts.token_ledger import token_ledger

    history, state, seen_as = _seen(campaign, as_of, end_of_scene, viewer)
    if participant is not None:
        known = next((n for n in (state.table.gm, *state.table.players) if n.lower() == participant.lower()), None)
        invalid(known is not None, f"{participant!r} is not at this table")
        participant = known
    rows = token_ledger(state, history, viewer=seen_as, participant=participant, scene=scene, episode=episode)

    def render(lines: list[dict]) -> None:
        print_table(f"Ledger{f' of {participant}' if participant else ''} (pile after: unspent tokens)",
                    ("#/sc", "who", "move", "rule", "pile after"),
                    [(f"{r['sequence']}/{r['scene']}" if r["scene"] else r["sequence"], _who(r), _move(r),
                      _rule(r, quotes), _after(r)) for r in lines])

    emit(rows, as_json, render)


def _rule(line: dict, quotes: bool) -> str:
    """The rule that moved a line (DS37, Gaining Tokens...), quoted with --quotes; a GM ruling with its reason."""
    name = line["rule_number"] or line["chapter"]
    if line.get("reason"):
        return f"{name}: {line['reason']}"
    return f"{name}: {line['rule']}" if quotes else name


def _who(line: dict) -> str:
    return line["participant"] or f"{line['source']}>{line['destination']}"


def _move(line: dict) -> str:
    if line["currency"] != "procedural":
        return f"{line['amount']} {'drama' if line['currency'] == 'drama' else 'bennie'}"
    if line["move"] == "refreshed":
        return "refresh"
    return f"{line['move']} {line['colour']}"


def _after(line: dict) -> str:
    if line["currency"] != "procedural":
        return ""
    if line["move"] == "set aside":
        return "(secret)"
    return _colours(line["unspent_after"])


def explain(
    event: Annotated[Optional[int], typer.Argument(help="The event number (the first column of the log).")] = None,
    scene: Annotated[Optional[int], typer.Option("--scene", help="Explain every event of scene N.")] = None,
    viewer: AsOpt = None, campaign: CampaignOpt = None, as_json: JsonOpt = False,
) -> None:
    """Why the piles are what they are after an event: what it recorded, every pile before and after,
    each token it moved with the rule, and any correction or retraction that points at it."""
    from yarnlog.cli.context import open_journal, pick_campaign
    from yarnlog.cli.output import emit
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.dramasystem.parts.explanations import explain_event, explain_scene

    invalid((event is None) != (scene is None), "give an EVENT number or --scene N (one of them)")
    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    history = journal.history(cid)
    table = journal.state(cid).table
    seen_as = None if viewer is None or table.is_gm(viewer) else viewer
    if scene is not None:
        emit(explain_scene(history, table, scene, viewer=seen_as), as_json, _render_scene)
        return
    assert event is not None
    data = explain_event(history, table, event, viewer=seen_as)

    def render(d: dict) -> None:
        e = d["event"]
        where = "".join(f", {k} {v}" for k, v in (("episode", e["episode"]), ("scene", e["scene"])) if v)
        _line(f"Event {e['sequence']} ({e['event_type']}{where}), recorded by {e['recorded_by']}, "
              f"{d['standing']}.")
        if d["said"]:
            _line(d["said"])
        _piles(d["piles_before"], d["piles_after"])
        _moved(d["lines"])
        if not d["lines"]:
            _line("No procedural token moved in this event.")
        for a in d["amendments"]:
            _line(f"{a['kind'].capitalize()} by event {a['sequence']} (approved by {a['approved_by']}): "
                  f"{a['reason']}")

    emit(data, as_json, render)


def _piles(piles_before: list[dict], piles_after: list[dict]) -> None:
    """Every pile before and after, with drama tokens and bennies when the campaign keeps them."""
    from yarnlog.cli.output import print_table

    before = {p["name"]: p for p in piles_before}
    drama = any("drama_tokens" in p for p in piles_after)
    columns = ("participant", "before", "after") + (("drama tokens", "bennies") if drama else ())

    def row(p: dict) -> tuple:
        was = before.get(p["name"], {})
        cells: tuple = (p["name"] + (" (GM)" if p["gm"] else ""), _colours(was.get("unspent", [])),
                        _colours(p["unspent"]))
        if drama:  # before > after, as the state keeps them
            cells += (f"{was.get('drama_tokens', 0)} > {p['drama_tokens']}",
                      f"{was.get('bennies', 0)} > {p['bennies']}")
        return cells

    print_table("Procedural piles (unspent)", columns, [row(p) for p in piles_after])


def _moved(lines: list[dict], indent: str = "") -> None:
    for line in lines:
        _line(f"{line['participant']} {_move(line)}: {line['rule_number']} ({line['chapter']}) {line['rule']}",
              indent=indent)


def _render_scene(d: dict) -> None:
    _line(f"Scene {d['scene']} (episode {d['episode'] or '-'}), events {d['first']} to {d['last']}.")
    _piles(d["piles_before"], d["piles_after"])
    for event in d["events"]:
        _line(f"{event['sequence']}: {event['said'] or event['event_type']}", then="  ")
        _moved(event["lines"], indent="    ")


# -- resolutions ------------------------------------------------------------------------------------


def consequences(
    player: Annotated[Optional[str], typer.Option("--player", help="Only this player's.")] = None,
    viewer: AsOpt = None, campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Every consequence noted: whose, advantage or obstacle, its card and event, where it was invoked,
    and whether it is still in play (SRD 637-641)."""
    from yarnlog.cli.output import emit, print_table
    from yarnlog.rulesets.dramasystem.parts.consequences import consequence_rows
    from yarnlog.rulesets.dramasystem.rules.cards import Card

    _, state, seen_as = _seen(campaign, as_of, end_of_scene, viewer)
    data = {"as_of": state.sequence, "viewer": seen_as, "consequences": consequence_rows(state, player)}
    emit(data, as_json, lambda data: print_table(
        "Consequences", ("player", "kind", "card", "event", "scene", "invoked in", "now"),
        [(r["player"], r["kind"], Card.parse(r["card"]).display, str(r["source"]), str(r["scene"]),
          ", ".join(map(str, r["invoked_in"])) or "-", r["state"]) for r in data["consequences"]]))


def resolutions(
    scene: Annotated[Optional[int], typer.Option("--scene", help="Only scene N.")] = None,
    viewer: AsOpt = None, campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Every card resolution and contest, in a line or two: who, tokens, cards as drawn, knock-outs, the
    result in the book's words and the prior odds (against every GM token while hers is secret)."""
    from yarnlog.cli.output import emit
    from yarnlog.rulesets.dramasystem.parts.resolution_reports import describe, resolution_reports

    history, state, seen_as = _seen(campaign, as_of, end_of_scene, viewer)
    data = resolution_reports(history, state.table, viewer=seen_as, scene=scene)

    def render(reports: list[dict]) -> None:
        if not reports:
            _line("No card resolution or contest yet.")
        for report in reports:
            first, second = describe(report)
            _line(f"#{report['sequence']} scene {report['scene']}. {first}", then="  ")
            _line(second, indent="  ")

    emit(data, as_json, render)


# -- recap ------------------------------------------------------------------------------------------

def recap(
    episode: EpisodeOpt = None, episodes: EpisodesOpt = None, scenes: ScenesOpt = None, series: SeriesOpt = False,
    as_name: AudienceOpt = None, players: PlayersOpt = False, fmt: FormatOpt = "md", output: OutputOpt = None,
    templates: TemplatesOpt = None, campaign: CampaignOpt = None, as_of: AsOfOpt = None, as_json: JsonOpt = False,
    previously: PreviouslyOpt = False,
) -> None:
    """The recap: the relationship map (the whole series); per scene the call, notes, every move in the
    book's words and each resolution in short; per episode the theme and everyone's procedural tokens
    at its end.

    Alone it is the GM's recap (everything); --as NAME and --players leave out all a player may not see.
    """
    from yarnlog.core.audience import Audience
    from yarnlog.core.referee import InvalidCommand
    from yarnlog.render.diagrams import relationship_map_picture
    from yarnlog.rulesets.dramasystem.recap import Scope, build_recap, relationship_graph

    asked = recap_asked(episode=episode, episodes=episodes, scenes=scenes, series=series, as_name=as_name,
                        players=players, fmt=fmt, as_json=as_json, campaign=campaign, as_of=as_of)
    audience = (Audience("player", asked.player) if asked.player is not None
                else Audience("players" if asked.players else "gm"))
    scope = Scope(**asked.scope)
    state = asked.state
    told = build_recap(asked.history, state.table, audience, scope)
    if not told["episodes"] and not told["series_notes"]:
        raise InvalidCommand(f"nothing to recap in {scope.label}")
    if as_json:
        from yarnlog.cli.output import json_text

        text = json_text(told) + "\n"
    elif previously:
        from yarnlog.rulesets.dramasystem.recap import previously_on

        text = previously_on(told) + "\n"
    else:
        diagrams = {"relationships": relationship_map_picture(relationship_graph(told), fmt)}
        text = render_template(TEMPLATES[fmt], state.ruleset.templates if state.ruleset else None, templates,
                               recap=told, diagrams=diagrams)
        if fmt == "chat":
            from yarnlog.render.chat import chat_text

            text = chat_text(text)
    write_document(text, output, f"{told['audience_label']} of {told['scope']}")


def register(app: typer.Typer) -> None:
    app.command("sheet")(sheet)
    app.command("tokens")(tokens)
    # The same board under the name the SRD's procedural side suggests: one view, one visibility rule
    # (a player's --as leaves the GM's pile out while a resolution may be open, reading 16).
    app.command("procedural-tokens", help="An alias of tokens: every participant's procedural tokens (and drama "
                "tokens and bennies), with --as, --as-of and --end-of-scene.")(tokens)
    app.command("ledger")(ledger)
    app.command("explain")(explain)
    app.command("resolutions")(resolutions)
    app.command("consequences")(consequences)
    app.command("recap")(recap)
