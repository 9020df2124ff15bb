"""What the table holds, and why: drama tokens, the GM's pool, the kitty's flows, bennies, and the
ledger line by line with running balances (Yarn 0.1, "Tokens", "Drama with Recurring
Characters", "Bennies").

Pure projections of a replayed campaign; compute them at any point with ``journal.state(cid, upto=N)``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from yarnlog.core.referee import Referee, Rule
from yarnlog.core.views import LIST, Update, ViewPieces
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote import BennieVoteTallied, TallyLine, tallied, tally_data
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import drama_of
from yarnlog.rulesets.scenes_and_tokens.parts.economy import BENNIE, DRAMA, KITTY_NAME, Economy, LedgerEntry
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import KITTY, KittyFlow, Transfer, balances
from yarnlog.rulesets.yarn.parts.characters.players import characters_of, player_character
from yarnlog.rulesets.yarn.parts.drama.bennie_vote import current_vote, vote_tallied
from yarnlog.rulesets.yarn.state import YarnCampaign


@dataclass(frozen=True)
class LedgerLine:
    """A ledger entry and what its two parties held of that currency right after it."""

    entry: LedgerEntry
    balances_after: dict[str, int]

    def to_data(self) -> dict:
        return {**self.entry.to_data(), "balances_after": self.balances_after}


def _transfer(entry: LedgerEntry) -> Transfer:
    account = {KITTY_NAME: KITTY}
    return Transfer(entry.amount, account.get(entry.source, entry.source),
                    account.get(entry.destination, entry.destination), Rule("Yarn 0.1", entry.chapter, entry.rule))


def ledger_lines(economy: Economy, *, episode: int | None = None, scene: int | None = None,
                 participant: str | None = None, currency: str | None = None) -> list[LedgerLine]:
    """The ledger, filtered, each line with its parties' running balances over the whole journal."""
    running: dict[str, dict[str, int]] = {DRAMA: {}, BENNIE: {}}
    out = []
    for entry in economy.ledger:
        running[entry.currency] = balances((_transfer(entry),), running[entry.currency])
        if ((episode is None or entry.episode == episode) and (scene is None or entry.scene == scene)
                and (participant is None or participant in (entry.source, entry.destination))
                and (currency is None or entry.currency == currency)):
            parties = [n for n in (entry.source, entry.destination) if n != KITTY_NAME]
            out.append(LedgerLine(entry, {n: running[entry.currency].get(n, 0) for n in parties}))
    return out


def token_report(campaign: YarnCampaign) -> dict:
    """Drama tokens and bennies held by each participant, the GM's pool, and the kitty's flows this episode."""
    economy = campaign.rules.economy
    table = campaign.table
    timeline = campaign.timeline
    episode = timeline.episode or (timeline.episodes[-1] if timeline.episodes else None)
    characters = characters_of(campaign)
    names = [*table.players, table.gm]
    names += sorted((set(economy.tokens) | set(economy.bennies)) - set(names))
    flow = economy.kitty.get(episode, KittyFlow(0, 0))
    recurring = sorted(characters.cast.recurring) if characters else []  # indexed: no scan of the cast
    return {
        "as_of": campaign.sequence,
        "episode": episode,
        "episode_in_play": timeline.episode is not None,
        "participants": [
            {"name": n, "role": "gm" if table.is_gm(n) else "player",
             "character": player_character(characters, n), "drama_tokens": economy.tokens.get(n, 0),
             "bennies": economy.bennies.get(n, 0)}
            for n in names
        ],
        "gm_pool": {"gm": table.gm, "drama_tokens": economy.tokens.get(table.gm, 0), "recurring": recurring},
        "kitty": {"episode": episode, "paid_out": flow.paid_out, "taken_in": flow.taken_in,
                  "net_paid_out": flow.net_paid_out},
    }


def _spend_data(spend) -> dict:
    return {"spender": spend.spender, "option": spend.option.name.lower(), "scene": spend.scene}


def _bennies_head(campaign: YarnCampaign) -> dict:
    economy = campaign.rules.economy
    return {"as_of": campaign.sequence, "held": {p: economy.bennies.get(p, 0) for p in campaign.table.players}}


def bennie_report(campaign: YarnCampaign) -> dict:
    """Bennies held and spent, and each episode's recorded vote with its arithmetic."""
    drama = drama_of(campaign)
    return {
        **_bennies_head(campaign),
        "spent": [_spend_data(s) for s in drama.bennie_spends],
        "results": tallied(drama),
    }


def episode_of_play(campaign: YarnCampaign) -> int | None:
    """The episode in play, else the last one played (``None`` before the first)."""
    timeline = campaign.timeline
    return timeline.episode or (timeline.episodes[-1] if timeline.episodes else None)


def episode_spends(campaign: YarnCampaign) -> list[dict]:
    """The bennies spent in the episode in play (else the last one played), as :func:`bennie_report`
    lists them. Bennies are spent in scenes ("You may spend only one bennie per scene") and an
    episode's scenes follow the last one's, so its spends are the last ones: read from the end, as
    many as the episode holds, however long the campaign."""
    episode, of_scene = episode_of_play(campaign), campaign.timeline.scene_episode
    spends = drama_of(campaign).bennie_spends
    mine = []
    for i in range(len(spends) - 1, -1, -1):
        if of_scene.get(spends[i].scene) != episode:
            break
        mine.append(_spend_data(spends[i]))
    return mine[::-1]


def bennie_pieces(campaign: YarnCampaign, mark: dict | None) -> Update:
    """:func:`bennie_report` in pieces (:mod:`yarnlog.core.views`): each spend by its place in the
    order spent, each episode's vote by the episode's number. Spends are only added after the last,
    and a vote is recorded once, in its episode, so since ``mark`` only the spends after its count
    and, once a vote was recorded, the votes of the episodes from the one then in play (or last) on
    may have changed."""
    drama = drama_of(campaign)
    spends, tallies = drama.bennie_spends, drama.tallies
    timeline = campaign.timeline
    episode = timeline.episode or (timeline.episodes[-1] if timeline.episodes else 0)
    episodes: Iterable[int]
    if mark is None:
        counted, episodes = 0, sorted(tallies)
    else:
        voted = len(tallies) != mark["votes"]
        counted, episodes = mark["spends"], range(mark["episode"], episode + 1) if voted else ()
    pieces: dict = {("spent", i): _spend_data(spends[i]) if i < len(spends) else None
                    for i in range(min(counted, len(spends)), max(counted, len(spends)))}
    pieces.update({("results", e): json.loads(tallies[e]) if e in tallies else None for e in episodes})
    return Update(_bennies_head(campaign), {"spends": len(spends), "votes": len(tallies), "episode": episode}, pieces)


BENNIE_PIECES = ViewPieces(bennie_pieces, (("spent", LIST), ("results", LIST)))


def provisional_tally(campaign: YarnCampaign) -> dict | None:
    """The vote as it stands in the episode in play: the ballots so far, the tokens in hand now."""
    if campaign.timeline.episode is None:
        return None
    referee = Referee.collecting()  # ballots still missing are reported, not refused
    vote = current_vote(campaign, referee)
    if vote is None:
        return None
    return {"episode": campaign.timeline.episode, "tallies": [TallyLine.of(t).model_dump() for t in vote.tallies],
            "not_yet": [message for _, message in referee.broken]}


def tallied_votes(history) -> list:
    """The recorded bennie votes of a history (by payload type), each to be recounted from the
    state before it (:func:`recount`)."""
    return [r for r in history if isinstance(r.payload, BennieVoteTallied)]


def recount(campaign_before, recorded: BennieVoteTallied) -> dict:
    """The recorded result of a vote against the same tally done again from the ballots.

    ``set_aside`` lists the rules a GM override let the vote go without (missing ballots).
    """
    referee = Referee.collecting()
    rebuilt = vote_tallied(campaign_before, referee)
    return {**tally_data(recorded), "agrees": rebuilt == recorded,
            "recomputed": tally_data(rebuilt) if rebuilt is not None else None,
            "set_aside": [message for _, message in referee.broken]}
