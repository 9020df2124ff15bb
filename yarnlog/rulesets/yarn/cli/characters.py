"""Command line of the Yarn characters part: PCs, the supporting cast, precedence and experience.

Only typer and the shared :mod:`yarnlog.cli` modules are imported here at start-up; the domain modules are
imported inside the commands. Dice and shuffles the tool makes come from a secure source.
"""

from pathlib import Path
from typing import Annotated, Optional

import typer

from yarnlog.cli.context import campaign_state, registered_named, run_command
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
from yarnlog.cli.output import emit, print_table
from yarnlog.cli.recaps import SHEET_FILE_FORMATS, OutputOpt, write_document
from yarnlog.rulesets.scenes_and_tokens.cli.exchanges import group


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


def _table(title: str, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """A rich table of ``rows`` (nothing when there are none)."""
    if rows:
        print_table(title, columns, rows)


# -- player characters ----------------------------------------------------------------------

SHEET_FILE_HELP = (
    "A whole sheet as JSON: name, player, role, desire, poles, central, sides, superior, flaw, signs, "
    "descriptions, fighting_skills, relationships, wants, hit_point_basis, hit_point_descriptor, finances, "
    "equipment, story, gm_approved. Options given on the command line take precedence."
)


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


# -- precedence -----------------------------------------------------------------------------


def precedence_show(campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
                    as_json: JsonOpt = False) -> None:
    """Every precedence order drawn (and the scene it belongs to), who chooses which episode's theme."""
    from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import precedence_data

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
    name = registered_named(state, name)  # "iris" or "Iris" for Iris Vane
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
    from yarnlog.rulesets.scenes_and_tokens.cli import cast as shared

    app.add_typer(group("Player characters: create, relationships, wants, retire.",
                        (("create", character_create), ("relate", shared.character_relate),
                         ("want", shared.character_want), ("retire", character_retire))), name="character")
    app.add_typer(group("Supporting characters (the GM plays them).",
                        (("add", shared.supporting_add), ("promote", shared.supporting_promote),
                         ("detail", shared.supporting_detail))), name="supporting")
    app.add_typer(group("Locations introduced in play.",
                        (("add", shared.location_add), ("detail", shared.location_detail))), name="location")
    app.add_typer(group("Precedence orders: draw one, show those drawn and the theme rota.",
                        (("draw", shared.precedence_draw), ("show", precedence_show))), name="precedence")
    app.add_typer(group("The next episode's theme, chosen at the end of the session.",
                        (("choose", shared.theme_choose),)), name="theme")
    app.add_typer(xp_app, name="xp")
    app.command("sheet")(sheet)
    app.command("relationships")(shared.relationships)
    app.command("cast")(cast)
