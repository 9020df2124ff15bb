"""DramaSystem's dramatic verbs: its call, and the shared core's verbs
(:mod:`yarnlog.rulesets.scenes_and_tokens.cli`), which Yarn registers too.

Each verb only builds a plain command of the shared core (``ResolvePetition``, ``Duck``,
``SpendBennie``, ``IntroduceSupporting``, ``DrawPrecedence`` ...), which DramaSystem's own
composition of the core decides; so the verbs are written once. So is ``relationships``, the
relationship map read from either state's roster; Yarn's other read verbs (``precedence show``,
``cast``...) read Yarn's sheets and are not offered here.
"""

from typing import Annotated, Optional

import typer

from yarnlog.cli.context import run_command
from yarnlog.cli.options import ByOpt, CampaignOpt, JsonOpt, OverrideOpt

Names = Optional[list[str]]


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
    from yarnlog.rulesets.scenes_and_tokens.cli import cast, exchanges, rulings
    from yarnlog.rulesets.scenes_and_tokens.cli.exchanges import group

    app.command("call")(call)
    app.command("calling-order")(cast.calling_order)
    app.command("relationships")(cast.relationships)  # the map, read from either ruleset's roster
    exchanges.register(app)
    rulings.register(app)  # ruling tokens, ruling note
    app.add_typer(group("Supporting characters (the GM plays them).",
                        (("add", cast.supporting_add), ("promote", cast.supporting_promote),
                         ("detail", cast.supporting_detail))), name="supporting")
    app.add_typer(group("Locations introduced in play.",
                        (("add", cast.location_add), ("detail", cast.location_detail))), name="location")
    app.add_typer(group("Precedence orders: draw one.", (("draw", cast.precedence_draw),)), name="precedence")
    app.add_typer(group("The next episode's theme, by the theme rota.", (("choose", cast.theme_choose),)),
                  name="theme")
