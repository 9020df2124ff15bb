"""``correct`` and ``retract``: an earlier event amended by a new one, shown and asked first.
"""

import json
import sys
from typing import Annotated, Optional

import typer

from yarnlog.cli.context import open_journal, pick_campaign, run_command
from yarnlog.cli.options import ByOpt, CampaignOpt, JsonOpt, OverrideOpt
from yarnlog.cli.output import console
from yarnlog.cli.root import app


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
    from yarnlog.cli.asking import amendment_words, asking_lines
    from yarnlog.cli.context import preview_command
    from yarnlog.core.corrections import effective
    from yarnlog.core.decide import Retract
    from yarnlog.core.referee import InvalidCommand

    verb = "retract" if isinstance(command, Retract) else "correct"
    amendments = preview_command(campaign, command, by=by, override_reason=override)
    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    # The events as they read now (earlier corrections applied): the ones the amendment changes.
    named = {getattr(a, "retracts", getattr(a, "corrects", None)) for a in amendments}
    entry = tuple(r for r in effective(journal.history(cid)) if r.sequence in named)
    target = next(r for r in entry if r.sequence == command.sequence)
    retracting = isinstance(command, Retract)
    words = amendment_words(target, journal.state(cid), None if retracting else amendments[-1].replacement,
                            None if retracting else tuple(command.changes), entry)
    if not yes:
        if not sys.stdin.isatty():  # nobody to answer: refuse in one line rather than record unseen
            raise InvalidCommand(f"{verb} shows the event and asks first: pass --yes to record it "
                                 "(stdin is not a terminal)")
        err = console(stderr=True)
        for line in asking_lines(target, words, retracting):
            err.print(line, markup=False)
        # Asked on stderr and read from stdin here: click's confirm writes the prompt's last space on
        # stdout, which a --json reader would then receive.
        err.print(f"Record this {'retraction' if retracting else 'correction'}? [y/N]:", end=" ", markup=False)
        if sys.stdin.readline().strip().lower() not in ("y", "yes"):
            err.print("nothing recorded", markup=False)
            raise typer.Exit(1)
    run_command(campaign, command, by=by, override_reason=override, as_json=as_json, amended=words)
