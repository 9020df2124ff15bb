"""DramaSystem's verbs on the command line, offered only in DramaSystem campaigns.

``yarnlog character create``, ``yarnlog oppose`` (the GM's secret token), ``yarnlog target``,
``yarnlog draw`` (a player's turn), ``yarnlog resolve``, ``yarnlog procedural-tokens`` and
``yarnlog odds``. Cards are entered as drawn at the table (``--cards QH,10S``) or drawn by the
tool from the cards left.
"""

import typer

from yarnlog.cli.verbs import Verbs


def register(app: typer.Typer) -> None:
    from yarnlog.rulesets.dramasystem.cli import procedure

    procedure.register(app)


VERBS = Verbs(register=register, title="DramaSystem SRD (Robin D. Laws)")
