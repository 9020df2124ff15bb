"""DramaSystem's verbs: characters with action types, procedural tokens and simple card resolution.

At the table: ``yarnlog character create Iris --player Ana --strong Fighting,Talking --weak
Knowing,Making``; in a procedural scene ``yarnlog oppose green`` (the GM's token, recorded for her
eyes only), ``yarnlog target --card KC --order Ana,Ben`` (or let the tool draw either), ``yarnlog
draw Ana --token green --cards QH,3S`` for each player in turn (``draw Cy --pass`` for an absent
player), then ``yarnlog resolve``. Only typer and :mod:`yarnlog.cli` are imported at start-up.
"""

from typing import Annotated, Optional

import typer

from yarnlog.cli.context import run_command
from yarnlog.cli.options import ByOpt, CampaignOpt, JsonOpt, OverrideOpt

Names = Optional[list[str]]
character_app = typer.Typer(help="Player characters: create one with its action types; relationships, wants.",
                            no_args_is_help=True)


def names(values: Names) -> tuple[str, ...]:
    return tuple(n.strip() for value in values or () for n in value.split(",") if n.strip())


@character_app.command("create")
def create(
    name: Annotated[str, typer.Argument(help="The character's name.")],
    player: Annotated[str, typer.Option("--player", help="Who plays the character.")],
    strong: Annotated[Names, typer.Option("--strong", help="The two Strong action types (A,B).")] = None,
    weak: Annotated[Names, typer.Option("--weak", help="The two Weak action types (three with a custom type).")] = None,
    custom: Annotated[Optional[str], typer.Option("--custom", help="A custom Strong action type, narrower "
                                                  "than the standard ones.")] = None,
    how: Annotated[Names, typer.Option("--how", help="How I Do It, per Strong type: TYPE=phrase "
                                       "(repeat the option).")] = None,
    role: Annotated[str, typer.Option("--role", help="Role in the group.")] = "",
    desire: Annotated[str, typer.Option("--desire")] = "",
    poles: Annotated[Names, typer.Option("--poles", help="The two dramatic poles (A,B).")] = None,
    story: Annotated[str, typer.Option("--story", help="My story is of a man/woman who... (25 words at most).")] = "",
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Create a player character: Strong and Weak action types (the rest Middling), How I Do It, story."""
    from yarnlog.rulesets.dramasystem.parts.sheets import CreateCharacter
    from yarnlog.rulesets.dramasystem.rules.action_types import STANDARD_TYPES

    grades = {t: "middling" for t in STANDARD_TYPES}
    for grade, listed in (("strong", names(strong)), ("weak", names(weak))):
        for action_type in listed:
            grades[action_type] = grade
    if custom:
        grades[custom] = "strong"
    phrases = dict(item.split("=", 1) for item in (how or ()) if "=" in item)
    command = CreateCharacter(name=name, player=player, grades=grades, role=role, desire=desire,
                              poles=names(poles), custom_type=custom,
                              how_i_do_it={k.strip(): v.strip() for k, v in phrases.items()}, story=story)
    run_command(campaign, command, by=by, override_reason=override, as_json=as_json)


def oppose(
    token: Annotated[str, typer.Argument(help="The GM's token: green (Strong), yellow (Middling) or red (Weak).")],
    campaign: CampaignOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """The GM spends her token for the scene's resolution, in secret (recorded for the GM only)."""
    from yarnlog.rulesets.dramasystem.parts.card_procedure import Oppose

    run_command(campaign, Oppose(token), visibility="gm", override_reason=override, as_json=as_json)


def target(
    card: Annotated[Optional[str], typer.Option("--card", help="The target card as cut (e.g. KC); omit: "
                                                "the tool draws it.")] = None,
    order: Annotated[Names, typer.Option("--order", help="The players' fresh precedence (A,B,C); omit: "
                                         "the tool draws it.")] = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Draw the target card and the players' fresh precedence order."""
    from yarnlog.rulesets.dramasystem.parts.card_procedure import DrawTarget

    run_command(campaign, DrawTarget(card, names(order)), by=by, override_reason=override, as_json=as_json)


def draw(
    player: Annotated[str, typer.Argument(help="The player whose turn it is.")],
    token: Annotated[Optional[str], typer.Option("--token", help="green (2 cards), yellow (1) or red (1, then "
                                                 "the GM knocks one out).")] = None,
    cards: Annotated[Optional[str], typer.Option("--cards", help="The cards drawn (QH,3S); omit: the tool "
                                                 "draws them.")] = None,
    knock_out: Annotated[Optional[str], typer.Option("--knock-out", help="After red: the card the GM knocks "
                                                     "out among equally good matches.")] = None,
    pass_: Annotated[bool, typer.Option("--pass", help="An absent player's character does not act.")] = False,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """A player's turn in the resolution: spend a token and draw, or pass when absent."""
    from yarnlog.core.referee import InvalidCommand
    from yarnlog.rulesets.dramasystem.parts.card_procedure import PlayCards

    if pass_ == (token is not None):
        raise InvalidCommand("give --token COLOUR to spend and draw, or --pass for an absent player")
    drawn = tuple(c for c in (cards or "").replace(" ", ",").split(",") if c)
    run_command(campaign, PlayCards(player, token, drawn, knock_out), by=by, override_reason=override,
                as_json=as_json)


def resolve(
    campaign: CampaignOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """The GM reveals her token: the result and each player's consequences."""
    from yarnlog.rulesets.dramasystem.parts.card_procedure import Resolve

    run_command(campaign, Resolve(), override_reason=override, as_json=as_json)


def extra_card(
    player: Annotated[str, typer.Argument(help="The player who draws it.")],
    card: Annotated[Optional[str], typer.Option("--card", help="The card drawn (QH); omit: the tool draws it. "
                                                "In a contest the card is drawn in turn (contest draw).")] = None,
    ruling: Annotated[Optional[str], typer.Option("--ruling", help="The GM grants it for a How I Do It "
                                                  "specialty, with this reason; omit: a bennie pays.")] = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """An additional card: one more card (simple), a redraw (advanced), one more draw in a contest."""
    from yarnlog.rulesets.dramasystem.parts.extra_cards import DrawExtraCard

    run_command(campaign, DrawExtraCard(player, card, ruling), by=by, override_reason=override, as_json=as_json)


def odds(
    tokens: Annotated[Names, typer.Argument(help="The players' tokens in precedence order (green yellow ...).")] = None,
    extra_cards: Annotated[int, typer.Option("--extra-cards", min=0, max=10, help=(
        "Additional cards drawn after the tokens: bennies' or GM rulings' (DS76, line 732).")
    )] = 0,
    campaign: CampaignOpt = None, as_json: JsonOpt = False,
) -> None:
    """The exact chance that the players succeed a simple resolution, against each GM token."""
    from yarnlog.cli.output import emit, print_table
    from yarnlog.rulesets.dramasystem.parts.card_procedure import colour
    from yarnlog.rulesets.dramasystem.rules.odds import simple_success
    from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour

    del campaign  # the odds depend on the tokens only; the GM's secret token is never read
    spent = tuple(colour(t) for t in names(tokens))
    chances = {gm: simple_success(spent, gm, extra_cards) for gm in (Colour.RED, Colour.YELLOW, Colour.GREEN)}
    rows = [{"gm_token": gm.value, "chance": str(chance), "percent": round(float(chance) * 100)}
            for gm, chance in chances.items()]
    data = {"players": [c.value for c in spent], "extra_cards": extra_cards, "against": rows}
    emit(data, as_json, lambda data: print_table(
        "Chance of success, against each GM token", ("GM token", "chance", "%"),
        [(r["gm_token"], r["chance"], f"{r['percent']}%") for r in data["against"]]))


def register(app: typer.Typer) -> None:
    from yarnlog.rulesets.scenes_and_tokens.cli import cast  # the shared core's verbs

    character_app.command("relate")(cast.character_relate)
    character_app.command("want")(cast.character_want)
    app.add_typer(character_app, name="character")
    app.command("oppose")(oppose)
    app.command("target")(target)
    app.command("draw")(draw)
    app.command("resolve")(resolve)
    app.command("extra-card")(extra_card)
    app.command("odds")(odds)
    app.add_typer(advanced_app, name="advanced")
    app.add_typer(contest_app, name="contest")
    app.add_typer(consequence_app, name="consequence")


advanced_app = typer.Typer(help="The advanced procedural resolution: open, primary, redraw, clinch.",
                           no_args_is_help=True)


@advanced_app.command("open")
def advanced_open(
    primary: Annotated[str, typer.Argument(help="The character taking the lead (the primary).")],
    action_type: Annotated[str, typer.Option("--type", help="The action type the primary uses (its grade counts).")],
    token: Annotated[str, typer.Option("--token", help="The GM's token: red (low chance of failure), yellow, "
                                       "green (high).")],
    opening: Annotated[Optional[str], typer.Option("--opening", help="The opening run as drawn, up to the "
                                                   "first down card (3S,KH,4D); omit: the tool draws it.")] = None,
    campaign: CampaignOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Open an advanced resolution: the primary, the GM's token (the up suits) and the opening run."""
    from yarnlog.rulesets.dramasystem.parts.advanced_procedure import OpenAdvanced

    run_command(campaign, OpenAdvanced(primary, action_type, token, _card_list(opening)),
                override_reason=override, as_json=as_json)


@advanced_app.command("primary")
def advanced_primary(
    cards: Annotated[Optional[str], typer.Option("--cards", help="The card(s) drawn for the primary: two for "
                                                 "Strong or Weak, one for Middling; omit: the tool draws.")] = None,
    keep: Annotated[Optional[str], typer.Option("--keep", help="Of two equally good (or bad) cards, the one "
                                                "kept.")] = None,
    campaign: CampaignOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """The GM draws for the primary by grade: Strong keeps the better of two, Weak the worse."""
    from yarnlog.rulesets.dramasystem.parts.advanced_procedure import PrimaryDraw

    run_command(campaign, PrimaryDraw(_card_list(cards), keep), override_reason=override, as_json=as_json)


@advanced_app.command("redraw")
def advanced_redraw(
    player: Annotated[str, typer.Argument(help="The player forcing the redraw.")],
    token: Annotated[Optional[str], typer.Option("--token", help="A present player's token, once a scene.")] = None,
    absent_green: Annotated[bool, typer.Option("--absent-green", help="An absent player's green token.")] = False,
    cash_in: Annotated[bool, typer.Option("--cash-in", help="Cash in a positive consequence not yet used.")] = False,
    card: Annotated[Optional[str], typer.Option("--card", help="The new card; omit: the tool draws it.")] = None,
    consequence_card: Annotated[Optional[str], typer.Option("--consequence-card", help="After red or green: "
                                                            "the consequence card drawn.")] = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Force a redraw of the active card (a consequence card too after a red or green token)."""
    from yarnlog.rulesets.dramasystem.parts.advanced_procedure import ForceRedraw

    run_command(campaign, ForceRedraw(player, token, absent_green, cash_in, card, consequence_card), by=by,
                override_reason=override, as_json=as_json)


@advanced_app.command("clinch")
def advanced_clinch(campaign: CampaignOpt = None, as_json: JsonOpt = False) -> None:
    """No one redraws any more: the active card is the clincher, and the outcome."""
    from yarnlog.rulesets.dramasystem.parts.advanced_procedure import Clinch

    run_command(campaign, Clinch(), as_json=as_json)


def _card_list(text: Optional[str]) -> tuple[str, ...]:
    return tuple(c for c in (text or "").replace(" ", ",").split(",") if c)


contest_app = typer.Typer(help="A player-versus-player contest or a solo action: start, assist, draw, stop, "
                          "pass, redraw, end.",
                          no_args_is_help=True)


@contest_app.command("start")
def contest_start(
    first: Annotated[str, typer.Argument(help="The contestant who started (the GM's call).")],
    first_type: Annotated[str, typer.Option("--type", help="The first contestant's action type.")],
    first_token: Annotated[str, typer.Option("--token", help="The first contestant's token.")],
    against: Annotated[str, typer.Option("--against", help="The other contestant, or GM for a solo action.")],
    against_token: Annotated[str, typer.Option("--against-token", help="The other side's token (the GM's in a "
                                               "solo action).")],
    against_type: Annotated[Optional[str], typer.Option("--against-type", help="The other contestant's action "
                                                        "type.")] = None,
    formidable: Annotated[bool, typer.Option("--formidable", help="Solo: the opposition is especially "
                                             "formidable (one more draw).")] = False,
    advanced: Annotated[bool, typer.Option("--advanced", help="The advanced contest: tokens buy redraws of "
                                           "one current card.")] = False,
    stakes: Annotated[Names, typer.Option("--stakes", help="Advanced: what happens if each side wins "
                                          "(repeat: first, then second).")] = None,
    campaign: CampaignOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Start a contest (Strong against Weak wins outright) or a solo action against the GM."""
    from yarnlog.rulesets.dramasystem.parts.contests import StartContest

    run_command(campaign, StartContest(first, first_type, first_token, against, against_token, against_type,
                                       formidable, tuple(stakes or ()), advanced),
                override_reason=override, as_json=as_json)


@contest_app.command("redraw")
def contest_redraw(
    actor: Annotated[str, typer.Argument(help="Who redraws: a contestant, GM, or a present player interfering "
                                        "with a green token.")],
    contestant: Annotated[str, typer.Argument(help="Whose card is redrawn.")],
    card: Annotated[Optional[str], typer.Option("--card", help="The new card; omit: the tool draws it.")] = None,
    campaign: CampaignOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Advanced contest: a redraw (yourself or your opponent), the GM's once, an interferer's green."""
    from yarnlog.rulesets.dramasystem.parts.contests import RedrawInContest

    run_command(campaign, RedrawInContest(actor, contestant, card), override_reason=override, as_json=as_json)


@contest_app.command("assist")
def contest_assist(
    assistant: Annotated[str, typer.Argument(help="The assisting player.")],
    side: Annotated[str, typer.Option("--side", help="The contestant helped.")],
    action_type: Annotated[str, typer.Option("--type", help="The assistant's action type.")],
    token: Annotated[str, typer.Option("--token", help="The assistant's token: 3, 2 or 1 more draws.")],
    campaign: CampaignOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Another player helps one side: his token adds draws (one more if Strong against all Weak)."""
    from yarnlog.rulesets.dramasystem.parts.contests import AssistContest

    run_command(campaign, AssistContest(assistant, side, action_type, token), override_reason=override,
                as_json=as_json)


@contest_app.command("draw")
def contest_draw(
    side: Annotated[str, typer.Argument(help="The contestant whose hand the card joins (GM in a solo action).")],
    card: Annotated[Optional[str], typer.Option("--card", help="The card drawn; omit: the tool draws it.")] = None,
    drawn_by: Annotated[Optional[str], typer.Option("--by", help="An assistant drawing one of his extra "
                                                    "cards.")] = None,
    campaign: CampaignOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """One card for a side, in turn: the first, the second, then alternately."""
    from yarnlog.rulesets.dramasystem.parts.contests import DrawInContest

    run_command(campaign, DrawInContest(side, card, drawn_by), override_reason=override, as_json=as_json)


@contest_app.command("stop")
def contest_stop(
    side: Annotated[str, typer.Argument(help="The side that stops drawing.")],
    campaign: CampaignOpt = None, as_json: JsonOpt = False,
) -> None:
    """Simple contest: a side draws no more (SRD 601). Advanced contest: the same as pass, one turn."""
    from yarnlog.rulesets.dramasystem.parts.contests import StopDrawing

    run_command(campaign, StopDrawing(side), as_json=as_json)


@contest_app.command("pass")
def contest_pass(
    side: Annotated[str, typer.Argument(help="The contestant who passes this turn.")],
    campaign: CampaignOpt = None, as_json: JsonOpt = False,
) -> None:
    """Advanced contest: a contestant passes one turn to redraw (SRD 951, 959); a later redraw is still theirs."""
    from yarnlog.rulesets.dramasystem.parts.contests import StopDrawing

    run_command(campaign, StopDrawing(side), as_json=as_json)


@contest_app.command("end")
def contest_end(
    surprise: Annotated[Optional[str], typer.Option("--surprise", help="Advanced, equal values: the surprise "
                                                    "outcome both agreed on.")] = None,
    campaign: CampaignOpt = None, as_json: JsonOpt = False,
) -> None:
    """The highest card wins (suits break ties); face cards bring consequences in the simple contest."""
    from yarnlog.rulesets.dramasystem.parts.contests import EndContest

    run_command(campaign, EndContest(surprise), as_json=as_json)


consequence_app = typer.Typer(help="A consequence noted from a procedural scene: invoke it in a later scene, or let "
                              "it fade (SRD 637-641).", no_args_is_help=True)
SourceArg = Annotated[int, typer.Argument(help="The event that brought the consequence (see yarnlog consequences).")]
ConsequenceCardOpt = Annotated[Optional[str], typer.Option("--card", help="Its card, when that event brought "
                                                           "the player two.")]


@consequence_app.command("invoke")
def consequence_invoke(
    player: Annotated[str, typer.Argument(help="The player whose character's consequence it is.")],
    source: SourceArg, card: ConsequenceCardOpt = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Work a consequence into the scene in play (a later scene than it arose in; as often as you like)."""
    from yarnlog.rulesets.dramasystem.parts.consequences import InvokeConsequence

    run_command(campaign, InvokeConsequence(player, source, card), by=by, override_reason=override, as_json=as_json)


@consequence_app.command("fade")
def consequence_fade(
    player: Annotated[str, typer.Argument(help="The player whose character's consequence it is.")],
    source: SourceArg, card: ConsequenceCardOpt = None,
    reason: Annotated[str, typer.Option("--reason", help="What replaced it, in a few words.")] = "",
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """A consequence fades into the background (SRD 641)."""
    from yarnlog.rulesets.dramasystem.parts.consequences import FadeConsequence

    run_command(campaign, FadeConsequence(player, source, card, reason), by=by, override_reason=override,
                as_json=as_json)

