"""Each participant's drama tokens through one episode, scene by scene, for pictures (Yarn 0.1,
"Tokens": "Everyone starts each episode with zero tokens", and the exchanges that move them).

:func:`token_series` reads the ledger (:func:`~yarnlog.rulesets.scenes_and_tokens.parts.economy.ledger_entries`
of the events the state was folded from), whose every line carries the (episode, scene) it was
recorded in, and the scenes the drama part called. The balance "after scene N" is what
``yarnlog tokens --end-of-scene N`` shows: every movement up to the last event of scene N. A
movement recorded between two scenes (a GM's ruling, say) counts after the scene that follows
it has opened; the end-of-episode return to the kitty comes after the last scene, so the series
shows what each participant held when the closer ended, before the tokens go back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from yarnlog.core.charts import TokenLine, TokenSeries
from yarnlog.rulesets.scenes_and_tokens.parts.economy import DRAMA, KITTY_NAME, LedgerEntry
from yarnlog.rulesets.yarn.parts.characters.players import characters_of, player_character
from yarnlog.rulesets.yarn.state import YarnCampaign


def _counts_by_end_of(entry: LedgerEntry, scene: int, opened_at: int) -> bool:
    """Whether the movement ``entry`` is in the balances at the end of ``scene`` (opened at ``opened_at``)."""
    if entry.scene is not None:
        return entry.scene <= scene  # scenes are numbered in the order they are played
    return entry.sequence < opened_at  # outside any scene: only what came before this one opened


def token_series(campaign: YarnCampaign, episode: int, ledger: Iterable[LedgerEntry],
                 opening: Mapping[str, int] | None = None, head: YarnCampaign | None = None) -> TokenSeries:
    """Every participant's drama tokens at the start of ``episode`` and after each of its scenes.

    ``campaign`` is the state replayed to the episode's end or later (``journal.state(cid)``), and
    ``ledger`` the ledger of the events it was folded from (``ledger_entries``): corrections and
    retractions recorded by then apply. Participants are the players and the GM
    (whose pool holds the recurring characters' tokens), then anyone else the episode's ledger
    names, alphabetically; the order is the order of :attr:`TokenSeries.lines`. ``opening``: the drama
    tokens held before the first movement of ``ledger`` when it does not start at the campaign's start;
    ``head``: the campaign later on, whose table and characters name the participants (``campaign``'s by default).
    """
    opening = opening or {}
    drama = campaign.rules.drama
    calls = sorted((n, c) for n, c in drama.scenes.items() if c.episode == episode)
    scenes = tuple(n for n, _ in calls)
    drama_moves = [e for e in ledger if e.currency == DRAMA]
    # The start: everything recorded before the episode's first scene opened (or, with no scene
    # yet, before the episode's own ledger lines).
    first = calls[0][1].opened_at if calls else min(
        (e.sequence for e in drama_moves if e.episode == episode), default=campaign.sequence + 1)
    points = [[e for e in drama_moves if e.sequence < first]]
    points += [[e for e in drama_moves if _counts_by_end_of(e, number, call.opened_at)] for number, call in calls]
    table = (head or campaign).table
    names = [*table.players, table.gm]
    names += sorted({n for e in drama_moves if e.episode == episode for n in (e.source, e.destination)}
                    - set(names) - {KITTY_NAME})
    characters = characters_of(head or campaign)
    lines = tuple(
        TokenLine(participant=name, character=None if table.is_gm(name) else player_character(characters, name),
                  balances=tuple(opening.get(name, 0) + _held(name, moves) for moves in points))
        for name in names
    )
    return TokenSeries(episode=episode, scenes=scenes, lines=lines)


def _held(name: str, moves: list[LedgerEntry]) -> int:
    return sum(e.amount for e in moves if e.destination == name) - sum(e.amount for e in moves if e.source == name)
