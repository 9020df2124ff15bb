"""Command line of the Yarn drama part: calling scenes, challenges, petitions, bennies, tokens.

Quick to type at the table: ``yarnlog call Ana --cast Iris,Tom --mode dramatic``, ``yarnlog
petition --petitioner Iris --granter Tom refused``, ``yarnlog ballot --voter Ana Ben Cy``. Lists
take commas or repeated options. Only typer and the shared :mod:`yarnlog.cli` modules are imported here at
start-up; the domain modules are imported inside the commands.
"""

from typing import Annotated, Optional

import typer

from yarnlog.cli.context import campaign_state
from yarnlog.cli.options import ByOpt, CampaignOpt, JsonOpt, OverrideOpt
from yarnlog.rulesets.scenes_and_tokens.cli.exchanges import names, run

Names = Optional[list[str]]



# -- scene calls ------------------------------------------------------------------------------


def call(
    caller: Annotated[str, typer.Argument(help="Who calls the scene (a player, or the GM).")],
    cast: Annotated[Names, typer.Option("--cast", help="Characters in the scene (A,B or repeated).")] = None,
    mode: Annotated[Optional[str], typer.Option("--mode", help="dramatic or procedural")] = None,
    kind: Annotated[Optional[str], typer.Option("--kind", help="soft-open, conference, montage, healing, "
                                                "training, shopping, research")] = None,
    setting: Annotated[str, typer.Option("--setting", help="Where it takes place.")] = "",
    situation: Annotated[str, typer.Option("--situation", help="What is happening at the outset.")] = "",
    time_break: Annotated[str, typer.Option("--time-break", help="How much time has passed, if any.")] = "",
    title: Annotated[str, typer.Option("--title")] = "",
    duration: Annotated[str, typer.Option("--duration", help="A montage's suggested duration.")] = "",
    jump_queue: Annotated[bool, typer.Option("--jump-queue", help="Spend a bennie to call out of turn.")] = False,
    reverses_force: Annotated[bool, typer.Option("--reverses-force", help="The scene is meant to reverse "
                                                 "this episode's force between two of its characters.")] = False,
    new_element: Annotated[str, typer.Option("--new-element", help="The significant new element it adds.")] = "",
    role: Annotated[str, typer.Option("--role", help="opener, development or closer (see 'scene-role').")] = "",
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Call a scene: cast, setting, time break, mode, situation (a drama token if your character is not in it)."""
    from yarnlog.rulesets.yarn.parts.drama.scene_calls import CallScene

    run(campaign, CallScene(caller=caller, title=title, setting=setting, cast=names(cast), mode=mode, kind=kind,
                             situation=situation, time_break=time_break, duration=duration, jump_queue=jump_queue,
                             reverses_force=reverses_force, new_element=new_element, role=role),
         by, override, as_json)


def scene_role(
    role: Annotated[str, typer.Argument(help="opener, development or closer")],
    scene: Annotated[Optional[int], typer.Option("--scene", help="The scene (default: in play, or the last).")] = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Name a scene's part in the episode: its opener, a development scene, or its closer."""
    from yarnlog.rulesets.yarn.parts.drama.scene_roles import NameSceneRole

    run(campaign, NameSceneRole(role.strip().casefold(), scene), by, override, as_json)


def shift(
    location: Annotated[str, typer.Argument(help="The place the scene in play moves to.")],
    describe: Annotated[str, typer.Option("--describe", help="A new place's introductory description.")] = "",
    time_shift: Annotated[str, typer.Option("--time", help="How much later, if the scene also moves in time.")] = "",
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Move the scene in play to another place (--by: who moves it, default the GM)."""
    from yarnlog.rulesets.yarn.parts.drama.setting_shifts import ShiftScene

    mover = by or campaign_state(campaign).table.gm
    run(campaign, ShiftScene(location, mover, describe, time_shift), by, override, as_json)


def montage_action(
    character: Annotated[str, typer.Argument(help="The character (or its player).")],
    action: Annotated[str, typer.Argument(help="What the character does, without significant dialogue.")],
    activity: Annotated[Optional[str], typer.Option("--activity", help="preparing, researching, training, "
                                                    "shopping or travelling")] = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Call an action for your character in the montage in play."""
    from yarnlog.rulesets.yarn.parts.drama.montage_actions import CallMontageAction

    run(campaign, CallMontageAction(character, action, activity), by, override, as_json)


def offstage(campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False) -> None:
    """GM ruling: the shopping scene in play happened off stage (its caller may call again at once)."""
    from yarnlog.rulesets.yarn.parts.drama.scene_calls import RuleOffstage

    run(campaign, RuleOffstage(), by, None, as_json)


# -- challenges -------------------------------------------------------------------------------


# -- petitions --------------------------------------------------------------------------------


# -- bennies and the end of the episode -------------------------------------------------------


def register(app: typer.Typer) -> None:
    """Add the drama commands to the ``yarnlog`` application."""
    from yarnlog.rulesets.scenes_and_tokens.cli import exchanges
    from yarnlog.rulesets.yarn.cli import drama_reports as cli_drama_reports

    app.command("call")(call)
    app.command("scene-role")(scene_role)
    app.command("shift")(shift)
    app.command("montage-action")(montage_action)
    app.command("offstage")(offstage)
    exchanges.register(app)
    cli_drama_reports.register(app)
