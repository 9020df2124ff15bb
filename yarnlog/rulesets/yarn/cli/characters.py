"""Command line of the Yarn characters part: PCs, the supporting cast, precedence and experience.

Only typer and the shared :mod:`yarnlog.cli` modules are imported here at start-up; the domain modules are
imported inside the commands. Dice and shuffles the tool makes come from a secure source.
"""

from pathlib import Path
from typing import Annotated, Optional

import typer

from yarnlog.cli.context import campaign_state, run_command
from yarnlog.cli.options import (
    AsOfOpt,
    ByOpt,
    CampaignOpt,
    EndOfSceneOpt,
    JsonOpt,
    Many,
    OverrideOpt,
    parse_faces,
    read_json_file,
)
from yarnlog.cli.output import console, emit, print_table
from yarnlog.cli.recaps import SHEET_FILE_FORMATS, OutputOpt, write_document


def _pairs(items: Many, what: str) -> list[tuple[str, str]]:
    """``KEY=VALUE`` options as pairs."""
    from yarnlog.core.referee import invalid

    pairs = []
    for item in items or []:
        key, sep, value = item.partition("=")
        invalid(bool(sep and key.strip()), f"{what} takes NAME=VALUE, not {item!r}")
        pairs.append((key.strip(), value.strip()))
    return pairs


def _hit_point_gain(option: str | None, dice: int):
    """``--hp take`` (+7), ``--hp roll`` (the tool rolls ``dice``) or ``--hp 3,5`` (faces entered)."""
    from yarnlog.rulesets.yarn.parts.characters.sheet_files import roll_dice
    from yarnlog.rulesets.yarn.parts.characters.sheets import HitPointDice

    if option is None:
        return None
    if option == "take":
        return HitPointDice(source="listed")
    if option == "roll":
        return HitPointDice(source="rolled", faces=roll_dice(dice))
    return HitPointDice(source="entered", faces=parse_faces(option))


def _training(months: float | None, full_time: bool, usd_per_month: int, scenes: list[int] | None):
    from yarnlog.rulesets.yarn.parts.characters.sheets import TrainingData

    if months is None and not (full_time or usd_per_month or scenes):
        return None
    return TrainingData(months=months or 0, full_time=full_time, usd_per_month=usd_per_month, scenes=scenes or [])


def _gm_or(campaign: str | None, name: str | None) -> str:
    return name or campaign_state(campaign).table.gm


def _table(title: str, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """A rich table of ``rows`` (nothing when there are none)."""
    if rows:
        print_table(title, columns, rows)


# -- player characters ----------------------------------------------------------------------

character_app = typer.Typer(help="Player characters: create, relationships, wants, retire.", no_args_is_help=True)

SHEET_FILE_HELP = (
    "A whole sheet as JSON: name, player, role, desire, poles, central, sides, superior, flaw, signs, "
    "descriptions, fighting_skills, relationships, wants, hit_point_basis, hit_point_descriptor, finances, "
    "equipment, story, gm_approved. Options given on the command line take precedence."
)


@character_app.command("create")
def character_create(
    name: Annotated[Optional[str], typer.Argument(help="The character's name.")] = None,
    from_file: Annotated[Optional[Path], typer.Option("--from-file", help=SHEET_FILE_HELP)] = None,
    player: Annotated[Optional[str], typer.Option("--player")] = None,
    role: Annotated[Optional[str], typer.Option("--role", help="Role in the group.")] = None,
    desire: Annotated[Optional[str], typer.Option("--desire")] = None,
    pole: Annotated[Many, typer.Option("--pole", help="A dramatic pole (give two).")] = None,
    relationship: Annotated[Many, typer.Option("--relationship", help="PC=NATURE, repeatable.")] = None,
    central: Annotated[Optional[str], typer.Option("--central", help="TRAIT:KIND (standard, technical, "
                                                   "narrow, narrow-technical).")] = None,
    side: Annotated[Many, typer.Option("--side", help="TRAIT:KIND, twice.")] = None,
    superior: Annotated[Optional[str], typer.Option("--superior", help="The superior trait.")] = None,
    flaw: Annotated[Optional[str], typer.Option("--flaw")] = None,
    sign: Annotated[Many, typer.Option("--sign", help="TRAIT=SIGN, for every trait and the flaw.")] = None,
    describe: Annotated[Many, typer.Option("--describe", help="TRAIT=DESCRIPTION, repeatable.")] = None,
    fighting: Annotated[Many, typer.Option("--fighting", help="A trait that is a fighting skill.")] = None,
    hp_from: Annotated[Many, typer.Option("--hp-from", help="A trait the hit points come from, taken "
                                          "as listed (7 per die).")] = None,
    hp_roll: Annotated[Many, typer.Option("--hp-roll", help="TRAIT=FACES as rolled at the table, or TRAIT "
                                          "for the tool to roll double its dice.")] = None,
    hp_descriptor: Annotated[Optional[str], typer.Option("--hp-descriptor", help="What the hit points "
                                                         "mean: brawn, guts...")] = None,
    finances: Annotated[Optional[str], typer.Option("--finances")] = None,
    equipment: Annotated[Many, typer.Option("--equipment", help="A possession, repeatable.")] = None,
    story: Annotated[Optional[str], typer.Option("--story", help="My story is of a man/woman who...")] = None,
    approved: Annotated[bool, typer.Option("--approved", help="The GM has approved the character.")] = False,
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a player character for a player at the table."""
    from yarnlog.rulesets.yarn.parts.characters.sheet_files import creation_command

    data: dict = {}
    if from_file is not None:
        data = read_json_file(from_file, "the sheet")
    given = {"name": name, "player": player, "role": role, "desire": desire, "poles": pole, "central": central,
             "sides": side, "superior": superior, "flaw": flaw, "hit_point_descriptor": hp_descriptor,
             "finances": finances, "equipment": equipment, "story": story}
    data.update({key: value for key, value in given.items() if value})
    if approved:
        data["gm_approved"] = True
    if relationship:
        data["relationships"] = dict(_pairs(relationship, "--relationship"))
    signs: dict[str, list[str]] = {}
    for trait, text in _pairs(sign, "--sign"):
        signs.setdefault(trait, []).append(text)
    data["signs"] = {**data.get("signs", {}), **signs}
    data["descriptions"] = {**data.get("descriptions", {}), **dict(_pairs(describe, "--describe"))}
    data["fighting_skills"] = [*data.get("fighting_skills", []), *(fighting or [])]
    if hp_from or hp_roll:
        rolls = [(item.partition("=")[0], item.partition("=")[2]) for item in hp_roll or []]
        data["hit_point_basis"] = [
            *(hp_from or []),
            *({"trait": t, "faces": parse_faces(f)} if f else {"trait": t, "roll": True} for t, f in rolls),
        ]
    run_command(campaign, creation_command(data, spelled=CREATE_OPTIONS), by=by, override_reason=override,
                as_json=as_json)


#: A sheet's required fields as ``character create`` takes them (named in "missing option ..." errors).
CREATE_OPTIONS = {"name": "NAME", "player": "--player", "role": "--role", "desire": "--desire",
                  "central": "--central", "hit_point_descriptor": "--hp-descriptor", "story": "--story"}


@character_app.command("relate")
def character_relate(
    character: Annotated[str, typer.Argument(help="The PC defining the relationship.")],
    other: Annotated[str, typer.Argument(help="Another PC, or a recurring character.")],
    nature: Annotated[str, typer.Option("--nature", help="The label on the line: sister, rival, ex...")],
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Define (or redefine) a relationship on the relationship map."""
    from yarnlog.rulesets.dramatic.parts.relationships import DefineRelationship

    run_command(campaign, DefineRelationship(character, other, nature), by=by, override_reason=override,
                as_json=as_json)


@character_app.command("want")
def character_want(
    character: Annotated[str, typer.Argument(help="The PC who wants.")],
    withholder: Annotated[str, typer.Option("--from", help="The PC who withholds it.")],
    want: Annotated[str, typer.Option("--want", help="What the character wants from that PC.")],
    why_not: Annotated[str, typer.Option("--why-not", help="Why, says the other player, he can't get it.")] = "",
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Declare what a PC wants from another (the first two named are the fraught relationships)."""
    from yarnlog.rulesets.dramatic.parts.relationships import DeclareWant

    run_command(campaign, DeclareWant(character, withholder, want, why_not), by=by, override_reason=override,
                as_json=as_json)


@character_app.command("retire")
def character_retire(
    name: Annotated[str, typer.Argument(help="The PC leaving play.")],
    reason: Annotated[str, typer.Option("--reason", help="Died, vanished, the player's choice...")],
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Take a PC out of play; the player may then create another."""
    from yarnlog.rulesets.yarn.parts.characters.part import RetireCharacter

    run_command(campaign, RetireCharacter(name, reason), by=by, as_json=as_json)


# -- supporting cast and locations ----------------------------------------------------------

supporting_app = typer.Typer(help="Supporting characters (the GM plays them).", no_args_is_help=True)
location_app = typer.Typer(help="Locations introduced in play.", no_args_is_help=True)
IntroducedByOpt = Annotated[Optional[str], typer.Option("--introduced-by",
                                                        help="The participant introducing it (default: --by, "
                                                             "or the GM).")]


@supporting_app.command("add")
def supporting_add(
    name: Annotated[str, typer.Argument()],
    description: Annotated[str, typer.Option("--description", help="Two or three clauses: role in the world.")],
    recurring: Annotated[bool, typer.Option("--recurring", help="First appears to grant a PC's petition.")] = False,
    petitioner: Annotated[Optional[str], typer.Option("--petitioner", help="That PC.")] = None,
    introduced_by: IntroducedByOpt = None,
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Introduce a supporting character: minor, or recurring from a petition scene."""
    from yarnlog.rulesets.dramatic.parts.supporting_cast import IntroduceSupporting

    command = IntroduceSupporting(name, description, _gm_or(campaign, introduced_by or by), recurring, petitioner)
    run_command(campaign, command, by=by, override_reason=override, as_json=as_json)


@supporting_app.command("promote")
def supporting_promote(
    name: Annotated[str, typer.Argument(help="A minor character.")],
    pc: Annotated[str, typer.Option("--pc", help="The PC whose emotional need he or she becomes the object of.")],
    need: Annotated[str, typer.Option("--need", help="That need.")],
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Promote a minor character to recurring."""
    from yarnlog.rulesets.dramatic.parts.supporting_cast import PromoteSupporting

    run_command(campaign, PromoteSupporting(name, pc, need), by=by, override_reason=override, as_json=as_json)


@supporting_app.command("detail")
def supporting_detail(
    name: Annotated[str, typer.Argument()],
    detail: Annotated[str, typer.Argument()],
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Flesh out a supporting character."""
    from yarnlog.rulesets.dramatic.parts.supporting_cast import DescribeSupporting

    run_command(campaign, DescribeSupporting(name, detail), by=by, as_json=as_json)


@location_app.command("add")
def location_add(
    name: Annotated[str, typer.Argument()],
    description: Annotated[str, typer.Option("--description", help="The introductory description.")],
    introduced_by: IntroducedByOpt = None,
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Introduce a location."""
    from yarnlog.rulesets.dramatic.parts.supporting_cast import IntroduceLocation

    command = IntroduceLocation(name, description, _gm_or(campaign, introduced_by or by))
    run_command(campaign, command, by=by, override_reason=override, as_json=as_json)


@location_app.command("detail")
def location_detail(
    name: Annotated[str, typer.Argument()],
    detail: Annotated[str, typer.Argument()],
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Elaborate on a location."""
    from yarnlog.rulesets.dramatic.parts.supporting_cast import ElaborateLocation

    run_command(campaign, ElaborateLocation(name, detail), by=by, as_json=as_json)


# -- precedence -----------------------------------------------------------------------------

precedence_app = typer.Typer(help="Precedence orders: draw one, show those drawn and the theme rota.",
                             no_args_is_help=True)
PURPOSES = "creation, wants, play-begins, theme-rota, calling-order, petitioners, other"


@precedence_app.command("draw")
def precedence_draw(
    purpose: Annotated[str, typer.Option("--purpose", help=PURPOSES)],
    order: Annotated[Optional[str], typer.Option("--order", help="A,B,C as drawn from the cards "
                                                 "(default: the tool shuffles).")] = None,
    among: Annotated[Optional[str], typer.Option("--among", help="A,B: the players to shuffle (petitioners; "
                                                 "default: every player).")] = None,
    note: Annotated[str, typer.Option("--note")] = "",
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Note a precedence order: shuffled by the tool, or entered as drawn."""
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.dramatic.parts.supporting_cast import DrawPrecedence, Purpose, shuffled

    invalid(purpose in {p.value for p in Purpose}, f"--purpose is one of {PURPOSES}")
    if order:
        command = DrawPrecedence(Purpose(purpose), tuple(n.strip() for n in order.split(",")), "entered", note)
    else:
        players = [n.strip() for n in among.split(",")] if among else campaign_state(campaign).table.players
        command = DrawPrecedence(Purpose(purpose), shuffled(players), "shuffled", note)
    run_command(campaign, command, by=by, override_reason=override, as_json=as_json)
    if command.source == "shuffled":
        say_shuffled(command.order, "--order")


def say_shuffled(order, option: str) -> None:
    """Say on stderr (never in --json output) that the tool drew an order itself, and how to enter one."""
    console(stderr=True).print(f"the tool shuffled this order itself: {', '.join(order)} (give {option} A,B,... "
                               "to enter the order drawn at the table)", markup=False, soft_wrap=True)


theme_app = typer.Typer(help="The next episode's theme, chosen at the end of the session.", no_args_is_help=True)


@theme_app.command("choose")
def theme_choose(
    theme: Annotated[str, typer.Argument(help="The theme of the next episode.")],
    chooser: Annotated[Optional[str], typer.Option("--chooser", help="The player choosing (default: the one the "
                                                   "theme rota names).")] = None,
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Record the next episode's theme ('episode start' then takes it)."""
    from yarnlog.rulesets.dramatic.parts.supporting_cast import ChooseTheme

    run_command(campaign, ChooseTheme(theme, chooser), by=by, override_reason=override, as_json=as_json)


@precedence_app.command("show")
def precedence_show(campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
                    as_json: JsonOpt = False) -> None:
    """Every precedence order drawn (and the scene it belongs to), who chooses which episode's theme."""
    from yarnlog.rulesets.yarn.parts.characters.supporting_cast import precedence_data

    rules = campaign_state(campaign, as_of, end_of_scene).rules
    data = precedence_data(rules.characters.cast,
                           ((s.number, s.episode, s.opened_at) for s in rules.drama.scenes.values()))

    def render(d):
        _table("Precedence orders", ("#", "purpose", "episode", "scene", "order", "source", "note"),
               [(o["sequence"], o["purpose"], o["episode"], o["scene"], ", ".join(o["order"]),
                 "drawn by the tool" if o["source"] == "shuffled" else "as drawn at the table", o["note"])
                for o in d["orders"]])
        _table("Theme rota", ("episode", "chooser", "theme", "chosen by"),
               [(r["episode"], r["chooser"], r["theme"], r["chosen_by"]) for r in d["theme_rota"]])
        _table("Themes chosen for the next episode", ("episode", "theme", "chosen by"),
               [(t["episode"], t["theme"], t["chosen_by"]) for t in d["chosen_themes"]])

    emit(data, as_json, render)


# -- experience -----------------------------------------------------------------------------

xp_app = typer.Typer(help="Experience pool: awards, new traits, raised traits.", no_args_is_help=True)
ApprovedOpt = Annotated[bool, typer.Option("--approved", help="The GM approves this improvement.")]
MonthsOpt = Annotated[Optional[float], typer.Option("--months", help="Months of training in the game world.")]
FullTimeOpt = Annotated[bool, typer.Option("--full-time", help="The training was (nearly) full time.")]
UsdOpt = Annotated[int, typer.Option("--usd-per-month", help="What the training costs per month.")]
TrainingSceneOpt = Annotated[Optional[list[int]], typer.Option("--training-scene",
                                                               help="A scene that showed the training.")]
HpOpt = Annotated[Optional[str], typer.Option("--hp", help="The trait relates to hit points: take (+7), roll "
                                              "(the tool rolls), or FACES as rolled.")]


@xp_app.command("award")
def xp_award(
    dice: Annotated[int, typer.Argument(help="Dice for every PC active in the session.")],
    absent: Annotated[Many, typer.Option("--absent", help="A PC not active in the session.")] = None,
    give: Annotated[Many, typer.Option("--give", help="PC=DICE: a different number for one PC (a rule "
                                       "the GM must override).")] = None,
    reason: Annotated[str, typer.Option("--reason")] = "",
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Award experience dice at the end of the session."""
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.yarn.parts.characters.experience_awards import AwardExperience

    pairs = _pairs(give, "--give")
    invalid(all(n.isdigit() for _, n in pairs), "--give takes PC=DICE, a whole number of dice")
    individual = {name: int(n) for name, n in pairs}
    run_command(campaign, AwardExperience(dice, tuple(absent or ()), individual, reason), by=by,
                override_reason=override, as_json=as_json)


@xp_app.command("develop")
def xp_develop(
    character: Annotated[str, typer.Argument()],
    trait: Annotated[str, typer.Argument(help="The new trait's name.")],
    sign: Annotated[str, typer.Option("--sign", help="A sign for the new trait.")],
    kind: Annotated[str, typer.Option("--kind", help="standard, technical, narrow, narrow-technical")] = "standard",
    description: Annotated[str, typer.Option("--description")] = "",
    fighting: Annotated[bool, typer.Option("--fighting", help="It is a fighting skill.")] = False,
    training_required: Annotated[bool, typer.Option("--training-required", help="The GM rules it technical "
                                                    "or specialized: it needs training.")] = False,
    months: MonthsOpt = None,
    full_time: FullTimeOpt = False,
    usd_per_month: UsdOpt = 0,
    training_scene: TrainingSceneOpt = None,
    hp: HpOpt = None,
    approved: ApprovedOpt = False,
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Develop a new trait for 5 experience dice."""
    from yarnlog.rulesets.yarn.parts.characters.experience_awards import DevelopTrait, gain_dice
    from yarnlog.rulesets.yarn.parts.characters.sheet_files import parse_kind
    from yarnlog.rulesets.yarn.parts.characters.sheets import TraitData
    from yarnlog.rulesets.yarn.rules.experience import new_trait_score

    parsed = parse_kind(kind)
    sheet = _sheet(campaign, character)
    command = DevelopTrait(
        character, TraitData(name=trait, kind=parsed, signs=[sign], description=description, fighting_skill=fighting),
        training_required, _training(months, full_time, usd_per_month, training_scene), approved,
        _hit_point_gain(hp, gain_dice(sheet, trait, new_trait_score(parsed))),
    )
    run_command(campaign, command, by=by, override_reason=override, as_json=as_json)


@xp_app.command("raise")
def xp_raise(
    character: Annotated[str, typer.Argument()],
    trait: Annotated[str, typer.Argument(help="The trait to raise by one die.")],
    months: MonthsOpt = None,
    full_time: FullTimeOpt = False,
    usd_per_month: UsdOpt = 0,
    training_scene: TrainingSceneOpt = None,
    gm_cost: Annotated[Optional[int], typer.Option("--gm-cost", help="The GM's dice for a score beyond 5 "
                                                   "(with --override).")] = None,
    hp: HpOpt = None,
    approved: ApprovedOpt = False,
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    override: OverrideOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Raise a trait by one die (central traits cost double)."""
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.yarn.parts.characters.experience_awards import RaiseTrait, gain_dice

    sheet = _sheet(campaign, character)
    invalid(trait in sheet.traits, f"{character} has no trait {trait!r}")
    command = RaiseTrait(character, trait, _training(months, full_time, usd_per_month, training_scene), approved,
                         gm_cost, _hit_point_gain(hp, gain_dice(sheet, trait, sheet.traits[trait].dice + 1)))
    run_command(campaign, command, by=by, override_reason=override, as_json=as_json)


@xp_app.command("status")
def xp_status(campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
              as_json: JsonOpt = False) -> None:
    """Each PC in play: experience pool, dice used this session, dice still available."""
    from yarnlog.rulesets.yarn.parts.characters.experience_awards import experience_data

    state = campaign_state(campaign, as_of, end_of_scene)
    data = experience_data(state.rules.characters, state.table)
    emit(data, as_json, lambda d: _table("Experience", ("character", "player", "pool", "used", "available"),
                                         [tuple(r.values()) for r in d]))


def _sheet(campaign: str | None, name: str):
    from yarnlog.core.referee import invalid

    sheet = campaign_state(campaign).rules.characters.pcs.get(name)
    invalid(sheet is not None, f"{name} is not a player character")
    return sheet


# -- projections ----------------------------------------------------------------------------


FORMATS = ("text", "md", "html")


def sheet(
    name: Annotated[str, typer.Argument(help="A player character.")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="text (the terminal), md or html (a printable "
                                     "page, from the templates sheet.md.j2 / sheet.html.j2).")] = "text",
    templates: Annotated[Optional[Path], typer.Option("--templates", envvar="YARNLOG_TEMPLATES",
                                                      help="A folder whose sheet.md.j2 or sheet.html.j2 "
                                                           "replaces the default.")] = None,
    campaign: CampaignOpt = None,
    as_of: AsOfOpt = None,
    end_of_scene: EndOfSceneOpt = None,
    output: OutputOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A character sheet as the book lays it out, as of any point in the journal: traits, flaw, hit points
    and wounds, armor, experience, psychic pool and powers, spells, people in the character's life, and
    the player's drama tokens and bennies."""
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.yarn.parts.characters.printable_sheet import printable_sheet

    invalid(fmt in FORMATS, f"--format is one of {', '.join(FORMATS)}, not {fmt!r}")
    invalid(output is None or (fmt != "text" and not as_json), SHEET_FILE_FORMATS)
    state = campaign_state(campaign, as_of, end_of_scene)
    data = printable_sheet(state, name)
    if as_json or fmt == "text":
        emit(data, as_json, _render_sheet)
        return
    write_document(_rendered_sheet(data, fmt, state.ruleset.templates if state.ruleset else None, templates),
                   output, f"{name}'s sheet")


def _rendered_sheet(data: dict, fmt: str, ruleset_templates: str | None, user: Path | None) -> str:
    """The sheet through its template (``sheet.md.j2`` or ``sheet.html.j2``), the user's first if given."""
    from jinja2 import TemplateError, TemplateSyntaxError

    from yarnlog.core.referee import InvalidCommand
    from yarnlog.render import Templates

    try:
        return Templates(ruleset_templates, user).render(f"sheet.{fmt}.j2", sheet=data)
    except FileNotFoundError as exc:
        raise InvalidCommand(str(exc)) from None
    except TemplateError as exc:  # a user's template that does not render: say which and why, in one line
        where = f"{exc.filename}:{exc.lineno}: " if isinstance(exc, TemplateSyntaxError) and exc.filename else ""
        raise InvalidCommand(f"the sheet template cannot be rendered: {where}{exc.message or type(exc).__name__}") \
            from None


def _render_sheet(d: dict) -> None:
    from yarnlog.rulesets.yarn.cli.audit_trail import print_rows, say

    hp, xp = d["hit_points"], d["experience"]
    where = "".join(f", {k} {v}" for k, v in (("episode", d["episode"]), ("scene", d["scene"])) if v)
    say(f"{d['name']}{'' if d['active'] else ' (retired)'}, played by {d['player']}: {d['role']} "
        f"(as of event {d['as_of']}{where})")
    say(f"Desire: {d['desire']}; poles: {' / '.join(d['poles'])}")
    if d["story"]:
        say(f"Story: {d['story']}")
    flaw = d["flaw"]
    print_rows("Traits", ("trait", "dice", "place", "signs"),
               [(t["name"] + (" (superior)" if t["superior"] else ""), t["dice"], f"{t['place']}, {t['kind']}",
                 "; ".join(t["signs"])) for t in d["traits"]]
               + ([(f"{flaw['name']} (flaw)", "", "flaw", "; ".join(flaw["signs"]))] if flaw else []))
    penalty = f", {hp['penalty_dice']} penalty die on every action" if hp["penalty_dice"] else ""
    say(f"Hit points: {hp['current']} of {hp['normal']} ({hp['descriptor']}): {hp['wound_state']}{penalty}")
    for wound in hp["serious_wounds"]:
        say(f"  serious wound: {wound}")
    if d["armor"]:
        say("Armor worn: " + ", ".join(a["name"] + (f" ({a['rating']})" if a["rating"] else "") for a in d["armor"]))
    say(f"Experience pool {xp['pool']}: {xp['used_this_session']} used this session, "
        f"{xp['left_this_session']} left")
    psychic = d["psychic"]
    if psychic:
        say(f"{psychic['pool'] or 'Psychic pool'}: {psychic['shots']} of {psychic['capacity']} shots left")
        for power in psychic["fringe_powers"]:
            say(f"  fringe power: {power['name']}" + (f", {power['dice']} dice" if power["dice"] is not None else ""))
        for spell in psychic["spells"]:
            say(f"  spell: {spell['spell']}, level {spell['level']}"
                + ("" if spell["learned"] else f" (studying, {spell['dice_rolled']} dice rolled)"))
    rows = [(w["withholder"] + (" (fraught)" if w["fraught"] else ""), w["relationship"], w["want"], w["why_not"])
            for w in d["people_in_my_life"]] + [(r["other"], r["nature"], "", "") for r in d["other_relationships"]]
    if rows:
        print_rows("People in my life", ("who", "relationship", "I want", "why I can't get it"), rows)
    if d["finances"]:
        say(f"Finances: {d['finances']}")
    if d["equipment"]:
        say(f"Equipment: {', '.join(d['equipment'])}")
    holds = d["player_holds"]
    say(f"{d['player']} holds {holds['drama_tokens']} drama token(s) and {holds['bennies']} bennie(s)")


#: Where the books ask that every PC be the object of two wants (Yarn 273; DramaSystem's DS9, line 51).
TWO_WANTS_STEP = "Creating Characters, step 14"


def relationships(
    viewer: Annotated[Optional[str], typer.Option("--as", help="Show only what player NAME may see.")] = None,
    campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The relationship map: labelled lines, wants (fraught ones marked), needs of recurring characters,
    and the PCs not yet the object of two other PCs' wants (creation's step 14)."""
    from yarnlog.cli.context import open_journal, pick_campaign, resolve_as_of
    from yarnlog.core.referee import invalid
    from yarnlog.core.state import replay, visible_to
    from yarnlog.rulesets.dramatic.parts.relationship_map import relationship_map

    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    upto = resolve_as_of(journal, cid, as_of, end_of_scene)
    state = journal.state(cid, upto=upto)
    if viewer is not None:  # a name is matched ignoring case, as everywhere
        viewer = next((n for n in (*state.table.gms, *state.table.players) if n.casefold() == viewer.casefold()),
                      viewer)
        invalid(state.table.knows(viewer),
                f"{viewer!r} is not at this table (players: {', '.join(state.table.players)})")
    if viewer is not None and not state.table.is_gm(viewer):  # a player's map: replayed from what she may see
        state = replay([r for r in journal.history(cid, upto=upto) if visible_to(r, viewer, state.table)])
    data = relationship_map(state.rules.roster)

    def render(d):
        _table("Relationships", ("character", "other", "nature"),
               [(r["character"], r["other"], r["nature"]) for r in d["relationships"]]
               + [(n["character"], n["recurring"], f"needs: {n['need']}") for n in d["needs"]])
        _table("Wants", ("character", "wants from", "what", "why not"),
               [(w["character"], w["withholder"] + (" (fraught)" if w["fraught"] else ""), w["want"], w["why_not"])
                for w in d["wants"]])
        if d["wanted_by_fewer_than_two"]:  # step 14; DramaSystem refuses its first episode until it holds
            console().print(f"Not yet the object of two other PCs' wants: {', '.join(d['wanted_by_fewer_than_two'])} "
                            f"({TWO_WANTS_STEP}).", markup=False)

    emit(data, as_json, render)


def _standing(loc: dict) -> list[str]:
    """A location's description and details, each one a challenge struck marked so ("Introducing Locations")."""
    return [f"(struck by a challenge: {text})" if n in loc["struck"] else text
            for n, text in enumerate([loc["description"], *loc["details"]])]


def cast(campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
         as_json: JsonOpt = False) -> None:
    """The cast list: player characters, recurring and minor characters, and locations."""
    from yarnlog.rulesets.yarn.parts.characters.part import cast_list

    data = cast_list(campaign_state(campaign, as_of, end_of_scene).rules.characters)

    def render(d):
        _table("Player characters", ("name", "player", "role", "in play"),
               [(c["name"], c["player"], c["role"], "yes" if c["active"] else "retired")
                for c in d["player_characters"]])
        _table("Supporting characters", ("name", "kind", "description", "introduced by", "scene"),
               [(c["name"], c["kind"], "; ".join([c["description"], *c["details"]]), c["introduced_by"], c["scene"])
                for c in d["recurring"] + d["minor"]])
        _table("Locations", ("name", "description", "introduced by", "scene"),
               [(loc["name"], "; ".join(_standing(loc)), loc["introduced_by"], loc["scene"]) for loc in d["locations"]])

    emit(data, as_json, render)


def register(app: typer.Typer) -> None:
    """Add the characters commands to the ``yarnlog`` application."""
    app.add_typer(character_app, name="character")
    app.add_typer(supporting_app, name="supporting")
    app.add_typer(location_app, name="location")
    app.add_typer(precedence_app, name="precedence")
    app.add_typer(theme_app, name="theme")
    app.add_typer(xp_app, name="xp")
    app.command("sheet")(sheet)
    app.command("relationships")(relationships)
    app.command("cast")(cast)
