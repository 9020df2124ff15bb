"""``yarnlog serve`` (the players' page, :mod:`yarnlog.web`) and ``yarnlog invite`` (a participant's link).

Registered on the command line by :mod:`yarnlog.cli.main`; Starlette and uvicorn are imported
inside ``serve``, so start-up stays light.
"""

from __future__ import annotations

from typing import Annotated

import typer

from yarnlog.cli.context import answer, execute_command, open_journal, pick_campaign, take_command_id
from yarnlog.cli.options import ByOpt, CampaignOpt, JsonOpt
from yarnlog.cli.output import console, emit, recorded_data

#: Where ``yarnlog serve`` listens unless told otherwise: this machine only.
HOST, PORT = "127.0.0.1", 8000


def serve(
    host: Annotated[str, typer.Option("--host", help="The address to listen on (default: this machine only; "
                                      "0.0.0.0 for the players' phones on the local network).")] = HOST,
    port: Annotated[int, typer.Option("--port", help="The port to listen on.", min=1, max=65535)] = PORT,
    workers: Annotated[int, typer.Option("--workers", help="Serve from this many processes, each following "
                                         "the journal on its own (for many readers at once).", min=1,
                                         max=64)] = 1,
    as_json: JsonOpt = False,
) -> None:
    """Serve the players' page: each participant's link (see 'yarnlog invite') opens the campaign as
    they may see it, live and read-only. Ctrl-C stops it."""
    import os

    import uvicorn

    from yarnlog.web.server import DB_VARIABLE, make_app

    journal = open_journal()
    data = {"url": f"http://{host}:{port}/", "campaigns": journal.campaigns(), "workers": workers}
    emit(data, as_json, lambda d: console(stderr=True).print(
        f"Serving the players' page on {d['url']} (Ctrl-C stops it); links: 'yarnlog invite NAME'.",
        markup=False, emoji=False, soft_wrap=True))
    # No access log: every request's path carries a participant's secret.
    # Open streams (the live boards) would hold a graceful shutdown forever: they are cut after a second.
    # No limit on connections (uvicorn would answer 503 past it): a reader waits for a drawing thread instead.
    options = {"host": host, "port": port, "access_log": False, "log_level": "warning",
               "timeout_graceful_shutdown": 1, "backlog": 4096}
    if workers == 1:
        uvicorn.run(make_app(journal), **options)  # type: ignore[arg-type]
        return
    # Each worker process opens the journal itself (uvicorn starts them from the factory's name).
    from yarnlog.cli.options import SETTINGS

    os.environ[DB_VARIABLE] = SETTINGS.db or ""  # empty: the default journal, as here
    journal.close()
    # A worker reading a large campaign's snapshot at start-up holds the interpreter for seconds at a
    # time: uvicorn would take its silence for a hang and kill it (5 s by default).
    uvicorn.run("yarnlog.web.server:app_from_environment", factory=True, workers=workers,
                timeout_worker_healthcheck=600, **options)  # type: ignore[arg-type]


def invite(
    name: Annotated[str, typer.Argument(help="The participant the link is for (the GM's opens the GM's view).")],
    revoke: Annotated[bool, typer.Option("--revoke", help="Close NAME's link instead.")] = False,
    url: Annotated[str, typer.Option("--url", help="Where the players reach 'yarnlog serve'.")] =
        f"http://{HOST}:{PORT}",
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print a link to the players' page for NAME (a new one replaces the old), or revoke it. The
    journal records that NAME was invited, with the hash of the link's secret, never the secret."""
    import secrets

    from yarnlog.core.invites import IssueInvite, RevokeInvite, secret_hash
    from yarnlog.core.referee import InvalidCommand
    from yarnlog.core.state import GM_ONLY

    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    gm = by or journal.state(cid).table.gm
    secret = secrets.token_urlsafe(32)
    command = RevokeInvite(name, gm) if revoke else IssueInvite(name, secret_hash(secret), gm)
    recorded = execute_command(cid, command, by=by, visibility=GM_ONLY, command_id=take_command_id())
    if getattr(recorded, "already_recorded", False) and not revoke:
        raise InvalidCommand("that invitation was already recorded: run 'yarnlog invite' again for a new link")
    who = recorded[0].payload.name
    link = None if revoke else f"{url.rstrip('/')}/c/{cid}/{secret}/"
    if as_json:
        emit({"name": who, "campaign_id": cid, "revoked": revoke, "link": link,
              "events": [recorded_data(r) for r in recorded]}, True)
        return
    if link is not None:
        out = console()
        out.print(f"{who}'s link to the players' page, shown once (give it to {who} only):", markup=False,
                  emoji=False)
        out.print(link, markup=False, emoji=False, soft_wrap=True)
    answer(recorded, False)  # the move in words, as every write says it
