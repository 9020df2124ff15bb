"""The verbs of the shared core around the scenes: relationships and wants, the supporting cast,
locations, precedence orders, the theme and the calling order. Each builds a plain command of the
shared core, or reads the core's view, whatever ruleset the campaign plays.

Only typer and :mod:`yarnlog.cli` are imported at start-up; the domain modules are imported inside
the commands. Shuffles the tool makes come from a secure source.
"""

from typing import Annotated, Optional

import typer

from yarnlog.cli.context import campaign_state, campaign_view, run_command
from yarnlog.cli.options import AsOfOpt, ByOpt, CampaignOpt, EndOfSceneOpt, JsonOpt, OverrideOpt
from yarnlog.cli.output import console, emit, print_table

IntroducedByOpt = Annotated[Optional[str], typer.Option("--introduced-by",
                                                        help="The participant introducing it (default: --by, "
                                                             "or the GM).")]
PURPOSES = "creation, wants, play-begins, theme-rota, calling-order, petitioners, other"
#: Where the books ask that every PC be the object of two wants (Yarn 273; DramaSystem's DS9, line 51).
TWO_WANTS_STEP = "Creating Characters, step 14"


def _gm_or(campaign: str | None, name: str | None) -> str:
    return name or campaign_state(campaign).table.gm


def _table(title: str, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """A rich table of ``rows`` (nothing when there are none)."""
    if rows:
        print_table(title, columns, rows)


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
    from yarnlog.rulesets.scenes_and_tokens.parts.relationships import DefineRelationship

    run_command(campaign, DefineRelationship(character, other, nature), by=by, override_reason=override,
                as_json=as_json)


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
    from yarnlog.rulesets.scenes_and_tokens.parts.relationships import DeclareWant

    run_command(campaign, DeclareWant(character, withholder, want, why_not), by=by, override_reason=override,
                as_json=as_json)


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
    from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import IntroduceSupporting

    command = IntroduceSupporting(name, description, _gm_or(campaign, introduced_by or by), recurring, petitioner)
    run_command(campaign, command, by=by, override_reason=override, as_json=as_json)


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
    from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import PromoteSupporting

    run_command(campaign, PromoteSupporting(name, pc, need), by=by, override_reason=override, as_json=as_json)


def supporting_detail(
    name: Annotated[str, typer.Argument()],
    detail: Annotated[str, typer.Argument()],
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Flesh out a supporting character."""
    from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import DescribeSupporting

    run_command(campaign, DescribeSupporting(name, detail), by=by, as_json=as_json)


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
    from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import IntroduceLocation

    command = IntroduceLocation(name, description, _gm_or(campaign, introduced_by or by))
    run_command(campaign, command, by=by, override_reason=override, as_json=as_json)


def location_detail(
    name: Annotated[str, typer.Argument()],
    detail: Annotated[str, typer.Argument()],
    campaign: CampaignOpt = None,
    by: ByOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Elaborate on a location."""
    from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import ElaborateLocation

    run_command(campaign, ElaborateLocation(name, detail), by=by, as_json=as_json)


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
    from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import DrawPrecedence, shuffled
    from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import Purpose

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
    from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import ChooseTheme

    run_command(campaign, ChooseTheme(theme, chooser), by=by, override_reason=override, as_json=as_json)


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
    from yarnlog.rulesets.scenes_and_tokens.parts.relationship_map import relationship_map

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


def calling_order(campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
                  as_json: JsonOpt = False) -> None:
    """The episode's calling order and who calls the next scene."""
    data = campaign_view(campaign, "calling-order", as_of, end_of_scene)

    def render(d):
        out = console()
        if d["calling_order"] is None:
            out.print(f"Episode {d['episode'] or '-'}: no calling order drawn "
                      "('yarnlog precedence draw --purpose calling-order')", markup=False)
        else:
            out.print(f"Episode {d['episode']}: calling order {', '.join(d['calling_order'])}", markup=False)
        if d["may_call_next"]:
            out.print(f"Next to call: {' or '.join(d['may_call_next'])}", markup=False)
        if d["recall"]:
            out.print(f"{d['recall']['caller']} may call again: {d['recall']['reason']}", markup=False)
        print_table("Scenes", ("#", "caller", "in turn", "mode", "kind"),
               [(s["scene"], s["caller"], "yes" if s["in_turn"] else "NO", s["mode"], s["kind"]) for s in d["scenes"]])

    emit(data, as_json, render)
