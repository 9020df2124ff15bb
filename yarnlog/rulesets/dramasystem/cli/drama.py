"""DramaSystem's dramatic verbs: the very functions Yarn registers (:mod:`yarnlog.rulesets.yarn.cli.drama`).

Each verb only builds a plain command of the dramatic core (``ResolvePetition``, ``Force``,
``Duck``, ``SpendBennie`` ...), which DramaSystem's own composition of the core decides; so the
verbs are written once. Yarn's ``challenge location`` is left out: DramaSystem does not record
locations yet.
"""

import typer


def register(app: typer.Typer) -> None:
    from yarnlog.rulesets.yarn.cli.drama import (
        ballot,
        bennie_spend,
        duck,
        force,
        narration,
        novelty,
        petition,
        plot_jump,
        procedural,
        reversal,
        rush,
        time_jump,
        two_way,
    )

    app.command("petition")(petition)
    app.command("force")(force)
    app.command("two-way")(two_way)
    app.command("ballot")(ballot)
    challenge = typer.Typer(help="Challenge the scene in play: duck, rush, time-jump, plot-jump, reversal, "
                                 "novelty, procedural, narration.", no_args_is_help=True)
    for name, verb in (("duck", duck), ("rush", rush), ("time-jump", time_jump), ("plot-jump", plot_jump),
                       ("reversal", reversal), ("novelty", novelty), ("procedural", procedural),
                       ("narration", narration)):
        challenge.command(name)(verb)
    app.add_typer(challenge, name="challenge")
    bennie = typer.Typer(help="Spend a bennie.", no_args_is_help=True)
    bennie.command("spend")(bennie_spend)
    app.add_typer(bennie, name="bennie")
