"""The verbs of the campaign and its table: ``init``, ``options``, ``campaigns``, ``join``, ``leave``.
"""

from typing import Annotated, Optional

import typer
from typer.core import TyperCommand

from yarnlog.cli.context import campaign_state, open_journal, run_command
from yarnlog.cli.options import COMMAND_ID_HELP, SETTINGS, ByOpt, CampaignOpt, JsonOpt
from yarnlog.cli.output import console, emit, print_table, show_recorded
from yarnlog.cli.root import app


class _InitCommand(TyperCommand):
    """``init``, whose help lists each installed system's optional rules and settings (the rulesets are
    imported only when the help is shown)."""

    def format_help(self, ctx, formatter) -> None:
        self.epilog = _optional_rules_epilog()
        super().format_help(ctx, formatter)


def _optional_rules_epilog() -> str:
    from yarnlog.core.installed import RULESETS
    from yarnlog.core.referee import YarnlogError
    from yarnlog.core.ruleset import get_ruleset

    lines = []
    for name in sorted(RULESETS):
        try:
            ruleset = get_ruleset(name)
        except YarnlogError:
            continue
        if ruleset.options:
            lines.append(f"{name} optional rules (--option): "
                         f"{', '.join(n.replace('_', '-') for n in ruleset.options)}")
        if ruleset.settings:
            lines.append(f"{name} settings (--setting NAME=N): " + ", ".join(
                f"{n.replace('_', '-')} ({'default ' + str(s.default) if s.default is not None else 'no default'})"
                for n, s in ruleset.settings.items()))
    return "\n\n".join(lines)


def _setting_values(given: list[str]) -> dict[str, int]:
    """``--setting`` values: NAME=N, comma lists split, the name read as ``--option`` names are."""
    import re

    from yarnlog.core.referee import InvalidCommand

    values: dict[str, int] = {}
    for word in (word.strip() for item in given for word in item.split(",")):
        if not word:
            continue
        name, eq, value = word.partition("=")
        value = value.strip()
        if not eq or not name.strip() or not re.fullmatch(r"-?[0-9]{1,12}", value):
            raise InvalidCommand(f"a setting is NAME=N (a whole number), not {word!r}")
        values[name.strip().casefold().replace("-", "_")] = int(value)
    return values


def _option_names(given: list[str]) -> dict[str, bool]:
    """``--option`` values as the ruleset names its optional rules: comma lists split (like ``--cast``),
    dashes read as underscores, any case."""
    names = (word.strip().casefold().replace("-", "_") for item in given for word in item.split(","))
    return {name: True for name in names if name}


@app.command(cls=_InitCommand)
def init(
    campaign_id: Annotated[str, typer.Argument(help="Short id: lowercase letters, digits, . _ -")],
    title: Annotated[str, typer.Option("--title", help="The series' title.")],
    gm: Annotated[str, typer.Option("--gm", help="The GM's name.")],
    ruleset: Annotated[str, typer.Option("--ruleset", help="Game system.")] = "yarn",
    option: Annotated[
        Optional[list[str]], typer.Option("--option", help="Turn on optional rules: A,B or repeated; the "
                                          "names are listed below (dashes or underscores).")
    ] = None,
    setting: Annotated[
        Optional[list[str]], typer.Option("--setting", help="Choose a number the book leaves open: NAME=N, "
                                          "A=N,B=M or repeated; listed below (unset: the book's default).")
    ] = None,
    command_id: Annotated[Optional[str], typer.Option("--command-id", help=COMMAND_ID_HELP, metavar="ID")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a campaign (a series) in the journal."""
    from yarnlog.app.command_ids import command_key
    from yarnlog.cli.context import take_command_id

    SETTINGS.command_id = command_id
    given, new = take_command_id()
    options = _option_names(option or [])
    settings = _setting_values(setting or [])
    # A command id given before settings existed keeps its digest: settings join the key only when given.
    key = command_key(given, ("init", campaign_id, title, gm, ruleset, options, *([settings] if settings else [])))
    journal = open_journal(create=True)
    recorded = journal.create_campaign(campaign_id, title=title, gm=gm, ruleset=ruleset, options=options,
                                       settings=settings, command=key, new_command=new)
    # Answered in words like every other write (the payload table with --verbose).
    state = None if as_json or SETTINGS.verbose else recorded.state
    show_recorded(recorded, as_json, title=f"Campaign {campaign_id} created", state=state, command_id=given,
                  already=recorded.already_recorded)


@app.command("options")
def options_(
    on: Annotated[Optional[list[str]], typer.Option("--on", help="Optional rules to switch on from now: A,B "
                                                    "or repeated (dashes or underscores).")] = None,
    off: Annotated[Optional[list[str]], typer.Option("--off", help="Optional rules to switch off from now.")] = None,
    reason: Annotated[str, typer.Option("--reason", help="Why the GM rules so (recorded).")] = "",
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The campaign's optional rules and settings; with --on/--off, a GM's ruling switching some rules
    from this point on (recorded; what came before keeps the rules it was played under)."""
    from yarnlog.core.referee import invalid
    from yarnlog.core.ruleset import get_ruleset
    from yarnlog.core.table import ChangeOptions

    if on or off:
        switched_on, switched_off = _option_names(on or []), _option_names(off or [])
        both = sorted(set(switched_on) & set(switched_off))
        invalid(not both, f"both --on and --off: {', '.join(both)}")
        changes = {**switched_on, **{name: False for name in switched_off}}
        state = campaign_state(campaign)
        command = ChangeOptions(options=changes, by=by or state.table.gm, reason=reason)
        run_command(campaign, command, by=by, as_json=as_json)
        return
    state = campaign_state(campaign)
    ruleset = get_ruleset(state.table.ruleset)
    # One row per optional rule, then one per setting chosen at init (a ruleset without settings: as before).
    data = [{"option": name.replace("_", "-"), "on": bool(state.table.options.get(name)), "book": where}
            for name, where in ruleset.options.items()]
    data += [{"setting": name.replace("_", "-"), "value": state.table.settings.get(name), "book": s.where}
             for name, s in ruleset.settings.items()]

    def render(rows: list[dict]) -> None:
        options = [r for r in rows if "option" in r]
        settings = [r for r in rows if "setting" in r]
        if options or not settings:
            print_table(f"{state.table.title}: optional rules", ("option", "on", "book"),
                        [(r["option"], "on" if r["on"] else "off", r["book"]) for r in options])
        if settings:
            print_table(f"{state.table.title}: settings chosen at init", ("setting", "value", "book"),
                        [(r["setting"], "unset" if r["value"] is None else str(r["value"]), r["book"])
                         for r in settings])

    emit(data, as_json, render)


@app.command()
def campaigns(as_json: JsonOpt = False) -> None:
    """List the campaigns in the journal."""
    journal = open_journal()
    rows = []
    for cid in journal.campaigns():
        state = journal.state(cid)
        rows.append({"campaign_id": cid, "title": state.table.title, "ruleset": state.table.ruleset,
                     "gm": state.table.gm, "events": state.sequence})

    def render(data):
        from rich.table import Table

        table = Table(title="Campaigns")
        for col in ("id", "title", "ruleset", "GM", "events"):
            table.add_column(col)
        for r in data:
            table.add_row(r["campaign_id"], r["title"], r["ruleset"], r["gm"], str(r["events"]))
        console().print(table)

    emit(rows, as_json, render)


@app.command()
def join(
    name: Annotated[str, typer.Argument(help="Participant's name.")],
    role: Annotated[str, typer.Option("--role", help="player or gm")] = "player",
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Seat a participant (a player, or a further GM) at the table."""
    from yarnlog.core.table import AddParticipant

    run_command(campaign, AddParticipant(name=name, role=role), by=by, as_json=as_json)


@app.command()
def leave(
    name: Annotated[str, typer.Argument(help="Participant's name.")],
    reason: Annotated[str, typer.Option("--reason")] = "",
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Record that a participant left the table."""
    from yarnlog.core.table import RemoveParticipant

    run_command(campaign, RemoveParticipant(name=name, reason=reason), by=by, as_json=as_json)
