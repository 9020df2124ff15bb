"""Will & Descriptors' verbs on the command line, offered only in its campaigns.

Moves (the campaign's track, Will and die are settings chosen at ``init``): ``character create``,
``opposed`` (an opposed roll), ``recover`` (a Recovery roll), ``describe`` (a Scene Descriptor),
``stick``, ``harm``, ``heal``, ``refresh``, ``shift``, ``xp``, ``advance`` and ``ruling``. Reads:
``sheet``, ``board``, ``ledger``, ``rolls``, ``odds``, ``recap`` and ``explain``. Only typer and
:mod:`yarnlog.cli` are imported at start-up.
"""

import typer

from yarnlog.cli.verbs import Verbs


def register(app: typer.Typer) -> None:
    from yarnlog.rulesets.will_descriptors.cli import moves, reports

    moves.register(app)
    reports.register(app)


VERBS = Verbs(register=register, title="Will & Descriptors (draft)")
