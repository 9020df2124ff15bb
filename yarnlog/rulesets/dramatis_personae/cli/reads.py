"""What people read of a Dramatis Personae campaign: ``sheet``, ``dice`` (the board), ``ledger``,
``rolls``, ``explain`` and ``odds``. Each reads the journal at its end or at any point (``--as-of
N``, ``--end-of-scene N``); only typer and :mod:`yarnlog.cli` are imported at start-up."""

from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from yarnlog.cli.options import AsOfOpt, CampaignOpt, EndOfSceneOpt, JsonOpt
from yarnlog.cli.recaps import (
    AudienceOpt,
    EpisodeOpt,
    EpisodesOpt,
    FormatOpt,
    OutputOpt,
    PlayersOpt,
    ScenesOpt,
    SeriesOpt,
    TemplatesOpt,
)

FORMATS = ("text", "md", "html")


AsOpt = Annotated[Optional[str], typer.Option("--as", help="Show only what player NAME may see.")]


def _seen(campaign: Optional[str], as_of: Optional[int], end_of_scene: Optional[int], viewer: Optional[str]):
    """The history up to the point asked and the campaign there, both as ``viewer`` may see them (the
    GM, or no one named, sees everything; a player's view is replayed from the events visible to her)."""
    from yarnlog.cli.context import open_journal, pick_campaign, resolve_as_of
    from yarnlog.core.referee import invalid
    from yarnlog.core.state import replay, visible_to

    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    upto = resolve_as_of(journal, cid, as_of, end_of_scene)
    history = journal.history(cid, upto=upto)
    state = journal.state(cid, upto=upto)
    if viewer is None or state.table.is_gm(viewer):
        return history, state
    table = state.table
    invalid(table.knows(viewer), f"{viewer!r} is not at this table (players: {', '.join(table.players)})")
    seen = [r for r in history if visible_to(r, viewer, table)]
    return seen, replay(seen)


def _say(text: str) -> None:
    from yarnlog.cli.output import terminal_text, wrapped

    typer.echo(wrapped(terminal_text(text)))


def _percent(fraction: str) -> str:
    return f"{float(Fraction(fraction)) * 100:.1f}%"


def sheet(
    name: Annotated[str, typer.Argument(help="A character.")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="text, md or html (a printable page).")] = "text",
    templates: Annotated[Optional[Path], typer.Option("--templates", envvar="YARNLOG_TEMPLATES",
                                                      help="A folder whose sheet.md.j2 or sheet.html.j2 "
                                                           "replaces the default.")] = None,
    viewer: AsOpt = None, campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A character sheet: level, Strengths and Weaknesses, Minutiae and Quirks, and the dice held."""
    from yarnlog.cli.output import emit
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.dramatis_personae.parts.reports import character_sheet

    invalid(fmt in FORMATS, f"--format is one of {', '.join(FORMATS)}, not {fmt!r}")
    _, state = _seen(campaign, as_of, end_of_scene, viewer)
    data = character_sheet(state, name)
    if as_json or fmt == "text":
        emit(data, as_json, _render_sheet)
        return
    typer.echo(_rendered(f"sheet.{fmt}.j2", state, templates, sheet=data), nl=False)


def _rendered(name: str, state: Any, user: Optional[Path], **context: Any) -> str:
    """A template of this ruleset (shadowed by the user's folder): any failure is one line of bad input."""
    from jinja2 import TemplateError

    from yarnlog.core.referee import InvalidCommand
    from yarnlog.render import Templates

    try:
        return Templates(state.ruleset.templates, user).render(name, **context)
    except (FileNotFoundError, TemplateError) as exc:
        raise InvalidCommand(f"template {name}: {' '.join(str(exc).split())}") from None


def _traits(traits: list[dict]) -> str:
    return ", ".join(t["trait"] + (" (general)" if t["general"] else "") for t in traits) or "none"


def _render_sheet(d: dict) -> None:
    _say(f"{d['name']}, level {d['level']}, played by {d['player']}.")
    _say(f"Strengths: {_traits(d['strengths'])}.")
    _say(f"Weaknesses: {_traits(d['weaknesses'])}.")
    if d["minutiae"] or d["quirks"]:
        _say(f"Minutiae: {', '.join(d['minutiae']) or 'none'}. Quirks: {', '.join(d['quirks']) or 'none'}.")
    for label, key in (("Background", "background"), ("Description", "description"), ("Status", "status")):
        if d[key]:
            _say(f"{label}: {d[key]}")
    if d["possessions"]:
        _say(f"Possessions: {', '.join(d['possessions'])}.")
    for told in d["developments"]:
        _say(f"Developed: {told}")
    dice = d["dice"]
    _say(f"Saved dice: {dice['saved_good']} good, {dice['saved_bad']} bad. Pool: {dice['pool']} of "
         f"{dice['pool_size']}. Debt: {dice['debt']}. Level {d['level'] + 1} costs {dice['next_level_costs']}.")


def dice(viewer: AsOpt = None, campaign: CampaignOpt = None, as_of: AsOfOpt = None,
         end_of_scene: EndOfSceneOpt = None, as_json: JsonOpt = False) -> None:
    """The board: every character's saved good and bad dice, pool dice left and dice debt."""
    from yarnlog.cli.output import emit, print_table
    from yarnlog.rulesets.dramatis_personae.parts.reports import dice_board

    _, state = _seen(campaign, as_of, end_of_scene, viewer)

    def render(d: dict) -> None:
        print_table(f"Dice ({'adventure: ' + d['adventure'] if d['adventure'] else 'between adventures'})",
                    ("character", "level", "good", "bad", "pool", "debt"),
                    [(c["character"], c["level"], c["saved_good"], c["saved_bad"], f"{c['pool']}/{c['pool_size']}",
                      c["debt"]) for c in d["characters"]])

    emit(dice_board(state), as_json, render)


def ledger(
    character: Annotated[Optional[str], typer.Option("--character", help="Only NAME's lines.")] = None,
    viewer: AsOpt = None, campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Every movement of saved dice, pool dice and debt: its event, scene, rule and the balance after."""
    from yarnlog.cli.output import emit, print_table
    from yarnlog.rulesets.dramatis_personae.parts.reports import ledger_rows

    _, state = _seen(campaign, as_of, end_of_scene, viewer)

    def render(rows: list[dict]) -> None:
        print_table("Ledger of dice", ("#/sc", "who", "dice", "after", "rule", "what"),
                    [(f"{r['sequence']}/{r['scene']}" if r["scene"] else r["sequence"], r["character"],
                      f"{r['change']:+d} {r['balance']}", r["after"], r["rule"], r["what"]) for r in rows])

    emit(ledger_rows(state, character), as_json, render)


def rolls(viewer: AsOpt = None, campaign: CampaignOpt = None, as_of: AsOfOpt = None,
          end_of_scene: EndOfSceneOpt = None, as_json: JsonOpt = False) -> None:
    """Every challenge and contest: dice, kept three, total, result, and the exact prior odds."""
    from yarnlog.cli.output import emit
    from yarnlog.rulesets.dramatis_personae.parts.reports import roll_rows

    history, _ = _seen(campaign, as_of, end_of_scene, viewer)

    def render(rows: list[dict]) -> None:
        for r in rows:
            _say(_roll_line(r))

    emit(roll_rows(history), as_json, render)


def _roll_line(r: dict) -> str:
    from yarnlog.rulesets.dramatis_personae.parts.reports import side_odds_sentence

    dice_ = "; ".join(f"{x['character']} {x['net']:+d}d6 kept {'-'.join(map(str, x['kept']))} = {x['total']}"
                      for x in r["rolls"])
    if r["kind"] in ("contest", "melee"):
        result = f"{r['winner']} wins" if r["winner"] else "a standoff"
        beats = ", ".join(f"{b['tier']} over {b['loser']}" for b in r["beats"])
        odds_ = " ".join(side_odds_sentence(name, side) for name, side in r["odds"].items())
        return f"#{r['sequence']} {r['kind']}: {dice_}. {result}{': ' + beats if beats else ''}. {odds_}"
    wound_ = f" ({r['wound']})" if r.get("wound") else ""
    return (f"#{r['sequence']} {r['kind']} {r['difficulty']}+: {dice_}: {r['tier']}{wound_}. "
            f"Odds of success were {_percent(r['success_chance'])}.")


def explain(
    sequence: Annotated[int, typer.Argument(help="The event's number.")],
    viewer: AsOpt = None, campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """One event: for a roll, every source of dice, the kept three, the total and the odds (an event after
    --as-of N or --end-of-scene N is not there yet)."""
    from yarnlog.cli.output import emit, summarize
    from yarnlog.rulesets.dramatis_personae.parts.reports import explain_event

    history, _ = _seen(campaign, as_of, end_of_scene, viewer)

    def render(d: dict) -> None:
        where = f", scene {d['scene']}" if d["scene"] else ""
        _say(f"Event {d['sequence']} ({d['event_type']}{where}), recorded by {d['recorded_by']}.")
        roll = d.get("roll")
        if roll is None:
            _say(summarize(d["payload"]))
            return
        for x in roll["rolls"]:
            sources = ", ".join(f"{s['label']} {s['dice']:+d}" for s in x["sources"]) or "none"
            _say(f"{x['character']}: 3d6 and {sources}: net {x['net']:+d}d6; rolled "
                 f"{','.join(map(str, x['faces']))}{' then ' + ','.join(map(str, x['after_faces'])) if x['after_faces'] else ''}"  # noqa: E501
                 f" ({x['source']}); kept {'-'.join(map(str, x['kept']))} = {x['total']}.")
        _say(_roll_line(roll))
        sides = roll["odds"].items() if roll["kind"] in ("contest", "melee") else [(None, roll["odds"])]
        for name, odds_ in sides:
            if name is not None:
                _say(f"{name}'s prior odds, from {name}'s side:")
            for outcome, chance in odds_.items():
                _say(f"  {outcome}: {chance} ({_percent(chance)})")

    emit(explain_event(history, sequence), as_json, render)


def odds(
    net: Annotated[int, typer.Option("--net", help="Net bonus (or, negative, penalty) dice.")] = 0,
    difficulty: Annotated[str, typer.Option("--difficulty", "-d", help="Chart name or number.")] = "Typical",
    against: Annotated[Optional[list[int]], typer.Option("--against", help="A contest: another side's net dice "
                                                         "(repeat for three or more sides).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """The exact chance of each result of a roll before it is made (never a simulation); for a contest,
    each side's chance of each result from its own point of view."""
    from yarnlog.cli.output import emit
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.dramatis_personae.parts.reports import side_odds_sentence
    from yarnlog.rulesets.dramatis_personae.parts.rolls import outcome_label
    from yarnlog.rulesets.dramatis_personae.rules import odds as exact
    from yarnlog.rulesets.dramatis_personae.rules.difficulty import needed

    nets = [net, *(against or ())]
    invalid(all(abs(n) <= exact.MAX_NET for n in nets), f"at most {exact.MAX_NET} net dice a side")
    invalid(len(nets) <= 20, "at most 20 sides to a contest")
    data: dict[str, Any]
    if not against:
        number = needed(difficulty)
        data = {"net": net, "difficulty": number,
                "odds": {t.value: str(p) for t, p in exact.tier_odds(net, number).items()},
                "success": str(exact.success_chance(net, number))}
    else:
        data = {"net": net, "against": list(against), "sides": [
            {"side": i + 1, "net": n, "odds": {outcome_label(o): str(p) for o, p in side.items()}}
            for i, (n, side) in enumerate(zip(nets, exact.contest_odds(nets)))]}

    def render(d: dict) -> None:
        if "odds" in d:
            _say(f"{d['net']:+d}d6 against {d['difficulty']}+: success {d['success']} ({_percent(d['success'])}).")
            for tier, chance in d["odds"].items():
                _say(f"  {tier}: {chance} ({_percent(chance)})")
        else:
            for side in d["sides"]:
                _say(side_odds_sentence(f"side {side['side']} ({side['net']:+d}d6)", side["odds"]))

    emit(data, as_json, render)


def recap(
    episode: EpisodeOpt = None, episodes: EpisodesOpt = None, scenes: ScenesOpt = None,
    series: SeriesOpt = False, as_name: AudienceOpt = None, players: PlayersOpt = False, fmt: FormatOpt = "md",
    output: OutputOpt = None, templates: TemplatesOpt = None, campaign: CampaignOpt = None,
    as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None, as_json: JsonOpt = False,
) -> None:
    """The recap: each episode's scenes and moves in the book's words, and the dice at its end.

    Alone it is the GM's recap; --as NAME and --players leave out what a player may not see."""
    from yarnlog.cli.context import open_journal, pick_campaign, resolve_as_of
    from yarnlog.cli.recaps import TEMPLATES, recap_asked, write_document
    from yarnlog.core.referee import InvalidCommand
    from yarnlog.rulesets.dramatis_personae.recap import Audience, Scope, build_recap

    if end_of_scene is not None:  # the journal as it stood when scene N closed
        journal = open_journal()
        as_of = resolve_as_of(journal, pick_campaign(journal, campaign), as_of, end_of_scene)

    asked = recap_asked(episode=episode, episodes=episodes, scenes=scenes, series=series, as_name=as_name,
                        players=players, fmt=fmt, as_json=as_json, campaign=campaign, as_of=as_of)
    audience = (Audience("player", asked.player) if asked.player is not None
                else Audience("players" if asked.players else "gm"))
    told = build_recap(asked.history, asked.state.table, audience, Scope(**asked.scope))
    if not told["episodes"] and not told["series_notes"]:
        raise InvalidCommand(f"nothing to recap in {asked.scope.get('label', 'the whole series')}")
    if as_json:
        from yarnlog.cli.output import json_text

        text = json_text(told) + "\n"
    elif fmt == "chat":  # the Markdown recap, as a chat shows it
        from yarnlog.render.chat import chat_markdown, chat_text

        text = chat_text(chat_markdown(_rendered(TEMPLATES["md"], asked.state, templates, recap=told)))
    else:
        text = _rendered(TEMPLATES[fmt], asked.state, templates, recap=told)
    write_document(text, output, f"{told['audience_label']} of {told['scope']}")


def modifiers(
    table: Annotated[Optional[str], typer.Argument(help="challenge, melee or ranged (default: all three).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """The book's modifier tables by the labels --mod takes, with the dice each gives (DP18, DP29, DP32)."""
    from yarnlog.cli.output import emit, print_table
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.dramatis_personae.parts.rolls import TABLES

    invalid(table is None or table in TABLES, f"no modifier table {table!r}: challenge, melee or ranged")
    rows = [{"table": name, "label": row.label, "low": row.low, "high": row.high, "text": row.text, "rule": row.rule}
            for name, rows_ in TABLES.items() if table in (None, name) for row in rows_.values()]

    def render(found: list[dict]) -> None:
        print_table("Modifiers (--mod LABEL, or LABEL=DICE for a range)", ("table", "label", "dice", "circumstance"),
                    [(r["table"], r["label"], f"{r['low']:+d}" if r["low"] == r["high"] else f"{r['low']:+d} to "
                      f"{r['high']:+d}", r["text"]) for r in found])

    emit(rows, as_json, render)


def register(app: typer.Typer) -> None:
    for name, verb in (("sheet", sheet), ("dice", dice), ("ledger", ledger), ("rolls", rolls),
                       ("explain", explain), ("odds", odds), ("recap", recap),
                       ("modifiers", modifiers)):
        app.command(name)(verb)
