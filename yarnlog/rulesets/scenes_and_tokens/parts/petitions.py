"""How a dramatic scene ends: petitions and their token exchanges ("Playing and Resolving Dramatic
Scenes", "Gaining Tokens", "Forcing", "Supporting or Blocking a Force", "No Contest Scenes",
"Two-Way Exchanges", "Multiple Petitioners", "Drama with Recurring Characters": Yarn 0.1, and
DramaSystem DS20-DS28 in the same words).

Parties are characters; their tokens are their players' (the GM's pool for recurring
characters). A scene ends with one exchange: a petition, a force, a two-way exchange or the
quiz of several petitioners. The exchanges themselves are :mod:`.drama_tokens`'s.

Each ruleset registers the four payloads under its own prefix (:class:`PetitionEvents`) and
composes :class:`Petitions`, which decides, folds and validates them with its :class:`Dramatic`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from yarnlog.core.composition import folds
from yarnlog.core.events import Payload, Recorded
from yarnlog.core.frozen import replace
from yarnlog.core.limits import Text
from yarnlog.core.referee import Referee, invalid, present
from yarnlog.rulesets.scenes_and_tokens.parameters import Dramatic, Roster
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import (
    Campaign,
    Drama,
    DramaBuilder,
    Recall,
    SceneCall,
    rebuilt,
    scene_in_play,
)
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferLine, lines
from yarnlog.rulesets.scenes_and_tokens.parts.roles import Role, holders_present, require_character, require_party
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import Purpose, latest_precedence
from yarnlog.rulesets.scenes_and_tokens.prefixed import under_prefix
from yarnlog.rulesets.scenes_and_tokens.rules.challenges import grant_vote, petition_outcome
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import (
    MULTIPLE_PETITIONERS,
    ForcedScene,
    PetitionAnswer,
    PetitionOutcome,
    Support,
    resolve_force,
    resolve_multiple_petitioners,
    resolve_petition,
    resolve_two_way,
)

ANSWERS = {"granted": PetitionOutcome.GRANTED, "refused": PetitionOutcome.REFUSED,
           "no contest": PetitionOutcome.NO_CONTEST}


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class GrantVoteData(_Data):
    """The group's vote on a disputed "no": who saw a significant shift in emotional power, who did not."""

    for_grant: list[str]
    for_refusal: list[str]
    caller_tie_break: Literal["granted", "refused"] | None = None


class SupportLine(_Data):
    character: str
    supporter: str
    tokens: int = Field(ge=1)


class AnswerLine(_Data):
    """One player's answer to the GM's quiz: what they wanted, from whom, and whether they got it."""

    petitioner: str
    petitioner_holder: str
    wanted_from: str
    granter_holder: str
    got_it: bool


# -- commands ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ResolvePetition:
    """``answer``: ``granted`` (the petitioner says she got a significant concession), ``refused``, or
    ``no contest`` (the granter's declaration). A disputed ``refused`` carries the group's vote."""

    petitioner: str
    granter: str
    answer: str
    vote: GrantVoteData | None = None
    sought: str | None = None  # what the petitioner sought, in words (``--sought``)


@dataclass(frozen=True)
class Force:
    """A force at the end of the scene; ``support``/``block_support``: character (or player) -> tokens."""

    petitioner: str
    granter: str
    blocked: bool = False
    support: Mapping[str, int] = field(default_factory=dict)
    block_support: Mapping[str, int] = field(default_factory=dict)
    sought: str | None = None


@dataclass(frozen=True)
class TwoWay:
    """Each character sought a payoff from the other: was each one's petition granted?"""

    first: str
    second: str
    first_granted: bool
    second_granted: bool
    sought: str | None = None


@dataclass(frozen=True)
class QuizPetitioners:
    """Several players sought emotional rewards: ``answers`` are (petitioner, wanted from, got it).

    ``order`` is the newly drawn precedence order of the petitioning players, recorded with the
    quiz; without it, the order drawn (``yarnlog precedence draw --purpose petitioners``) since the
    scene opened is used.
    """

    answers: tuple[tuple[str, str, bool], ...]
    order: tuple[str, ...] | None = None
    source: Literal["shuffled", "entered"] = "entered"


# -- events -----------------------------------------------------------------------------------


class _Sought(Payload):
    """An exchange that may say what was sought (``--sought``). Absent, the field is left out of the
    stored payload, so the events recorded before it existed keep their bytes and their hashes."""

    sought: Text | None = None

    def to_data(self) -> dict[str, Any]:
        data = super().to_data()
        if data.get("sought") is None:
            data.pop("sought", None)
        return data


class PetitionResolved(_Sought):
    """A petition settled: granted, refused (perhaps by the group's vote) or no contest (``yarn.petition.resolved``)."""

    scene: int
    petitioner: str
    granter: str
    petitioner_holder: str
    granter_holder: str
    answer: Literal["granted", "refused", "no contest"]
    vote: GrantVoteData | None = None
    outcome: Literal["granted", "refused", "no contest"]
    transfers: list[TransferLine] = Field(default_factory=list)


class PetitionForced(_Sought):
    """A force, perhaps blocked, with its supporters on either side (``yarn.petition.forced``)."""

    scene: int
    petitioner: str
    granter: str
    petitioner_holder: str
    granter_holder: str
    blocked: bool
    force_support: list[SupportLine] = Field(default_factory=list)
    block_support: list[SupportLine] = Field(default_factory=list)
    transfers: list[TransferLine]


class TwoWayExchanged(_Sought):
    """Each character sought a payoff from the other (``yarn.petition.two_way``)."""

    scene: int
    first: str
    second: str
    first_holder: str
    second_holder: str
    first_granted: bool
    second_granted: bool
    transfers: list[TransferLine] = Field(default_factory=list)


class PetitionersQuizzed(Payload):
    """The GM's quiz of several petitioners, in a newly drawn precedence order (``yarn.petition.quizzed``)."""

    scene: int
    precedence: list[str]
    answers: list[AnswerLine] = Field(min_length=2)
    transfers: list[TransferLine]


def drawn_for_quiz(roster: Roster, campaign: Campaign) -> tuple[str, ...] | None:
    """The petitioners' precedence order drawn since the scene in play opened, if any."""
    scene = scene_in_play(campaign)
    drawn = latest_precedence(roster.cast, Purpose.PETITIONERS)  # the last: no scan
    return drawn.order if drawn is not None and drawn.sequence > scene.opened_at else None


def players_to_draw_for_quiz(roster: Roster, campaign: Campaign,
                             answers: Iterable[tuple[str, str, bool]]) -> tuple[str, ...] | None:
    """Whose cards a quiz needs shuffled ("Multiple Petitioners"): the petitioning characters'
    players, or ``None`` when their order was already drawn this scene. The shuffle itself is the
    shell's: deciding never shuffles."""
    if drawn_for_quiz(roster, campaign) is not None:
        return None
    return tuple(require_character(roster, campaign, petitioner).holder for petitioner, _, _ in answers)


@dataclass(frozen=True)
class PetitionEvents:
    """The four exchanges as one ruleset registers them under its prefix."""

    resolved: type[PetitionResolved]
    forced: type[PetitionForced]
    two_way: type[TwoWayExchanged]
    quizzed: type[PetitionersQuizzed]

    @classmethod
    def under(cls, prefix: str) -> PetitionEvents:
        """The payloads as the ruleset of ``prefix`` records them."""
        return cls(
            resolved=under_prefix(PetitionResolved, prefix, "petition.resolved"),
            forced=under_prefix(PetitionForced, prefix, "petition.forced"),
            two_way=under_prefix(TwoWayExchanged, prefix, "petition.two_way"),
            quizzed=under_prefix(PetitionersQuizzed, prefix, "petition.quizzed"),
        )


EXCHANGES = (PetitionResolved, PetitionForced, TwoWayExchanged, PetitionersQuizzed)
FOLDS = folds(*EXCHANGES)


#: The exchange that ended a scene, said as a move (by its event type without the ruleset's prefix).
_EXCHANGES = {"petition.resolved": "a petition", "petition.forced": "a force", "petition.two_way": "a two-way exchange",
              "petition.quizzed": "the quiz of several petitioners"}


def _settled(scene: SceneCall, p: Payload) -> tuple[Recall | None, ForcedScene | None]:
    """What the exchange that ends ``scene`` leaves besides its end: a recall after a scene of no
    contest ("No Contest Scenes"), the force remembered for the episode ("Forcing": no re-runs)."""
    recall = Recall(scene.caller, "the scene was no contest") \
        if isinstance(p, PetitionResolved) and p.outcome == "no contest" else None
    # A scene is always called in an episode.
    forced = ForcedScene(scene.episode, p.petitioner, p.granter) \
        if isinstance(p, PetitionForced) and scene.episode is not None else None
    return recall, forced


@dataclass(frozen=True)
class Petitions:
    """Petitions as one ruleset has them: its :class:`Dramatic` (book, characters, precedence) and
    its payloads. ``decide``, ``evolve``, ``FOLDS`` and ``VALIDATORS`` are a drama module's."""

    dramatic: Dramatic
    events: PetitionEvents

    FOLDS = FOLDS

    # -- deciding -------------------------------------------------------------------------

    def _ending(self, campaign: Campaign) -> SceneCall:
        """The scene in play, not yet ended by an exchange."""
        scene = scene_in_play(campaign)
        if scene.settled_by is not None:
            # settled_by is an event type ("yarn.petition.forced"): say the move, not the type.
            move = _EXCHANGES.get(scene.settled_by.split(".", 1)[-1], "an exchange")
            invalid(False, f"scene {scene.number} already ended with its exchange ({move}): call the next scene")
        return scene

    def _parties(self, campaign: Campaign, referee: Referee, scene: SceneCall, *names: str) -> list[Role]:
        roster = self.dramatic.roster(campaign)
        roles = [require_party(referee, roster, campaign, name) for name in names]
        for role in roles:
            invalid(role.character in scene.cast, f"{role.character} is not in scene {scene.number}")
        return roles

    def resolved(self, campaign: Campaign, referee: Referee, *, petitioner: str, granter: str, answer: str,
                 vote: GrantVoteData | None, sought: str | None = None) -> PetitionResolved:
        """"Playing and Resolving Dramatic Scenes", "Gaining Tokens", "No Contest Scenes"."""
        referee = self.dramatic.referee(referee)
        invalid(answer in ANSWERS, f"a petition ends granted, refused or no contest, not {answer!r}")
        scene = self._ending(campaign)
        asking, giving = self._parties(campaign, referee, scene, petitioner, granter)
        if answer == "no contest":
            invalid(vote is None, "a no-contest scene has nothing to vote on")
            outcome = PetitionOutcome.NO_CONTEST
        else:
            table = campaign.table
            group = grant_vote(referee, participants=[*table.players, table.gm], for_grant=vote.for_grant,
                               for_refusal=vote.for_refusal,
                               caller_tie_break=ANSWERS[vote.caller_tie_break] if vote.caller_tie_break else None,
                               ) if vote is not None else None
            outcome = petition_outcome(referee, petitioner_got_concession=answer == "granted", vote=group)
        transfers = resolve_petition(campaign.rules.economy.tokens, petitioner=asking.holder, granter=giving.holder,
                                     outcome=outcome)
        return self.events.resolved(
            scene=scene.number, petitioner=asking.character, granter=giving.character,
            petitioner_holder=asking.holder, granter_holder=giving.holder, answer=answer, vote=vote,
            outcome=outcome.value, transfers=lines(transfers), sought=sought)

    def _supports(self, campaign: Campaign, supporters: Iterable[tuple[str, int]]) -> list[SupportLine]:
        roster = self.dramatic.roster(campaign)
        out = []
        for name, tokens in supporters:
            role = require_character(roster, campaign, name)
            out.append(SupportLine(character=role.character, supporter=role.holder, tokens=tokens))
        return out

    def forced(self, campaign: Campaign, referee: Referee, *, petitioner: str, granter: str, blocked: bool,
               force_support: Iterable[tuple[str, int]], block_support: Iterable[tuple[str, int]],
               sought: str | None = None) -> PetitionForced:
        """"Forcing", "Supporting or Blocking a Force"."""
        referee = self.dramatic.referee(referee)
        scene = self._ending(campaign)
        asking, giving = self._parties(campaign, referee, scene, petitioner, granter)
        pro, con = self._supports(campaign, force_support), self._supports(campaign, block_support)
        transfers = resolve_force(
            referee, campaign.rules.economy.tokens, petitioner=asking.holder, granter=giving.holder,
            gm=campaign.table.gm, present=holders_present(self.dramatic.roster(campaign), campaign, scene.cast),
            blocked=blocked, force_support=[Support(s.supporter, s.tokens) for s in pro],
            block_support=[Support(s.supporter, s.tokens) for s in con],
        )
        return self.events.forced(
            scene=scene.number, petitioner=asking.character, granter=giving.character,
            petitioner_holder=asking.holder, granter_holder=giving.holder, blocked=blocked,
            force_support=pro, block_support=con, transfers=lines(transfers), sought=sought)

    def two_way(self, campaign: Campaign, referee: Referee, *, first: str, second: str, first_granted: bool,
                second_granted: bool, sought: str | None = None) -> TwoWayExchanged:
        """"Two-Way Exchanges"."""
        referee = self.dramatic.referee(referee)
        scene = self._ending(campaign)
        one, other = self._parties(campaign, referee, scene, first, second)
        transfers = resolve_two_way(campaign.rules.economy.tokens, first=one.holder, second=other.holder,
                                    first_granted=first_granted, second_granted=second_granted)
        return self.events.two_way(
            scene=scene.number, first=one.character, second=other.character, first_holder=one.holder,
            second_holder=other.holder, first_granted=first_granted, second_granted=second_granted,
            transfers=lines(transfers), sought=sought)

    def quizzed(self, campaign: Campaign, referee: Referee, *, precedence: Iterable[str],
                answers: Iterable[tuple[str, str, bool]]) -> PetitionersQuizzed:
        """"Multiple Petitioners": each answer settled in the newly drawn precedence order."""
        referee = self.dramatic.referee(referee)
        scene = self._ending(campaign)
        lines_: list[AnswerLine] = []
        for petitioner, wanted_from, got_it in answers:
            asking, giving = self._parties(campaign, referee, scene, petitioner, wanted_from)
            invalid(asking.is_pc, f"the GM quizzes each participating player, not {asking.character}'s GM "
                                  f"({self.dramatic.cite(MULTIPLE_PETITIONERS).cite()})")
            lines_.append(AnswerLine(petitioner=asking.character, petitioner_holder=asking.holder,
                                     wanted_from=giving.character, granter_holder=giving.holder, got_it=got_it))
        invalid(len(lines_) >= 2,
                "one petitioner makes an ordinary dramatic scene with onlookers: resolve the petition")
        transfers = resolve_multiple_petitioners(
            campaign.rules.economy.tokens, precedence=tuple(precedence),
            answers=[PetitionAnswer(a.petitioner_holder, a.granter_holder, a.got_it) for a in lines_],
        )
        return self.events.quizzed(scene=scene.number, precedence=list(precedence), answers=lines_,
                                   transfers=lines(transfers))

    def drawn_for_quiz(self, campaign: Campaign) -> tuple[str, ...] | None:
        """The petitioners' precedence order drawn since the scene in play opened, if any."""
        return drawn_for_quiz(self.dramatic.roster(campaign), campaign)

    def players_to_draw_for_quiz(self, campaign: Campaign, answers: Iterable[tuple[str, str, bool]]
                                 ) -> tuple[str, ...] | None:
        return players_to_draw_for_quiz(self.dramatic.roster(campaign), campaign, answers)

    def quiz(self, command: QuizPetitioners, campaign: Campaign, referee: Referee) -> list[Payload]:
        """The quiz, with the precedence order drawn for it (recorded by the ruleset's hook) if given now."""
        if command.order is None:
            order = present(self.drawn_for_quiz(campaign), "draw the petitioners' precedence order first "
                                                           f"({self.dramatic.cite(MULTIPLE_PETITIONERS).cite()})")
            return [self.quizzed(campaign, referee, precedence=order, answers=command.answers)]
        draw = self.dramatic.draw_petitioners(campaign, referee, tuple(command.order), command.source)
        return [*draw, self.quizzed(campaign, referee, precedence=command.order, answers=command.answers)]

    def decide(self, command: Any, campaign: Campaign, referee: Referee) -> list[Payload] | None:
        if isinstance(command, ResolvePetition):
            return [self.resolved(campaign, referee, petitioner=command.petitioner, granter=command.granter,
                                  answer=command.answer.replace("-", " "), vote=command.vote,
                                  sought=command.sought)]
        if isinstance(command, Force):
            return [self.forced(campaign, referee, petitioner=command.petitioner, granter=command.granter,
                                blocked=command.blocked, force_support=command.support.items(),
                                block_support=command.block_support.items(), sought=command.sought)]
        if isinstance(command, TwoWay):
            return [self.two_way(campaign, referee, first=command.first, second=command.second,
                                 first_granted=command.first_granted, second_granted=command.second_granted,
                                 sought=command.sought)]
        if isinstance(command, QuizPetitioners):
            return self.quiz(command, campaign, referee)
        return None

    # -- folding and validating -------------------------------------------------------------

    @staticmethod
    def evolve(drama: Drama, recorded: Recorded, _state: Any = None) -> Drama:
        p = recorded.payload
        if not isinstance(p, EXCHANGES) or p.scene not in drama.scenes:
            return drama
        scene = drama.scenes[p.scene]
        drama = replace(drama, scenes=drama.scenes.set(p.scene, replace(scene, settled_by=recorded.event_type)))
        recall, forced = _settled(scene, p)
        if recall is not None:
            drama = replace(drama, recall=recall)
        if forced is not None:
            drama = replace(drama, forced=drama.forced + (forced,))
        return drama

    @staticmethod
    def fold_in_place(drama: DramaBuilder, recorded: Recorded, _before: Any = None) -> None:
        """:meth:`evolve` in a replay."""
        p = recorded.payload
        if not isinstance(p, EXCHANGES) or p.scene not in drama.scenes:
            return
        scene = drama.scenes[p.scene]
        drama.scenes[p.scene] = replace(scene, settled_by=recorded.event_type)
        recall, forced = _settled(scene, p)
        if recall is not None:
            drama.recall = recall
        if forced is not None:
            drama.forced = drama.forced + (forced,)

    def _validate_quizzed(self, p: PetitionersQuizzed, campaign: Campaign, referee: Referee) -> PetitionersQuizzed:
        """A quiz follows the precedence order drawn for it in the same scene, and is settled again
        from its own facts."""
        self.dramatic.referee(referee).require(
            tuple(p.precedence) == self.drawn_for_quiz(campaign), MULTIPLE_PETITIONERS,
            "the quiz needs a fresh precedence order")
        return self.quizzed(campaign, referee, precedence=p.precedence,
                            answers=[(a.petitioner, a.wanted_from, a.got_it) for a in p.answers])

    @property
    def VALIDATORS(self) -> Mapping[type, Callable[[Any, Campaign, Referee], Payload]]:  # noqa: N802 (a module's name)
        """One validator per payload: each decides the recorded exchange again from its own facts."""
        events = self.events
        return {
            events.resolved: rebuilt(lambda c, r, p: self.resolved(c, r, petitioner=p.petitioner, granter=p.granter,
                                                                   answer=p.answer, vote=p.vote, sought=p.sought)),
            events.forced: rebuilt(lambda c, r, p: self.forced(
                c, r, petitioner=p.petitioner, granter=p.granter, blocked=p.blocked,
                force_support=[(s.character, s.tokens) for s in p.force_support],
                block_support=[(s.character, s.tokens) for s in p.block_support], sought=p.sought)),
            events.two_way: rebuilt(lambda c, r, p: self.two_way(c, r, first=p.first, second=p.second,
                                                                 first_granted=p.first_granted,
                                                                 second_granted=p.second_granted,
                                                                 sought=p.sought)),
            events.quizzed: self._validate_quizzed,
        }
