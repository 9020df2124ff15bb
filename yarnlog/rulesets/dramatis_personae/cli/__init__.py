"""Dramatis Personae's verbs on the command line, offered only in its campaigns.

Moves: ``character create|minutia|develop``, ``adventure start|end``, ``award``, ``pool restore``,
``advance`` (a level), ``challenge``, ``ranged``, ``contest``, ``melee``, ``finish`` (a finishing
blow), ``wound``, ``fight end`` and ``ruling``. Reads: ``sheet``, ``dice`` (the board of saved dice,
pool and debt), ``ledger``, ``rolls``, ``explain``, ``odds``, ``recap`` and ``modifiers`` (the book's
modifier tables by label). Dice are entered as rolled at the
table (``--faces 6,5,2``) or rolled by the tool from a secure source.
"""

import typer

from yarnlog.cli.verbs import Verbs


def register(app: typer.Typer) -> None:
    from yarnlog.rulesets.dramatis_personae.cli import moves, reads

    moves.register(app)
    reads.register(app)


VERBS = Verbs(register=register, title="Dramatis Personae (Stephen Scholz)")
