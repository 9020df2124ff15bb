"""The ledger of drama tokens and bennies: every movement, with its event, scene and rule.

Any payload that carries ``transfers`` moves tokens or bennies; this part folds them into
balances, which is all its rules read; the ledger, so "why do I have 1 token and not 3?" is
answered entry by entry, is read from the events themselves (:func:`ledger_entries`), not kept. Drama
tokens live for one episode (they are returned to the kitty when it ends); bennies persist.
DramaSystem and Yarn share it word for word ("Tokens", DS18-DS19): each ruleset registers the two
payloads below under its own prefix (:class:`EconomyEvents`) and composes :func:`economy_part`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from sys import intern
from typing import Any, ClassVar, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pyrsistent import PMap, pmap

from yarnlog.core.composition import Part, folds
from yarnlog.core.events import Payload, Recorded
from yarnlog.core.frozen import replace
from yarnlog.core.referee import Broken, Referee, Rule, invalid, present
from yarnlog.core.ruleset import CampaignState
from yarnlog.core.thawed import ThawedMap
from yarnlog.rulesets.scenes_and_tokens.prefixed import under_prefix
from yarnlog.rulesets.scenes_and_tokens.rules import drama_tokens
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import KITTY, KittyFlow, Transfer

Campaign = CampaignState[Any]

#: How the kitty is named in payloads and ledgers (no participant may take this name).
KITTY_NAME = "kitty"
DRAMA: Final = "drama"
BENNIE: Final = "bennie"
Currency = Literal["drama", "bennie"]


class TransferLine(BaseModel):
    """One movement of tokens or bennies, as stored in an event."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    currency: Currency = DRAMA
    amount: int = Field(ge=1)
    source: str = Field(min_length=1)
    destination: str = Field(min_length=1)
    chapter: str
    rule: str

    @model_validator(mode="after")
    def _between_two_accounts(self) -> "TransferLine":
        # Part of what a movement is ("Tokens"), checked on every stored line: the folds rely on it.
        if self.source == self.destination:
            raise ValueError(f"{self.source} cannot pay tokens to themselves")
        return self

    @classmethod
    def of(cls, transfer: Transfer, currency: Currency = DRAMA) -> "TransferLine":
        return cls(
            currency=currency,
            amount=transfer.amount,
            source=_name(transfer.source),
            destination=_name(transfer.destination),
            chapter=transfer.rule.chapter,
            rule=transfer.rule.text,
        )

    def transfer(self) -> Transfer:
        return Transfer(self.amount, _account(self.source), _account(self.destination),
                        Rule("Yarn 0.1", self.chapter, self.rule))


def lines(transfers: Iterable[Transfer], currency: Currency = DRAMA) -> list[TransferLine]:
    return [TransferLine.of(t, currency) for t in transfers]


def _name(account) -> str:
    return KITTY_NAME if account is KITTY else account


def _account(name: str):
    return KITTY if name == KITTY_NAME else name


GM_RULING = Rule("Yarn 0.1", "Tokens", "As ruled by the GM.")


class TokensTransferred(Payload):
    """Tokens or bennies moved outside any other event: a GM ruling, with its reason.

    Each ruleset registers it under its own prefix (``yarn.tokens.transferred``)."""

    gm_records: ClassVar[str] = "a ruling"

    transfers: list[TransferLine] = Field(min_length=1)
    reason: str = Field(min_length=1)


class TokensReturned(Payload):
    """End of episode: unspent drama tokens revert to the kitty (``yarn.tokens.returned``...)."""

    episode: int
    transfers: list[TransferLine]


# -- state ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One line of the ledger: a movement and everything that explains it.

    Slotted (no ``__dict__`` an entry), its texts interned (:func:`_entry`: the names, rules and event
    types recur on every line): a report may list the ledger of a whole campaign.
    """

    sequence: int
    event_type: str
    recorded_by: str
    episode: int | None
    scene: int | None
    currency: str
    amount: int
    source: str
    destination: str
    chapter: str
    rule: str

    def to_data(self) -> dict:
        return {name: getattr(self, name) for name in _ENTRY_FIELDS}


_ENTRY_FIELDS = tuple(f.name for f in fields(LedgerEntry))


@dataclass(frozen=True)
class Economy:
    """Drama tokens held this episode and bennies held. The ledger is not kept: its entries are the
    events' own transfers (:func:`ledger_entries`), which no rule reads back."""

    tokens: dict[str, int] = field(default_factory=dict)
    bennies: dict[str, int] = field(default_factory=dict)
    #: The drama tokens the kitty paid out and took back in each episode, kept as they move, so the
    #: board reads its episode's in one lookup instead of a pass over the whole ledger.
    kitty: PMap[int | None, KittyFlow] = field(default_factory=pmap)

    def holding(self, name: str, currency: Currency = DRAMA) -> int:
        return (self.tokens if currency == DRAMA else self.bennies).get(name, 0)


def _apply(held: dict[str, int], line: TransferLine) -> dict[str, int]:
    return drama_tokens.balances([line.transfer()], held)


def _flowed(kitty: PMap[int | None, KittyFlow], episode: int | None, transfer: Transfer) -> PMap[int | None, KittyFlow]:
    """The kitty's flows with ``transfer`` counted in ``episode``'s (unchanged if the kitty is no party)."""
    step = drama_tokens.kitty_flow([transfer])
    if not (step.paid_out or step.taken_in):
        return kitty
    before = kitty.get(episode, KittyFlow(0, 0))
    return kitty.set(episode, KittyFlow(before.paid_out + step.paid_out, before.taken_in + step.taken_in))


def transfers_of(payload: Payload) -> Sequence[TransferLine]:
    """The movements ``payload`` carries; none for a type without ``transfers`` (most events), told
    once per type: asking such a model for the attribute goes through pydantic's slow ``__getattr__``."""
    kind = type(payload)
    carries = _CARRIES.get(kind)
    if carries is None:
        carries = _CARRIES[kind] = "transfers" in getattr(kind, "model_fields", {}) or hasattr(kind, "transfers")
    return (getattr(payload, "transfers", None) or ()) if carries else ()


#: Whether each payload type has ``transfers`` (a field or a property), as :func:`transfers_of` found it.
_CARRIES: dict[type, bool] = {}


#: Any payload that carries ``transfers`` moves tokens or bennies.
FOLDS = folds(carrying=("transfers",))


def evolve(economy: Economy, recorded: Recorded, _state=None) -> Economy:
    moves = transfers_of(recorded.payload)
    if not moves:
        return economy
    tokens, bennies, kitty = economy.tokens, economy.bennies, economy.kitty
    for line in moves:
        transfer = line.transfer()
        if line.currency == DRAMA:
            tokens = drama_tokens.balances([transfer], tokens)
            kitty = _flowed(kitty, recorded.episode, transfer)
        else:
            bennies = drama_tokens.balances([transfer], bennies)
    return replace(economy, tokens=tokens, bennies=bennies, kitty=kitty)


def ledger_entries(history: Iterable[Recorded]) -> list[LedgerEntry]:
    """The ledger of ``history`` (events in context, as the folds see them: corrections and retractions
    applied), one entry for each movement, in the order made: what the economy's fold moves."""
    return [_entry(recorded, line) for recorded in history for line in transfers_of(recorded.payload)]


def _entry(recorded: Recorded, line: TransferLine) -> LedgerEntry:
    return LedgerEntry(
        sequence=recorded.sequence, event_type=intern(recorded.event_type), recorded_by=intern(recorded.recorded_by),
        episode=recorded.episode, scene=recorded.scene, currency=intern(line.currency), amount=line.amount,
        source=intern(line.source), destination=intern(line.destination), chapter=intern(line.chapter),
        rule=intern(line.rule),
    )


def _moved(held: dict[str, int], name: str, amount: int) -> None:
    """``amount`` tokens added to (or, negative, taken from) ``name``'s holding; a holder of zero is left out
    (as :func:`~yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens.balances` leaves them out)."""
    after = held.get(name, 0) + amount
    if after:
        held[name] = after
    else:
        held.pop(name, None)


class EconomyBuilder:
    """The slice thawed for a replay (a :class:`~yarnlog.core.ruleset.SliceBuilder`): balances set in
    place, the kitty's flows thawed (:mod:`yarnlog.core.thawed`). Folds as :func:`evolve`
    does, from the stored lines (already checked: at least one token, two different accounts)
    without building a :class:`~yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens.Transfer` each."""

    def __init__(self, economy: Economy):
        self.tokens = dict(economy.tokens)
        self.bennies = dict(economy.bennies)
        self.kitty = ThawedMap(economy.kitty)

    def fold(self, recorded: Recorded, _before: object = None) -> None:
        for line in transfers_of(recorded.payload):
            held = self.tokens if line.currency == DRAMA else self.bennies
            if line.source != KITTY_NAME:
                _moved(held, line.source, -line.amount)
            if line.destination != KITTY_NAME:
                _moved(held, line.destination, line.amount)
            if line.currency == DRAMA and KITTY_NAME in (line.source, line.destination):
                before = self.kitty.get(recorded.episode) or KittyFlow(0, 0)
                paid_out = line.amount if line.source == KITTY_NAME else 0
                self.kitty[recorded.episode] = KittyFlow(before.paid_out + paid_out,
                                                         before.taken_in + line.amount - paid_out)

    def freeze(self) -> Economy:
        return Economy(tokens=dict(self.tokens), bennies=dict(self.bennies), kitty=self.kitty.freeze())


def shortfalls(economy: Economy, moves: Sequence[TransferLine]) -> list[Broken]:
    """Payments in ``moves`` that their payer cannot make, applying them in order: each says who pays
    what and holds how much, citing the rule of its ledger line (in the shared text's words)."""
    problems = []
    held = {DRAMA: dict(economy.tokens), BENNIE: dict(economy.bennies)}
    for line in moves:
        if line.source != KITTY_NAME and held[line.currency].get(line.source, 0) < line.amount:
            what = "drama token" if line.currency == DRAMA else "bennie"
            problems.append(Broken(
                Rule(drama_tokens.BOOK, line.chapter, line.rule),
                f"{line.source} pays {line.amount} {what}{'s' if line.amount > 1 else ''} but holds "
                f"{held[line.currency].get(line.source, 0)}",
                cited=f"{line.chapter}: {line.rule}",
            ))
        held[line.currency] = _apply(held[line.currency], line)
    return problems


def audit(campaign: Campaign, recorded: Recorded) -> list[str]:
    """Every payment, whatever the event type that carries it, must be covered by what the payer
    held before the event (a rule across event types, so not any one validator's)."""
    moves = transfers_of(recorded.payload)
    return [*shortfalls(campaign.rules.economy, moves)] if moves else []


# -- commands -------------------------------------------------------------------------------


@dataclass(frozen=True)
class TransferTokens:
    """The GM rules that tokens or bennies move (e.g. a ruling the book leaves to her)."""

    source: str
    destination: str
    amount: int
    reason: str
    currency: Currency = DRAMA


@dataclass(frozen=True)
class EconomyEvents:
    """The economy's payloads as one ruleset registers them under its prefix."""

    transferred: type[TokensTransferred]
    returned: type[TokensReturned]

    @classmethod
    def under(cls, prefix: str) -> EconomyEvents:
        """The payloads as the ruleset of ``prefix`` records them."""
        return cls(
            transferred=under_prefix(TokensTransferred, prefix, "tokens.transferred"),
            returned=under_prefix(TokensReturned, prefix, "tokens.returned"),
        )


def transferred(command: TransferTokens, campaign: Campaign, referee: Referee,
                kind: type[TokensTransferred] = TokensTransferred) -> TokensTransferred:
    """A GM ruling that moves tokens or bennies, recorded as ``kind``; refused (unless overridden)
    when it would take the payer below zero."""
    table = campaign.table
    source, destination = (_account_named(who, campaign) for who in (command.source, command.destination))
    for who in (source, destination):
        invalid(who == KITTY_NAME or table.knows(who), f"{who} is neither at the table nor the kitty")
    invalid(command.amount >= 1, "transfer at least 1")
    invalid(source != destination, "a transfer needs two different accounts")
    invalid(command.currency in (DRAMA, BENNIE), "currency is 'drama' or 'bennie'")
    invalid(bool(command.reason.strip()), "a GM ruling needs a reason")
    if source != KITTY_NAME:
        held = campaign.rules.economy.holding(source, command.currency)
        what = "drama token" if command.currency == DRAMA else "bennie"
        referee.require(held >= command.amount, SPEND_WHAT_YOU_HOLD,
                        f"{source} pays {command.amount} {what}{'s' if command.amount > 1 else ''} but holds {held}: "
                        "--override rules it")
    line = TransferLine.of(Transfer(command.amount, _account(source), _account(destination), GM_RULING),
                           command.currency)
    return validate_transferred(kind(transfers=[line], reason=command.reason.strip()), campaign, referee)


def _account_named(name: str, campaign: Campaign) -> str:
    """``name`` as registered at the table, or the kitty, matched ignoring case."""
    typed = name.strip()
    if typed.casefold() == KITTY_NAME:
        return KITTY_NAME
    table = campaign.table
    return next((n for n in (*table.gms, *table.players) if n.casefold() == typed.casefold()), typed)


def validate_transferred(p: TokensTransferred, campaign: Campaign, referee: Referee) -> TokensTransferred:
    """A GM ruling moves tokens or bennies between two accounts at the table (payment: :func:`audit`)."""
    invalid(bool(p.reason.strip()), "a GM ruling needs a reason")
    for line in p.transfers:
        for who in (line.source, line.destination):
            invalid(who == KITTY_NAME or campaign.table.knows(who), f"{who} is neither at the table nor the kitty")
        invalid(line.source != line.destination, "a transfer needs two different accounts")
    return p


def validate_returned(p: TokensReturned, campaign: Campaign, referee: Referee) -> TokensReturned:
    """At the end of the episode in play, every unspent drama token goes back to the kitty."""
    episode = present(campaign.timeline.episode, "no episode is in play: tokens return to the kitty as one ends")
    returned = return_to_kitty(campaign.rules.economy, episode, type(p))
    return present(returned, "no drama token is held: none returns to the kitty")


SPEND_WHAT_YOU_HOLD = Rule(
    "Yarn 0.1", "Tokens",
    "Everyone starts each episode with zero tokens: you can only spend tokens (or bennies) you hold.",
)


def require_payable(referee: Referee, economy: Economy, moves: Sequence[TransferLine]) -> None:
    """Refuse (through the referee) any payment its payer cannot make."""
    for problem in shortfalls(economy, moves):
        referee.require(False, SPEND_WHAT_YOU_HOLD, problem.message)


def return_to_kitty(economy: Economy, episode: int,
                    kind: type[TokensReturned] = TokensReturned) -> TokensReturned | None:
    """The end-of-episode return of every unspent drama token (read the bennie tally first), as ``kind``."""
    moves = lines(drama_tokens.end_of_episode(economy.tokens))
    return kind(episode=episode, transfers=moves) if moves else None


def economy_part(events: EconomyEvents, cite: Callable[[Referee], Referee] = lambda referee: referee) -> Part:
    """The economy part of a ruleset that records ``events``; ``cite`` makes its referee name the
    ruleset's book (:meth:`~yarnlog.rulesets.scenes_and_tokens.parameters.Dramatic.referee`)."""

    def decide(command: Any, campaign: Campaign, referee: Referee) -> list[Payload] | None:
        if not isinstance(command, TransferTokens):
            return None
        return [transferred(command, campaign, cite(referee), events.transferred)]

    return Part(name="economy", initial=Economy, evolve=evolve, folds=FOLDS, decide=decide, audit=audit,
                validators={events.transferred: validate_transferred, events.returned: validate_returned},
                thaw=EconomyBuilder)
