"""Will & Descriptors' moves at the table (the campaign's track, Will and die are chosen at ``init``:
``yarnlog init sea --ruleset will-descriptors --setting track=4``).

``yarnlog opposed Christopher --against Bob --use Knots --use Bob:Proud --oppose Slippery --faces 9,8,7,3
--against-faces 6,2`` (omit the faces and the tool rolls them); ``harm Bob`` (or ``--injury NAME``);
``describe "Bob is tied up" --about Bob``; ``stick "Bob is tied up" --payer Bob --to Bob``.
"""

from typing import Annotated, Optional

import typer

from yarnlog.cli.context import run_command
from yarnlog.cli.options import ByOpt, CampaignOpt, JsonOpt, OverrideOpt, parse_faces

Many = Optional[list[str]]
character_app = typer.Typer(help="Characters: create one with its Will, descriptors, Background and Keys.",
                            no_args_is_help=True)


def _many(values: Many) -> tuple[str, ...]:
    return tuple(v.strip() for v in values or () if v.strip())


def _descriptor(text: str) -> tuple[str, int, str]:
    """``Knots=3`` or ``Knots=3:Abilities`` (the category is optional)."""
    from yarnlog.core.referee import InvalidCommand

    name, eq, rest = text.partition("=")
    dice, _, category = rest.partition(":")
    if not eq or not dice.strip().isdigit():
        raise InvalidCommand(f"a descriptor is NAME=DICE or NAME=DICE:CATEGORY, not {text!r}")
    return name.strip(), int(dice), category.strip()


def _key(text: str) -> tuple[str, str]:
    from yarnlog.core.referee import InvalidCommand

    name, eq, framework = text.partition("=")
    if not eq:
        raise InvalidCommand(f"a Key is NAME=dramatic or NAME=motivation, not {text!r}")
    return name.strip(), framework.strip()


@character_app.command("create")
def create(
    name: Annotated[str, typer.Argument(help="The character's name.")],
    player: Annotated[Optional[str], typer.Option("--player", help="Who plays it (default: the GM).")] = None,
    descriptor: Annotated[Many, typer.Option("--descriptor", "-d", help="NAME=DICE[:CATEGORY] (repeat).")] = None,
    background: Annotated[Many, typer.Option("--background", help="A Background entry (repeat).")] = None,
    key: Annotated[Many, typer.Option("--key", help="NAME=dramatic or NAME=motivation (repeat).")] = None,
    will: Annotated[Optional[int], typer.Option("--will", min=1, max=1000, help="Starting Will (default: the "
                                                "campaign's).")] = None,
    track: Annotated[Optional[int], typer.Option("--track", min=1, max=100, help="Its own Power track's boxes "
                                                 "(default: the campaign's).")] = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Create a character: Will, descriptors rated in dice, Background, Keys."""
    from yarnlog.rulesets.will_descriptors.parts.sheets import CreateCharacter

    command = CreateCharacter(name, player, will, track, tuple(_descriptor(d) for d in _many(descriptor)),
                              _many(background), tuple(_key(k) for k in _many(key)))
    run_command(campaign, command, by=by, override_reason=override, as_json=as_json)


def opposed(
    character: Annotated[str, typer.Argument(help="The acting character (side A).")],
    defender: Annotated[str, typer.Option("--against", help="The opposing character (side B).")],
    use: Annotated[Many, typer.Option("--use", help="A descriptor in A's pool: NAME, OWNER:NAME for an opponent's "
                                      "or a Scene Descriptor's name (1 Will each, W5).")] = None,
    oppose: Annotated[Many, typer.Option("--oppose", help="A descriptor in B's pool (as --use).")] = None,
    faces: Annotated[Optional[str], typer.Option("--faces", help="A's faces as rolled (9,8,3); omit: the tool "
                                                 "rolls.")] = None,
    against_faces: Annotated[Optional[str], typer.Option("--against-faces", help="B's faces as rolled.")] = None,
    stakes: Annotated[str, typer.Option("--stakes", help="What the roll decides, in words.")] = "",
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """An opposed roll: both pools, highest die wins, tied pairs cancel (W5-W11)."""
    from yarnlog.rulesets.will_descriptors.parts.rolls import OpposedRoll

    command = OpposedRoll(character, defender, _many(use), _many(oppose), parse_faces(faces),
                          parse_faces(against_faces), stakes)
    run_command(campaign, command, by=by, override_reason=override, as_json=as_json)


def recover(
    target: Annotated[str, typer.Argument(metavar="PATIENT", help="The injured character.")],
    injury: Annotated[str, typer.Option("--injury", help="The Injury rolled against.")],
    healer: Annotated[Optional[str], typer.Option("--healer", help="Who rolls (default: the patient).")] = None,
    use: Annotated[Many, typer.Option("--use", help="A descriptor in the healer's pool (1 Will each).")] = None,
    faces: Annotated[Optional[str], typer.Option("--faces", help="The healer's faces; omit: the tool rolls.")] = None,
    injury_faces: Annotated[Optional[str], typer.Option("--injury-faces", help="The Injury's faces.")] = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """A Recovery roll against an Injury: successes reduce it die for die (W20, reading 10)."""
    from yarnlog.rulesets.will_descriptors.parts.rolls import OpposedRoll

    command = OpposedRoll(healer or target, None, _many(use), (), parse_faces(faces), parse_faces(injury_faces),
                          recovery=(target, injury))
    run_command(campaign, command, by=by, override_reason=override, as_json=as_json)


def describe(
    name: Annotated[str, typer.Argument(help="The Scene Descriptor, e.g. 'Bob is tied up'.")],
    dice: Annotated[Optional[int], typer.Option("--dice", help="Its dice (default: the successes, W13).")] = None,
    target: Annotated[Optional[str], typer.Option("--about", help="The character it is about.")] = None,
    roll_: Annotated[Optional[int], typer.Option("--roll", help="The roll's event (default: the last).")] = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """The winner turns the successes into a Scene Descriptor (W13)."""
    from yarnlog.rulesets.will_descriptors.parts.scenes import CreateSceneDescriptor

    run_command(campaign, CreateSceneDescriptor(name, dice, target, roll_), by=by, override_reason=override,
                as_json=as_json)


def stick(
    name: Annotated[str, typer.Argument(help="The Scene Descriptor.")],
    payer: Annotated[str, typer.Option("--payer", help="Who pays the Will point.")],
    target: Annotated[str, typer.Option("--to", help="The character it sticks to.")],
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Pay 1 Will to make a Scene Descriptor stick to a character (W14)."""
    from yarnlog.rulesets.will_descriptors.parts.scenes import StickDescriptor

    run_command(campaign, StickDescriptor(name, payer, target), by=by, override_reason=override, as_json=as_json)


def harm(
    character: Annotated[str, typer.Argument(help="The roll's loser.")],
    injury: Annotated[Optional[str], typer.Option("--injury", help="Take an Injury of this name instead of a box "
                                                  "(W16).")] = None,
    name: Annotated[Optional[str], typer.Option("--name", help="The collision's Injury's name (W17).")] = None,
    roll_: Annotated[Optional[int], typer.Option("--roll", help="The roll's event (default: the last).")] = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """The loser crosses off the box equal to the successes, or takes an Injury (W15-W18)."""
    from yarnlog.rulesets.will_descriptors.parts.harm import TakeHarm

    run_command(campaign, TakeHarm(character, roll_, injury is not None, injury or name), by=by,
                override_reason=override, as_json=as_json)


def heal(
    character: Annotated[str, typer.Argument(help="The injured character.")],
    injury: Annotated[str, typer.Option("--injury", help="The Injury gone.")],
    reason: Annotated[str, typer.Option("--reason", help="How the fiction removed it (W19).")],
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """The GM rules an Injury gone as a result of the fiction (W19)."""
    from yarnlog.rulesets.will_descriptors.parts.harm import RemoveInjury

    run_command(campaign, RemoveInjury(character, injury, reason), by=by, override_reason=override, as_json=as_json)


def refresh(
    character: Annotated[str, typer.Argument(help="Who has the Refreshment scene.")],
    other: Annotated[Optional[str], typer.Option("--with", help="The other character (restores the track, "
                                                 "W22).")] = None,
    escalation: Annotated[str, typer.Option("--escalation", help="How the GM escalates the situation "
                                            "(W24).")] = "",
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """A Refreshment scene between scenes: Will back to its start, the track with a partner (W21-W24)."""
    from yarnlog.rulesets.will_descriptors.parts.scenes import HaveRefreshment

    run_command(campaign, HaveRefreshment(character, other, escalation), by=by, override_reason=override,
                as_json=as_json)


def shift(
    text: Annotated[str, typer.Argument(help="How the GM shifts the situation.")],
    roll_: Annotated[Optional[int], typer.Option("--roll", help="The stalemate's event (default: the last "
                                                 "roll).")] = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """After a real stalemate the GM shifts the situation (W11)."""
    from yarnlog.rulesets.will_descriptors.parts.scenes import ShiftStalemate

    run_command(campaign, ShiftStalemate(text, roll_), by=by, override_reason=override, as_json=as_json)


def xp(
    character: Annotated[str, typer.Argument(help="Whose Key pays.")],
    key: Annotated[str, typer.Option("--key", help="The Key.")],
    trigger: Annotated[str, typer.Option("--trigger", help="involved (1), challenged (2), progresses (5); "
                                         "expresses (1), despite-risk (3); buyoff (10).")],
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """XP from a Key (W25, W26); a buy-off discards the Key."""
    from yarnlog.rulesets.will_descriptors.parts.keys import AwardXp

    run_command(campaign, AwardXp(character, key, trigger), by=by, override_reason=override, as_json=as_json)


def advance(
    character: Annotated[str, typer.Argument(help="Who spends.")],
    change: Annotated[str, typer.Argument(help="raise, lower, new-descriptor, to-background, from-background, "
                                          "new-key.")],
    subject: Annotated[str, typer.Argument(metavar="TARGET", help="The descriptor, Background entry or Key.")],
    category: Annotated[str, typer.Option("--category", help="A new descriptor's category.")] = "",
    framework: Annotated[Optional[str], typer.Option("--framework", help="A new Key's: dramatic or "
                                                     "motivation.")] = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Spend Advances: n to raise or lower an nD descriptor, 1 for the rest (W28-W30)."""
    from yarnlog.rulesets.will_descriptors.parts.keys import SpendAdvance

    run_command(campaign, SpendAdvance(character, change, subject, category, framework), by=by,
                override_reason=override, as_json=as_json)


def ruling(
    text: Annotated[str, typer.Argument(help="The GM's ruling.")],
    target: Annotated[Optional[str], typer.Option("--about", help="The character it concerns.")] = None,
    campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False,
) -> None:
    """A GM's ruling where the draft is silent (recorded with its text)."""
    from yarnlog.rulesets.will_descriptors.parts.keys import RecordRuling

    run_command(campaign, RecordRuling(text, target), by=by, as_json=as_json)


def register(app: typer.Typer) -> None:
    for verb in (opposed, recover, describe, stick, harm, heal, refresh, shift, xp, advance, ruling):
        app.command()(verb)
    app.add_typer(character_app, name="character")
