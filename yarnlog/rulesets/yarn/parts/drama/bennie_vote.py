"""The end-of-session bennie vote and the end of a Yarn episode (Yarn 0.1, "Gaining Bennies",
"Tied Results", "Tokens").

Each participant's ballot is an event. Ending the episode tallies them (:func:`.bennies.tally_bennie_vote`)
against the drama tokens in hand, records the result with all its arithmetic and the bennies it
awards, then returns every unspent drama token to the kitty, then closes the scene and episode.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pyrsistent import pmap

from yarnlog.core.events import Payload, Recorded, event
from yarnlog.core.frozen import replace
from yarnlog.core.referee import Referee, invalid, present
from yarnlog.core.ruleset import folds
from yarnlog.core.state import advance
from yarnlog.core.timeline import EndEpisode, EpisodeEnded, check_timeline, decide_timeline
from yarnlog.rulesets.dramatic.rules import bennies
from yarnlog.rulesets.dramatic.rules.bennies import ALL_VOTE, Ballot, PlayerTally, tally_bennie_vote
from yarnlog.rulesets.dramatic.rules.drama_tokens import EPISODE_END, KITTY, Transfer
from yarnlog.rulesets.yarn.parts.drama.state import Drama, Validator, drama_of, rebuilt
from yarnlog.rulesets.yarn.parts.economy.part import BENNIE, TransferLine, return_to_kitty
from yarnlog.rulesets.yarn.state import YarnCampaign, YarnState


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


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


@dataclass(frozen=True)
class CastBallot:
    """``voter`` ranks the other players, best (#1) first."""

    voter: str
    ranking: tuple[str, ...]


@event("yarn.bennie.ballot_cast")
class BallotCast(Payload):
    episode: int
    voter: str
    ranks: dict[str, int]


@event("yarn.bennie.vote_tallied")
class BennieVoteTallied(Payload):
    """The result of the vote, lowest score first, with the bennies it awards (from the kitty)."""

    episode: int
    tallies: list[TallyLine]
    missing: list[str] = Field(default_factory=list)  # ballots the GM went without, by override
    transfers: list[TransferLine] = Field(default_factory=list)


def episode_ballots(drama: Drama, episode: int | None) -> Mapping[str, Ballot]:
    """The ballots cast in ``episode`` (none outside an episode)."""
    return drama.ballots.get(episode, {}) if episode is not None else {}


# -- deciding ---------------------------------------------------------------------------------


def ballot_cast(campaign: YarnCampaign, referee: Referee, *, voter: str, ranks: dict[str, int]) -> BallotCast:
    """One participant's ballot, checked against "Gaining Bennies"."""
    episode = present(campaign.timeline.episode, "ballots are cast at the end of the episode in play")
    invalid(voter not in drama_of(campaign).ballots.get(episode, {}),
            f"{voter} has already voted this episode (retract that ballot to vote again)")
    table = campaign.table
    bennies._check_ballot(referee, Ballot(voter, ranks), table.players, table.gm)
    return BallotCast(episode=episode, voter=voter, ranks=ranks)


def current_vote(campaign: YarnCampaign, referee: Referee) -> bennies.BennieVote | None:
    """The tally of the ballots cast this episode, against the tokens in hand now."""
    table = campaign.table
    ballots = episode_ballots(drama_of(campaign), campaign.timeline.episode)
    if not table.players:
        return None
    return tally_bennie_vote(referee, players=table.players, gm=table.gm, ballots=ballots.values(),
                             tokens_in_hand=campaign.rules.economy.tokens)


def vote_tallied(campaign: YarnCampaign, referee: Referee, recorded: Payload | None = None) -> BennieVoteTallied | None:
    """The result of the vote, or ``None`` with no players or (by the GM's override) no ballots at all."""
    vote = current_vote(campaign, referee)
    table = campaign.table
    episode = campaign.timeline.episode
    voters = set(episode_ballots(drama_of(campaign), episode))
    if vote is None or episode is None or not voters:
        return None
    return BennieVoteTallied(
        episode=episode, tallies=[TallyLine.of(t) for t in vote.tallies],
        missing=sorted({*table.players, table.gm} - voters),
        transfers=[TransferLine.of(Transfer(1, KITTY, gain.player, gain.rule), BENNIE) for gain in vote.gains()],
    )


def end_episode(campaign: YarnCampaign, referee: Referee) -> list[Payload]:
    """The scene in play closes, then the bennie result, every unspent drama token back to the
    kitty, and the episode's end: the vote belongs to the session, not to its last scene."""
    timeline = campaign.timeline
    episode = present(timeline.episode, "no episode is in play")
    result = vote_tallied(campaign, referee)
    returned = return_to_kitty(campaign.rules.economy, episode)
    *closing_scene, episode_ended = present(decide_timeline(EndEpisode(), timeline), "no episode is in play")
    assert isinstance(episode_ended, EpisodeEnded)  # the journal's EndEpisode ends with the episode's end
    before_end = [*closing_scene, *(p for p in (result, returned) if p is not None)]
    return [*before_end, validate_episode_end(episode_ended, advance(campaign, before_end), referee)]


def decide(command: object, campaign: YarnCampaign, referee: Referee) -> list[Payload] | None:
    if isinstance(command, CastBallot):
        invalid(len(set(command.ranking)) == len(command.ranking), "a ballot ranks each player once")
        ranks = {player: rank for rank, player in enumerate(command.ranking, start=1)}
        return [ballot_cast(campaign, referee, voter=command.voter, ranks=ranks)]
    if isinstance(command, EndEpisode):
        return end_episode(campaign, referee)
    return None


# -- folding, validating, projections -----------------------------------------------------------


FOLDS = folds(BallotCast, BennieVoteTallied)


def evolve(drama: Drama, recorded: Recorded, yarn: YarnState) -> Drama:
    p = recorded.payload
    if isinstance(p, BallotCast):
        cast = drama.ballots.get(p.episode, pmap()).set(p.voter, Ballot(p.voter, dict(p.ranks)))
        return replace(drama, ballots=drama.ballots.set(p.episode, cast))
    if isinstance(p, BennieVoteTallied):
        return replace(drama, tallies=drama.tallies.set(p.episode, p))
    return drama


def validate_episode_end(p: EpisodeEnded, campaign: YarnCampaign, referee: Referee) -> EpisodeEnded:
    """The journal's episode end, once the bennie vote is tallied and the drama tokens are back."""
    checked = check_timeline(p, campaign.timeline)
    assert isinstance(checked, EpisodeEnded)  # check_timeline gives back the payload it checks, numbered
    p = checked
    referee.require(not campaign.table.players or p.number in drama_of(campaign).tallies, ALL_VOTE,
                    f"episode {p.number} ended without the bennie vote")
    referee.require(not campaign.rules.economy.tokens, EPISODE_END,
                    f"drama tokens were still held when episode {p.number} ended")
    return p


def _recast(campaign: YarnCampaign, referee: Referee, q: BallotCast) -> BallotCast:
    """The recorded ballot cast again from its own facts."""
    return ballot_cast(campaign, referee, voter=q.voter, ranks=dict(q.ranks))


VALIDATORS: Mapping[type[Payload], Validator[Any]] = {
    BallotCast: rebuilt(_recast),
    BennieVoteTallied: rebuilt(vote_tallied),
    EpisodeEnded: validate_episode_end,
}


def ballots_view(campaign: YarnCampaign) -> dict[str, Any]:
    """Who has voted this episode and who has not (the ballots themselves are the GM's to read)."""
    table = campaign.table
    episode = campaign.timeline.episode
    voters = sorted(episode_ballots(drama_of(campaign), episode))
    return {"episode": episode, "voted": voters,
            "missing": sorted({*table.players, table.gm} - set(voters)) if episode is not None else []}
