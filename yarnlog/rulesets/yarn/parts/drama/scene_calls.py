"""Calling scenes (Yarn 0.1, "Calling Scenes", "Calling Order", "Calling Dramatic Scenes", "Soft
Opens" through "Researching", "Calling a Procedural Scene").

The Yarn decider takes the journal's own ``OpenScene`` (or :class:`CallScene`, which adds what
only Yarn asks of a call) and emits the core ``scene.opened``, followed by a
``yarn.scene.called`` when the call costs or spends something or carries Yarn facts (a montage's
duration, a new element). Calls follow the episode's calling order (:mod:`.calling_order`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from yarnlog.core.composition import folds
from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.frozen import replace
from yarnlog.core.referee import Broken, Referee, Rule, invalid, present
from yarnlog.core.state import advance
from yarnlog.core.timeline import OpenScene, SceneOpened, check_timeline, decide_timeline
from yarnlog.rulesets.scenes_and_tokens.parts import calling_order
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_spends import BennieSpendLine, bennie_paid
from yarnlog.rulesets.scenes_and_tokens.parts.calling_order import CALLING_ORDER
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import (
    Drama,
    DramaBuilder,
    Recall,
    SceneCall,
    Validator,
    drama_of,
    forces_among,
    rebuilt,
    scene_in_play,
)
from yarnlog.rulesets.scenes_and_tokens.parts.economy import BENNIE, TransferLine, lines
from yarnlog.rulesets.scenes_and_tokens.rules.bennies import BennieOption, BennieSpend, spend_bennie
from yarnlog.rulesets.scenes_and_tokens.rules.calling import GM_CASTS as GM_CASTS  # the core's, read here by name
from yarnlog.rulesets.scenes_and_tokens.rules.calling import CallPrice, check_dramatic_cast, price_of_call
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import (
    CASTING_COST,
    casting_cost,
    check_not_reversing_force,
)
from yarnlog.rulesets.yarn.parts.characters.players import (
    cast_roles,
    characters_of,
    player_character,
    tracks_characters,
)
from yarnlog.rulesets.yarn.parts.drama.scene_roles import check_not_after_closer, role_named
from yarnlog.rulesets.yarn.parts.dramatic_side import YARN
from yarnlog.rulesets.yarn.state import YarnCampaign, YarnState

BOOK = "Yarn 0.1"
MODES = ("dramatic", "procedural")
KINDS = ("soft open", "conference", "montage", "healing", "training", "shopping", "research")

DRAMATIC_MODE = Rule(
    BOOK, "Calling Scenes",
    "Mode: Indicate whether this is a primarily dramatic scene, in which a PC or recurring character "
    "pursues an emotional reward from a PC or recurring character",
)
PROCEDURAL_MODE = Rule(
    BOOK, "Calling Scenes",
    "or a procedural scene, in which one or more PCs (possibly aided by supporting characters) pursues "
    "an external, practical goal.",
)
SOFT_OPEN = Rule(
    BOOK, "Soft Opens",
    "You can start a scene without specifying a situation. Instead the characters cast in the scene "
    "simply start talking to one another",
)
CONFERENCE = Rule(
    BOOK, "Conference Scenes",
    "the conference scene, in which all or most of the main characters discuss the issues currently "
    "before them.",
)
MONTAGE_CALL = Rule(
    BOOK, "Montage Scene",
    "It is called as a scene by a player when it is their turn and they suggest a duration.",
)
MONTAGE_END = Rule(
    BOOK, "Montage Scene",
    "At the end of a montage scene the calling player may immediately call another scene so long as "
    "they don't call another montage.",
)
SHOPPING_OFFSTAGE = Rule(
    BOOK, "Shopping Scenes",
    "When called the GM may require characters to go through the motions of obtaining the equipment or "
    "may simply rule they did so off stage. If ruled to be off stage the calling player may then call "
    "another scene immediately.",
)
JUMP_THE_QUEUE = Rule(BOOK, "Spending Bennies", BennieOption.JUMP_THE_QUEUE.effect)


@dataclass(frozen=True)
class CallScene(calling_order.CallInOrder):
    """A Yarn scene call: the core's call in order (``jump_queue``: the caller spends a bennie to call
    out of turn) and what only Yarn asks of a call.

    ``duration``: a montage's suggested duration. ``reverses_force`` with ``new_element``: the
    caller's answer to "Forcing" when the scene brings back two characters of this episode's force
    to reverse its result.
    """

    duration: str = ""
    reverses_force: bool = False
    new_element: str = ""
    role: str = ""  # opener, development or closer ("Episodes › Scenes"), when named as it is called


@dataclass(frozen=True)
class RuleOffstage:
    """The GM rules that the shopping scene in play happened off stage."""


@event("yarn.scene.called")
class SceneCalled(Payload):
    """What a Yarn call adds to ``scene.opened``: its costs and spends, a montage's duration, a new element."""

    scene: int
    caller: str
    caller_character: str | None = None
    duration: str = ""
    new_element: str = ""
    bennie_spends: list[BennieSpendLine] = Field(default_factory=list)
    transfers: list[TransferLine] = Field(default_factory=list)


@event("yarn.scene.ruled_offstage")
class RuledOffstage(Payload):
    scene: int
    caller: str


# -- deciding a call --------------------------------------------------------------------------


def kind_of(text: str | None) -> str | None:
    """A scene kind as the book names it ("soft-open", "Soft Open" -> "soft open")."""
    if text is None or not text.strip():
        return None
    kind = " ".join(text.replace("-", " ").replace("_", " ").casefold().split())
    invalid(kind in KINDS, f"a scene's kind is one of {', '.join(KINDS)}, not {text!r}")
    return kind


def check_composition(campaign: YarnCampaign, referee: Referee, opened: SceneOpened) -> None:
    """The call's cast, mode and kind against the book, before the scene opens."""
    table = campaign.table
    invalid(opened.caller == table.gm or opened.caller in table.players,
            f"{opened.caller} is not at the table to call a scene")
    invalid(len(set(opened.cast)) == len(opened.cast), "each character is cast once")
    invalid(opened.mode in (None, *MODES), f"a scene's mode is dramatic or procedural, not {opened.mode!r}")
    if opened.kind in ("soft open", "conference"):
        referee.require(not opened.situation.strip(), SOFT_OPEN, "a soft open starts without a situation")
    if opened.kind == "montage":
        referee.require(opened.caller != table.gm, MONTAGE_CALL, "a montage is called by a player")
        previous = drama_of(campaign).scenes.get(campaign.timeline.last_scene)
        referee.require(
            previous is None or previous.episode != campaign.timeline.episode or previous.kind != "montage"
            or previous.caller != opened.caller,
            MONTAGE_END, f"{opened.caller} called the montage before this scene",
        )
    characters = characters_of(campaign)
    if not tracks_characters(characters):
        return  # a journal that keeps no characters records the cast as told
    roles = cast_roles(campaign, opened.cast)
    for role in roles:
        invalid(not role.is_pc or characters.pcs[role.character].active, f"{role.character} is retired from play")
    pcs = sum(role.is_pc for role in roles)
    recurring = sum(role.kind == "recurring character" for role in roles)
    if opened.mode == "dramatic" and not check_dramatic_cast(referee, pcs=pcs, recurring=recurring,
                                                             caller_is_gm=opened.caller == table.gm):
        referee.require(pcs + recurring >= 2, DRAMATIC_MODE,
                        "a dramatic scene casts a petitioner and a granter")
    if opened.mode == "procedural":
        referee.require(pcs >= 1, PROCEDURAL_MODE, "a procedural scene casts at least one PC")
    if opened.kind == "conference":
        referee.require(2 * pcs > len([s for s in characters.pcs.values() if s.active]), CONFERENCE,
                        "a conference scene casts all or most of the main characters")


def check_turn(campaign: YarnCampaign, referee: Referee, caller: str, jump_queue: bool) -> None:
    """The calling order ("Calling Order"), and the queue jump a bennie buys ("Spending Bennies")."""
    calling_order.check_turn(YARN, campaign, referee, caller, jump_queue)


def check_no_reversal(campaign: YarnCampaign, referee: Referee, cast: tuple[str, ...], command: CallScene) -> None:
    """"Forcing": the same characters may not re-run this episode's force without a new element."""
    episode = campaign.timeline.episode
    forced = forces_among(drama_of(campaign), episode, cast)
    invalid(bool(forced) or not command.reverses_force, "no force this episode was between characters of this cast")
    for force in forced:
        check_not_reversing_force(
            referee, forced, episode=force.episode, petitioner=force.petitioner, granter=force.granter,
            intended_to_reverse=command.reverses_force, significant_new_element=bool(command.new_element.strip()),
        )


def scene_called(campaign: YarnCampaign, referee: Referee, *, scene: int, caller: str, cast: tuple[str, ...],
                 kind: str | None, mode: str | None,
                 duration: str, jump_queue: bool, new_element: str) -> SceneCalled | None:
    """The Yarn side of a call: the casting cost, a queue jump's bennie, a montage's duration."""
    referee.require(kind != "montage" or bool(duration.strip()), MONTAGE_CALL, "a montage needs a suggested duration")
    gm = campaign.table.gm
    economy = campaign.rules.economy
    characters = characters_of(campaign)
    own = player_character(characters, caller) if tracks_characters(characters) else None
    transfers: list[TransferLine] = []
    if tracks_characters(characters):
        price = price_of_call(mode=mode, caller_is_gm=caller == gm, caller_character_cast=own in cast,
                              procedural_price=YARN.procedural_call_price)
        assert price is not CallPrice.GREEN_TOKEN  # Yarn has no procedural tokens: its price is a drama token
        if price is CallPrice.DRAMA_TOKEN:
            transfers = lines(casting_cost(referee, economy.tokens, caller=caller, gm=gm, caller_character_cast=False))
    spends: list[BennieSpendLine] = []
    if jump_queue:
        jump = spend_bennie(referee, BennieSpend(caller, BennieOption.JUMP_THE_QUEUE, scene),
                            held=economy.holding(caller, BENNIE), history=drama_of(campaign).spends_in(scene),
                            balances_now=economy.tokens, gm=gm)
        spends = [BennieSpendLine.of(jump.spend)]
        transfers.append(bennie_paid(caller, JUMP_THE_QUEUE))
    if not (transfers or spends or duration or new_element):
        return None
    return SceneCalled(scene=scene, caller=caller, caller_character=own, duration=duration, new_element=new_element,
                       bennie_spends=spends, transfers=transfers)


def call_scene(command: OpenScene, campaign: YarnCampaign, referee: Referee) -> list[Payload]:
    """A Yarn scene call: the core ``scene.opened`` (closing the scene in play) and its Yarn side."""
    timeline = campaign.timeline
    invalid(timeline.episode is not None, "start an episode before calling a scene")
    yarn = command if isinstance(command, CallScene) else CallScene(caller=command.caller)
    cast = tuple(name.strip() for name in command.cast if name.strip())
    mode = (command.mode or "").strip().casefold() or None
    core = OpenScene(caller=command.caller.strip(), title=command.title, setting=command.setting, cast=cast,
                     mode=mode, kind=kind_of(command.kind), situation=command.situation,
                     time_break=command.time_break)
    payloads = present(decide_timeline(core, timeline), "start an episode before calling a scene")
    opened = payloads[-1]
    assert isinstance(opened, SceneOpened)  # the journal's OpenScene ends with the scene's opening
    check_composition(campaign, referee, opened)
    check_turn(campaign, referee, opened.caller, yarn.jump_queue)
    check_not_after_closer(campaign, referee)
    check_no_reversal(campaign, referee, cast, yarn)
    called = scene_called(campaign, referee, scene=opened.number, caller=opened.caller, cast=cast, kind=opened.kind,
                          mode=opened.mode,
                          duration=yarn.duration.strip(), jump_queue=yarn.jump_queue,
                          new_element=yarn.new_element.strip())
    payloads = payloads + ([called] if called is not None else [])
    if yarn.role.strip():  # named against the episode with this scene in it
        payloads.append(role_named(advance(campaign, payloads, by=opened.caller), referee,
                                   role=yarn.role.strip().casefold(), scene=opened.number))
    return payloads


def rule_offstage(campaign: YarnCampaign, referee: Referee, _recorded: Payload | None = None) -> RuledOffstage:
    """The GM's ruling on the shopping scene in play ("Shopping Scenes")."""
    scene = scene_in_play(campaign)
    invalid(scene.kind == "shopping", f"scene {scene.number} is not a shopping scene ({SHOPPING_OFFSTAGE.cite()})")
    return RuledOffstage(scene=scene.number, caller=scene.caller)


def decide(command, campaign: YarnCampaign, referee: Referee) -> list[Payload] | None:
    if isinstance(command, OpenScene):
        return call_scene(command, campaign, referee)
    if isinstance(command, RuleOffstage):
        return [rule_offstage(campaign, referee)]
    return None


# -- folding ----------------------------------------------------------------------------------


FOLDS = folds(SceneOpened, SceneCalled, RuledOffstage)


def evolve(drama: Drama, recorded: Recorded, yarn: YarnState) -> Drama:
    p = recorded.payload
    if isinstance(p, SceneOpened):
        return opened(drama, recorded, yarn)
    if isinstance(p, SceneCalled) and p.bennie_spends and p.scene in drama.scenes:
        drama = calling_order.jumped(drama, recorded.episode, p.caller)
        return replace(drama, scenes=drama.scenes.set(p.scene, replace(drama.scenes[p.scene], in_turn=True)))
    if isinstance(p, RuledOffstage):
        return replace(drama, recall=_offstage(p))
    return drama


def fold_in_place(drama: DramaBuilder, recorded: Recorded, yarn: YarnState) -> None:
    """:func:`evolve` in a replay (``yarn`` is the state before the event, its characters as they were)."""
    p = recorded.payload
    if isinstance(p, SceneOpened):
        characters = yarn.characters
        in_turn = calling_order.called_in_place(drama, characters, recorded.episode, p.caller)
        drama.scenes[p.number] = _call(p, recorded, characters, drama.gm, in_turn)
        drama.recall = _montage_recall(p)
    elif isinstance(p, SceneCalled) and p.bennie_spends and p.scene in drama.scenes:
        calling_order.jumped_in_place(drama, recorded.episode, p.caller)
        drama.scenes[p.scene] = replace(drama.scenes[p.scene], in_turn=True)
    elif isinstance(p, RuledOffstage):
        drama.recall = _offstage(p)


def _offstage(p: RuledOffstage) -> Recall:
    return Recall(p.caller, "the shopping scene was ruled off stage")


def _montage_recall(p: SceneOpened) -> Recall | None:
    """A montage's caller calls again once it ends; any other call ends a recall."""
    return Recall(p.caller, "a montage ended") if p.kind == "montage" else None


def _call(p: SceneOpened, recorded: Recorded, characters: Any, gm: str, in_turn: bool) -> SceneCall:
    """The scene as called: whether it was the caller's turn, whether casting cost her a token."""
    own = player_character(characters, p.caller) if tracks_characters(characters) else None
    cast = tuple(p.cast)  # the cast as called, and as it stands until a duck or rush: one tuple for both
    return SceneCall(
        number=p.number, episode=recorded.episode, caller=p.caller, cast=cast, called=cast,
        mode=p.mode, kind=p.kind, time_break=p.time_break, opened_at=recorded.sequence, in_turn=in_turn,
        cost_due=tracks_characters(characters) and p.caller != gm and own not in p.cast,
    )


def opened(drama: Drama, recorded: Recorded, yarn: YarnState) -> Drama:
    """A scene called: whether it was the caller's turn, whether casting cost her a token."""
    p = recorded.payload
    assert isinstance(p, SceneOpened)  # folded for scene.opened only
    in_turn, drama = calling_order.called(drama, yarn.characters, recorded.episode, p.caller)
    return replace(drama, scenes=drama.scenes.set(p.number, _call(p, recorded, yarn.characters, drama.gm, in_turn)),
                   recall=_montage_recall(p))


def pending_call(campaign: YarnCampaign) -> SceneCall | None:
    """The scene whose Yarn call must be the next event: the one the last event folded opened, unless
    a GM override let that opening through.

    Worked out from the scene's own ``opened_at`` (the state's ``sequence`` is the last event folded),
    so the drama part folds only the events it handles instead of clearing a mark at every event.
    """
    number = campaign.timeline.scene
    drama = drama_of(campaign)
    call = drama.scenes.get(number) if number is not None else None
    if call is None or call.opened_at != campaign.sequence or call.opened_at <= drama.overridden_through:
        return None
    return call


def validate_opened(p: SceneOpened, campaign: YarnCampaign, referee: Referee) -> SceneOpened:
    """The journal's scene opening, called as Yarn has it (cast, mode and kind), not after the closer."""
    check_composition(campaign, referee, p)
    check_not_after_closer(campaign, referee)
    checked = check_timeline(p, campaign.timeline)
    assert isinstance(checked, SceneOpened)  # check_timeline gives back the payload it checks, numbered
    return checked


def validate_called(p: SceneCalled, campaign: YarnCampaign, referee: Referee) -> SceneCalled:
    """The Yarn side of the scene just opened, decided again from the call as it was opened."""
    call = pending_call(campaign)
    invalid(call is not None and call.number == p.scene,
            f"scene {p.scene} was not just opened: its call follows its opening")
    assert call is not None  # refused above otherwise

    def recalled(c: YarnCampaign, r: Referee, q: SceneCalled) -> SceneCalled | None:
        return scene_called(c, r, scene=q.scene, caller=call.caller, cast=call.cast, kind=call.kind, mode=call.mode,
                            duration=q.duration, jump_queue=bool(q.bennie_spends), new_element=q.new_element)

    return present(recalled(campaign, referee, p), "the rules record no such event")  # as rebuilt(recalled)


VALIDATORS: Mapping[type[Payload], Validator[Any]] = {
    SceneOpened: validate_opened, SceneCalled: validate_called, RuledOffstage: rebuilt(rule_offstage),
}


def audit(campaign: YarnCampaign, recorded: Recorded) -> list[str]:
    """A scene just opened binds the event after it: its own Yarn call, paid, in turn."""
    call = pending_call(campaign)
    if call is None:
        return []
    payload = recorded.payload
    called = isinstance(payload, SceneCalled) and payload.scene == call.number
    jumped = isinstance(payload, SceneCalled) and called and bool(payload.bennie_spends)
    problems: list[str] = []
    if not called:
        if call.cost_due:
            problems.append(Broken(CASTING_COST, f"scene {call.number}: {call.caller} paid no drama token"))
        if call.kind == "montage":
            problems.append(Broken(MONTAGE_CALL, f"scene {call.number}: a montage needs a suggested duration"))
    if not call.in_turn and not jumped:
        problems.append(Broken(CALLING_ORDER, f"scene {call.number}: {call.caller} called out of turn"))
    return problems
