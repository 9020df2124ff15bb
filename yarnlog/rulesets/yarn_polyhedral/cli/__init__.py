"""The polyhedral Yarn's verbs, offered only in its campaigns."""

import typer

from yarnlog.cli.verbs import Verbs


def register(app: typer.Typer) -> None:
    from yarnlog.rulesets.yarn_polyhedral.cli import play

    play.register(app)


# Where each verb is registered, in the order the help lists them (single verbs, then the group).
INDEX = dict.fromkeys(("award", "raise", "pay-down", "attain", "train", "flashback", "feat", "attack", "resist",
                       "heal", "rest", "stance", "tension", "trouble", "ruling", "round", "turn", "step", "board",
                       "ledger", "rolls", "sheet", "explain", "recap", "character"),
                      "yarnlog.rulesets.yarn_polyhedral.cli.play:register")

VERBS = Verbs(register=register, title="Yarn (polyhedral)", index=INDEX)
