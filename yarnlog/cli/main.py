"""The ``yarnlog`` command line's entry point: a thin shell around the journal service.

Start-up stays light: the storage stack (SQLAlchemy, pydantic) and the rulesets are imported
inside the commands that need them. The core verbs live in modules named after what they do
(:mod:`yarnlog.cli.commands` gathers them); ``play`` is registered here, above the console it opens,
so the console never imports the entry point. Every command takes ``--json``; errors are one line
on stderr with a meaningful exit code (see :data:`~yarnlog.cli.root.EXIT_CODES`), never a traceback.
"""

import logging
import os
import sys
from typing import Annotated

import typer

from yarnlog.cli.commands import root_command, usage_error
from yarnlog.cli.options import SETTINGS, CampaignOpt
from yarnlog.cli.output import error_line, one_line
from yarnlog.cli.root import EXIT_CODES, app


@app.command()
def play(campaign: CampaignOpt = None,
         as_json: Annotated[bool, typer.Option("--json", help="Every entry answers in JSON.")] = False,
         keep_going: Annotated[bool, typer.Option("--keep-going", help="A script on standard input runs on "
                                                  "past a refused line (it stops at the first by default).")]
         = False) -> None:
    """An interactive console on the campaign for the whole session: the same verbs, tab completion,
    a status line (episode, scene, callers, tokens, bennies, hit points), undo and dice?. A file or a
    pipe on standard input is run as a script, one entry a line."""
    from yarnlog.cli.prompt import play as play_console

    code = play_console(SETTINGS.db, campaign or SETTINGS.campaign, as_json=as_json, keep_going=keep_going)
    if code:
        raise typer.Exit(code)


def main() -> None:
    """Run the CLI; turn every error into one line on stderr and an exit code."""
    # A driver's own log lines (psycopg's "error ignored terminating ..." after a failed COPY) would
    # reach stderr beside the one line that says what failed: the error itself is reported below.
    psycopg = logging.getLogger("psycopg")
    if not psycopg.handlers:
        psycopg.addHandler(logging.NullHandler())
        psycopg.propagate = False
    from typer._click.exceptions import ClickException, NoArgsIsHelpError
    from typer.exceptions import Abort

    try:
        # Not standalone: click's own errors (a missing option...) come here, to be told in one line.
        code = root_command().main(prog_name="yarnlog", standalone_mode=False)
    except SystemExit:
        raise
    except NoArgsIsHelpError as exc:  # a bare group: typer's rich help has already printed its help on stdout
        if exc.format_message().strip():  # (plain click gives it as the message instead)
            exc.show()
        sys.exit(exc.exit_code)
    except ClickException as exc:
        sys.stderr.write(f"error: {one_line(usage_error(exc))}\n")
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
