"""What people read of a Will & Descriptors campaign: ``sheet`` (Markdown or HTML), ``board``, ``ledger``,
``rolls`` (with their prior odds) and ``odds``; each with ``--json`` and ``--as-of``/``--end-of-scene``."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from yarnlog.cli.options import AsOfOpt, CampaignOpt, EndOfSceneOpt, JsonOpt


def _state(campaign, as_of, end_of_scene):
    from yarnlog.cli.context import campaign_state

    return campaign_state(campaign, as_of, end_of_scene)


def _who(state, name: str):
    from yarnlog.core.referee import invalid

    found = next((n for n in state.rules.characters if n.lower() == name.strip().lower()), None)
    invalid(found is not None, f"no character is called {name}")
    return state.rules.characters[found]


def sheet(
    character: Annotated[str, typer.Argument(help="The character.")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="text (the terminal), md or html (a printable page, "
                                     "from sheet.md.j2 / sheet.html.j2).")] = "text",
    templates: Annotated[Optional[Path], typer.Option("--templates", envvar="YARNLOG_TEMPLATES",
                                                      help="A folder whose sheet.md.j2 or sheet.html.j2 "
                                                           "replaces the default.")] = None,
    campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None, as_json: JsonOpt = False,
) -> None:
    """A character's sheet: Will, the Power track, descriptors, Injuries, Background, Keys, XP, Advances."""
    from yarnlog.cli.output import emit, print_table
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.will_descriptors.reads import sheet_data

    invalid(fmt in ("text", "md", "html"), f"--format is one of text, md, html, not {fmt!r}")
    state = _state(campaign, as_of, end_of_scene)
    data = sheet_data(_who(state, character))
    if as_json or fmt == "text":
        def render(d: dict) -> None:
            print_table(f"{d['name']} (Will {d['will']}/{d['starting_will']}, track {d['track_text']}, "
                        f"XP {d['xp']}, Advances {d['advances']})", ("descriptor", "dice", "category"),
                        [(x["name"], f"{x['dice']}D", x["category"]) for x in d["descriptors"]]
                        + [(i["name"], f"{i['dice']}D", "Injury") for i in d["injuries"]])
        emit(data, as_json, render)
        return
    typer.echo(_rendered(f"sheet.{fmt}.j2", state.ruleset.templates if state.ruleset else None, templates,
                         sheet=data), nl=False)


def _rendered(name: str, ruleset_templates: str | None, user: Optional[Path], **context) -> str:
    """``name`` rendered with the ruleset's templates, shadowed by the user's folder; a template that
    does not render is said in one line."""
    from jinja2 import TemplateError

    from yarnlog.core.referee import InvalidCommand
    from yarnlog.render import Templates

    try:
        return Templates(ruleset_templates, user).render(name, **context)
    except FileNotFoundError as exc:
        raise InvalidCommand(str(exc)) from None
    except TemplateError as exc:
        raise InvalidCommand(f"template {getattr(exc, 'name', None) or name}: {' '.join(str(exc).split())}") from None


def board(
    campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None, as_json: JsonOpt = False,
) -> None:
    """Every character's Will, track and standing, and the scene's descriptors."""
    from yarnlog.cli.context import campaign_view
    from yarnlog.cli.output import emit, print_table

    data = campaign_view(campaign, "board", as_of, end_of_scene)  # the stored view at the head, no replay

    def render(d: dict) -> None:
        print_table("Will & Descriptors", ("character", "Will", "track", "injuries", "XP", "adv", "standing"),
                    [(c["name"], f"{c['will']}/{c['starting_will']}", c["track_text"],
                      ", ".join(f"{i['name']} {i['dice']}D" for i in c["injuries"]), c["xp"], c["advances"],
                      f"out: {c['why_out']}" if c["out"] else "in") for c in d["characters"]])
        if d["scene_descriptors"]:
            print_table("Scene Descriptors", ("name", "dice", "about"),
                        [(s["name"], f"{s['dice']}D", s["about"] or "") for s in d["scene_descriptors"]])

    emit(data, as_json, render)


def ledger(
    character: Annotated[Optional[str], typer.Option("--character", help="Only NAME's lines.")] = None,
    campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None, as_json: JsonOpt = False,
) -> None:
    """Every movement of Will, XP and Advances: its event, scene, rule and the balance after."""
    from yarnlog.cli.context import campaign_view
    from yarnlog.cli.output import emit, print_table
    from yarnlog.core.referee import invalid

    rows = campaign_view(campaign, "ledger", as_of, end_of_scene)  # the stored view at the head, no replay
    if character:
        names = [c["name"] for c in campaign_view(campaign, "board", as_of, end_of_scene)["characters"]]
        found = next((n for n in names if n.lower() == character.strip().lower()), None)
        invalid(found is not None, f"no character is called {character}")
        rows = [r for r in rows if r["character"] == found]

    def render(lines: list) -> None:
        print_table("Ledger of Will, XP and Advances", ("#/sc", "who", "moves", "after", "rule", "why"),
                    [(f"{r['event']}/{r['scene']}" if r["scene"] else r["event"], r["character"],
                      f"{r['amount']:+d} {r['currency']}", r["balance"], r["rule"], r["what"]) for r in lines])

    emit(rows, as_json, render)


def rolls(
    campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None, as_json: JsonOpt = False,
) -> None:
    """Every opposed and Recovery roll: pools, faces, outcome and the exact prior odds."""
    from yarnlog.cli.context import open_journal, pick_campaign, resolve_as_of
    from yarnlog.cli.output import emit, print_table
    from yarnlog.rulesets.will_descriptors.reads import rolls as rolls_of

    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    rows = rolls_of(journal.history(cid, resolve_as_of(journal, cid, as_of, end_of_scene)))

    def render(lines: list) -> None:
        print_table("Rolls (prior odds)", ("#/sc", "A", "B", "faces", "outcome", "P(A) P(B) P(=)"),
                    [(f"{r['event']}/{r['scene']}" if r["scene"] else r["event"], f"{r['a']} {r['dice_a']}D",
                      f"{r['b']} {r['dice_b']}D", f"{r['faces_a']} v {r['faces_b']}", r["outcome"],
                      f"{r['p_a']:.3f} {r['p_b']:.3f} {r['p_stalemate']:.3f}") for r in lines])

    emit(rows, as_json, render)


def odds(
    dice_a: Annotated[int, typer.Argument(min=0, max=30, help="Side A's dice.")],
    dice_b: Annotated[int, typer.Argument(min=0, max=30, help="Side B's dice.")],
    sides: Annotated[Optional[int], typer.Option("--sides", min=2, max=100, help="The dice's sides (default: "
                                                 "the campaign's setting, d10 unless chosen).")] = None,
    campaign: CampaignOpt = None, as_json: JsonOpt = False,
) -> None:
    """The exact chance of each outcome of an opposed roll: A or B wins with k successes, or a stalemate."""
    from yarnlog.cli.output import emit, print_table
    from yarnlog.rulesets.will_descriptors.reads import odds_rows
    from yarnlog.rulesets.will_descriptors.state import settings_of

    if sides is None:  # the verb is offered only in a Will & Descriptors campaign: its dice (reading 15)
        sides = settings_of(_state(campaign, None, None)).sides
    rows = odds_rows(dice_a, dice_b, sides)

    def render(lines: list) -> None:
        print_table(f"{dice_a}D against {dice_b}D (d{sides})", ("outcome", "successes", "chance", "exact"),
                    [(r["outcome"], r["successes"], f"{r['percent']:.2f}%", r["chance"]) for r in lines])

    emit(rows, as_json, render)


def recap(
    fmt: Annotated[str, typer.Option("--format", "-f", help="md or html.")] = "md",
    viewer: Annotated[Optional[str], typer.Option("--as", help="The recap a player may read (nothing GM-only); "
                                                  "omit: the GM's.")] = None,
    templates: Annotated[Optional[Path], typer.Option("--templates", envvar="YARNLOG_TEMPLATES",
                                                      help="A folder whose recap.md.j2 or recap.html.j2 "
                                                           "replaces the default.")] = None,
    campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None, as_json: JsonOpt = False,
) -> None:
    """The campaign's recap, scene by scene, for the GM or for one player."""
    from yarnlog.cli.context import open_journal, pick_campaign, resolve_as_of
    from yarnlog.cli.output import emit
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.will_descriptors.recap import recap_data

    invalid(fmt in ("md", "html"), f"--format is md or html, not {fmt!r}")
    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    upto = resolve_as_of(journal, cid, as_of, end_of_scene)
    state = journal.state(cid, upto=upto)
    if viewer is not None:
        seated = next((n for n in (state.table.gm, *state.table.players) if n.lower() == viewer.lower()), None)
        invalid(seated is not None, f"{viewer!r} is not at this table")
        viewer = None if seated is None or state.table.is_gm(seated) else seated
    data = recap_data(journal.history(cid, upto=state.sequence), state, viewer)
    if as_json:
        emit(data, True)
        return
    typer.echo(_rendered(f"recap.{fmt}.j2", state.ruleset.templates if state.ruleset else None, templates,
                         recap=data), nl=False)


def explain(
    event: Annotated[int, typer.Argument(help="The event's number (yarnlog log).")],
    campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None, as_json: JsonOpt = False,
) -> None:
    """One event explained: what it did, the rule that decided it, what it moved, a roll's prior odds,
    and the override, corrections and retractions recorded of it (up to --as-of/--end-of-scene)."""
    from yarnlog.cli.context import open_journal, pick_campaign, resolve_as_of
    from yarnlog.cli.output import emit, wrapped
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.will_descriptors.reads import explanation

    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    upto = resolve_as_of(journal, cid, as_of, end_of_scene)
    invalid(upto is None or event <= upto, f"event {event} was not yet recorded at event {upto}")
    history = journal.history(cid, upto=upto)
    found = next((r for r in history if r.sequence == event), None)
    invalid(found is not None, f"there is no event {event}")
    assert found is not None
    data = explanation(found, journal.state(cid, upto=event), history)

    def render(d: dict) -> None:
        for line in d["lines"]:
            typer.echo(wrapped(line))

    emit(data, as_json, render)


def register(app: typer.Typer) -> None:
    for verb in (sheet, board, ledger, rolls, odds, recap, explain):
        app.command()(verb)
