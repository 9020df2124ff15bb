"""DramaSystem's dramatic verbs: the very functions Yarn registers (:mod:`yarnlog.rulesets.yarn.cli.drama`).

Each verb only builds a plain command of the dramatic core (``ResolvePetition``, ``Force``,
``TwoWay``), which DramaSystem's own composition of the core decides; so the verbs are written once.
"""

import typer


def register(app: typer.Typer) -> None:
    from yarnlog.rulesets.yarn.cli.drama import force, petition, two_way

    app.command("petition")(petition)
    app.command("force")(force)
    app.command("two-way")(two_way)
