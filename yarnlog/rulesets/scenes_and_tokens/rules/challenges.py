"""Challenges to a called scene, and the votes that settle them (Yarn 0.1, "Challenges").

Also the group vote of "Playing and Resolving Dramatic Scenes", where the caller holds an extra
tie-breaking vote. Every choice a person makes at the table (the caller's reply, the GM's
tie-break, whether the caller points to a change) is an input; these functions only apply the
book's consequences, returning outcomes and the drama-token or bennie movements they cause.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TypeVar

from yarnlog.core.referee import Referee, Rule, invalid, present
from yarnlog.rulesets.scenes_and_tokens.rules.bennies import (
    BennieGain,
    BennieOption,
    BennieSpend,
    check_can_spend,
    spend_bennie,
)
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import (
    Balances,
    PetitionOutcome,
    Transfer,
    require_affordable,
)

BOOK = "Yarn 0.1"

CHALLENGE_VOTE = Rule(
    BOOK,
    "Challenges",
    "Except where otherwise indicated, challenges resolve through a vote. With a show of hands, all "
    "players side with the caller or the challenger. The GM votes to break ties.",
)
DUCKING = Rule(
    BOOK,
    "Ducking a Scene",
    "You can duck this compulsion by spending a drama token, which goes to the caller.",
)
RUSHING = Rule(
    BOOK,
    "Rushing a Scene",
    "To insert your character into a scene the caller has not cast you in, and actively wants to "
    "keep you out of, spend a drama token or a bennie. The caller receives the token or bennie.",
)
NOVELTY = Rule(
    BOOK,
    "Challenging For Novelty",
    "If the player can't point to a changed situation, the GM resolves the challenge by requiring the "
    "caller to call an entirely different scene.",
)
GOING_TO_PROCEDURAL = Rule(
    BOOK,
    "Going To Procedural",
    "Unlike other challenges, it takes only one objector to trigger a procedural resolution. The "
    "narrating player may avoid the procedural resolution by either withdrawing the description "
    "entirely, or adjusting it to satisfy the objector(s).",
)
GRANT_VOTE = Rule(
    BOOK,
    "Playing and Resolving Dramatic Scenes",
    "If the answer is no, but other participants feel that a significant shift in emotional power "
    "from granter to petitioner occurred, the group, including GM, votes. The scene's caller gets an "
    "extra tie-breaking vote, where necessary.",
)
NO_GAINSAYING = Rule(
    BOOK,
    "Playing and Resolving Dramatic Scenes",
    "If the answer is yes, the petition is considered granted, even if other players feel that the "
    "petitioner didn't get everything he or she wanted. Neither the caller or the other players in "
    "general may gainsay the petitioner's player on this point.",
)

T = TypeVar("T")


class Side(Enum):
    CALLER = "caller"
    CHALLENGER = "challenger"


@dataclass(frozen=True)
class ChallengeVote:
    """A challenge settled by a show of hands (time jump, plot jump, narration, location detail)."""

    challenger: str
    for_caller: frozenset[str]
    for_challenger: frozenset[str]
    gm_tie_break: Side | None
    winner: Side

    @property
    def must_satisfy(self) -> frozenset[str]:
        """Whom a caller who lost a plot-jump challenge must satisfy ("Challenging a Plot Jump").

        "she must then revise her situation description to meet the objections of the
        challenging player, and the voters who supported him."
        """
        if self.winner is Side.CALLER:
            return frozenset()
        return self.for_challenger | {self.challenger}


class NoveltyRuling(Enum):
    """The GM's resolution of a novelty challenge ("Challenging For Novelty")."""

    CALL_STANDS = "the call stands"
    CALL_ANOTHER_SCENE = "the GM resolves the challenge by requiring the caller to call an entirely different scene"


class NarrationReply(Enum):
    """What a narrating player does when someone demands a procedural ("Going To Procedural")."""

    WITHDRAW = "withdraw the description entirely"
    ADJUST = "adjust it to satisfy the objector(s)"
    PLAY_PROCEDURAL = "perform a procedural resolution"


class DuckReply(Enum):
    """The caller's answer to a player ducking their casting ("Ducking a Scene")."""

    ACQUIESCE = "call the scene without you"
    COMPEL = "further describe the scene so that your character's desire and poles compel your participation"


class RushPayment(Enum):
    DRAMA_TOKEN = "a drama token"
    BENNIE = "a bennie"


@dataclass(frozen=True)
class DuckOutcome:
    in_scene: bool
    caller_starts_over: bool
    transfers: tuple[Transfer, ...] = ()


@dataclass(frozen=True)
class RushOutcome:
    joined: bool
    transfers: tuple[Transfer, ...] = ()
    bennie_spends: tuple[BennieSpend, ...] = ()
    bennie_gains: tuple[BennieGain, ...] = ()


@dataclass(frozen=True)
class GrantVote:
    """The group's vote on whether a significant shift in emotional power occurred."""

    for_grant: frozenset[str]
    for_refusal: frozenset[str]
    caller_tie_break: PetitionOutcome | None
    outcome: PetitionOutcome


def challenge_vote(
    referee: Referee,
    *,
    players: Iterable[str],
    challenger: str,
    for_caller: Iterable[str],
    for_challenger: Iterable[str],
    gm_tie_break: Side | None = None,
) -> ChallengeVote:
    """Settle a challenge by the players' show of hands, the GM breaking a tie ("Challenges").

    Resolves challenges to a time jump, to a plot jump (see :attr:`ChallengeVote.must_satisfy`),
    to narration ("The Right to Describe") and to a location detail the GM allows. The GM's
    tie-break is her ruling, given only when the hands are tied.
    """
    caller_side, challenger_side = frozenset(for_caller), frozenset(for_challenger)
    winner = _majority(
        referee,
        electorate=set(players),
        sides={Side.CALLER: caller_side, Side.CHALLENGER: challenger_side},
        tie_break=gm_tie_break,
        tie_breaker="the GM",
        rule=CHALLENGE_VOTE,
    )
    return ChallengeVote(challenger, caller_side, challenger_side, gm_tie_break, winner)


def novelty_challenge(*, gm_finds_too_similar: bool, caller_points_to_change: bool) -> NoveltyRuling:
    """Resolve a novelty challenge: the GM's judgement, not a vote ("Challenging For Novelty").

    "If the scene seems too similar to the GM, she invites the caller to point to a change since
    the previous scene that puts the situation in a new light." Both facts are her rulings.
    """
    if gm_finds_too_similar and not caller_points_to_change:
        return NoveltyRuling.CALL_ANOTHER_SCENE
    return NoveltyRuling.CALL_STANDS


def going_to_procedural(
    *, narrator: str, objectors: Iterable[str], reply: NarrationReply | None = None
) -> NarrationReply | None:
    """What becomes of a described practical success ("Going To Procedural").

    "Unlike other challenges, it takes only one objector to trigger a procedural resolution."
    Returns ``None`` when nobody objects (the narration stands), otherwise the narrator's reply.
    """
    objecting = set(objectors)
    invalid(narrator not in objecting, f"{narrator} cannot object to their own narration")
    if not objecting:
        invalid(reply is None, "with no objector the narration simply stands")
        return None
    invalid(reply is not None, f"{narrator} must withdraw, adjust, or play out a procedural")
    return reply


def duck_scene(
    referee: Referee,
    balances_now: Balances,
    *,
    ducker: str,
    caller: str,
    cast_size: int,
    reply: DuckReply,
    spends_token: bool = False,
) -> DuckOutcome:
    """Challenge one's casting in a scene ("Ducking a Scene").

    A caller who compels participation can be ducked for a drama token paid to the caller.
    "After you successfully duck a scene with a cast of two, leaving nothing to play, the caller
    starts over"; a caller who acquiesces in a cast of two is left with the same nothing.
    """
    invalid(ducker != caller, "the caller cannot duck her own scene")
    invalid(cast_size >= 1, "a ducker is cast in the scene")
    invalid(reply is DuckReply.COMPEL or not spends_token, "a caller who acquiesces takes no token")
    if reply is DuckReply.COMPEL and not spends_token:
        return DuckOutcome(in_scene=True, caller_starts_over=False)
    transfers = (Transfer(1, ducker, caller, DUCKING),) if spends_token else ()
    require_affordable(referee, balances_now, transfers)
    return DuckOutcome(in_scene=False, caller_starts_over=cast_size == 2, transfers=transfers)


def rush_scene(
    referee: Referee,
    balances_now: Balances,
    *,
    rusher: str,
    caller: str,
    gm: str,
    scene: int,
    caller_consents: bool,
    payment: RushPayment | None = None,
    caller_blocks: bool = False,
    bennies_held: Mapping[str, int],
    bennie_history: Iterable[BennieSpend] = (),
) -> RushOutcome:
    """Insert one's character into a scene one was not cast in ("Rushing a Scene").

    "It costs nothing to join a scene if the caller consents to your joining." Otherwise the
    rusher pays a drama token or a bennie, which the caller receives, unless the caller blocks
    with a bennie. The book says "Blocked players keep the bennies they would have spent"; a
    rusher who offered a drama token is read the same way and keeps it. The GM "never gets
    bennies", so a bennie paid to a GM caller is spent and received by no one.
    """
    invalid(rusher != caller, "the caller is already in her own scene")
    bennie_history = tuple(bennie_history)
    if caller_consents:
        invalid(payment is None and not caller_blocks, "a consenting caller takes no payment and blocks nothing")
        return RushOutcome(joined=True)
    invalid(payment is not None, f"{rusher} must pay a drama token or a bennie to rush the scene")
    if payment is RushPayment.BENNIE:
        check_can_spend(
            referee, spender=rusher, scene=scene, held=bennies_held.get(rusher, 0), history=bennie_history
        )
    if caller_blocks:
        if payment is RushPayment.DRAMA_TOKEN:
            require_affordable(referee, balances_now, (Transfer(1, rusher, caller, RUSHING),))
        block = spend_bennie(
            referee,
            BennieSpend(caller, BennieOption.BLOCK_JUMP_IN, scene),
            held=bennies_held.get(caller, 0),
            history=bennie_history,
            balances_now=balances_now,
            gm=gm,
        )
        return RushOutcome(joined=False, bennie_spends=(block.spend,))
    if payment is RushPayment.DRAMA_TOKEN:
        transfers = (Transfer(1, rusher, caller, RUSHING),)
        require_affordable(referee, balances_now, transfers)
        return RushOutcome(joined=True, transfers=transfers)
    gains = () if caller == gm else (BennieGain(caller, RUSHING),)
    return RushOutcome(
        joined=True, bennie_spends=(BennieSpend(rusher, BennieOption.JUMP_INTO_SCENE, scene),), bennie_gains=gains
    )


def grant_vote(
    referee: Referee,
    *,
    participants: Iterable[str],
    for_grant: Iterable[str],
    for_refusal: Iterable[str],
    caller_tie_break: PetitionOutcome | None = None,
) -> GrantVote:
    """The group vote on a disputed petition ("Playing and Resolving Dramatic Scenes").

    ``participants`` is the whole group, GM included; the caller's extra vote is given only on a tie.
    """
    grant_side, refusal_side = frozenset(for_grant), frozenset(for_refusal)
    outcome = _majority(
        referee,
        electorate=set(participants),
        sides={PetitionOutcome.GRANTED: grant_side, PetitionOutcome.REFUSED: refusal_side},
        tie_break=caller_tie_break,
        tie_breaker="the scene's caller",
        rule=GRANT_VOTE,
    )
    return GrantVote(grant_side, refusal_side, caller_tie_break, outcome)


def petition_outcome(
    referee: Referee, *, petitioner_got_concession: bool, vote: GrantVote | None = None
) -> PetitionOutcome:
    """Whether a petition was granted ("Playing and Resolving Dramatic Scenes").

    The petitioner's yes grants it and may not be gainsaid; a no the group agrees with refuses
    it; a disputed no is settled by :func:`grant_vote`.
    """
    if petitioner_got_concession:
        referee.require(vote is None, NO_GAINSAYING, "the petitioner said yes: there is nothing to vote on")
        return PetitionOutcome.GRANTED
    return PetitionOutcome.REFUSED if vote is None else vote.outcome


def _majority(
    referee: Referee,
    *,
    electorate: set[str],
    sides: dict[T, frozenset[str]],
    tie_break: T | None,
    tie_breaker: str,
    rule: Rule,
) -> T:
    """The side with more votes; on a tie, the side the tie-breaker chose."""
    (first, first_votes), (second, second_votes) = sides.items()
    invalid(tie_break is None or tie_break in sides, f"{tie_breaker} votes for one side, not {tie_break}")
    invalid(not first_votes & second_votes, f"{sorted(first_votes & second_votes)} voted for both sides")
    strangers = sorted((first_votes | second_votes) - electorate)
    invalid(not strangers, f"{', '.join(strangers)} cannot vote here ({rule.cite()})")
    abstaining = sorted(electorate - first_votes - second_votes)
    referee.require(not abstaining, rule, f"{', '.join(abstaining)} did not vote")
    if len(first_votes) == len(second_votes):
        return present(tie_break, f"the vote is tied: {tie_breaker} must break the tie")
    invalid(tie_break is None, f"the vote is not tied: {tie_breaker} has no tie-breaking vote")
    return first if len(first_votes) > len(second_votes) else second
