"""The ``yarnlog`` command group: its options for every verb (``--db``, ``--campaign``, ``--verbose``),
the groups of verbs (``episode``, ``scene``) and the exit codes. The verbs register themselves on it
(:mod:`yarnlog.cli.commands` gathers them); a ruleset's own verbs are offered only in its campaigns
(:mod:`yarnlog.cli.verbs`).
"""

from typing import Annotated, Optional

import typer

from yarnlog.cli.options import SETTINGS
from yarnlog.cli.verbs import CampaignGroup

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
