"""DramaSystem's verbs on the command line, offered only in DramaSystem campaigns.

``yarnlog character create``, ``yarnlog oppose`` (the GM's secret token), ``yarnlog target``,
``yarnlog draw`` (a player's turn), ``yarnlog resolve``, ``yarnlog extra-card`` (DS76), ``yarnlog
procedural-tokens`` (an alias of ``tokens``), ``yarnlog odds``, ``yarnlog advanced ...`` and ``yarnlog
contest ...``; and the dramatic verbs it shares with Yarn: ``call`` (in the calling order, or
``--jump-queue``), ``calling-order``, ``relationships`` (the map), ``petition``, ``force``, ``two-way``,
``quiz``, ``ballot``, ``challenge ...``, ``bennie spend``, ``ruling tokens|note``, ``supporting ...``,
``location ...``, ``precedence draw`` and ``theme choose``. Cards are entered as drawn at the table
(``--cards QH,10S``) or drawn by the tool from the cards left. What people read of the campaign:
``yarnlog sheet``, ``yarnlog tokens``, ``yarnlog ledger``, ``yarnlog explain``, ``yarnlog
resolutions`` and ``yarnlog recap``.
"""

import typer

from yarnlog.cli.verbs import Verbs


def register(app: typer.Typer) -> None:
    from yarnlog.rulesets.dramasystem.cli import drama, procedure, reports

    procedure.register(app)
    reports.register(app)
    drama.register(app)


VERBS = Verbs(register=register, title="DramaSystem SRD (Robin D. Laws)")
