"""Challenges to a called scene ("Challenges": ducking, rushing, time and plot jumps, novelty, going
to procedural; and the vote on a scene re-running a force, from "Forcing"): Yarn 0.1, and
DramaSystem DS13-DS16 in the same words.

Each move is decided by the pure functions of :mod:`.challenges` and recorded with the facts
that decided it, so ``verify`` can decide it again. Ducks and rushes change the scene's cast.
Each ruleset registers the five payloads under its own prefix (:class:`ChallengeEvents`) and
composes :class:`SceneChallenges` with its :class:`~yarnlog.rulesets.scenes_and_tokens.parameters.Dramatic`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from yarnlog.core.composition import folds
from yarnlog.core.events import Payload, Recorded
from yarnlog.core.frozen import replace
from yarnlog.core.referee import Referee, Rule, invalid
from yarnlog.rulesets.scenes_and_tokens.parameters import Dramatic
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_spends import BennieSpendLine, bennie_paid
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import (
    Campaign,
    CastChange,
    Drama,
    DramaBuilder,
    Recall,
    SceneCall,
    drama_of,
    forces_among,
    rebuilt,
    scene_in_play,
)
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferLine, lines
from yarnlog.rulesets.scenes_and_tokens.parts.roles import require_character
from yarnlog.rulesets.scenes_and_tokens.prefixed import under_prefix
from yarnlog.rulesets.scenes_and_tokens.rules.bennies import BennieOption
from yarnlog.rulesets.scenes_and_tokens.rules.challenges import (
    RUSHING,
    DuckReply,
    NarrationReply,
    NoveltyRuling,
    RushPayment,
    Side,
    challenge_vote,
    duck_scene,
    going_to_procedural,
    novelty_challenge,
    rush_scene,
)
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import KITTY, NO_REVERSAL

BOOK = "Yarn 0.1"
TIME_JUMP = Rule(
    BOOK, "Challenging a Time Jump",
    "Players may object to jumps in time when they preclude them from taking actions they see their "
    "characters as wanting to take in the nearer term. Resolve a challenge to a time break with a vote.",
)
PLOT_JUMP = Rule(
    BOOK, "Challenging a Plot Jump",
    "If the caller loses the challenge, she must then revise her situation description to meet the "
    "objections of the challenging player, and the voters who supported him.",
)
NARRATION = Rule(
    BOOK, "Calling Scenes",
    "Caller narration may be challenged if players object to what you describe them as doing, or if they "
    "feel that your complication assumes a plot advancement that ought to be played out instead.",
)
BLOCK_RUSH = Rule(BOOK, "Spending Bennies", BennieOption.BLOCK_JUMP_IN.effect)
VOTED_CHALLENGES = {"time jump": TIME_JUMP, "plot jump": PLOT_JUMP, "reversal": NO_REVERSAL, "narration": NARRATION}
#: Challenges after which the caller revises what she described (the plot jump's rule; her narration's).
REVISED = ("plot jump", "narration")
REPLIES = {"withdraw": NarrationReply.WITHDRAW, "adjust": NarrationReply.ADJUST,
           "procedural": NarrationReply.PLAY_PROCEDURAL}


# -- commands ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Duck:
    """A player challenges her character's casting; ``compel``: the caller's reply (else she acquiesces)."""

    character: str
    compel: bool
    token: bool = False


@dataclass(frozen=True)
class Rush:
    """A character rushes the scene in play: with the caller's consent, or paying ``token`` or ``bennie``."""

    character: str
    consent: bool = False
    payment: Literal["token", "bennie"] | None = None
    blocked: bool = False


@dataclass(frozen=True)
class ChallengeByVote:
    """A challenge settled by the players' show of hands: ``kind`` is a key of :data:`VOTED_CHALLENGES`."""

    kind: str
    challenger: str
    for_caller: tuple[str, ...]
    for_challenger: tuple[str, ...]
    gm_tie_break: Literal["caller", "challenger"] | None = None
    revised_situation: str = ""


def vote_sides(players, for_caller, for_challenger) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Both sides of a show of hands when only one was named: every other player is on the other
    side (each player votes, "Challenging a Scene"). Both or neither named: as given."""
    caller_side, challenger_side = tuple(for_caller), tuple(for_challenger)
    if bool(caller_side) == bool(challenger_side):
        return caller_side, challenger_side
    given = set(caller_side or challenger_side)
    rest = tuple(p for p in players if p not in given)
    return (caller_side, rest) if caller_side else (rest, challenger_side)


@dataclass(frozen=True)
class ChallengeNovelty:
    """The GM's rulings: is the scene ``too_similar``, and the ``change`` the caller points to."""

    challenger: str
    too_similar: bool
    change: str = ""
    earlier_scene: int | None = None


@dataclass(frozen=True)
class DemandProcedural:
    """Objections to a narrated practical success, and the narrator's reply (a key of :data:`REPLIES`)."""

    narrator: str
    objectors: tuple[str, ...]
    reply: str
    narration: str = ""


# -- events -----------------------------------------------------------------------------------


class SceneDucked(Payload):
    """A player challenged her casting: acquiesced, compelled, or ducked with a token (``yarn.challenge.ducked``)."""

    scene: int
    character: str
    ducker: str
    caller: str
    caller_compels: bool
    spends_token: bool
    in_scene: bool
    caller_starts_over: bool
    transfers: list[TransferLine] = Field(default_factory=list)


class SceneRushed(Payload):
    """A character rushed the scene: with consent, a token or a bennie; perhaps blocked (``yarn.challenge.rushed``)."""

    scene: int
    character: str
    rusher: str
    caller: str
    caller_consents: bool
    payment: Literal["token", "bennie"] | None
    caller_blocks: bool
    joined: bool
    bennie_spends: list[BennieSpendLine] = Field(default_factory=list)
    transfers: list[TransferLine] = Field(default_factory=list)


class ChallengeVoted(Payload):
    """A challenge settled by the players' show of hands, the GM breaking a tie (``yarn.challenge.voted``)."""

    scene: int
    kind: str
    challenger: str
    caller: str
    for_caller: list[str]
    for_challenger: list[str]
    gm_tie_break: Literal["caller", "challenger"] | None
    winner: Literal["caller", "challenger"]
    must_satisfy: list[str]
    revised_situation: str = ""


class NoveltyRuled(Payload):
    """The GM's ruling on a challenge for novelty (``yarn.challenge.novelty_ruled``)."""

    scene: int
    challenger: str
    caller: str
    earlier_scene: int | None
    too_similar: bool
    change: str
    ruling: Literal["call_stands", "call_another_scene"]


class ProceduralDemanded(Payload):
    """An objection to narrated success and the narrator's reply (``yarn.challenge.procedural_demanded``)."""

    scene: int
    narrator: str
    objectors: list[str]
    reply: Literal["withdraw", "adjust", "procedural"]
    narration: str = ""


# -- folding ---------------------------------------------------------------------------------


def _rush_kind(p: SceneRushed) -> str:
    """How a rush changed the cast (see :class:`~.state.CastChange`)."""
    if not p.joined:
        return "blocked"
    # "It costs nothing to join a scene if the caller consents to your joining."
    return "brought in" if p.caller_consents else "rushed"


FOLDS = folds(SceneDucked, SceneRushed, ChallengeVoted, NoveltyRuled)
CHALLENGE_TYPES = (SceneDucked, SceneRushed, ChallengeVoted, NoveltyRuled)


def challenged(scene: SceneCall, p: Payload, sequence: int) -> tuple[SceneCall, Recall | None]:
    """What a challenge of ``scene`` (recorded as event ``sequence``) does: the scene after it (its
    cast, its changes, its time break), and the caller it allows to call again (``None``: no recall).
    :func:`evolve` and :func:`fold_in_place` both apply it."""
    if isinstance(p, SceneDucked):
        if not p.in_scene:
            scene = replace(scene, cast=tuple(c for c in scene.cast if c != p.character),
                            changes=scene.changes + (CastChange(p.character, "ducked", sequence),))
        recall = Recall(p.caller, f"{p.character} ducked a scene with a cast of two") if p.caller_starts_over else None
        return scene, recall
    if isinstance(p, SceneRushed):
        change = CastChange(p.character, _rush_kind(p), sequence)
        return replace(scene, cast=scene.cast + (p.character,) if p.joined else scene.cast,
                       changes=scene.changes + (change,)), None
    if isinstance(p, ChallengeVoted) and p.winner == "challenger":
        if p.kind == "time jump":
            scene = replace(scene, time_break="")
        return scene, Recall(p.caller, "the scene re-ran a force of this episode") if p.kind == "reversal" else None
    if isinstance(p, NoveltyRuled) and p.ruling == NoveltyRuling.CALL_ANOTHER_SCENE.name.lower():
        return scene, Recall(p.caller, "the novelty challenge asks for an entirely different scene")
    return scene, None


def evolve(drama: Drama, recorded: Recorded, _state: Any = None) -> Drama:
    p = recorded.payload
    if not isinstance(p, CHALLENGE_TYPES) or p.scene not in drama.scenes:
        return drama
    before = drama.scenes[p.scene]
    scene, recall = challenged(before, p, recorded.sequence)
    if scene is not before:
        drama = replace(drama, scenes=drama.scenes.set(p.scene, scene))
    return drama if recall is None else replace(drama, recall=recall)


def fold_in_place(drama: DramaBuilder, recorded: Recorded, _before: Any = None) -> None:
    """:func:`evolve` in a replay."""
    p = recorded.payload
    if not isinstance(p, CHALLENGE_TYPES) or p.scene not in drama.scenes:
        return
    before = drama.scenes[p.scene]
    scene, recall = challenged(before, p, recorded.sequence)
    if scene is not before:
        drama.scenes[p.scene] = scene
    if recall is not None:
        drama.recall = recall


# -- deciding ---------------------------------------------------------------------------------


RUSH_PAYMENTS = {"token": RushPayment.DRAMA_TOKEN, "bennie": RushPayment.BENNIE}


@dataclass(frozen=True)
class ChallengeEvents:
    """The five challenge payloads as one ruleset registers them under its prefix."""

    ducked: type[SceneDucked]
    rushed: type[SceneRushed]
    voted: type[ChallengeVoted]
    novelty_ruled: type[NoveltyRuled]
    procedural_demanded: type[ProceduralDemanded]

    @classmethod
    def under(cls, prefix: str) -> ChallengeEvents:
        """The payloads as the ruleset of ``prefix`` records them."""
        return cls(
            ducked=under_prefix(SceneDucked, prefix, "challenge.ducked"),
            rushed=under_prefix(SceneRushed, prefix, "challenge.rushed"),
            voted=under_prefix(ChallengeVoted, prefix, "challenge.voted"),
            novelty_ruled=under_prefix(NoveltyRuled, prefix, "challenge.novelty_ruled"),
            procedural_demanded=under_prefix(ProceduralDemanded, prefix, "challenge.procedural_demanded"),
        )


@dataclass(frozen=True)
class SceneChallenges:
    """Challenges as one ruleset has them: its :class:`Dramatic` and its payloads. ``decide``,
    ``evolve``, ``FOLDS`` and ``VALIDATORS`` are a drama module's."""

    dramatic: Dramatic
    events: ChallengeEvents

    FOLDS = FOLDS
    evolve = staticmethod(evolve)
    fold_in_place = staticmethod(fold_in_place)

    def ducked(self, campaign: Campaign, referee: Referee, *, character: str, compel: bool, token: bool) -> SceneDucked:
        """"Ducking a Scene"."""
        scene = scene_in_play(campaign)
        role = require_character(self.dramatic.roster(campaign), campaign, character)
        invalid(role.character in scene.cast, f"{role.character} is not cast in scene {scene.number}")
        outcome = duck_scene(referee, campaign.rules.economy.tokens, ducker=role.holder, caller=scene.caller,
                             cast_size=len(scene.cast), reply=DuckReply.COMPEL if compel else DuckReply.ACQUIESCE,
                             spends_token=token)
        return self.events.ducked(scene=scene.number, character=role.character, ducker=role.holder, caller=scene.caller,
                           caller_compels=compel, spends_token=token, in_scene=outcome.in_scene,
                           caller_starts_over=outcome.caller_starts_over, transfers=lines(outcome.transfers))

    def rushed(self, campaign: Campaign, referee: Referee, *, character: str, consent: bool, payment: str | None,
               blocked: bool) -> SceneRushed:
        """"Rushing a Scene", and the bennies it spends ("Spending Bennies")."""
        scene = scene_in_play(campaign)
        role = require_character(self.dramatic.roster(campaign), campaign, character)
        invalid(role.character not in scene.cast, f"{role.character} is already in scene {scene.number}")
        invalid(payment in (None, "token", "bennie"), "a rush is paid with a 'token' or a 'bennie'")
        economy = campaign.rules.economy
        outcome = rush_scene(
            referee, economy.tokens, rusher=role.holder, caller=scene.caller, gm=campaign.table.gm, scene=scene.number,
            caller_consents=consent, payment=RUSH_PAYMENTS[payment] if payment is not None else None,
            caller_blocks=blocked, bennies_held=economy.bennies,
            bennie_history=drama_of(campaign).spends_in(scene.number),
        )
        received = {gain.player for gain in outcome.bennie_gains}
        bennies = [
            bennie_paid(spend.spender, RUSHING, to=scene.caller if scene.caller in received else KITTY)
            if spend.option is BennieOption.JUMP_INTO_SCENE else bennie_paid(spend.spender, BLOCK_RUSH)
            for spend in outcome.bennie_spends
        ]
        return self.events.rushed(scene=scene.number, character=role.character, rusher=role.holder, caller=scene.caller,
                           caller_consents=consent, payment=payment, caller_blocks=blocked, joined=outcome.joined,
                           bennie_spends=[BennieSpendLine.of(s) for s in outcome.bennie_spends],
                           transfers=[*lines(outcome.transfers), *bennies])

    def voted(self, campaign: Campaign, referee: Referee, *, kind: str, challenger: str, for_caller, for_challenger,
              gm_tie_break: str | None, revised_situation: str) -> ChallengeVoted:
        """"Challenges": a show of hands of all players, the GM breaking a tie."""
        scene = scene_in_play(campaign)
        table = campaign.table
        invalid(kind in VOTED_CHALLENGES, f"a challenge settled by vote is one of {', '.join(VOTED_CHALLENGES)}")
        invalid(challenger in table.players, f"{challenger} is not a player at the table")
        invalid(challenger != scene.caller, "the caller does not challenge her own call")
        if kind == "time jump":
            invalid(bool(scene.time_break), f"scene {scene.number} has no time break to challenge ({TIME_JUMP.cite()})")
        if kind == "reversal":
            invalid(bool(forces_among(drama_of(campaign), scene.episode, scene.cast)),
                    f"no force this episode was between characters of scene {scene.number} ({NO_REVERSAL.cite()})")
        vote = challenge_vote(referee, players=table.players, challenger=challenger, for_caller=for_caller,
                              for_challenger=for_challenger, gm_tie_break=Side(gm_tie_break) if gm_tie_break else None)
        invalid(not revised_situation or (kind in REVISED and vote.winner is Side.CHALLENGER),
                f"only a caller who lost a challenge to her situation or narration revises it ({PLOT_JUMP.cite()})")
        return self.events.voted(scene=scene.number, kind=kind, challenger=challenger, caller=scene.caller,
                              for_caller=sorted(vote.for_caller), for_challenger=sorted(vote.for_challenger),
                              gm_tie_break=gm_tie_break, winner=vote.winner.value,
                              must_satisfy=sorted(vote.must_satisfy),
                              revised_situation=revised_situation)

    def novelty_ruled(self, campaign: Campaign, referee: Referee, *, challenger: str, too_similar: bool, change: str,
                      earlier_scene: int | None) -> NoveltyRuled:
        """"Challenging For Novelty": the GM's judgement, not a vote."""
        scene = scene_in_play(campaign)
        invalid(challenger in campaign.table.players, f"{challenger} is not a player at the table")
        invalid(challenger != scene.caller, "the caller does not challenge her own call")
        invalid(earlier_scene is None or earlier_scene in drama_of(campaign).scenes and earlier_scene < scene.number,
                f"scene {earlier_scene} is not an earlier scene")
        ruling = novelty_challenge(gm_finds_too_similar=too_similar, caller_points_to_change=bool(change.strip()))
        return self.events.novelty_ruled(scene=scene.number, challenger=challenger, caller=scene.caller,
                                         earlier_scene=earlier_scene,
                            too_similar=too_similar, change=change.strip(), ruling=ruling.name.lower())

    def procedural_demanded(self, campaign: Campaign, referee: Referee, *, narrator: str, objectors, reply: str,
                            narration: str) -> ProceduralDemanded:
        """"Going To Procedural": one objector is enough."""
        scene = scene_in_play(campaign)
        table = campaign.table
        for name in (narrator, *objectors):
            invalid(table.knows(name) and name not in table.departed, f"{name} is not at the table")
        invalid(reply in REPLIES, f"the narrator's reply is one of {', '.join(REPLIES)}")
        invalid(bool(objectors), "no one objects: the narration stands")
        going_to_procedural(narrator=narrator, objectors=objectors, reply=REPLIES[reply])
        return self.events.procedural_demanded(scene=scene.number, narrator=narrator,
                                               objectors=sorted(set(objectors)), reply=reply,
                                  narration=narration)

    def decide(self, command: Any, campaign: Campaign, referee: Referee) -> list[Payload] | None:
        referee = self.dramatic.referee(referee)
        if isinstance(command, Duck):
            return [self.ducked(campaign, referee, character=command.character, compel=command.compel,
                                token=command.token)]
        if isinstance(command, Rush):
            return [self.rushed(campaign, referee, character=command.character, consent=command.consent,
                                payment=command.payment, blocked=command.blocked)]
        if isinstance(command, ChallengeByVote):
            return [self.voted(campaign, referee, kind=command.kind, challenger=command.challenger,
                               for_caller=command.for_caller, for_challenger=command.for_challenger,
                               gm_tie_break=command.gm_tie_break, revised_situation=command.revised_situation.strip())]
        if isinstance(command, ChallengeNovelty):
            return [self.novelty_ruled(campaign, referee, challenger=command.challenger,
                                       too_similar=command.too_similar, change=command.change,
                                       earlier_scene=command.earlier_scene)]
        if isinstance(command, DemandProcedural):
            return [self.procedural_demanded(campaign, referee, narrator=command.narrator,
                                             objectors=command.objectors, reply=command.reply,
                                             narration=command.narration)]
        return None

    @property
    def VALIDATORS(self) -> Mapping[type, Callable[[Any, Campaign, Referee], Payload]]:  # noqa: N802 (a module's name)
        """One validator per payload: each decides the recorded challenge again from its own facts."""
        e, cite = self.events, self.dramatic.referee
        return {t: rebuilt(build) for t, build in {
            e.ducked: lambda c, r, p: self.ducked(c, cite(r), character=p.character, compel=p.caller_compels,
                                                  token=p.spends_token),
            e.rushed: lambda c, r, p: self.rushed(c, cite(r), character=p.character, consent=p.caller_consents,
                                                  payment=p.payment, blocked=p.caller_blocks),
            e.voted: lambda c, r, p: self.voted(c, cite(r), kind=p.kind, challenger=p.challenger,
                                                for_caller=p.for_caller, for_challenger=p.for_challenger,
                                                gm_tie_break=p.gm_tie_break, revised_situation=p.revised_situation),
            e.novelty_ruled: lambda c, r, p: self.novelty_ruled(c, cite(r), challenger=p.challenger,
                                                                too_similar=p.too_similar, change=p.change,
                                                                earlier_scene=p.earlier_scene),
            e.procedural_demanded: lambda c, r, p: self.procedural_demanded(
                c, cite(r), narrator=p.narrator, objectors=p.objectors, reply=p.reply, narration=p.narration),
        }.items()}
