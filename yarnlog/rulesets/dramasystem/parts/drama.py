"""DramaSystem's dramatic side: the shared core Yarn shares (:mod:`yarnlog.rulesets.scenes_and_tokens`),
composed with DramaSystem's book, characters and payloads.

The SRD's dramatic chapters are Yarn's nearly word for word (digest 001, section 5), so this module
adds no rule of its own: it registers the core's payloads under ``dramasystem.`` (a ruleset owns
only its own prefix), names the SRD's numbers for the shared text (:data:`LINES`, so a refusal
cites "DS21, lines 319-323"), reads the characters from :mod:`.sheets`, and records each scene
opened so it can be challenged (ducked, rushed, voted on) and a dramatic scene can end with its
exchange; bennies are voted and spent as in Yarn. A call costs what the core's
:func:`~yarnlog.rulesets.scenes_and_tokens.rules.calling.price_of_call` says with DramaSystem's price of a
procedural scene, a green procedural token (DS12, DS33). At the end of an episode the bennie vote
is tallied and every unspent drama token reverts to the kitty (DS19, DS73-DS75).
"""

from __future__ import annotations

import functools
from dataclasses import fields
from typing import Any

from pydantic import Field

from yarnlog.core.composition import Part, Router, compose_validators, folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.frozen import replace
from yarnlog.core.referee import Broken, InvalidCommand, Referee, Rule, invalid, present
from yarnlog.core.ruleset import CampaignState
from yarnlog.core.state import advance
from yarnlog.core.timeline import (
    OpenScene,
    SceneOpened,
    check_timeline,
    decide_timeline,
)
from yarnlog.rulesets.dramasystem.parts.procedural_piles import ProceduralRestore, ProceduralSpend, spends_for
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour, restore
from yarnlog.rulesets.scenes_and_tokens.parameters import SHARED_BOOK, Dramatic, Roster
from yarnlog.rulesets.scenes_and_tokens.parts import (
    bennie_spends,
    bennie_vote,
    calling_order,
    cast_moves,
    economy,
    petitions,
    relationships,
    rulings,
    scene_challenges,
    supporting_cast,
)
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_spends import BennieSpendLine, bennie_paid
from yarnlog.rulesets.scenes_and_tokens.parts.calling_order import CALLING_ORDER, CallInOrder
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import (
    JOURNAL_FOLDS,
    Drama,
    DramaBuilder,
    SceneCall,
    journal_fold,
    journal_fold_in_place,
)
from yarnlog.rulesets.scenes_and_tokens.parts.economy import BENNIE, TransferLine, lines
from yarnlog.rulesets.scenes_and_tokens.parts.roles import RECURRING, cast_roles, player_character, tracks_characters
from yarnlog.rulesets.scenes_and_tokens.prefixed import under_prefix
from yarnlog.rulesets.scenes_and_tokens.rules.bennies import BennieOption, BennieSpend, TokenKind, spend_bennie
from yarnlog.rulesets.scenes_and_tokens.rules.calling import CallPrice, check_dramatic_cast, price_of_call
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import CASTING_COST, casting_cost

BOOK = "DramaSystem SRD"

#: Where the SRD says what the shared text's chapters say (digest 001, section 2).
LINES = {
    "Tokens": "DS18-DS19, lines 271-275",
    "Playing and Resolving Dramatic Scenes": "DS20, lines 307-315",
    "Gaining Tokens": "DS21, lines 317-323",
    "Forcing": "DS22-DS24, lines 325-333",
    "Supporting or Blocking a Force": "DS25, lines 335-339",
    "No Contest Scenes": "lines 349-351",
    "Two-Way Exchanges": "DS26, lines 353-361",
    "Multiple Petitioners": "DS27, lines 363-393",
    "Drama with Recurring Characters": "DS28, line 403",
    "Drama vs. Talking": "DS29, lines 417-419",
    "Calling Scenes": "DS12, line 181",
    "Calling Dramatic Scenes": "DS12, DS17, lines 293-305",
    "Challenges": "DS13, line 205",
    "Ducking a Scene": "DS14, lines 209-217",
    "Rushing a Scene": "DS15, lines 219-227",
    "Challenging a Time Jump": "lines 229-231",
    "Challenging a Plot Jump": "lines 233-237",
    "Challenging For Novelty": "lines 239-247",
    "Going To Procedural": "DS16, lines 249-251",
    "Gaining Bennies": "DS73-DS74, lines 699-712",
    "Tied Results": "DS75, lines 714-720",
    "Spending Bennies": "DS76-DS77, lines 722-742",
    "Order of Precedence": "lines 61-65",
    "Creating Characters › Step By Step": "DS9, lines 23-51",
    "Creating Characters › What You Want From Others": "DS8, line 115",
    "Themes": "DS10, lines 163-165",
    "Calling Order": "DS11, lines 193-199",
    "Supporting Characters › Introducing Minor Characters": "lines 659-663",
    "Supporting Characters › Recurring Characters": "DS28, lines 665-675",
    "Supporting Characters › Introducing Locations": "lines 677-693",
}


def _roster(campaign: CampaignState[Any]) -> Roster:
    return campaign.rules.sheets


def _draw_petitioners(campaign: CampaignState[Any], referee: Referee, order: tuple[str, ...],
                      source: str) -> list[Payload]:
    drawn = CAST.decide(cast_moves.DrawPrecedence(supporting_cast.Purpose.PETITIONERS, order, source),  # type: ignore[arg-type]
                        campaign, referee)
    assert drawn is not None  # DrawPrecedence is a command of the cast
    return drawn


#: DS11 (lines 195-197): the GM replaces the theme chooser, where Yarn's GM "usually" does (digest section 5).
WORDS = {
    CALLING_ORDER: "The player choosing the episode's theme always calls first. Then comes the player who "
                   "actually appeared first, in your precedence order. The GM inserts herself into the order, "
                   "replacing the player who chose the theme. Scenes are then called according to this altered "
                   "order. Once you reach the end of a calling order, it rolls over, continuing the already "
                   "established precedence order.",
}

#: DS9 (line 51) is a condition of play here: the first episode waits until every PC is the object of
#: two other PCs' wants, unless the GM overrides it with a reason.
DRAMASYSTEM = Dramatic(book=BOOK, roster=_roster, lines=LINES, draw_petitioners=_draw_petitioners,
                       procedural_call_price=CallPrice.GREEN_TOKEN, words=WORDS, wants_before_play=True)
JUMP_THE_QUEUE = DRAMASYSTEM.cite(Rule(SHARED_BOOK, "Spending Bennies", BennieOption.JUMP_THE_QUEUE.effect))

GREEN_TO_CALL = Rule(
    f"{BOOK} (DS33, lines 441, 792)", "Procedural Resolution",
    "To call a procedural scene your character is not in, spend a green token. (This requirement does not "
    "apply to the GM.)",
)


@event("dramasystem.scene.called")
class SceneCalled(Payload):
    """What a call cost its caller, whose character is not cast: a drama token to the kitty for a
    dramatic scene (DS12, line 181), a green procedural token for a procedural one (DS33); and the
    bennie spent to jump the queue (DS76, line 734)."""

    scene: int
    caller: str
    caller_character: str | None = None
    transfers: list[TransferLine] = Field(default_factory=list)
    procedural_spends: list[ProceduralSpend] = Field(default_factory=list)
    bennie_spends: list[BennieSpendLine] = Field(default_factory=list, max_length=1)


@event("dramasystem.bennie.spent")
class BennieSpent(bennie_spends.BennieSpent):
    """A bennie cashed in (DS76-DS77, lines 722-742), with what it does to procedural tokens: one spent
    token of the spender's choice returned ("a procedural token", reading 5), or another player's token
    burned, "treated as spent" (which refreshes the pile if it was the last, reading 6)."""

    procedural_restores: list[ProceduralRestore] = Field(default_factory=list)
    procedural_spends: list[ProceduralSpend] = Field(default_factory=list)


def _colour(colour: str | None, what: str) -> Colour:
    named = present(colour, f"name the colour of the procedural token {what} (--colour green, yellow or red)")
    try:
        return Colour(named)
    except ValueError:
        raise InvalidCommand(f"a procedural token is green, yellow or red, not {named!r}") from None


def bennie_effects(campaign: CampaignState[Any], referee: Referee, spend: BennieSpend,
                   colour: str | None) -> dict[str, Any]:
    """DramaSystem's side of the bennie menu (DS76, lines 726-740; digest readings 5 and 6): "a
    procedural token" returns one spent token of the spender's choice (refused when that one is not
    spent: a pile holds one of each colour); a burned procedural token is "treated as spent". An
    additional card is drawn within the resolution it serves, so it is not spent here."""
    piles = campaign.rules.piles
    if spend.option is BennieOption.PROCEDURAL_TOKEN:
        back = _colour(colour, "that returns")
        restore(piles.pile(spend.spender), back, referee, spend.spender)
        return {"procedural_restores": [ProceduralRestore(participant=spend.spender, colour=back)]}
    if spend.option is BennieOption.BURN_TOKEN and spend.burn_kind is TokenKind.PROCEDURAL:
        target = present(spend.burn_target, "a burned token needs a target: another player")
        burned = _colour(colour, "burned")
        return {"procedural_spends": spends_for(piles, [(target, burned)], referee)}
    invalid(spend.option is not BennieOption.EXTRA_CARD,
            "a bennie's additional card is drawn within the resolution it serves (DS76, line 732; reading 5): "
            "yarnlog extra-card PLAYER")
    invalid(colour is None, f"a bennie spent on {spend.option.effect!r} names no procedural token")
    return {}


def _chosen_colour(payload: Any) -> str | None:
    chosen = [*payload.procedural_restores, *payload.procedural_spends]
    return chosen[0].colour.value if chosen else None


#: GM rulings that move nothing (a ruling that moves tokens is the economy's ``TransferTokens``).
RULINGS = rulings.Rulings(under_prefix(rulings.RulingRecorded, "dramasystem", "ruling.recorded"))


#: Relationships and wants, kept on the sheets (:mod:`.sheets`); the first two wants are fraught (DS8).
RELATIONSHIPS = relationships.Relationships.under(DRAMASYSTEM, "dramasystem")


#: The cast around the PCs, precedence orders and themes, kept in ``campaign.rules.sheets.cast``.
CAST = cast_moves.SupportingCast(DRAMASYSTEM, cast_moves.CastEvents.under("dramasystem"))


ECONOMY = economy.economy_part(economy.EconomyEvents.under("dramasystem"), DRAMASYSTEM.referee)
PETITIONS = petitions.Petitions(DRAMASYSTEM, petitions.PetitionEvents.under("dramasystem"))
CHALLENGES = scene_challenges.SceneChallenges(DRAMASYSTEM, scene_challenges.ChallengeEvents.under("dramasystem"))
SPENDS = bennie_spends.BennieSpends(DRAMASYSTEM, BennieSpent, effects=bennie_effects, chosen_colour=_chosen_colour)
#: At the end of an episode: the bennie vote, unspent drama tokens back to the kitty (DS19, DS73-DS75).
VOTING = bennie_vote.BennieVoting(DRAMASYSTEM, bennie_vote.VoteEvents.under("dramasystem"))
#: The core's drama modules DramaSystem composes, each deciding, folding and validating its own payloads.
MODULES = (PETITIONS, CHALLENGES, SPENDS, VOTING)


def call_paid(campaign: CampaignState[Any], referee: Referee, *, scene: int, caller: str, cast: tuple[str, ...],
              mode: str | None, jump_queue: bool = False) -> SceneCalled | None:
    """The price of a call (:func:`price_of_call`, reading 4.18: the specific green token replaces
    the drama token for a procedural scene; the GM pays neither) and the bennie of a queue jump
    (DS76), or ``None`` when the call costs nothing."""
    roster = campaign.rules.sheets
    referee = DRAMASYSTEM.referee(referee)
    economy, gm = campaign.rules.economy, campaign.table.gm
    own = player_character(roster, caller) if tracks_characters(roster) else None
    transfers: list[TransferLine] = []
    procedural: list[ProceduralSpend] = []
    if tracks_characters(roster):  # a journal that keeps no characters records the call as told
        price = price_of_call(mode=mode, caller_is_gm=caller == gm, caller_character_cast=own in cast,
                              procedural_price=DRAMASYSTEM.procedural_call_price)
        if price is CallPrice.DRAMA_TOKEN:
            transfers = lines(casting_cost(referee, economy.tokens, caller=caller, gm=gm, caller_character_cast=False))
        if price is CallPrice.GREEN_TOKEN:
            piles = campaign.rules.piles
            referee.require(Colour.GREEN in piles.available(caller), GREEN_TO_CALL,
                            f"{caller} needs an unspent green token to call a scene without "
                            f"{own or 'a character of hers'}")
            procedural = spends_for(piles, [(caller, Colour.GREEN)], referee)
    jumps: list[BennieSpendLine] = []
    if jump_queue:
        jump = spend_bennie(referee, BennieSpend(caller, BennieOption.JUMP_THE_QUEUE, scene),
                            held=economy.holding(caller, BENNIE), history=campaign.rules.drama.spends_in(scene),
                            balances_now=economy.tokens, gm=gm)
        jumps = [BennieSpendLine.of(jump.spend)]
        transfers.append(bennie_paid(caller, JUMP_THE_QUEUE))
    if not (transfers or procedural or jumps):
        return None
    return SceneCalled(scene=scene, caller=caller, caller_character=own, transfers=transfers,
                       procedural_spends=procedural, bennie_spends=jumps)


def check_cast(campaign: CampaignState[Any], referee: Referee, opened: SceneOpened) -> None:
    """DS17 (lines 303-305): never a dramatic scene between two recurring characters; a GM's dramatic
    scene casts a player character. (A journal that keeps no characters records the cast as told.)"""
    roster = campaign.rules.sheets
    if not tracks_characters(roster):
        return
    roles = cast_roles(roster, campaign, opened.cast)
    check_dramatic_cast(DRAMASYSTEM.referee(referee), pcs=sum(role.is_pc for role in roles),
                        recurring=sum(role.kind == RECURRING for role in roles),
                        caller_is_gm=opened.caller == campaign.table.gm)


def call_scene(command: OpenScene, campaign: CampaignState[Any], referee: Referee) -> list[Payload]:
    """The journal's scene opening by the caller the calling order names (DS11), or by one who jumps
    the queue with a bennie (DS76), then what the call cost its caller (DS12, DS33)."""
    jump_queue = isinstance(command, CallInOrder) and command.jump_queue
    core = OpenScene(**{f.name: getattr(command, f.name) for f in fields(OpenScene)})
    payloads = present(decide_timeline(core, campaign.timeline), "start an episode before calling a scene")
    opened = payloads[-1]
    assert isinstance(opened, SceneOpened)  # the journal's OpenScene ends with the scene's opening
    table = campaign.table
    invalid(opened.caller == table.gm or opened.caller in table.players,
            f"{opened.caller} is not at the table to call a scene")
    calling_order.check_turn(DRAMASYSTEM, campaign, referee, opened.caller, jump_queue)
    if opened.mode == "dramatic":
        check_cast(campaign, referee, opened)
    paid = call_paid(advance(campaign, payloads, by=opened.caller), referee, scene=opened.number,
                     caller=opened.caller, cast=tuple(opened.cast), mode=opened.mode, jump_queue=jump_queue)
    return [*payloads, *([paid] if paid is not None else [])]


def validate_opened(p: SceneOpened, campaign: CampaignState[Any], referee: Referee) -> SceneOpened:
    """The journal's scene opening, its dramatic cast checked against DS17 (a call's turn is audited)."""
    if p.mode == "dramatic":
        check_cast(campaign, referee, p)
    checked = check_timeline(p, campaign.timeline)
    assert isinstance(checked, SceneOpened)  # check_timeline gives back the payload it checks, numbered
    return checked


def validate_called(p: SceneCalled, campaign: CampaignState[Any], referee: Referee) -> SceneCalled:
    """The price of the scene just opened, decided again from its call."""
    call = present(campaign.rules.drama.scenes.get(p.scene), f"scene {p.scene} was never opened")
    invalid(call.opened_at == campaign.sequence, f"scene {p.scene} was not just opened: its price follows its opening")
    return present(call_paid(campaign, referee, scene=p.scene, caller=call.caller, cast=call.cast, mode=call.mode,
                             jump_queue=bool(p.bennie_spends)),
                   "the rules record no such event")


def calling_view(campaign: CampaignState[Any]) -> dict[str, Any]:
    """The episode's calling order (DS11), who calls next, and each scene's caller."""
    return calling_order.calling_view(campaign, DRAMASYSTEM)


def audit(campaign: CampaignState[Any], recorded: Recorded) -> list[str]:
    """A scene just opened binds the event after it: its price when the caller's character is not
    cast, its queue jump when it was called out of turn (DS11, DS76)."""
    number = campaign.timeline.scene
    call = campaign.rules.drama.scenes.get(number) if number is not None else None
    if call is None or call.opened_at != campaign.sequence:
        return []
    p = recorded.payload
    paid = isinstance(p, SceneCalled) and p.scene == call.number
    jumped = isinstance(p, SceneCalled) and paid and bool(p.bennie_spends)
    problems: list[str] = []
    if call.cost_due and not paid:
        rule = GREEN_TO_CALL if call.mode == "procedural" else DRAMASYSTEM.cite(CASTING_COST)
        problems.append(Broken(rule, f"scene {call.number}: {call.caller} paid nothing for a scene without her "
                                     "character"))
    if not call.in_turn and not jumped:
        problems.append(Broken(DRAMASYSTEM.cite(CALLING_ORDER),
                               f"scene {call.number}: {call.caller} called out of turn"))
    return problems


def decide(command: Any, campaign: CampaignState[Any], referee: Referee) -> list[Payload] | None:
    if type(command) in (OpenScene, CallInOrder):  # not Yarn's own calls, which ask more of a call
        return call_scene(command, campaign, referee)
    cast = CAST.decide(command, campaign, referee)  # StartEpisode too: the theme rota's chooser (DS10)
    if cast is not None:
        return cast
    for module in MODULES:
        payloads = module.decide(command, campaign, referee)
        if payloads is not None:
            return payloads
    ruled = RULINGS.decide(command, campaign, referee)
    if ruled is not None:
        return ruled
    return RELATIONSHIPS.decide(command, campaign, referee)


FOLDS = folds(*JOURNAL_FOLDS, SceneOpened) | PETITIONS.FOLDS | CHALLENGES.FOLDS \
    | SPENDS.FOLDS | VOTING.FOLDS


def evolve(drama: Drama, recorded: Recorded, state: Any = None) -> Drama:
    p = recorded.payload
    if isinstance(p, JOURNAL_FOLDS):
        return journal_fold(drama, recorded)
    if isinstance(p, SceneOpened):
        roster = state.sheets if state is not None else None
        in_turn, drama = calling_order.called(drama, roster, recorded.episode, p.caller)
        drama = replace(drama, recall=None)  # a second call owed is made, or passed over, by this one
        return replace(drama, scenes=drama.scenes.set(p.number, _call(p, recorded, roster, drama.gm, in_turn)))
    if isinstance(p, SceneCalled) and p.bennie_spends and p.scene in drama.scenes:
        drama = calling_order.jumped(drama, recorded.episode, p.caller)  # and a turn bought: in turn
        drama = replace(drama, scenes=drama.scenes.set(p.scene, replace(drama.scenes[p.scene], in_turn=True)))
    for fold in ROUTE(type(p)):
        drama = fold(drama, recorded)
    return drama


def _call(p: SceneOpened, recorded: Recorded, roster: Any, gm: str, in_turn: bool) -> SceneCall:
    """The scene as called: whether it was the caller's turn, whether it cost the caller (DS12, DS33)."""
    cast = tuple(p.cast)  # as called, and as it stands until a duck or rush: one tuple for both
    return SceneCall(number=p.number, episode=recorded.episode, caller=p.caller, cast=cast,
                     called=cast, mode=p.mode, kind=p.kind, time_break=p.time_break,
                     opened_at=recorded.sequence, in_turn=in_turn,
                     cost_due=tracks_characters(roster) and p.caller != gm
                     and player_character(roster, p.caller) not in p.cast)


def fold_in_place(drama: DramaBuilder, recorded: Recorded, state: Any) -> None:
    """:func:`evolve` in a replay: the slice thawed (``state`` is the state before the event)."""
    p = recorded.payload
    if isinstance(p, JOURNAL_FOLDS):
        journal_fold_in_place(drama, recorded)
    elif isinstance(p, SceneOpened):
        roster = state.sheets
        in_turn = calling_order.called_in_place(drama, roster, recorded.episode, p.caller)
        drama.recall = None
        drama.scenes[p.number] = _call(p, recorded, roster, drama.gm, in_turn)
    else:
        if isinstance(p, SceneCalled) and p.bennie_spends and p.scene in drama.scenes:
            calling_order.jumped_in_place(drama, recorded.episode, p.caller)
            drama.scenes[p.scene] = replace(drama.scenes[p.scene], in_turn=True)
        for fold in ROUTE_IN_PLACE(type(p)):
            fold(drama, recorded)


#: Each event goes to the core's modules that fold its type, in the order of :data:`MODULES`.
ROUTE = Router((module.FOLDS, module.evolve) for module in MODULES)
ROUTE_IN_PLACE = Router((module.FOLDS, module.fold_in_place) for module in MODULES)

# A replay folds the slice in place; a scene called reads the sheets as they were (its caller's character).
PART = Part(name="drama", initial=Drama, evolve=evolve, folds=FOLDS, decide=decide, audit=audit,
            thaw=functools.partial(DramaBuilder, fold=fold_in_place), reads=frozenset({"sheets"}),
            validators=compose_validators(*(m.VALIDATORS for m in MODULES), CAST.VALIDATORS, RELATIONSHIPS.VALIDATORS,
                                          RULINGS.VALIDATORS,
                                          {SceneCalled: validate_called, SceneOpened: validate_opened}))
