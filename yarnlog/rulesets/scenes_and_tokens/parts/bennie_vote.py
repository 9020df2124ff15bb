"""The end-of-session bennie vote and the end of an episode ("Gaining Bennies", "Tied Results",
"Tokens": Yarn 0.1, and DramaSystem DS18-DS19, DS73-DS75 in the same words).

Each participant's ballot is an event. Ending the episode tallies them (:func:`.bennies.tally_bennie_vote`)
against the drama tokens in hand, records the result with all its arithmetic and the bennies it
awards, then returns every unspent drama token to the kitty, then closes the scene and episode.
Each ruleset registers the two payloads under its own prefix (:class:`VoteEvents`) and composes
:class:`BennieVoting`, which also takes over the journal's ``EndEpisode``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pyrsistent import pmap

from yarnlog.core.composition import folds
from yarnlog.core.events import Payload, Recorded
from yarnlog.core.frozen import replace
from yarnlog.core.referee import Referee, invalid, present
from yarnlog.core.state import advance
from yarnlog.core.timeline import EndEpisode, EpisodeEnded, check_timeline, decide_timeline
from yarnlog.rulesets.scenes_and_tokens.parameters import Dramatic
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import Campaign, Drama, DramaBuilder, drama_of, rebuilt
from yarnlog.rulesets.scenes_and_tokens.parts.economy import BENNIE, TokensReturned, TransferLine, return_to_kitty
from yarnlog.rulesets.scenes_and_tokens.prefixed import under_prefix
from yarnlog.rulesets.scenes_and_tokens.rules import bennies
from yarnlog.rulesets.scenes_and_tokens.rules.bennies import ALL_VOTE, Ballot, PlayerTally, tally_bennie_vote
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import EPISODE_END, KITTY, Transfer


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class RankReceived(_Data):
    voter: str
    rank: int


class TallyLine(_Data):
    """One player's line of the tally: ranks received, their total, tokens in hand, score, placement."""

    player: str
    ranks_received: list[RankReceived]
    rank_total: int
    tokens_in_hand: int
    score: int
    placement: int
    gains_bennie: bool

    @classmethod
    def of(cls, tally: PlayerTally) -> "TallyLine":
        return cls(player=tally.player, ranks_received=[RankReceived(voter=v, rank=r) for v, r in tally.ranks_received],
                   rank_total=tally.rank_total, tokens_in_hand=tally.tokens_in_hand, score=tally.score,
                   placement=tally.placement, gains_bennie=tally.gains_bennie)


def same_lines(lines: Sequence[TallyLine], tallies: Sequence[PlayerTally]) -> bool:
    """Whether recorded ``lines`` are the tally's, field by field (as ``TallyLine.of`` would give them,
    compared as the models compare): an audit checks a recorded tally without building its lines."""
    return len(lines) == len(tallies) and all(
        type(line) is TallyLine and line.player == t.player and line.rank_total == t.rank_total
        and line.tokens_in_hand == t.tokens_in_hand and line.score == t.score and line.placement == t.placement
        and line.gains_bennie == t.gains_bennie and len(line.ranks_received) == len(t.ranks_received)
        and all(type(got) is RankReceived and got.voter == voter and got.rank == rank
                for got, (voter, rank) in zip(line.ranks_received, t.ranks_received))
        for line, t in zip(lines, tallies))


@dataclass(frozen=True)
class CastBallot:
    """``voter`` ranks the other players, best (#1) first."""

    voter: str
    ranking: tuple[str, ...]


class BallotCast(Payload):
    """One participant's ranking of the other players (``yarn.bennie.ballot_cast``)."""

    episode: int
    voter: str
    ranks: dict[str, int]


class BennieVoteTallied(Payload):
    """The result of the vote, lowest score first, with the bennies it awards (from the kitty)
    (``yarn.bennie.vote_tallied``)."""

    episode: int
    tallies: list[TallyLine]
    missing: list[str] = Field(default_factory=list)  # ballots the GM went without, by override
    transfers: list[TransferLine] = Field(default_factory=list)


def _line_data(line: TallyLine) -> dict:
    """``line.model_dump()``, read field by field (a replay keeps every episode's tally so)."""
    return {"player": line.player, "ranks_received": [{"voter": r.voter, "rank": r.rank} for r in line.ranks_received],
            "rank_total": line.rank_total, "tokens_in_hand": line.tokens_in_hand, "score": line.score,
            "placement": line.placement, "gains_bennie": line.gains_bennie}


def tally_data(tally: BennieVoteTallied) -> dict:
    """An episode's recorded vote as the bennies report lists it."""
    return {"episode": tally.episode, "tallies": [_line_data(line) for line in tally.tallies],
            "missing": list(tally.missing), "bennies_to": [t.destination for t in tally.transfers]}


def kept_tally(tally: BennieVoteTallied) -> str:
    """What the state keeps of an episode's tally: the rules ask only whether the episode was
    tallied, and the bennies report lists its figures, so those are kept as compact JSON text, in
    the report's order (a few hundred bytes, where the payload's models took kilobytes an episode)."""
    return json.dumps(tally_data(tally), separators=(",", ":"), ensure_ascii=False)


def tallied(drama: Drama) -> list[dict]:
    """Every episode's recorded vote (:func:`tally_data`), by episode."""
    return [json.loads(text) for _, text in sorted(drama.tallies.items())]


def episode_ballots(drama: Drama, episode: int | None) -> Mapping[str, Ballot]:
    """The ballots cast in ``episode`` (none outside an episode)."""
    return drama.ballots.get(episode, {}) if episode is not None else {}


# -- folding ----------------------------------------------------------------------------------


FOLDS = folds(BallotCast, BennieVoteTallied)


def evolve(drama: Drama, recorded: Recorded, _state: Any = None) -> Drama:
    p = recorded.payload
    if isinstance(p, BallotCast):
        cast = drama.ballots.get(p.episode, pmap()).set(p.voter, Ballot(p.voter, dict(p.ranks)))
        return replace(drama, ballots=drama.ballots.set(p.episode, cast))
    if isinstance(p, BennieVoteTallied):
        return replace(drama, tallies=drama.tallies.set(p.episode, kept_tally(p)))
    return drama


def fold_in_place(drama: DramaBuilder, recorded: Recorded, _before: Any = None) -> None:
    """:func:`evolve` in a replay (an episode's ballots stay a persistent map: a handful of voters)."""
    p = recorded.payload
    if isinstance(p, BallotCast):
        drama.ballots[p.episode] = (drama.ballots.get(p.episode) or pmap()).set(p.voter, Ballot(p.voter, dict(p.ranks)))
    elif isinstance(p, BennieVoteTallied):
        drama.tallies[p.episode] = kept_tally(p)



# -- deciding and validating ----------------------------------------------------------------------


@dataclass(frozen=True)
class VoteEvents:
    """The vote's payloads as one ruleset registers them, and its return of tokens to the kitty."""

    ballot_cast: type[BallotCast]
    vote_tallied: type[BennieVoteTallied]
    returned: type[TokensReturned]

    @classmethod
    def under(cls, prefix: str) -> VoteEvents:
        """The payloads as the ruleset of ``prefix`` records them."""
        return cls(
            ballot_cast=under_prefix(BallotCast, prefix, "bennie.ballot_cast"),
            vote_tallied=under_prefix(BennieVoteTallied, prefix, "bennie.vote_tallied"),
            returned=under_prefix(TokensReturned, prefix, "tokens.returned"),
        )


@dataclass(frozen=True)
class BennieVoting:
    """The bennie vote and the end of an episode as one ruleset has them: its :class:`Dramatic` and
    its payloads. ``decide``, ``evolve``, ``FOLDS`` and ``VALIDATORS`` are a drama module's."""

    dramatic: Dramatic
    events: VoteEvents

    FOLDS = FOLDS
    evolve = staticmethod(evolve)
    fold_in_place = staticmethod(fold_in_place)

    def ballot_cast(self, campaign: Campaign, referee: Referee, *, voter: str, ranks: dict[str, int]) -> BallotCast:
        """One participant's ballot, checked against "Gaining Bennies"."""
        episode = present(campaign.timeline.episode, "ballots are cast at the end of the episode in play")
        invalid(voter not in drama_of(campaign).ballots.get(episode, {}),
                f"{voter} has already voted this episode (retract that ballot to vote again)")
        table = campaign.table
        bennies._check_ballot(referee, Ballot(voter, ranks), table.players, table.gm)
        return self.events.ballot_cast(episode=episode, voter=voter, ranks=ranks)


    def current_vote(self, campaign: Campaign, referee: Referee) -> bennies.BennieVote | None:
        """The tally of the ballots cast this episode, against the tokens in hand now."""
        table = campaign.table
        ballots = episode_ballots(drama_of(campaign), campaign.timeline.episode)
        if not table.players:
            return None
        return tally_bennie_vote(referee, players=table.players, gm=table.gm, ballots=ballots.values(),
                                 tokens_in_hand=campaign.rules.economy.tokens)


    def vote_tallied(self, campaign: Campaign, referee: Referee,
                     recorded: Payload | None = None) -> BennieVoteTallied | None:
        """The result of the vote, or ``None`` with no players or (by the GM's override) no ballots at all."""
        vote = self.current_vote(campaign, referee)
        table = campaign.table
        episode = campaign.timeline.episode
        voters = set(episode_ballots(drama_of(campaign), episode))
        if vote is None or episode is None or not voters:
            return None
        missing = sorted({*table.players, table.gm} - voters)
        transfers = [TransferLine.of(Transfer(1, KITTY, gain.player, gain.rule), BENNIE) for gain in vote.gains()]
        if (isinstance(recorded, BennieVoteTallied) and type(recorded) is self.events.vote_tallied
                and recorded.episode == episode and recorded.missing == missing and recorded.transfers == transfers
                and same_lines(recorded.tallies, vote.tallies)):
            return recorded  # what the rules derive, compared as data: its lines are not built again
        return self.events.vote_tallied(
            episode=episode, tallies=[TallyLine.of(t) for t in vote.tallies], missing=missing, transfers=transfers,
        )


    def end_episode(self, campaign: Campaign, referee: Referee) -> list[Payload]:
        """The scene in play closes, then the bennie result, every unspent drama token back to the
        kitty, and the episode's end: the vote belongs to the session, not to its last scene."""
        timeline = campaign.timeline
        episode = present(timeline.episode, "no episode is in play")
        result = self.vote_tallied(campaign, referee)
        returned = return_to_kitty(campaign.rules.economy, episode, self.events.returned)
        *closing_scene, episode_ended = present(decide_timeline(EndEpisode(), timeline), "no episode is in play")
        assert isinstance(episode_ended, EpisodeEnded)  # the journal's EndEpisode ends with the episode's end
        before_end = [*closing_scene, *(p for p in (result, returned) if p is not None)]
        return [*before_end, self.validate_episode_end(episode_ended, advance(campaign, before_end), referee)]


    def decide(self, command: object, campaign: Campaign, referee: Referee) -> list[Payload] | None:
        referee = self.dramatic.referee(referee)
        if isinstance(command, CastBallot):
            invalid(len(set(command.ranking)) == len(command.ranking), "a ballot ranks each player once")
            ranks = {player: rank for rank, player in enumerate(command.ranking, start=1)}
            return [self.ballot_cast(campaign, referee, voter=command.voter, ranks=ranks)]
        if isinstance(command, EndEpisode):
            return self.end_episode(campaign, referee)
        return None


    def validate_episode_end(self, p: EpisodeEnded, campaign: Campaign, referee: Referee) -> EpisodeEnded:
        """The journal's episode end, once the bennie vote is tallied and the drama tokens are back."""
        referee = self.dramatic.referee(referee)
        checked = check_timeline(p, campaign.timeline)
        assert isinstance(checked, EpisodeEnded)  # check_timeline gives back the payload it checks, numbered
        p = checked
        referee.require(not campaign.table.players or p.number in drama_of(campaign).tallies, ALL_VOTE,
                        f"episode {p.number} ended with no bennie vote")
        referee.require(not campaign.rules.economy.tokens, EPISODE_END,
                        f"episode {p.number} ended with tokens held")
        return p


    def _recast(self, campaign: Campaign, referee: Referee, q: BallotCast) -> BallotCast:
        """The recorded ballot cast again from its own facts."""
        return self.ballot_cast(campaign, referee, voter=q.voter, ranks=dict(q.ranks))

    @property
    def VALIDATORS(self) -> Mapping[type, Callable[[Any, Campaign, Referee], Payload]]:  # noqa: N802 (a module's name)
        """One validator per payload: the ballot and the tally decided again, the episode's end checked."""
        return {
            self.events.ballot_cast: rebuilt(lambda c, r, p: self._recast(c, self.dramatic.referee(r), p)),
            self.events.vote_tallied: rebuilt(lambda c, r, p: self.vote_tallied(c, self.dramatic.referee(r), p)),
            EpisodeEnded: self.validate_episode_end,
        }


def ballots_view(campaign: Campaign) -> dict[str, Any]:
    """Who has voted this episode and who has not (the ballots themselves are the GM's to read)."""
    table = campaign.table
    episode = campaign.timeline.episode
    voters = sorted(episode_ballots(drama_of(campaign), episode))
    return {"episode": episode, "voted": voters,
            "missing": sorted({*table.players, table.gm} - set(voters)) if episode is not None else []}
