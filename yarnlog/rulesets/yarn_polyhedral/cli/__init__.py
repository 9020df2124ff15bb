"""The polyhedral Yarn's verbs, offered only in its campaigns."""

import typer

from yarnlog.cli.verbs import Verbs


def register(app: typer.Typer) -> None:
    from yarnlog.rulesets.yarn_polyhedral.cli import play

    play.register(app)


VERBS = Verbs(register=register, title="Yarn (polyhedral)")
