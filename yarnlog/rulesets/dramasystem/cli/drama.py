"""DramaSystem's dramatic verbs: the very functions Yarn registers (:mod:`yarnlog.rulesets.yarn.cli.drama`
and :mod:`yarnlog.rulesets.yarn.cli.characters`).

Each verb only builds a plain command of the dramatic core (``ResolvePetition``, ``Duck``,
``SpendBennie``, ``IntroduceSupporting``, ``DrawPrecedence`` ...), which DramaSystem's own
composition of the core decides; so the verbs are written once. Yarn's read verbs (``precedence
show``, ``cast``...) read Yarn's sheets and are not offered here.
"""

from collections.abc import Callable
from typing import Any

import typer


def _group(help_text: str, verbs: tuple[tuple[str, Callable[..., Any]], ...]) -> typer.Typer:
    group = typer.Typer(help=help_text, no_args_is_help=True)
    for name, verb in verbs:
        group.command(name)(verb)
    return group


def register(app: typer.Typer) -> None:
    from yarnlog.rulesets.yarn.cli import characters, drama

    for name, verb in (("petition", drama.petition), ("force", drama.force), ("two-way", drama.two_way),
                       ("quiz", drama.quiz), ("ballot", drama.ballot)):
        app.command(name)(verb)
    app.add_typer(_group("Challenge the scene in play: duck, rush, time-jump, plot-jump, reversal, novelty, "
                         "procedural, narration; or a location detail.",
                         (("duck", drama.duck), ("rush", drama.rush), ("time-jump", drama.time_jump),
                          ("plot-jump", drama.plot_jump), ("reversal", drama.reversal), ("novelty", drama.novelty),
                          ("procedural", drama.procedural), ("narration", drama.narration),
                          ("location", drama.location))), name="challenge")
    app.add_typer(_group("Spend a bennie.", (("spend", drama.bennie_spend),)), name="bennie")
    app.add_typer(_group("Supporting characters (the GM plays them).",
                         (("add", characters.supporting_add), ("promote", characters.supporting_promote),
                          ("detail", characters.supporting_detail))), name="supporting")
    app.add_typer(_group("Locations introduced in play.",
                         (("add", characters.location_add), ("detail", characters.location_detail))),
                  name="location")
    app.add_typer(_group("Precedence orders: draw one.", (("draw", characters.precedence_draw),)),
                  name="precedence")
    app.add_typer(_group("The next episode's theme, by the theme rota.", (("choose", characters.theme_choose),)),
                  name="theme")
