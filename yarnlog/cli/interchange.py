"""``export`` and ``import``: a campaign as JSON Lines, one canonical event a line, and back.
"""

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from yarnlog.cli.context import open_journal, pick_campaign
from yarnlog.cli.options import CampaignOpt, JsonOpt
from yarnlog.cli.output import console, emit, working
from yarnlog.cli.root import app


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
