"""Drama tokens: the token economy of Yarn 0.1's "Dramatic Scenes" chapter.

Every token movement is a :class:`Transfer` with an explicit source and destination: a
participant's name or the :data:`KITTY`. Resolution functions are pure: given the facts of a
resolution and the current balances (participant name -> tokens held) they return the
transfers, refusing through the :class:`~yarnlog.rules.Referee` any payment the payer cannot
make. Balances are a fold over the episode's transfers (:func:`balances`), since "Everyone
starts each episode with zero tokens".

The GM's pool: "The GM keeps a single pool of drama tokens which represents all of the
recurring characters. This is distinct from the kitty." The book distinguishes that pool from
the kitty, not from the GM, who holds no other tokens; so the pool is the GM's own account and
a recurring character pays and earns under the GM's name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from yarnlog.core.referee import Referee, Rule, invalid

BOOK = "Yarn 0.1"

EPISODE_END = Rule(
    BOOK,
    "Tokens",
    "Drama tokens left unspent at the end of a session contribute to a player's chance of winning "
    "bennies (p. 58), then revert to the kitty. They do not carry over to the next episode.",
)
GRANTED = Rule(
    BOOK,
    "Gaining Tokens",
    "If the petition is willingly granted by the participant, the granter earns a drama token--from "
    "the petitioner if he has one, or from the kitty if not.",
)
REFUSED = Rule(
    BOOK,
    "Gaining Tokens",
    "If the granter refuses, the petitioner gains the token—from the granter if she has one, or from "
    "the kitty if not.",
)
NO_CONTEST = Rule(
    BOOK,
    "No Contest Scenes",
    "If so, you can declare this a no-contest scene, bringing it to a quick conclusion. The caller may then "
    "call a new scene—hopefully one in which real conflict does occur.",
)
FORCE = Rule(
    BOOK,
    "Forcing",
    "the petitioner may, by spending two drama tokens, force the granter to grant a significant "
    "emotional concession. [...] At the end of the scene, the forced granter receives the two drama "
    "tokens from the petitioner, provided the force actually takes place.",
)
BLOCK = Rule(
    BOOK,
    "Forcing",
    "The granter's player may block a force by spending three drama tokens. These are paid to the "
    "petitioner, at the end of the scene. The petitioner does not spend the 2 tokens that would have "
    "been spent on the force, for a net gain of 3.",
)
NO_REVERSAL = Rule(
    BOOK,
    "Forcing",
    "After a force occurs or is canceled, the same characters may not, for the duration of the "
    "episode, be called into similar scenes intended to reverse the original result. Some "
    "significant new element, as judged by challenge voting if need be, must be added to make the "
    "scene a true new development, and not just another kick at the can.",
)
SUPPORT = Rule(
    BOOK,
    "Supporting or Blocking a Force",
    "Players not directly involved in a scene may support an attempt to force, or cancel a force, by "
    "giving their drama tokens to the current petitioner or granter—provided their character is "
    "present in the scene.",
)
SUPPORT_REFUND = Rule(
    BOOK,
    "Supporting or Blocking a Force",
    "If you support a force which the granter then blocks, you get your tokens back.",
)
TWO_WAY_ALIKE = Rule(
    BOOK,
    "Two-Way Exchanges",
    "If both participants were a) denied or b) got the payoffs they sought, each receives a drama "
    "token. If both players have a drama token already, this cancels out—you needn't actually trade "
    "tokens. If one or more have zero drama tokens, however, the missing token(s) come from the kitty.",
)
TWO_WAY_SPLIT = Rule(
    BOOK,
    "Two-Way Exchanges",
    "If one petition was granted and the other denied, the denying player pays the granting player "
    "two tokens. If the denier has less than 2 tokens, the deficit is made up from the kitty.",
)
MULTIPLE_PETITIONERS = Rule(
    BOOK,
    "Multiple Petitioners",
    "The GM quizzes each participating player, in a newly drawn precedence order, asking: what they "
    "most wanted, emotionally, in the scene; who they wanted it from; and whether they got it",
)
MULTIPLE_GRANTED = Rule(
    BOOK,
    "Multiple Petitioners",
    "If they got what they wanted, the specified player granted their petition and earns a drama "
    "token—from the petitioning player if he or she has one, or from the kitty if not.",
)
MULTIPLE_REFUSED = Rule(
    BOOK,
    "Multiple Petitioners",
    "If they didn't get what they wanted, the specified player refused their petition. The "
    "petitioner earns a drama token—from the refuser of the grant if he or she has one, or from the "
    "kitty if not.",
)
CASTING_COST = Rule(
    BOOK,
    "Calling Scenes",
    "To cast a scene your player character is not in costs you a drama token (p . 26.)",
)
NO_TWO_RECURRING = Rule(
    BOOK,
    "Calling Dramatic Scenes",
    "Never call a dramatic scene between two recurring characters.",
)


class Kitty(Enum):
    """The central pile of tokens: never a participant, and never runs dry."""

    KITTY = "kitty"

    def __str__(self) -> str:
        return "the kitty"


KITTY = Kitty.KITTY

#: Who holds tokens: a participant's name (the GM's name for her recurring characters' pool), or the kitty.
Account = str | Kitty

#: Tokens held: participant name -> tokens. A name missing from the mapping holds none.
Balances = Mapping[str, int]


@dataclass(frozen=True)
class Transfer:
    """One movement of drama tokens, and the rule of the book that moved them."""

    amount: int
    source: Account
    destination: Account
    rule: Rule

    def __post_init__(self) -> None:
        # (each message is worded only when it is given: every movement replayed or audited passes here)
        if not (type(self.amount) is int and self.amount >= 1):
            invalid(False, f"a transfer moves at least one token, not {self.amount!r}")
        for account in (self.source, self.destination):
            if not (account is KITTY or (isinstance(account, str) and account != "")):
                invalid(False, f"not a token holder: {account!r}")
        if self.source == self.destination:
            invalid(False, f"{self.source} cannot pay tokens to themselves")


@dataclass(frozen=True)
class KittyFlow:
    """How many tokens the kitty paid out and took back over some transfers."""

    paid_out: int
    taken_in: int

    @property
    def net_paid_out(self) -> int:
        """Tokens the kitty added to the table: equal to the sum of all balances it produced."""
        return self.paid_out - self.taken_in


class PetitionOutcome(Enum):
    """How a dramatic scene's petition ended ("Playing and Resolving Dramatic Scenes", "No Contest Scenes")."""

    GRANTED = "granted"
    REFUSED = "refused"
    NO_CONTEST = "no contest"


@dataclass(frozen=True)
class Support:
    """Tokens a player gives the petitioner (to force) or the granter (to block)."""

    supporter: str
    tokens: int

    def __post_init__(self) -> None:
        invalid(type(self.tokens) is int and self.tokens >= 1, f"{self.supporter} must give at least one token")


@dataclass(frozen=True)
class PetitionAnswer:
    """One player's answer to the GM's quiz after a scene with multiple petitioners."""

    petitioner: str
    wanted_from: str
    got_it: bool


@dataclass(frozen=True)
class ForcedScene:
    """A force that occurred or was blocked (canceled), remembered for the rest of the episode."""

    episode: int
    petitioner: str
    granter: str


def holding(balances_now: Balances, name: str) -> int:
    """Tokens ``name`` holds (zero if absent: everyone starts each episode with zero)."""
    return balances_now.get(name, 0)


def balances(transfers: Iterable[Transfer], start: Balances | None = None) -> dict[str, int]:
    """Fold transfers into balances ("Tokens"); by default from the episode's start at zero.

    The kitty has no balance (its supply is inexhaustible); holders of zero are left out.
    """
    result = dict(start or {})
    for transfer in transfers:
        if transfer.source is not KITTY:
            result[transfer.source] = holding(result, transfer.source) - transfer.amount
        if transfer.destination is not KITTY:
            result[transfer.destination] = holding(result, transfer.destination) + transfer.amount
    return {name: tokens for name, tokens in result.items() if tokens != 0}


def kitty_flow(transfers: Iterable[Transfer]) -> KittyFlow:
    """How many tokens came from the kitty and how many went back to it."""
    paid_out = taken_in = 0
    for transfer in transfers:
        if transfer.source is KITTY:
            paid_out += transfer.amount
        if transfer.destination is KITTY:
            taken_in += transfer.amount
    return KittyFlow(paid_out=paid_out, taken_in=taken_in)


def require_affordable(referee: Referee, start: Balances, transfers: Sequence[Transfer]) -> None:
    """Refuse, quoting each transfer's rule, any payment its payer cannot make when it falls due.

    Transfers are applied in order, so tokens received earlier in the same resolution can be spent.
    """
    running = dict(start)
    for transfer in transfers:
        if transfer.source is not KITTY:
            held = holding(running, transfer.source)
            referee.require(
                held >= transfer.amount,
                transfer.rule,
                f"{transfer.source} must pay {transfer.amount} drama token{'s' if transfer.amount != 1 else ''} "
                f"but holds {held}",
            )
        running = balances((transfer,), running)


def resolve_petition(
    balances_now: Balances, *, petitioner: str, granter: str, outcome: PetitionOutcome
) -> tuple[Transfer, ...]:
    """The token exchange that ends an ordinary dramatic scene ("Gaining Tokens").

    A no-contest scene exchanges nothing: the book has the caller call a replacement scene
    ("The caller may then call a new scene—hopefully one in which real conflict does occur"),
    so the scene that ended without conflict does not count as a grant.
    """
    _check_parties(petitioner, granter)
    if outcome is PetitionOutcome.NO_CONTEST:
        return ()
    if outcome is PetitionOutcome.GRANTED:
        return (_earn_one(balances_now, earner=granter, payer=petitioner, rule=GRANTED),)
    return (_earn_one(balances_now, earner=petitioner, payer=granter, rule=REFUSED),)


def resolve_force(
    referee: Referee,
    balances_now: Balances,
    *,
    petitioner: str,
    granter: str,
    gm: str,
    present: Iterable[str],
    blocked: bool,
    force_support: Sequence[Support] = (),
    block_support: Sequence[Support] = (),
) -> tuple[Transfer, ...]:
    """The token exchange of a force ("Forcing", "Supporting or Blocking a Force").

    ``present`` names the participants whose characters are in the scene. Supporters' tokens are
    given first, so they count toward the petitioner's two or the granter's three. A force that
    goes through pays the granter two tokens; a blocked force pays the petitioner three from the
    granter, the petitioner spends nothing, and the force's supporters get their tokens back.
    """
    _check_parties(petitioner, granter)
    invalid(blocked or not block_support, "only a blocked force has supporters of the block")
    _check_supporters(referee, [*force_support, *block_support], petitioner, granter, gm, set(present))
    given = tuple(Transfer(s.tokens, s.supporter, petitioner, SUPPORT) for s in force_support)
    if not blocked:
        transfers = (*given, Transfer(2, petitioner, granter, FORCE))
        require_affordable(referee, balances_now, transfers)
        return transfers
    # Blocked, the two tokens are never paid, yet the force was declared by spending them.
    can_force = holding(balances(given, balances_now), petitioner)
    referee.require(can_force >= 2, FORCE, f"{petitioner} forces with {can_force} drama token(s), not two")
    transfers = (
        *given,
        *(Transfer(s.tokens, s.supporter, granter, SUPPORT) for s in block_support),
        Transfer(3, granter, petitioner, BLOCK),
        *(Transfer(s.tokens, petitioner, s.supporter, SUPPORT_REFUND) for s in force_support),
    )
    require_affordable(referee, balances_now, transfers)
    return transfers


def check_not_reversing_force(
    referee: Referee,
    forced_scenes: Iterable[ForcedScene],
    *,
    episode: int,
    petitioner: str,
    granter: str,
    intended_to_reverse: bool,
    significant_new_element: bool,
) -> None:
    """Refuse a similar scene that would re-run a force between the same characters this episode.

    ``intended_to_reverse`` (is this a similar scene meant to reverse the result?) is the GM's
    ruling; ``significant_new_element`` is her ruling or the outcome of a challenge vote.
    """
    pair = {petitioner, granter}
    earlier = any(f.episode == episode and {f.petitioner, f.granter} == pair for f in forced_scenes)
    referee.require(
        not (earlier and intended_to_reverse and not significant_new_element),
        NO_REVERSAL,
        f"{petitioner} and {granter} already had a force: add something new",
    )


def resolve_two_way(
    balances_now: Balances, *, first: str, second: str, first_granted: bool, second_granted: bool
) -> tuple[Transfer, ...]:
    """The token exchange of a two-way exchange ("Two-Way Exchanges").

    ``first_granted`` says whether the first participant's petition was granted (by the second).
    Alike outcomes: each owes the other one token; two holders cancel out, otherwise a payer
    without a token is replaced by the kitty. Split outcomes: the denier pays the granter two.
    """
    _check_parties(first, second)
    if first_granted == second_granted:
        if holding(balances_now, first) >= 1 and holding(balances_now, second) >= 1:
            return ()
        return (
            _earn_one(balances_now, earner=first, payer=second, rule=TWO_WAY_ALIKE),
            _earn_one(balances_now, earner=second, payer=first, rule=TWO_WAY_ALIKE),
        )
    # The participant whose petition was granted is the one who denied the other's.
    denier, granting = (first, second) if first_granted else (second, first)
    paid = min(2, holding(balances_now, denier))
    return tuple(
        Transfer(amount, source, granting, TWO_WAY_SPLIT)
        for amount, source in ((paid, denier), (2 - paid, KITTY))
        if amount
    )


def resolve_multiple_petitioners(
    balances_now: Balances, *, precedence: Sequence[str], answers: Iterable[PetitionAnswer]
) -> tuple[Transfer, ...]:
    """The token exchange of a scene with several petitioners ("Multiple Petitioners").

    ``precedence`` is the newly drawn order in which the GM quizzes the petitioning players; each
    answer is settled in that order against the balances left by the answers before it.
    """
    by_petitioner = {a.petitioner: a for a in answers}
    invalid(len(set(precedence)) == len(precedence), "a precedence order names each player once")
    invalid(
        set(precedence) == set(by_petitioner),
        f"the precedence order {list(precedence)} must name exactly the petitioners {sorted(by_petitioner)} "
        f"({MULTIPLE_PETITIONERS.cite()})",
    )
    transfers: list[Transfer] = []
    for petitioner in precedence:
        answer = by_petitioner[petitioner]
        now = balances(transfers, balances_now)
        _check_parties(petitioner, answer.wanted_from)
        if answer.got_it:
            transfers.append(_earn_one(now, earner=answer.wanted_from, payer=petitioner, rule=MULTIPLE_GRANTED))
        else:
            transfers.append(_earn_one(now, earner=petitioner, payer=answer.wanted_from, rule=MULTIPLE_REFUSED))
    return tuple(transfers)


def casting_cost(
    referee: Referee, balances_now: Balances, *, caller: str, gm: str, caller_character_cast: bool
) -> tuple[Transfer, ...]:
    """The drama token a player spends, to the kitty, to call a scene without their own character.

    The GM has no player character and pays nothing ("This requirement does not apply to the
    GM", says "Calling a Procedural Scene"; "she may cast any participants", says "Calling
    Dramatic Scenes"). The book names no recipient for a spent token, so it goes to the kitty.
    """
    if caller == gm or caller_character_cast:
        return ()
    transfers = (Transfer(1, caller, KITTY, CASTING_COST),)
    require_affordable(referee, balances_now, transfers)
    return transfers


def end_of_episode(balances_now: Balances) -> tuple[Transfer, ...]:
    """Every unspent token reverts to the kitty ("Tokens").

    Read the same balances for the bennie tally first: the tokens count toward bennies, "then
    revert to the kitty".
    """
    return tuple(
        Transfer(tokens, name, KITTY, EPISODE_END) for name, tokens in sorted(balances_now.items()) if tokens > 0
    )


def _earn_one(balances_now: Balances, *, earner: str, payer: str, rule: Rule) -> Transfer:
    """One token to ``earner``: from ``payer`` if they have one, or from the kitty if not."""
    source: Account = payer if holding(balances_now, payer) >= 1 else KITTY
    return Transfer(1, source, earner, rule)


def _check_parties(petitioner: str, granter: str) -> None:
    # Parties are token holders: two recurring characters would both be the GM's pool.
    invalid(
        petitioner != granter,
        f"{petitioner} cannot petition themselves; {NO_TWO_RECURRING.cite()}",
    )


def _check_supporters(
    referee: Referee, supports: Sequence[Support], petitioner: str, granter: str, gm: str, present: set[str]
) -> None:
    names = [s.supporter for s in supports]
    invalid(len(set(names)) == len(names), "each supporter gives tokens once, to one side")
    for name in names:
        referee.require(name not in (petitioner, granter), SUPPORT, f"{name} is directly involved in the scene")
        referee.require(name != gm, SUPPORT, f"only players support or block a force, not the GM ({gm})")
        referee.require(name in present, SUPPORT, f"{name}'s character is not present in the scene")
