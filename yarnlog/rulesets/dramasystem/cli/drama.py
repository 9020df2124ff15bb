"""DramaSystem's dramatic verbs: the very functions Yarn registers (:mod:`yarnlog.rulesets.yarn.cli.drama`
and :mod:`yarnlog.rulesets.yarn.cli.characters`).

Each verb only builds a plain command of the shared core (``ResolvePetition``, ``Duck``,
``SpendBennie``, ``IntroduceSupporting``, ``DrawPrecedence`` ...), which DramaSystem's own
composition of the core decides; so the verbs are written once. So is ``relationships``, the
relationship map read from either state's roster; Yarn's other read verbs (``precedence show``,
``cast``...) read Yarn's sheets and are not offered here.
"""

from collections.abc import Callable
from typing import Annotated, Any, Optional

import typer

from yarnlog.cli.context import run_command
from yarnlog.cli.options import ByOpt, CampaignOpt, JsonOpt, OverrideOpt

Names = Optional[list[str]]


def _group(help_text: str, verbs: tuple[tuple[str, Callable[..., Any]], ...]) -> typer.Typer:
    group = typer.Typer(help=help_text, no_args_is_help=True)
    for name, verb in verbs:
        group.command(name)(verb)
    return group


def call(
    caller: Annotated[str, typer.Argument(help="Who calls the scene (a player, or the GM).")],
    cast: Annotated[Names, typer.Option("--cast", help="Characters in the scene (A,B or repeated).")] = None,
    mode: Annotated[Optional[str], typer.Option("--mode", help="dramatic or procedural")] = None,
    setting: Annotated[str, typer.Option("--setting", help="Where it takes place.")] = "",
    situation: Annotated[str, typer.Option("--situation", help="What is happening at the outset.")] = "",
    time_break: Annotated[str, typer.Option("--time-break", help="How much time has passed, if any.")] = "",
    title: Annotated[str, typer.Option("--title")] = "",
    jump_queue: Annotated[bool, typer.Option("--jump-queue", help="Spend a bennie to call out of turn.")] = False,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Call a scene in the calling order (DS11), or out of turn with a bennie (DS76)."""
    from yarnlog.rulesets.dramasystem.cli.procedure import names
    from yarnlog.rulesets.scenes_and_tokens.parts.calling_order import CallInOrder

    run_command(campaign, CallInOrder(caller=caller, title=title, setting=setting, cast=names(cast), mode=mode,
                                      situation=situation, time_break=time_break, jump_queue=jump_queue),
                by=by, override_reason=override, as_json=as_json)


def register(app: typer.Typer) -> None:
    from yarnlog.rulesets.yarn.cli import characters, drama, drama_reports, rulings

    app.command("call")(call)
    app.command("calling-order")(drama_reports.calling_order)
    app.command("relationships")(characters.relationships)  # the map, read from either ruleset's roster
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
    rulings.register(app)  # ruling tokens, ruling note
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
