"""Spending bennies in play ("Spending Bennies": Yarn 0.1, and DramaSystem DS76-DS77 in the same words).

Every bennie spent leaves its holder as a ``bennie`` transfer (to the kitty, or to the caller of a
rushed scene) and is remembered as a :class:`~.bennies.BennieSpend`, so "You may spend only one
bennie per scene" holds across spends, rushes, blocks and queue jumps alike. Jumping the queue is
spent by calling a scene (:mod:`.scene_calls`); jumping into a scene and blocking that are spent by
rushing it (:mod:`.scene_challenges`). Each ruleset registers :class:`BennieSpent` under its own
prefix and composes :class:`BennieSpends`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from yarnlog.core.composition import folds
from yarnlog.core.events import Payload, Recorded
from yarnlog.core.frozen import replace
from yarnlog.core.referee import Referee, Rule, invalid, present
from yarnlog.rulesets.scenes_and_tokens.parameters import Dramatic
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import (
    Campaign,
    Drama,
    DramaBuilder,
    drama_of,
    rebuilt,
    scene_in_play,
)
from yarnlog.rulesets.scenes_and_tokens.parts.economy import BENNIE, TransferLine, lines
from yarnlog.rulesets.scenes_and_tokens.rules.bennies import (
    HAVE_A_BENNIE,
    BennieOption,
    BennieSpend,
    TokenKind,
    spend_bennie,
)
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import KITTY, Account, Transfer

#: What the ``yarnlog bennie spend`` command cashes a bennie in for (the other options have their own moves).
SPEND_OPTIONS = {
    "drama-token": BennieOption.DRAMA_TOKEN,
    "procedural-token": BennieOption.PROCEDURAL_TOKEN,
    "extra-card": BennieOption.EXTRA_CARD,
    "burn": BennieOption.BURN_TOKEN,
}
ELSEWHERE = {
    BennieOption.JUMP_THE_QUEUE: "call the scene with the queue jump (yarnlog call --jump-queue)",
    BennieOption.JUMP_INTO_SCENE: "rush the scene with a bennie (yarnlog challenge rush --bennie)",
    BennieOption.BLOCK_JUMP_IN: "block the rush (yarnlog challenge rush --bennie --blocked)",
}


class BennieSpendLine(BaseModel):
    """One bennie cashed in, as stored in an event."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    spender: str
    option: str = Field(description="the BennieOption's name, lower case")
    scene: int
    burn_target: str | None = None
    burn_kind: str | None = None

    @field_validator("option")
    @classmethod
    def _an_option_of_the_book(cls, option: str) -> str:
        if option.upper() not in BennieOption.__members__:
            raise ValueError(f"not a way to spend a bennie: {option!r}")
        return option

    @field_validator("burn_kind")
    @classmethod
    def _a_kind_of_token(cls, kind: str | None) -> str | None:
        if kind is not None and kind.upper() not in TokenKind.__members__:
            raise ValueError(f"not a kind of token: {kind!r}")
        return kind

    @classmethod
    def of(cls, spend: BennieSpend) -> "BennieSpendLine":
        return cls(spender=spend.spender, option=spend.option.name.lower(), scene=spend.scene,
                   burn_target=spend.burn_target, burn_kind=spend.burn_kind.name.lower() if spend.burn_kind else None)

    def spend(self) -> BennieSpend:
        return BennieSpend(self.spender, BennieOption[self.option.upper()], self.scene, self.burn_target,
                           TokenKind[self.burn_kind.upper()] if self.burn_kind else None)


def bennie_paid(spender: str, rule: Rule = HAVE_A_BENNIE, to: Account = KITTY) -> TransferLine:
    """The bennie leaving its spender's sheet (to the kitty, unless someone receives it)."""
    return TransferLine.of(Transfer(1, spender, to, rule), BENNIE)


def spends_of(payload: Payload) -> tuple[BennieSpend, ...]:
    """The bennies a recorded event spent."""
    return tuple(line.spend() for line in getattr(payload, "bennie_spends", None) or ())


class BennieSpent(Payload):
    """A bennie cashed in for a dramatic or procedural token, an extra card, or a burn (``yarn.bennie.spent``)."""

    scene: int
    effect: str
    bennie_spends: list[BennieSpendLine] = Field(min_length=1, max_length=1)
    transfers: list[TransferLine]


@dataclass(frozen=True)
class SpendBennie:
    """``option`` is a key of :data:`SPEND_OPTIONS`; a burn names the player and ``drama`` or ``procedural``;
    ``colour``: the procedural token a ruleset with procedural tokens returns or burns."""

    spender: str
    option: str
    burn_target: str | None = None
    burn_kind: str | None = None
    colour: str | None = None


def _no_effects(campaign: Campaign, referee: Referee, spend: BennieSpend, colour: str | None) -> dict[str, Any]:
    """The menu as the shared text has it: a drama token or a burned one moves (:func:`spend_bennie`); a
    procedural token and an extra card are recorded as spent (Yarn has neither) and name no colour."""
    invalid(colour is None, "this game has no procedural tokens: a bennie names no colour")
    return {}


def _no_colour(payload: Any) -> str | None:
    return None


#: Any payload that carries ``bennie_spends``.
FOLDS = folds(carrying=("bennie_spends",))


def evolve(drama: Drama, recorded: Recorded, _state: Any = None) -> Drama:
    """Every bennie spent, whatever the move, for "You may spend only one bennie per scene"."""
    spends = spends_of(recorded.payload)
    if not spends:
        return drama
    by_scene = drama.spends_by_scene
    for spend in spends:
        by_scene = by_scene.set(spend.scene, by_scene.get(spend.scene, ()) + (spend,))
    return replace(drama, bennie_spends=drama.bennie_spends.extend(spends), spends_by_scene=by_scene)


def fold_in_place(drama: DramaBuilder, recorded: Recorded, _before: Any = None) -> None:
    """:func:`evolve` in a replay."""
    spends = spends_of(recorded.payload)
    for spend in spends:
        drama.spends_by_scene[spend.scene] = (drama.spends_by_scene.get(spend.scene) or ()) + (spend,)
    drama.bennie_spends.extend(spends)


@dataclass(frozen=True)
class BennieSpends:
    """Bennies spent as one ruleset has them: its :class:`Dramatic` and its :class:`BennieSpent`."""

    dramatic: Dramatic
    spent_type: type[BennieSpent]
    #: ``effects(campaign, referee, spend, colour)``: the payload fields of what the ruleset's menu does
    #: beyond moving drama tokens (DramaSystem: a procedural token returned or burned, DS76; reading 5).
    effects: Callable[[Campaign, Referee, BennieSpend, str | None], dict[str, Any]] = _no_effects
    #: ``chosen_colour(payload)``: the colour a recorded spend named, so ``verify`` decides it again.
    chosen_colour: Callable[[Any], str | None] = _no_colour

    FOLDS = FOLDS
    evolve = staticmethod(evolve)
    fold_in_place = staticmethod(fold_in_place)

    def spent(self, campaign: Campaign, referee: Referee, *, spender: str, option: BennieOption,
              burn_target: str | None, burn_kind: TokenKind | None, colour: str | None = None) -> BennieSpent:
        """The spend, checked against "Spending Bennies", with every bennie and token it moves."""
        table = campaign.table
        invalid(spender in table.players, f"{spender} is not a player at the table (the GM never gets bennies)")
        invalid(option not in ELSEWHERE, f"to {option.effect}: {ELSEWHERE.get(option)}")
        if burn_target is not None:
            invalid(table.knows(burn_target), f"{burn_target} is not at the table")
        scene = scene_in_play(campaign).number
        economy = campaign.rules.economy
        result = spend_bennie(
            referee, BennieSpend(spender, option, scene, burn_target, burn_kind),
            held=economy.holding(spender, BENNIE), history=drama_of(campaign).spends_in(scene),
            balances_now=economy.tokens, gm=table.gm,
        )
        return self.spent_type(scene=scene, effect=option.effect, bennie_spends=[BennieSpendLine.of(result.spend)],
                               transfers=[bennie_paid(spender), *lines(result.transfers)],
                               **self.effects(campaign, referee, result.spend, colour))

    def decide(self, command: Any, campaign: Campaign, referee: Referee) -> list[Payload] | None:
        if not isinstance(command, SpendBennie):
            return None
        option = present(SPEND_OPTIONS.get(command.option),
                         f"a bennie is spent on one of {', '.join(SPEND_OPTIONS)}, not {command.option!r}")
        kinds = {"drama": TokenKind.DRAMA, "procedural": TokenKind.PROCEDURAL}
        invalid(command.burn_kind in (None, *kinds), "a burned token is 'drama' or 'procedural'")
        burn_kind = kinds[command.burn_kind] if command.burn_kind is not None else None
        colour = command.colour.strip().casefold() if command.colour and command.colour.strip() else None
        return [self.spent(campaign, self.dramatic.referee(referee), spender=command.spender, option=option,
                           burn_target=command.burn_target, burn_kind=burn_kind, colour=colour)]

    def _respent(self, campaign: Campaign, referee: Referee, payload: BennieSpent) -> BennieSpent:
        """The recorded spend decided again from its own facts."""
        spend = payload.bennie_spends[0].spend()
        return self.spent(campaign, self.dramatic.referee(referee), spender=spend.spender, option=spend.option,
                          burn_target=spend.burn_target, burn_kind=spend.burn_kind,
                          colour=self.chosen_colour(payload))

    @property
    def VALIDATORS(self) -> Mapping[type, Callable[[Any, Campaign, Referee], Payload]]:  # noqa: N802 (a module's name)
        """The recorded spend decided again from its own facts."""
        return {self.spent_type: rebuilt(self._respent)}
