"""The ``yarnlog`` command line: a thin shell around the journal service.

Start-up stays light: the storage stack (SQLAlchemy, pydantic) and the rulesets are imported
inside the commands that need them. The core verbs are defined here; a ruleset's own verbs are
offered only in its campaigns (:mod:`yarnlog.cli.verbs`). Every command takes ``--json``; errors
are one line on stderr with a meaningful exit code (see :data:`EXIT_CODES`), never a traceback.
"""

import json
import logging
import os
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from typer.core import TyperCommand

from yarnlog.cli import evidence
from yarnlog.cli.context import campaign_state, open_journal, pick_campaign, resolve_as_of, run_command
from yarnlog.cli.options import (
    COMMAND_ID_HELP,
    SETTINGS,
    AsOfOpt,
    ByOpt,
    CampaignOpt,
    EndOfSceneOpt,
    JsonOpt,
    OverrideOpt,
    VisibilityOpt,
)
from yarnlog.cli.output import (
    console,
    emit,
    error_line,
    one_line,
    print_table,
    show_recorded,
    summarize,
    terminal_text,
    working,
)
from yarnlog.cli.verbs import CampaignGroup, command_tree

#: Exit codes: 0 ok, 1 verify found faults, 2 invalid input, 3 refused by a rule,
#: 4 storage error, 5 concurrent write conflict (retry), 70 internal error.
EXIT_CODES = {"ok": 0, "faults": 1, "invalid": 2, "rule": 3, "store": 4, "conflict": 5, "internal": 70}

app = typer.Typer(
    name="yarnlog",
    help="Keep the journal of a tabletop role-playing campaign as an append-only event log.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    cls=CampaignGroup,
)
episode_app = typer.Typer(help="Start and end episodes (one per session).", no_args_is_help=True, cls=CampaignGroup)
scene_app = typer.Typer(help="Open and close scenes.", no_args_is_help=True, cls=CampaignGroup)
app.add_typer(episode_app, name="episode")
app.add_typer(scene_app, name="scene")


@app.callback()
def _root(
    db: Annotated[
        Optional[str],
        typer.Option("--db", envvar="YARNLOG_DB",
                     help="Journal database: a SQLite file path, a postgresql:// URL, or memory:// "
                          "(kept for this run only; default: journals/yarnlog.db)."),
    ] = None,
    campaign: Annotated[
        Optional[str],
        typer.Option("--campaign", "-c", envvar="YARNLOG_CAMPAIGN",
                     help="Campaign id for every verb (default: the only campaign in the journal); "
                          "its system's verbs are listed in --help."),
    ] = None,
    verbose: Annotated[
        bool,
        typer.Option("--verbose", "-v", envvar="YARNLOG_VERBOSE",
                     help="A write shows the payload of each event it recorded, not sentences."),
    ] = False,
) -> None:
    SETTINGS.db = db
    SETTINGS.campaign = campaign
    SETTINGS.verbose = verbose
    SETTINGS.json = False  # until the verb's own --json says otherwise (options.JsonOpt)
    SETTINGS.command_id = None  # a write's own --command-id sets it (see options.add_command_id)


# -- campaign -------------------------------------------------------------------------------


class _InitCommand(TyperCommand):
    """``init``, whose help lists each installed system's optional rules (the rulesets are imported only
    when the help is shown)."""

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
            options = get_ruleset(name).options
        except YarnlogError:
            continue
        if options:
            lines.append(f"{name} optional rules (--option): {', '.join(n.replace('_', '-') for n in options)}")
    return "\n\n".join(lines)


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
    command_id: Annotated[Optional[str], typer.Option("--command-id", help=COMMAND_ID_HELP, metavar="ID")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a campaign (a series) in the journal."""
    from yarnlog.app.command_ids import command_key
    from yarnlog.cli.context import take_command_id

    SETTINGS.command_id = command_id
    given, new = take_command_id()
    options = _option_names(option or [])
    key = command_key(given, ("init", campaign_id, title, gm, ruleset, options))
    journal = open_journal(create=True)
    recorded = journal.create_campaign(campaign_id, title=title, gm=gm, ruleset=ruleset, options=options,
                                       command=key, new_command=new)
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
    """The campaign's optional rules; with --on/--off, a GM's ruling switching some from this point on
    (recorded; what came before keeps the rules it was played under)."""
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
    offered = get_ruleset(state.table.ruleset).options
    data = [{"option": name.replace("_", "-"), "on": bool(state.table.options.get(name)), "book": where}
            for name, where in offered.items()]
    emit(data, as_json, lambda d: print_table(f"{state.table.title}: optional rules", ("option", "on", "book"),
                                              [(r["option"], "on" if r["on"] else "off", r["book"]) for r in d]))


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


# -- timeline -------------------------------------------------------------------------------


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
    """Start the next episode (its system may ask first: the theme rota's chooser, DramaSystem's DS9)."""
    from yarnlog.core.timeline import StartEpisode

    run_command(campaign, StartEpisode(title=title, theme=theme, theme_chosen_by=theme_by), by=by,
                override_reason=override, as_json=as_json)


@episode_app.command("end")
def episode_end(campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None,
                as_json: JsonOpt = False) -> None:
    """End the episode in play (and whatever its system does then: Yarn's bennie vote, tokens back)."""
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


# -- amendments -----------------------------------------------------------------------------


def _parse_assignments(pairs: list[str]) -> dict:
    from yarnlog.cli.options import parse_json
    from yarnlog.core.referee import InvalidCommand

    changes = {}
    for pair in pairs:
        if "=" not in pair:
            raise InvalidCommand(f"--set takes FIELD=VALUE, not {pair!r}")
        key, raw = pair.split("=", 1)
        try:
            json.loads(raw, parse_constant=lambda name: None)
        except (ValueError, RecursionError):
            changes[key] = raw  # not JSON: the text itself
        else:
            changes[key] = parse_json(raw, f"--set {key}")
    return changes


YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Record it without showing the event and asking "
                                      "first (needed when stdin is not a terminal).")]


@app.command()
def correct(
    sequence: Annotated[int, typer.Argument(help="The event to correct.")],
    reason: Annotated[str, typer.Option("--reason")],
    set_: Annotated[Optional[list[str]], typer.Option("--set", help="FIELD=VALUE (JSON or text), repeatable; "
                                                      "FIELD.SUB=VALUE for a field of a nested object.")] = None,
    faces: Annotated[Optional[str], typer.Option("--faces", help="A roll's faces as they really fell, 6,3,2: "
                                                 "its total and outcome are worked out again.")] = None,
    yes: YesOpt = False,
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Correct an earlier event (GM-approved): shows it and asks first. The original stays in the log;
    what the rules derive from the facts corrected (a roll's total, its outcome) is worked out again."""
    from yarnlog.core.decide import Correct
    from yarnlog.core.referee import invalid

    changes = _parse_assignments(set_ or [])
    if faces is not None:
        changes.update(_faces_change(campaign, sequence, faces))
    invalid(bool(changes), "say what to correct: --set FIELD=VALUE or --faces")
    _amend(campaign, Correct(sequence=sequence, changes=changes, reason=reason), by, override, yes, as_json)


@app.command()
def retract(
    sequence: Annotated[int, typer.Argument(help="The event to retract.")],
    reason: Annotated[str, typer.Option("--reason")],
    yes: YesOpt = False,
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Retract an earlier event (GM-approved): shows it and asks first. The original stays in the log."""
    from yarnlog.core.decide import Retract

    _amend(campaign, Retract(sequence=sequence, reason=reason), by, override, yes, as_json)


def _faces_change(campaign: str | None, sequence: int, text: str) -> dict:
    """``--faces``: the change to the one ``faces`` field of event ``sequence`` (``faces`` or ``dice.faces``),
    the faces now entered at the table."""
    from yarnlog.cli.options import parse_faces
    from yarnlog.core.corrections import effective
    from yarnlog.core.referee import InvalidCommand

    journal = open_journal()
    found = {r.sequence: r for r in effective(journal.history(pick_campaign(journal, campaign)))}.get(sequence)
    if found is None:
        raise InvalidCommand(f"there is no event {sequence} to correct")
    data = found.payload.to_data()
    if isinstance(data.get("faces"), list):
        return {"faces": list(parse_faces(text) or ())}
    nested = [key for key, value in data.items() if isinstance(value, dict) and isinstance(value.get("faces"), list)]
    if len(nested) != 1:
        raise InvalidCommand(f"event {sequence} ({found.event_type}) has no dice faces to correct: use --set")
    return {f"{nested[0]}.faces": list(parse_faces(text) or ()), f"{nested[0]}.source": "entered"}


def _amend(campaign: str | None, command, by: str | None, override: str | None, yes: bool, as_json: bool) -> None:
    """Show the event ``command`` amends and what would change, ask, and record it: refused (as the journal
    would refuse it) before anything is asked; without --yes on a stdin that is not a terminal, refused."""
    from yarnlog.cli.context import preview_command
    from yarnlog.core.decide import Retract
    from yarnlog.core.referee import InvalidCommand

    verb = "retract" if isinstance(command, Retract) else "correct"
    amendment = preview_command(campaign, command, by=by, override_reason=override)[-1]
    if not yes:
        if not sys.stdin.isatty():  # nobody to answer: refuse in one line rather than record unseen
            raise InvalidCommand(f"{verb} shows the event and asks first: pass --yes to record it "
                                 "(stdin is not a terminal)")
        journal = open_journal()
        target = next(r for r in journal.history(pick_campaign(journal, campaign)) if r.sequence == command.sequence)
        err = console(stderr=True)
        err.soft_wrap = True  # one line per field, however wide
        where = "".join(f", {k} {v}" for k, v in (("episode", target.episode), ("scene", target.scene)) if v)
        err.print(f"event {target.sequence}: {target.event_type}, by {target.recorded_by}{where}", markup=False)
        err.print(f"  {summarize(target.payload.to_data())}", markup=False)
        if isinstance(command, Retract):
            err.print("would be retracted: every projection leaves it out; it stays in the log", markup=False)
        else:
            before = target.payload.to_data()
            for key, value in amendment.replacement.items():
                if before.get(key) != value:
                    err.print(f"  {key}: {json.dumps(before.get(key))} -> {json.dumps(value)}", markup=False)
        if not typer.confirm(f"Record this {'retraction' if verb == 'retract' else 'correction'}?", err=True):
            err.print("nothing recorded", markup=False)
            raise typer.Exit(1)
    run_command(campaign, command, by=by, override_reason=override, as_json=as_json)


# -- reading --------------------------------------------------------------------------------


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


@app.command()
def verify(
    campaign: CampaignOpt = None,
    snapshots: Annotated[bool, typer.Option("--snapshots", help="Also replay fully and compare every stored "
                                            "snapshot and view with the replay at its event.")] = False,
    digest: Annotated[Optional[str], typer.Option("--digest", help="A digest kept from earlier ('yarnlog digest'): "
                                                  "the journal must still hold exactly that history.")] = None,
    key: Annotated[Optional[Path], typer.Option("--key", help="With --digest: the GM's public key file; the "
                                                "digest must be signed with it.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Check the hash chain, the payloads and the rules, and that every cached snapshot and view a read
    would use says what a full replay says; exit 1 on any fault. --snapshots checks every cached row,
    each listed. With --digest,
    also check that the journal extends exactly the history that digest pins (nothing cut or changed)."""
    from yarnlog.cli.evidence import check_digest_option
    from yarnlog.core.referee import invalid

    pinned = check_digest_option(digest, key)
    journal = open_journal()
    cid = pick_campaign(journal, campaign or (pinned.campaign_id if pinned else None))
    # A campaign that is not there is a mistyped id (exit 2), not a journal with faults (exit 1).
    invalid(cid in journal.campaigns(), f"no campaign {cid!r} in this journal")
    with working(f"verifying {cid}: hash chain, payloads, rules"):
        report = journal.verify(cid, caches=not snapshots)  # --snapshots checks each one below
    if pinned is not None and report.events:  # (no campaign at all is already the one fault)
        from yarnlog.cli.evidence import digest_faults

        report.faults.extend(digest_faults(journal, cid, pinned, key))
    if snapshots:
        with working(f"verifying {cid}: snapshots against a full replay"):
            checks = journal.check_snapshots(cid)
        _verify_snapshots(report, checks, as_json)
        return

    def render(d):
        from rich.text import Text

        out = console()
        if d["ok"]:
            out.print(Text.assemble(("ok", "green"), terminal_text(f": {cid}, {d['events']} events, "
                                                                  f"chain head {d['head']}")))
            if pinned is not None:
                out.print(f"It extends the digest of event {pinned.size}"
                          f"{', signed with that key' if key else ''}: nothing changed.", markup=False, emoji=False)
            return
        first = d["faults"][0]
        err = console(stderr=True)
        err.print(Text.assemble(("FAULT", "red"), terminal_text(f" at event {first['sequence']} "
                                                                f"({first['event_type']}): {first['problem']}")))
        for fault in d["faults"][1:]:
            err.print(f"  also event {fault['sequence']} ({fault['event_type']}): {fault['problem']}")
        err.print(f"{len(d['faults'])} fault(s) in {d['events']} events")

    data = report.to_data()
    if pinned is not None:
        data["digest"] = pinned.line()
    emit(data, as_json, render)
    if not report.ok:
        raise typer.Exit(EXIT_CODES["faults"])


def _verify_snapshots(report, checks, as_json: bool) -> None:
    """``verify --snapshots``: the report, each snapshot's check, and exit 1 if either found a fault."""
    data = {**report.to_data(), "snapshots": [{**c._asdict(), "ok": c.ok} for c in checks]}
    data["ok"] = report.ok and all(c.ok for c in checks)

    def render(d):
        out, err = console(), console(stderr=True)
        for fault in d["faults"]:
            err.print(f"FAULT at event {fault['sequence']} ({fault['event_type']}): {fault['problem']}", markup=False)
        for check in d["snapshots"]:
            line = f"snapshot {check['kind']} at event {check['sequence']}: {check['status']}" + \
                (f" ({check['detail']})" if check["detail"] else "")
            (out if check["ok"] else err).print(line, markup=False)
        (out if d["ok"] else err).print(f"{'ok' if d['ok'] else 'FAULTS'}: {d['campaign_id']}, {d['events']} events, "
                                        f"{len(d['snapshots'])} snapshot(s) checked", markup=False)

    emit(data, as_json, render)
    if not data["ok"]:
        raise typer.Exit(EXIT_CODES["faults"])


@app.command("export")
def export_(
    campaign: CampaignOpt = None,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="File to write (default: stdout).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Write the campaign as JSON Lines: one canonical event per line, hashes included."""
    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    with working(f"exporting {cid}"):
        lines = journal.export_lines(cid)
    if output is None:
        sys.stdout.writelines(lines)
        return
    try:
        output.write_text("".join(lines), encoding="utf-8")
    except OSError as exc:
        from yarnlog.core.referee import InvalidCommand

        raise InvalidCommand(f"cannot write {output}: {exc.strerror or exc}") from None
    summary = {"campaign_id": cid, "events": len(lines) - 1, "file": str(output)}  # the last line is the trailer
    emit(summary, as_json,
         lambda d: console().print(f"exported {d['events']} events of {cid} to {d['file']}", markup=False))


@app.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="A JSON Lines export ('-' for stdin).")],
    without_trailer: Annotated[bool, typer.Option("--without-trailer", help="Accept a file with no trailer (an "
                                                  "export older than trailers): a cut tail then goes unnoticed.")]
        = False,
    as_json: JsonOpt = False,
) -> None:
    """Read an export back, checking every line, the trailer, the chain and the rules; all or nothing."""
    from yarnlog.app.interchange import file_lines, read_export
    from yarnlog.core.referee import InvalidCommand

    # Read as bytes, a line at a time: each line is decoded and checked on its own, its size bounded.
    if str(file) == "-":
        export = read_export(file_lines(sys.stdin.buffer), require_trailer=not without_trailer)
    else:
        try:
            with file.open("rb") as stream:
                export = read_export(file_lines(stream), require_trailer=not without_trailer)
        except OSError as exc:
            raise InvalidCommand(f"cannot read {file}: {exc.strerror or exc}") from None
    records = export.records
    journal = open_journal(create=True)
    with working(f"checking and importing {len(records)} events"):
        present, written = journal.import_events(records, line_numbers=export.line_numbers,
                                                 payloads=export.payloads)
    if export.trailer is None:  # said once the import stands: a refusal stays one line
        sys.stderr.write(f"warning: {file} has no trailer: whether events were cut from its end cannot be told\n")
    summary = {"campaign_id": records[0].campaign_id, "already_present": present, "imported": written}
    emit(summary, as_json, lambda d: console().print(
        f"{d['campaign_id']}: imported {d['imported']} events ({d['already_present']} already present)"))


@app.command()
def play(campaign: CampaignOpt = None,
         as_json: Annotated[bool, typer.Option("--json", help="Every entry answers in JSON.")] = False) -> None:
    """An interactive console on the campaign for the whole session: the same verbs, tab completion,
    a status line (episode, scene, callers, tokens, bennies, hit points), undo and dice?."""
    from yarnlog.cli.console import play as play_console

    play_console(SETTINGS.db, campaign or SETTINGS.campaign, as_json=as_json)


# -- tamper evidence (yarnlog.cli.evidence) -------------------------------------------------

app.command("digest")(evidence.digest)
app.command("check-proof")(evidence.check_proof)
app.command("keygen")(evidence.keygen)
app.add_typer(evidence.db_app, name="db")


# -- entry point ----------------------------------------------------------------------------


_command = None


def main() -> None:
    """Run the CLI; turn every error into one line on stderr and an exit code."""
    global _command
    if _command is None:
        # A driver's own log lines (psycopg's "error ignored terminating ..." after a failed COPY) would
        # reach stderr beside the one line that says what failed: the error itself is reported below.
        logging.getLogger("psycopg").addHandler(logging.NullHandler())
        logging.getLogger("psycopg").propagate = False
        # Building a click command reads its signature: once per process, and only the verbs used.
        _command = command_tree(app)
    from typer._click.exceptions import ClickException, NoArgsIsHelpError
    from typer.exceptions import Abort

    try:
        # Not standalone: click's own errors (a missing option...) come here, to be told in one line.
        code = _command.main(prog_name="yarnlog", standalone_mode=False)
    except SystemExit:
        raise
    except NoArgsIsHelpError as exc:  # a bare group: typer's rich help has already printed its help on stdout
        if exc.format_message().strip():  # (plain click gives it as the message instead)
            exc.show()
        sys.exit(exc.exit_code)
    except ClickException as exc:
        sys.stderr.write(f"error: {one_line(_usage_error(exc))}\n")
        sys.exit(exc.exit_code)
    except Abort:
        sys.stderr.write("error: aborted\n")
        sys.exit(1)
    except Exception as exc:  # the one place that may catch everything: no traceback reaches a user
        from yarnlog.core.referee import YarnlogError

        if isinstance(exc, YarnlogError):
            sys.stderr.write(error_line(exc, full=SETTINGS.json or SETTINGS.verbose) + "\n")
            sys.exit(exc.exit_code)
        if type(exc).__module__.startswith("sqlalchemy"):
            # The database could not be reached or refused the work: a storage error, not a bug.
            reason = str(getattr(exc, "orig", exc)).strip().splitlines()[0]
            sys.stderr.write(f"error: the journal database failed: {one_line(reason)}\n")
            sys.exit(EXIT_CODES["store"])
        if os.environ.get("YARNLOG_DEBUG"):
            raise
        sys.stderr.write(
            f"internal error: {type(exc).__name__}: {one_line(str(exc))} (set YARNLOG_DEBUG=1 for details)\n")
        sys.exit(EXIT_CODES["internal"])
    if isinstance(code, int) and code:  # typer.Exit(N) from a verb (verify's faults)
        sys.exit(code)


def _usage_error(exc) -> str:
    """A click usage error in one line, lower-cased like the journal's own, naming the verb and its help:
    ``yarnlog init: missing option '--title' (see 'yarnlog init --help')``."""
    message = " ".join(exc.format_message().split())
    message = message[:1].lower() + message[1:]
    ctx = getattr(exc, "ctx", None)
    if ctx is None:
        return message
    return f"{ctx.command_path}: {message.rstrip('.')} (see '{ctx.command_path} --help')"
