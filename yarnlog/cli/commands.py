"""The command table: every core verb registered on :data:`~yarnlog.cli.root.app` (each module of
verbs registers its own when imported), built once per process into the click group the command
line and the console parse with. Kept light: a verb is built when first used (:mod:`yarnlog.cli.verbs`).
"""

from __future__ import annotations

from typing import Any

from yarnlog.cli import amendments, campaign, evidence, interchange, reading, timeline, verification, web
from yarnlog.cli.root import app
from yarnlog.cli.verbs import command_tree

#: The modules whose verbs are registered on ``app`` (imported for that).
VERB_MODULES = (campaign, timeline, amendments, reading, verification, interchange)

# -- tamper evidence (yarnlog.cli.evidence) -------------------------------------------------

app.command("digest")(evidence.digest)
app.command("check-proof")(evidence.check_proof)
app.command("keygen")(evidence.keygen)
app.add_typer(evidence.db_app, name="db")

# -- the players' page (yarnlog.cli.web) -----------------------------------------------------

app.command("serve")(web.serve)
app.command("invite")(web.invite)


_command: Any = None


def root_command() -> Any:
    """The command line's click group, built once per process: the very table ``yarnlog`` parses with."""
    global _command
    if _command is None:
        # Building a click command reads its signature: once per process, and only the verbs used.
        _command = command_tree(app)
    return _command


def usage_error(exc: Any) -> str:
    """A click usage error in one line, lower-cased like the journal's own, naming the verb and its help:
    ``yarnlog init: missing option '--title' (see 'yarnlog init --help')``."""
    message = " ".join(exc.format_message().split())
    message = message[:1].lower() + message[1:]
    ctx = getattr(exc, "ctx", None)
    if ctx is None:
        return message
    return f"{ctx.command_path}: {message.rstrip('.')} (see '{ctx.command_path} --help')"
