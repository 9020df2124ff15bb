"""Command line of procedural play: rolls, readings, group efforts, consequences, fringe powers, spells.

Only typer and the shared :mod:`yarnlog.cli` modules are imported at start-up; the domain modules are imported
inside the commands. Without ``--faces`` the tool rolls the dice, from a secure source.
"""

from typing import TYPE_CHECKING, Annotated, Optional

import typer

from yarnlog.cli.context import campaign_state, run_command
from yarnlog.cli.options import (
    SETTINGS,
    AsOfOpt,
    ByOpt,
    CampaignOpt,
    EndOfSceneOpt,
    JsonOpt,
    Many,
    OverrideOpt,
    parse_faces,
)
from yarnlog.cli.output import console, emit, print_table

if TYPE_CHECKING:
    from yarnlog.rulesets.yarn.parts.procedure.roll_records import GroupMethod

BonusOpt = Annotated[int, typer.Option("--bonus", help="The GM's bonus dice.")]
PenaltyOpt = Annotated[int, typer.Option("--penalty", help="The GM's penalty dice.")]
XpOpt = Annotated[int, typer.Option("--xp", help="Experience dice used as bonus dice (once per session each).")]
WhyOpt = Annotated[Many, typer.Option("--why", help="A justification of an experience die (one per die).")]
ForOpt = Annotated[str, typer.Option("--for", help="What the roll is for, as the GM said.")]
ExtraOpt = Annotated[int, typer.Option("--extra-actions", help="Extra actions attempted this round.")]
AgainstOpt = Annotated[Optional[int], typer.Option("--against", help="The GM's difficulty factor (a number).")]
DifficultyOpt = Annotated[Optional[str], typer.Option(
    "--difficulty", help="easy (4), moderate (7), hard (11), really difficult (14), near impossible (18).")]
InertOpt = Annotated[Optional[int], typer.Option("--inert-dice", help="Dice the GM rolls for an inert force.")]
InertFacesOpt = Annotated[Optional[str], typer.Option("--inert-faces", help="The inert force's faces, e.g. 4,2,6.")]
OpposedOpt = Annotated[Optional[int], typer.Option("--opposed", help="The opponent's roll (its event number).")]
FacesOpt = Annotated[Optional[str], typer.Option("--faces", help="Faces as rolled at the table, e.g. 6,3,2 "
                                                 "(omit: the tool rolls).")]
TopOffOpt = Annotated[Optional[str], typer.Option("--top-off", help="Extra dice of blowing the top off, e.g. 6,2.")]
ReadingOpt = Annotated[str, typer.Option("--reading", help="The GM's reading of the roll.")]
SecretOpt = Annotated[bool, typer.Option("--secret", help="Only the GM may read it (a GMC's roll, say).")]
TraitOpt = Annotated[Optional[str], typer.Option("--trait", "-t", help="The trait rolled.")]
DiceOpt = Annotated[Optional[int], typer.Option("--dice", help="A GMC's dice for the trait (the GM's say).")]


def _against(against: int | None, difficulty: str | None, inert: int | None, inert_faces: str | None,
             opposed: int | None):
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.yarn.parts.procedure import roll_records

    given = [x for x in (against, difficulty, inert, opposed) if x is not None]
    invalid(len(given) <= 1, "a roll is against one thing: --against, --difficulty, --inert-dice or --opposed")
    invalid(inert_faces is None or inert is not None, "--inert-faces go with --inert-dice")
    if against is not None:
        return roll_records.Factor(against)
    if difficulty is not None:
        return roll_records.difficulty(difficulty)
    if inert is not None:
        return roll_records.InertForce(inert, parse_faces(inert_faces))
    return roll_records.Opposed(opposed) if opposed is not None else None


def _make_roll(hands, *, by, bonus, penalty, xp, why, purpose, extra, against, faces, top_off, reading):
    from yarnlog.rulesets.yarn.parts.procedure.roll_records import MakeRoll

    return MakeRoll(hands=hands, participant=by, bonus=bonus, penalty=penalty, extra_actions=extra,
                    experience_dice=xp, justifications=tuple(why or ()), purpose=purpose, against=against,
                    faces=parse_faces(faces), top_off=parse_faces(top_off) or (), reading=reading)


def _record(campaign: str | None, command, *, by: str | None, secret: bool, override: str | None,
            as_json: bool) -> None:
    """Execute and show what was recorded (with ``--verbose``, the payloads and a recap line for each roll)."""
    recorded = run_command(campaign, command, by=by, visibility="gm" if secret else "everyone",
                           override_reason=override, as_json=as_json)
    from yarnlog.rulesets.yarn.parts.procedure.roll_records import RollMade
    from yarnlog.rulesets.yarn.parts.procedure.roll_reports import roll_data

    rolls = [r for r in recorded if isinstance(r.payload, RollMade)]
    if rolls and not as_json and SETTINGS.verbose:  # in words, the answer has said the roll already
        state = campaign_state(campaign)
        for rec in rolls:
            console().print(roll_data(state, rec)["recap"])


def _state_and_history(campaign: str | None, as_of: int | None, end_of_scene: int | None):
    """The campaign at the point asked and its history up to there (the rolls' reports read the rolls from it)."""
    from yarnlog.cli.context import open_journal, pick_campaign, resolve_as_of

    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    upto = resolve_as_of(journal, cid, as_of, end_of_scene)
    return journal.state(cid, upto=upto), journal.history(cid, upto=upto)


def _trait_use(no_trait: bool, technical: bool, tangential: bool, hand_of_fate: bool):
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.yarn.parts.procedure.roll_records import TraitUse

    flags = [use for use, on in ((TraitUse.NO_TRAIT, no_trait), (TraitUse.TECHNICAL, technical),
                                 (TraitUse.TANGENTIAL, tangential), (TraitUse.HAND_OF_FATE, hand_of_fate)) if on]
    invalid(len(flags) <= 1, "choose one of --no-trait, --technical, --tangential, --hand-of-fate")
    return flags[0] if flags else None


# -- rolls ----------------------------------------------------------------------------------


def roll(
    character: Annotated[str, typer.Argument(help="The character rolling (a PC, or a GMC the GM rolls for).")],
    trait: TraitOpt = None,
    no_trait: Annotated[bool, typer.Option("--no-trait", help="No trait applies: two dice.")] = False,
    technical: Annotated[bool, typer.Option("--technical", help="A technical trait the character lacks: "
                                            "no dice.")] = False,
    tangential: Annotated[bool, typer.Option("--tangential", help="The trait does not exactly apply.")] = False,
    hand_of_fate: Annotated[bool, typer.Option("--hand-of-fate", help="No trait applies, the outcome "
                                               "uncertain: two dice the GM reads.")] = False,
    dice: DiceOpt = None,
    bonus: BonusOpt = 0,
    penalty: PenaltyOpt = 0,
    xp: XpOpt = 0,
    why: WhyOpt = None,
    purpose: ForOpt = "",
    extra_actions: ExtraOpt = 0,
    against: AgainstOpt = None,
    difficulty: DifficultyOpt = None,
    inert_dice: InertOpt = None,
    inert_faces: InertFacesOpt = None,
    opposed: OpposedOpt = None,
    faces: FacesOpt = None,
    top_off: TopOffOpt = None,
    reading: ReadingOpt = "",
    secret: SecretOpt = False,
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Roll for a character: trait dice, bonus and penalty dice, experience dice, against a number or a roll."""
    from yarnlog.rulesets.yarn.parts.procedure.roll_records import Hands

    hands = Hands(character, trait, _trait_use(no_trait, technical, tangential, hand_of_fate), dice)
    command = _make_roll(hands, by=by, bonus=bonus, penalty=penalty, xp=xp, why=why, purpose=purpose,
                         extra=extra_actions, against=_against(against, difficulty, inert_dice, inert_faces, opposed),
                         faces=faces, top_off=top_off, reading=reading)
    _record(campaign, command, by=by, secret=secret, override=override, as_json=as_json)


def read(
    sequence: Annotated[int, typer.Argument(help="The roll (its event number).")],
    reading: Annotated[str, typer.Argument(help="What the GM makes of it.")],
    secret: SecretOpt = False,
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Record the GM's reading of a roll (the hand of fate, a margin, a botch, a limited success)."""
    from yarnlog.rulesets.yarn.parts.procedure.roll_records import ReadRoll

    _record(campaign, ReadRoll(sequence, reading), by=by, secret=secret, override=None, as_json=as_json)


def rolls(
    scene: Annotated[Optional[int], typer.Option("--scene", help="Only rolls of scene N.")] = None,
    episode: Annotated[Optional[int], typer.Option("--episode", help="Only rolls of episode N.")] = None,
    character: Annotated[Optional[str], typer.Option("--character", help="Only this character's rolls.")] = None,
    viewer: Annotated[Optional[str], typer.Option("--as", help="Show only what this participant may see.")] = None,
    campaign: CampaignOpt = None,
    as_of: AsOfOpt = None,
    end_of_scene: EndOfSceneOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List rolls with their dice, outcome and the odds they were made against."""
    from yarnlog.rulesets.yarn.parts.procedure.roll_reports import roll_rows

    rows = roll_rows(*_state_and_history(campaign, as_of, end_of_scene), scene=scene, episode=episode,
                     character=character, viewer=viewer)

    def render(data: list[dict]) -> None:
        from yarnlog.rulesets.yarn.cli.audit_trail import print_rows

        # Legible in 80 columns: the dice on one line, the outcome whole (with its odds), the rest wraps.
        print_rows("Rolls", ("#", "sc", "character", "trait", "dice", "against", "outcome", "notes"), [
            (r["sequence"], r["scene"], r["character"], r["trait"] or r["trait_use"], _dice(r["dice"]),
             _vs(r["against"]), _outcome(r), _notes(r)) for r in data],
            no_wrap=("#", "sc", "dice", "outcome"))

    emit(rows, as_json, render)


def _vs(against: dict | None) -> str:
    if against is None:
        return ""
    number = "?" if against["number"] is None else against["number"]
    where = f" (#{against['roll']})" if against["roll"] else ""
    return f"{against['label'] or against['kind']} {number}{where}"


def _dice(described: str) -> str:
    """The dice as rolled without their notation (``3d6kh2: 6 6 (2) = 12`` -> ``6 6 (2) = 12``): the trait and
    the notes say why so many."""
    return described.split(": ", 1)[-1]


def _outcome(row: dict) -> str:
    """``beats by 1 (38% chance)``: the outcome, the margin and the prior chance of that outcome."""
    if row["outcome"] is None:
        return ", ".join(f"{a['outcome']} vs #{a['roll']}" for a in row["answered_by"])
    odds = f" ({row['odds_of_outcome']} chance)" if row["odds_of_outcome"] else ""
    return row["outcome"] + (f" by {abs(row['margin'])}" if row["margin"] else "") + odds


def _notes(row: dict) -> str:
    notes = [label for label, on in (("botch", row["botch"]), ("good break", row["breaks"]["good"]),
                                     ("bad break", row["breaks"]["bad"]), ("limited success", row["limited_success"]),
                                     (f"{row['sixes']} six(es)", row["sixes"] and not row["limited_success"]),
                                     (f"xp {row['experience_dice']}", row["experience_dice"]),
                                     (f"group #{row['group']}", row["group"]),
                                     ("resisted", row.get("resisted"))) if on]
    if row["psychic"]:
        notes.append(f"{row['psychic']['kind']} {row['psychic']['power']} ({row['psychic']['shots']} shot(s))")
    return "; ".join(notes + row["readings"])


def consequences(
    scene: Annotated[Optional[int], typer.Option("--scene", help="The scene (default: in play, or the last).")] = None,
    do_roll: Annotated[bool, typer.Option("--roll", help="Make the rolls due (closing the scene in play).")] = False,
    face: Annotated[Many, typer.Option("--face", help="CHARACTER:good=6 or CHARACTER:bad=1, as rolled at the "
                                       "table (others are rolled by the tool).")] = None,
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Show the consequence rolls due for a scene's breaks, or make them with --roll."""
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.yarn.parts.procedure.roll_records import ConsequenceFace, RollConsequences
    from yarnlog.rulesets.yarn.parts.procedure.roll_reports import consequence_data

    faces = []
    for item in face or []:
        character, _, rest = item.rpartition(":")
        kind, _, value = rest.partition("=")
        invalid(bool(character) and kind in ("good", "bad") and value.isdigit(),
                f"--face takes CHARACTER:good=N or CHARACTER:bad=N, not {item!r}")
        faces.append(ConsequenceFace(character, "good" if kind == "good" else "bad", int(value)))
    invalid(do_roll or not faces, "--face goes with --roll")
    if do_roll:
        # The rolls answer in words like every move; the table of the scene's consequences is the read.
        run_command(campaign, RollConsequences(scene, tuple(faces)), by=by, override_reason=override, as_json=as_json)
        return
    state = campaign_state(campaign)
    data = consequence_data(state, scene)

    def render(d: dict) -> None:
        print_table(f"Consequences of scene {d['scene']}", ("character", "break", "rolls", "die", "consequence"),
               [(x["character"], x["kind"], ", ".join(f"#{b}" for b in x["breaks"]), "due", "") for x in d["due"]]
               + [(x["character"], x["kind"], ", ".join(f"#{b}" for b in x["breaks"]), x["face"],
                   "yes" if x["consequence"] else "no") for x in d["rolled"]])

    emit(data, as_json, render)


# -- group efforts --------------------------------------------------------------------------

group_app = typer.Typer(help="Group efforts: simple addition, combining dice, either/or, worst roller.",
                        no_args_is_help=True)
RollsArg = Annotated[list[int], typer.Argument(help="The members' rolls (event numbers).")]


def _group(method: "GroupMethod", rolls_: list[int], counting: int | None, against, *, campaign, by, secret, override,
           as_json) -> None:
    from yarnlog.rulesets.yarn.parts.procedure.roll_records import GroupEffort

    _record(campaign, GroupEffort(method, tuple(rolls_), against, counting), by=by, secret=secret,
            override=override, as_json=as_json)


@group_app.command("add")
def group_add(rolls_: RollsArg, against: AgainstOpt = None, difficulty: DifficultyOpt = None,
              inert_dice: InertOpt = None, inert_faces: InertFacesOpt = None, opposed: OpposedOpt = None,
              secret: SecretOpt = False, campaign: CampaignOpt = None, by: ByOpt = None,
              override: OverrideOpt = None, as_json: JsonOpt = False) -> None:
    """Simple addition: the members' totals added together, against one number."""
    _group("simple addition", rolls_, None, _against(against, difficulty, inert_dice, inert_faces, opposed),
           campaign=campaign, by=by, secret=secret, override=override, as_json=as_json)


@group_app.command("either")
def group_either(rolls_: RollsArg,
                 counting: Annotated[Optional[int], typer.Option(
                     "--counting", help="The roll that counts, as the GM determined (omit: the tool picks at "
                                        "random).")] = None,
                 against: AgainstOpt = None, difficulty: DifficultyOpt = None, inert_dice: InertOpt = None,
                 inert_faces: InertFacesOpt = None, opposed: OpposedOpt = None, secret: SecretOpt = False,
                 campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None,
                 as_json: JsonOpt = False) -> None:
    """Either/or: only one member (determined randomly) had a real chance."""
    _group("either/or", rolls_, counting, _against(against, difficulty, inert_dice, inert_faces, opposed),
           campaign=campaign, by=by, secret=secret, override=override, as_json=as_json)


@group_app.command("worst")
def group_worst(rolls_: RollsArg, against: AgainstOpt = None, difficulty: DifficultyOpt = None,
                inert_dice: InertOpt = None, inert_faces: InertFacesOpt = None, opposed: OpposedOpt = None,
                secret: SecretOpt = False, campaign: CampaignOpt = None, by: ByOpt = None,
                override: OverrideOpt = None, as_json: JsonOpt = False) -> None:
    """Worst roller: all roll, the worst roll decides."""
    _group("worst roller", rolls_, None, _against(against, difficulty, inert_dice, inert_faces, opposed),
           campaign=campaign, by=by, secret=secret, override=override, as_json=as_json)


def _member(text: str):
    """``NAME`` (no trait), ``NAME=TRAIT`` (a PC's trait), ``NAME:N`` or ``NAME=TRAIT:N`` (a GMC's dice)."""
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.yarn.parts.procedure.roll_records import Hands

    head, colon, count = text.rpartition(":") if ":" in text else (text, "", "")
    invalid(not colon or count.isdigit(), f"a member is NAME, NAME=TRAIT, NAME:DICE or NAME=TRAIT:DICE, not {text!r}")
    name, _, trait = head.partition("=")
    invalid(bool(name.strip()), f"a member needs a name: {text!r}")
    return Hands(name.strip(), trait.strip() or None, dice=int(count) if colon else None)


@group_app.command("combine")
def group_combine(
    members: Annotated[list[str], typer.Argument(help="NAME (no trait), NAME=TRAIT, or a GMC's NAME:DICE.")],
    bonus: BonusOpt = 0, penalty: PenaltyOpt = 0, xp: XpOpt = 0, why: WhyOpt = None, purpose: ForOpt = "",
    against: AgainstOpt = None, difficulty: DifficultyOpt = None, inert_dice: InertOpt = None,
    inert_faces: InertFacesOpt = None, opposed: OpposedOpt = None, faces: FacesOpt = None,
    top_off: TopOffOpt = None, reading: ReadingOpt = "", secret: SecretOpt = False, campaign: CampaignOpt = None,
    by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Combining dice: one roll of everyone's dice, keeping as many as the best normally rolls."""
    from yarnlog.rulesets.yarn.parts.procedure.roll_records import CombineDice, Hands

    hands = tuple(_member(m) for m in members)
    roll_ = _make_roll(Hands(hands[0].character), by=by, bonus=bonus, penalty=penalty, xp=xp, why=why,
                       purpose=purpose, extra=0, against=_against(against, difficulty, inert_dice, inert_faces,
                                                                   opposed),
                       faces=faces, top_off=top_off, reading=reading)
    _record(campaign, CombineDice(hands, roll_), by=by, secret=secret, override=override, as_json=as_json)


@group_app.command("list")
def group_list(scene: Annotated[Optional[int], typer.Option("--scene")] = None,
               viewer: Annotated[Optional[str], typer.Option("--as", help="What this participant may see.")] = None,
               campaign: CampaignOpt = None, as_of: AsOfOpt = None, as_json: JsonOpt = False) -> None:
    """List group efforts."""
    from yarnlog.rulesets.yarn.parts.procedure.roll_reports import group_rows

    rows = group_rows(*_state_and_history(campaign, as_of, None), scene=scene, viewer=viewer)
    emit(rows, as_json, lambda data: print_table("Group efforts", ("#", "scene", "method", "characters", "rolls",
                                                              "counting", "total", "outcome"), [
        (r["sequence"], r["scene"], r["method"], ", ".join(r["characters"]), ", ".join(map(str, r["rolls"])),
         r["counting"], r["total"], r["outcome"]) for r in data]))


# -- fringe powers --------------------------------------------------------------------------

psychic_app = typer.Typer(help="Psychic pools and fringe powers: gain, use, push, resist, recover, learn, buy.",
                          no_args_is_help=True)


@psychic_app.command("pool")
def psychic_pool(
    character: Annotated[str, typer.Argument()],
    power: Annotated[list[str], typer.Option("--power", help="A fringe power (a PC's trait; a GMC's NAME:DICE).")],
    three: Annotated[bool, typer.Option("--three", help="Take 3 shots instead of rolling.")] = False,
    faces: FacesOpt = None,
    name: Annotated[str, typer.Option("--name", help="What the character calls it (ch'i pool, mana...).")] =
    "psychic pool",
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Give a character a psychic pool: a die per power (the highest counts), or 3 shots."""
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.yarn.parts.powers.part import GainPsychicPool

    names, gmc_dice = [], {}
    for item in power:
        label, colon, count = item.rpartition(":") if ":" in item else (item, "", "")
        invalid(not colon or count.isdigit(), f"--power takes NAME or NAME:DICE, not {item!r}")
        names.append(label.strip())
        if colon:
            gmc_dice[label.strip()] = int(count)
    invalid(not (three and faces), "take 3 shots or roll, not both")
    run_command(campaign, GainPsychicPool(character, tuple(names), gmc_dice, three, parse_faces(faces), name), by=by,
                override_reason=override, as_json=as_json)


@psychic_app.command("use")
def psychic_use(
    character: Annotated[str, typer.Argument()],
    power: Annotated[str, typer.Argument(help="The fringe power used.")],
    push: Annotated[bool, typer.Option("--push", help="2 shots: twice the dice, the better half counted.")] = False,
    bonus: BonusOpt = 0, penalty: PenaltyOpt = 0, xp: XpOpt = 0, why: WhyOpt = None, purpose: ForOpt = "",
    extra_actions: ExtraOpt = 0, against: AgainstOpt = None, difficulty: DifficultyOpt = None,
    inert_dice: InertOpt = None, inert_faces: InertFacesOpt = None, opposed: OpposedOpt = None,
    faces: FacesOpt = None, top_off: TopOffOpt = None, reading: ReadingOpt = "", secret: SecretOpt = False,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Use a fringe power for a shot (or push it for two) and roll its dice."""
    from yarnlog.rulesets.yarn.parts.powers.part import UsePower
    from yarnlog.rulesets.yarn.parts.procedure.roll_records import Hands

    roll_ = _make_roll(Hands(character, power), by=by, bonus=bonus, penalty=penalty, xp=xp, why=why,
                       purpose=purpose, extra=extra_actions,
                       against=_against(against, difficulty, inert_dice, inert_faces, opposed), faces=faces,
                       top_off=top_off, reading=reading)
    _record(campaign, UsePower(roll_, push), by=by, secret=secret, override=override, as_json=as_json)


@psychic_app.command("resist")
def psychic_resist(
    character: Annotated[str, typer.Argument()],
    countering: Annotated[Optional[str], typer.Option("--countering", help="A power of his that could counter "
                                                      "the attack: its dice as extra dice.")] = None,
    unaware: Annotated[bool, typer.Option("--unaware", help="He does not know the power is used on him.")] = False,
    trait: TraitOpt = None, dice: DiceOpt = None, bonus: BonusOpt = 0, penalty: PenaltyOpt = 0, xp: XpOpt = 0,
    why: WhyOpt = None, purpose: ForOpt = "", opposed: OpposedOpt = None, faces: FacesOpt = None,
    top_off: TopOffOpt = None, reading: ReadingOpt = "", secret: SecretOpt = False, campaign: CampaignOpt = None,
    by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Spend a shot to resist a psychic power: your best power's dice as bonus dice (or a countering power's)."""
    from yarnlog.rulesets.yarn.parts.powers.part import ResistPower
    from yarnlog.rulesets.yarn.parts.procedure.roll_records import Hands

    roll_ = _make_roll(Hands(character, trait, dice=dice), by=by, bonus=bonus, penalty=penalty, xp=xp, why=why,
                       purpose=purpose, extra=0, against=_against(None, None, None, None, opposed), faces=faces,
                       top_off=top_off, reading=reading)
    _record(campaign, ResistPower(roll_, countering, knows=not unaware), by=by, secret=secret, override=override,
            as_json=as_json)


@psychic_app.command("recover")
def psychic_recover(
    character: Annotated[str, typer.Argument()],
    hours: Annotated[str, typer.Option("--hours", help="In-game hours of rest (8, 1.5, 1/2).")],
    rate: Annotated[str, typer.Option("--rate", help="The GM's rate for unusual recovery (2: twice as fast).")] = "1",
    campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False,
) -> None:
    """Shots back after some hours: the whole pool in 24 hours."""
    from yarnlog.rulesets.yarn.parts.powers.part import RecoverShots

    # RecoverShots takes the text as typed: its decider parses it (powers.part._fraction) for a one-line error.
    run_command(campaign, RecoverShots(character, hours, rate), by=by, as_json=as_json)


@psychic_app.command("buy")
def psychic_buy(
    character: Annotated[str, typer.Argument()],
    shots: Annotated[int, typer.Option("--shots", help="Shots to add, 2 experience dice each.")] = 1,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Trade experience dice for shots (two dice a shot; never back)."""
    from yarnlog.rulesets.yarn.parts.powers.part import BuyShots

    run_command(campaign, BuyShots(character, shots), by=by, override_reason=override, as_json=as_json)


@psychic_app.command("learn")
def psychic_learn(
    character: Annotated[str, typer.Argument()],
    power: Annotated[str, typer.Argument(help="The fringe power studied.")],
    dice: Annotated[int, typer.Option("--dice", help="Experience dice given up and rolled.")],
    faces: FacesOpt = None,
    months: Annotated[float, typer.Option("--months", help="Months of study.")] = 1,
    part_time: Annotated[bool, typer.Option("--part-time", help="The study was not full time.")] = False,
    no_teacher: Annotated[bool, typer.Option("--no-teacher", help="No knowledgeable teacher.")] = False,
    success_face: Annotated[int, typer.Option("--success-face", help="The GM's lowest face that succeeds "
                                              "(6 by the book).")] = 6,
    psi_mute: Annotated[bool, typer.Option("--psi-mute", help="Optional rule: roll the secret psi-mute die "
                                           "(first attempt only).")] = False,
    psi_mute_roll: Annotated[Optional[int], typer.Option("--psi-mute-roll", help="The psi-mute die as "
                                                         "rolled.")] = None,
    secret: SecretOpt = False, campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """After a month of study, roll the experience dice given up: a 6 brings the power."""
    from yarnlog.rulesets.yarn.parts.powers.part import LearnFringePower

    command = LearnFringePower(character, power, dice, parse_faces(faces), months, not part_time, not no_teacher,
                               success_face, psi_mute_roll, psi_mute)
    run_command(campaign, command, by=by, visibility="gm" if secret else "everyone", override_reason=override,
                as_json=as_json)


@psychic_app.command("show")
def psychic_show(
    character: Annotated[Optional[str], typer.Argument()] = None,
    viewer: Annotated[Optional[str], typer.Option("--as", help="A player's view (no GM secrets).")] = None,
    campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Psychic pools: shots left, powers and their dice, spells known and studied."""
    from yarnlog.rulesets.yarn.parts.powers.part import psychic_data

    state = campaign_state(campaign, as_of, end_of_scene)
    rows = psychic_data(state, character, gm_view=viewer is None or state.table.is_gm(viewer))
    emit(rows, as_json, lambda data: print_table("Psychic pools", ("character", "pool", "shots", "powers", "spells"), [
        (r["character"], r["pool"], f"{r['shots']}/{r['capacity']}",
         ", ".join(f"{p} {d}" for p, d in r["powers"].items()),
         ", ".join(f"{s['spell']} ({'known' if s['learned'] else str(s['dice_rolled']) + ' weeks'})"
                   for s in r["spells"])) for r in data]))


# -- spells ---------------------------------------------------------------------------------

spell_app = typer.Typer(help="Spells: weekly study, casting for a shot, resisting.", no_args_is_help=True)


@spell_app.command("study")
def spell_study(
    character: Annotated[str, typer.Argument()],
    spell: Annotated[str, typer.Argument()],
    level: Annotated[Optional[int], typer.Option("--level", help="The spell's level (a sample spell's by "
                                                 "default).")] = None,
    hours_per_day: Annotated[float, typer.Option("--hours-per-day", help="Hours studied a day this week.")] = 2,
    faces: FacesOpt = None,
    secret: SecretOpt = False, campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Close a week of study: 5 experience dice, then one more die each week until the level is met."""
    from yarnlog.rulesets.yarn.parts.powers.part import StudySpell

    run_command(campaign, StudySpell(character, spell, level, hours_per_day, parse_faces(faces)), by=by,
                visibility="gm" if secret else "everyone", override_reason=override, as_json=as_json)


@spell_app.command("cast")
def spell_cast(
    character: Annotated[str, typer.Argument()],
    spell: Annotated[str, typer.Argument()],
    level: Annotated[Optional[int], typer.Option("--level", help="A GMC's spell level.")] = None,
    purpose: ForOpt = "",
    secret: SecretOpt = False, campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Cast a spell for one shot."""
    from yarnlog.rulesets.yarn.parts.powers.part import CastSpell

    run_command(campaign, CastSpell(character, spell, level, purpose), by=by,
                visibility="gm" if secret else "everyone", override_reason=override, as_json=as_json)


@spell_app.command("resist")
def spell_resist(
    character: Annotated[str, typer.Argument(help="The target resisting.")],
    cast: Annotated[int, typer.Option("--cast", help="The casting (its event number).")],
    trait: TraitOpt = None, dice: DiceOpt = None, bonus: BonusOpt = 0, penalty: PenaltyOpt = 0, xp: XpOpt = 0,
    why: WhyOpt = None, purpose: ForOpt = "", faces: FacesOpt = None, top_off: TopOffOpt = None,
    reading: ReadingOpt = "", secret: SecretOpt = False, campaign: CampaignOpt = None, by: ByOpt = None,
    override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Roll to resist a spell: at least its level resists."""
    from yarnlog.rulesets.yarn.parts.powers.part import ResistSpell
    from yarnlog.rulesets.yarn.parts.procedure.roll_records import Hands

    roll_ = _make_roll(Hands(character, trait, dice=dice), by=by, bonus=bonus, penalty=penalty, xp=xp, why=why,
                       purpose=purpose, extra=0, against=None, faces=faces, top_off=top_off, reading=reading)
    _record(campaign, ResistSpell(roll_, cast), by=by, secret=secret, override=override, as_json=as_json)


def consequence(
    roll_event: Annotated[int, typer.Argument(help="The consequence roll's event number (see 'consequences').")],
    text: Annotated[str, typer.Argument(help="The advantage (good) or obstacle (bad) it turned out to be.")],
    introduced_by: Annotated[Optional[str], typer.Option("--introduced-by", help="The player (default) or the "
                                                         "GM.")] = None,
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Say what a consequence turned out to be: an advantage, or an obstacle, for an upcoming scene."""
    from yarnlog.rulesets.yarn.parts.procedure.consequence_rolls import IntroduceConsequence

    run_command(campaign, IntroduceConsequence(roll_event, text, introduced_by), by=by, override_reason=override,
                as_json=as_json)


def register(app: typer.Typer) -> None:
    app.command()(roll)
    app.command()(consequence)
    app.command()(read)
    app.command()(rolls)
    app.command()(consequences)
    app.add_typer(group_app, name="group")
    app.add_typer(psychic_app, name="psychic")
    app.add_typer(spell_app, name="spell")
