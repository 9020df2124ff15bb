"""The verbs of the shared core that end and challenge a scene: challenges, petitions, forces, two-way
exchanges, the quiz, the bennie vote and bennie spends. Each builds a plain command of the shared
core, which the campaign's ruleset decides with its own composition of the core.

Quick to type at the table: ``yarnlog petition --petitioner Iris --granter Tom refused``, ``yarnlog
ballot --voter Ana Ben Cy``. Lists take commas or repeated options. Only typer and :mod:`yarnlog.cli`
are imported at start-up; the domain modules are imported inside the commands.
"""

from collections.abc import Callable
from typing import Annotated, Any, Literal, Optional

import typer

from yarnlog.cli.context import campaign_state, run_command
from yarnlog.cli.options import ByOpt, CampaignOpt, JsonOpt, OverrideOpt, VisibilityOpt

Names = Optional[list[str]]
ForCallerOpt = Annotated[Names, typer.Option("--for-caller", help="Players siding with the caller (A,B).")]
ForChallengerOpt = Annotated[Names, typer.Option("--for-challenger", help="Players siding with the challenger.")]
TieOpt = Annotated[Optional[str], typer.Option("--tie", help="The GM's tie-break: caller or challenger.")]
PetitionerOpt = Annotated[str, typer.Option("--petitioner", "-p", help="The petitioning character.")]
GranterOpt = Annotated[str, typer.Option("--granter", "-g", help="The granting character.")]


def group(help_text: str, verbs: tuple[tuple[str, Callable[..., Any]], ...]) -> typer.Typer:
    """A group of verbs (``challenge duck``...), each under its name."""
    verbs_group = typer.Typer(help=help_text, no_args_is_help=True)
    for name, verb in verbs:
        verbs_group.command(name)(verb)
    return verbs_group


def names(values: Names) -> tuple[str, ...]:
    """``A,B`` and repeated options alike, as a tuple of names."""
    return tuple(n.strip() for value in values or () for n in value.split(",") if n.strip())


def run(campaign, command, by, override, as_json, visibility: str = "everyone") -> None:
    run_command(campaign, command, by=by, visibility=visibility, override_reason=override, as_json=as_json)


def _sides(campaign: str | None, for_caller: Names, for_challenger: Names) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Both sides of a show of hands (the rule for a side left out: :func:`vote_sides`)."""
    from yarnlog.rulesets.scenes_and_tokens.parts.scene_challenges import vote_sides

    caller_side, challenger_side = names(for_caller), names(for_challenger)
    if bool(caller_side) == bool(challenger_side):  # nothing to fill in: spare the replay
        return caller_side, challenger_side
    return vote_sides(campaign_state(campaign).table.players, caller_side, challenger_side)


def duck(
    character: Annotated[str, typer.Argument(help="The character (or its player) ducking the scene.")],
    compel: Annotated[bool, typer.Option("--compel/--acquiesce", help="The caller's reply.")] = False,
    token: Annotated[bool, typer.Option("--token", help="Duck the compulsion with a drama token.")] = False,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Duck your casting: the caller acquiesces, or compels you (a drama token to her ducks it)."""
    from yarnlog.rulesets.scenes_and_tokens.parts.scene_challenges import Duck

    run(campaign, Duck(character, compel, token), by, override, as_json)


def rush(
    character: Annotated[str, typer.Argument(help="The character (or its player) rushing the scene.")],
    consent: Annotated[bool, typer.Option("--consent", help="The caller consents: it costs nothing.")] = False,
    token: Annotated[bool, typer.Option("--token", help="Pay the caller a drama token.")] = False,
    bennie: Annotated[bool, typer.Option("--bennie", help="Pay the caller a bennie.")] = False,
    blocked: Annotated[bool, typer.Option("--blocked", help="The caller blocks with a bennie.")] = False,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Rush the scene in play: with the caller's consent, or a drama token or bennie to the caller."""
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.scenes_and_tokens.parts.scene_challenges import Rush

    invalid(consent + token + bennie == 1, "rush with exactly one of --consent, --token, --bennie")
    payment: Literal["token", "bennie"] | None = "token" if token else "bennie" if bennie else None
    run(campaign, Rush(character, consent, payment, blocked), by, override, as_json)


def _voted(kind: str, challenger, for_caller, for_challenger, tie, revised, campaign, by, override, as_json):
    from yarnlog.rulesets.scenes_and_tokens.parts.scene_challenges import ChallengeByVote

    caller_side, challenger_side = _sides(campaign, for_caller, for_challenger)
    run(campaign, ChallengeByVote(kind, challenger, caller_side, challenger_side, tie, revised), by, override,
         as_json)


def time_jump(
    challenger: Annotated[str, typer.Argument(help="The challenging player.")],
    for_caller: ForCallerOpt = None, for_challenger: ForChallengerOpt = None, tie: TieOpt = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Challenge the scene's time break: the players vote, the GM breaks a tie."""
    _voted("time jump", challenger, for_caller, for_challenger, tie, "", campaign, by, override, as_json)


def plot_jump(
    challenger: Annotated[str, typer.Argument(help="The challenging player.")],
    for_caller: ForCallerOpt = None, for_challenger: ForChallengerOpt = None, tie: TieOpt = None,
    revised: Annotated[str, typer.Option("--revised", help="The caller's revised situation, if she lost.")] = "",
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Challenge the situation as a plot jump: the players vote, the GM breaks a tie."""
    _voted("plot jump", challenger, for_caller, for_challenger, tie, revised, campaign, by, override, as_json)


def reversal(
    challenger: Annotated[str, typer.Argument(help="The challenging player.")],
    for_caller: ForCallerOpt = None, for_challenger: ForChallengerOpt = None, tie: TieOpt = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Challenge a scene re-running this episode's force with nothing significant new: vote."""
    _voted("reversal", challenger, for_caller, for_challenger, tie, "", campaign, by, override, as_json)


def novelty(
    challenger: Annotated[str, typer.Argument(help="The challenging player.")],
    too_similar: Annotated[bool, typer.Option("--too-similar", help="GM: the scene seems too similar.")] = False,
    change: Annotated[str, typer.Option("--change", help="The change the caller points to.")] = "",
    earlier_scene: Annotated[Optional[int], typer.Option("--earlier-scene", help="The scene it retries.")] = None,
    campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False,
) -> None:
    """Challenge for novelty: the GM judges (no vote)."""
    from yarnlog.rulesets.scenes_and_tokens.parts.scene_challenges import ChallengeNovelty

    run(campaign, ChallengeNovelty(challenger, too_similar, change, earlier_scene), by, None, as_json)


def procedural(
    narrator: Annotated[str, typer.Argument(help="Who narrated the practical success.")],
    objector: Annotated[Names, typer.Option("--objector", help="Who demands a procedural (one is enough).")] = None,
    reply: Annotated[str, typer.Option("--reply", help="withdraw, adjust or procedural")] = "procedural",
    narration: Annotated[str, typer.Option("--narration", help="What was narrated.")] = "",
    campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False,
) -> None:
    """Going to procedural: an objection to narration, and the narrator's reply."""
    from yarnlog.rulesets.scenes_and_tokens.parts.scene_challenges import DemandProcedural

    run(campaign, DemandProcedural(narrator, names(objector), reply, narration), by, None, as_json)


def narration(
    challenger: Annotated[str, typer.Argument(help="The challenging player.")],
    for_caller: ForCallerOpt = None, for_challenger: ForChallengerOpt = None, tie: TieOpt = None,
    revised: Annotated[str, typer.Option("--revised", help="The caller's revised narration, if she lost.")] = "",
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Challenge what the caller narrated (what she describes you doing): the players vote."""
    _voted("narration", challenger, for_caller, for_challenger, tie, revised, campaign, by, override, as_json)


def location(
    challenger: Annotated[str, typer.Argument(help="The challenging participant.")],
    name: Annotated[str, typer.Argument(help="The location.")],
    ground: Annotated[str, typer.Option("--ground", help="consistency, continuity, tone or believability")],
    allowed: Annotated[bool, typer.Option("--allowed/--not-allowed", help="GM: the detail fails that test, "
                                          "so the challenge goes to a vote.")],
    detail: Annotated[int, typer.Option("--detail", help="0: its introductory description; N: its Nth "
                                        "elaboration.")] = 0,
    for_detail: Annotated[Names, typer.Option("--for-detail", help="Players siding with the detail.")] = None,
    for_challenger: ForChallengerOpt = None,
    tie: Annotated[Optional[str], typer.Option("--tie", help="The GM's tie-break: detail or challenger.")] = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Challenge a location detail as out of bounds: the GM allows it, then the players vote."""
    from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import ChallengeLocation

    detail_side, challenger_side = (_sides(campaign, for_detail, for_challenger) if allowed
                                    else (names(for_detail), names(for_challenger)))
    run(campaign, ChallengeLocation(name, ground.strip().casefold(), challenger, allowed, detail, detail_side,
                                     challenger_side, tie), by, override, as_json)  # type: ignore[arg-type]


SoughtOpt = Annotated[Optional[str], typer.Option(
    "--sought", help="What was sought, in words (\"a place on the crew\"): told in the recap, ledger, explain.")]


def petition(
    answer: Annotated[str, typer.Argument(help="granted, refused or no-contest")],
    petitioner: PetitionerOpt, granter: GranterOpt,
    for_grant: Annotated[Names, typer.Option("--for-grant", help="Disputed 'no': who saw a significant "
                                             "shift of emotional power.")] = None,
    for_refusal: Annotated[Names, typer.Option("--for-refusal", help="Disputed 'no': who did not.")] = None,
    tie: Annotated[Optional[str], typer.Option("--tie", help="The caller's tie-break: granted or refused.")] = None,
    sought: SoughtOpt = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """End a dramatic scene: the petition granted, refused (or voted on), or no contest."""
    from yarnlog.rulesets.scenes_and_tokens.parts.petitions import GrantVoteData, ResolvePetition

    vote = None
    if for_grant or for_refusal or tie:
        vote = GrantVoteData(for_grant=list(names(for_grant)), for_refusal=list(names(for_refusal)),
                             caller_tie_break=tie)
    run(campaign, ResolvePetition(petitioner, granter, answer, vote, sought or None), by, override, as_json)


def _supporters(values: Names) -> dict[str, int]:
    from yarnlog.core.referee import invalid

    out = {}
    for item in names(values):
        name, _, tokens = item.partition("=")
        invalid(tokens.strip().isdigit(), f"a supporter is NAME=TOKENS, not {item!r}")
        out[name.strip()] = int(tokens)
    return out


def force(
    petitioner: PetitionerOpt, granter: GranterOpt,
    blocked: Annotated[bool, typer.Option("--blocked", help="The granter blocks with three tokens.")] = False,
    support: Annotated[Names, typer.Option("--support", help="CHARACTER=TOKENS given to the petitioner.")] = None,
    block_support: Annotated[Names, typer.Option("--block-support", help="CHARACTER=TOKENS given to the "
                                                 "granter to block.")] = None,
    sought: SoughtOpt = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """End a dramatic scene with a force (two tokens), perhaps blocked (three), perhaps supported."""
    from yarnlog.rulesets.scenes_and_tokens.parts.petitions import Force

    run(campaign, Force(petitioner, granter, blocked, _supporters(support), _supporters(block_support),
                        sought or None), by, override, as_json)


def two_way(
    granted: Annotated[Names, typer.Option("--granted", help="Character(s) whose petition was granted.")] = None,
    denied: Annotated[Names, typer.Option("--denied", help="Character(s) whose petition was denied.")] = None,
    sought: SoughtOpt = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """End a two-way exchange: name each of the two characters once, as granted or denied."""
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.scenes_and_tokens.parts.petitions import TwoWay

    parties = [(n, True) for n in names(granted)] + [(n, False) for n in names(denied)]
    invalid(len(parties) == 2, "a two-way exchange names two characters, each --granted or --denied")
    (first, first_granted), (second, second_granted) = parties
    run(campaign, TwoWay(first, second, first_granted, second_granted, sought or None), by, override, as_json)


def quiz(
    got: Annotated[Names, typer.Option("--got", help="PETITIONER:FROM who got what they wanted.")] = None,
    missed: Annotated[Names, typer.Option("--missed", help="PETITIONER:FROM who did not.")] = None,
    order: Annotated[Optional[str], typer.Option("--order", help="The players' newly drawn order A,B (default: "
                                                 "the one drawn this scene, or the tool shuffles).")] = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Multiple petitioners: the GM quizzes each player in a newly drawn precedence order."""
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.scenes_and_tokens.parts.petitions import QuizPetitioners

    answers = []
    for items, got_it in ((got, True), (missed, False)):
        for item in names(items):
            petitioner, sep, granter = item.partition(":")
            invalid(bool(sep), f"an answer is PETITIONER:FROM, not {item!r}")
            answers.append((petitioner.strip(), granter.strip(), got_it))
    drawn, source = (names([order]), "entered") if order else _drawn_or_shuffled(campaign, answers)
    run(campaign, QuizPetitioners(tuple(answers), drawn, source), by, override, as_json)
    if source == "shuffled" and drawn:
        from yarnlog.rulesets.scenes_and_tokens.cli.cast import say_shuffled

        say_shuffled(drawn, "--order")


def _drawn_or_shuffled(campaign, answers) -> tuple[tuple[str, ...] | None, Literal["shuffled", "entered"]]:
    """The order already drawn this scene, or the cards the rules say to shuffle, shuffled here."""
    from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import shuffled
    from yarnlog.rulesets.scenes_and_tokens.parts.petitions import players_to_draw_for_quiz

    state = campaign_state(campaign)
    players = players_to_draw_for_quiz(state.rules.roster, state, answers)
    return (None, "entered") if players is None else (shuffled(players), "shuffled")


def ballot(
    ranking: Annotated[list[str], typer.Argument(help="The other players, best (#1) first.")],
    voter: Annotated[str, typer.Option("--voter", help="Who votes (every player, and the GM).")],
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None,
    visibility: VisibilityOpt = "everyone", as_json: JsonOpt = False,
) -> None:
    """Cast a bennie ballot: rank the other players, #1 the best (the GM ranks them all)."""
    from yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote import CastBallot

    run(campaign, CastBallot(voter, names(ranking)), by, override, as_json, visibility)


def bennie_spend(
    spender: Annotated[str, typer.Argument(help="The player spending a bennie.")],
    option: Annotated[str, typer.Argument(help="drama-token, procedural-token, extra-card or burn")],
    target: Annotated[Optional[str], typer.Option("--target", help="Burn: the player whose token burns.")] = None,
    kind: Annotated[Optional[str], typer.Option("--kind", help="Burn: drama or procedural.")] = None,
    colour: Annotated[Optional[str], typer.Option(
        "--colour", help="DramaSystem: the procedural token returned (procedural-token) or burned (green, "
                         "yellow, red).")] = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Cash in a bennie (one per scene). Queue jumps: 'call --jump-queue'; rushes: 'challenge rush --bennie'."""
    from yarnlog.rulesets.scenes_and_tokens.parts.bennie_spends import SpendBennie

    run(campaign, SpendBennie(spender, option, target, kind, colour), by, override, as_json)



def register(app: typer.Typer) -> None:
    """Add the exchanges, the challenges and the bennie verbs to ``app``."""
    app.add_typer(group("Challenge the scene in play: duck, rush, time-jump, plot-jump, reversal, novelty, "
                        "procedural, narration; or a location detail.",
                        (("duck", duck), ("rush", rush), ("time-jump", time_jump), ("plot-jump", plot_jump),
                         ("reversal", reversal), ("novelty", novelty), ("procedural", procedural),
                         ("narration", narration), ("location", location))), name="challenge")
    for name, verb in (("petition", petition), ("force", force), ("two-way", two_way), ("quiz", quiz),
                       ("ballot", ballot)):
        app.command(name)(verb)
    app.add_typer(group("Spend a bennie.", (("spend", bennie_spend),)), name="bennie")
