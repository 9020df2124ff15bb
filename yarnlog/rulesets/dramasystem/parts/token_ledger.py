"""The procedural-token ledger and board: every spend and refresh, why, and each pile after it.

"When you spend a token, set it aside. The others remain unspent. When you've spent all three of
them, they immediately refresh." (SRD 423.) Each line of the ledger is one token of one
participant, tied to its event number, its scene and the rule that moved it
(:mod:`yarnlog.rulesets.dramasystem.rules.token_causes`), with the pile after it: a spend that
empties a pile is followed by its refresh on a line of its own (DS31). In the GM's view the token
she set aside in secret for a simple resolution is a line too ("set aside", SRD 445), at the event
that recorded it; a player's view is built from what that player may see, so it has no such line,
and while a resolution may be open it leaves the GM's piles out (:mod:`.player_views`).

When the state also keeps drama tokens and bennies (:mod:`.drama_holdings`), their movements are
lines of the same ledger and their holdings columns of the same board.

Pure functions of a replayed campaign and the history it was replayed from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from yarnlog.core.corrections import effective
from yarnlog.core.events import Recorded
from yarnlog.rulesets.dramasystem.parts.advanced_procedure import Redrawn
from yarnlog.rulesets.dramasystem.parts.card_procedure import OppositionSet
from yarnlog.rulesets.dramasystem.parts.contests import GM_SIDE, ContestStarted
from yarnlog.rulesets.dramasystem.parts.drama_holdings import drama_holdings, drama_movements
from yarnlog.rulesets.dramasystem.parts.player_views import HIDDEN, gm_pile_hidden
from yarnlog.rulesets.dramasystem.parts.procedural_piles import PileLine
from yarnlog.rulesets.dramasystem.rules.advanced_resolution import RedrawMeans
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import ALL_COLOURS, Colour
from yarnlog.rulesets.dramasystem.rules.token_causes import REASONS, Cause
from yarnlog.rulesets.dramasystem.state import DramaSystemCampaign
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TokensTransferred

#: How the ledger names a movement of tokens or bennies the GM ruled.
GM_RULING = "GM ruling"

#: The cause of a spend by the event type that recorded it (those that need the payload are below).
_CAUSE_OF_EVENT = {
    "dramasystem.procedure.played": Cause.SIMPLE_PLAYER,
    "dramasystem.procedure.resolved": Cause.SIMPLE_GM,
    "dramasystem.procedure.opposed": Cause.SIMPLE_GM,
    "dramasystem.advanced.opened": Cause.ADVANCED_GM,
    "dramasystem.contest.assisted": Cause.ASSIST,
    "dramasystem.contest.redrew": Cause.INTERFERE,
}


def cause_of(recorded: Recorded | None, event_type: str, participant: str, gm: str) -> Cause:
    """Why ``participant`` spent a token in the event ``recorded`` (of ``event_type``)."""
    payload = recorded.payload if recorded is not None else None
    if isinstance(payload, Redrawn):
        return Cause.ABSENT_GREEN if payload.means is RedrawMeans.ABSENT_GREEN else Cause.ADVANCED_REDRAW
    if isinstance(payload, ContestStarted):
        if payload.second == GM_SIDE and participant == gm:
            return Cause.SOLO_GM
        return Cause.ADVANCED_CONTEST if payload.advanced else Cause.CONTEST
    if event_type in _CAUSE_OF_EVENT:
        return _CAUSE_OF_EVENT[event_type]
    # The calling cost is recorded with the call by the shared core (SRD 441, 792).
    if event_type.endswith(("scene.opened", "scene.called")):
        return Cause.CALLING
    return Cause.OTHER


def _colours(unspent: frozenset[Colour]) -> list[str]:
    return [c.value for c in Colour if c in unspent]


def _line(sequence: int, episode: int | None, scene: int | None, participant: str, move: str, colour: str | None,
          cause: Cause, unspent_after: list[str] | None, event_type: str, **more: Any) -> dict[str, Any]:
    reason = REASONS[cause]
    return {"sequence": sequence, "episode": episode, "scene": scene, "participant": participant,
            "currency": "procedural", "move": move, "colour": colour, "cause": cause.value,
            "rule_number": reason.number, "chapter": reason.rule.chapter, "rule": reason.rule.text,
            "unspent_after": unspent_after, "event_type": event_type, **more}


def token_ledger(campaign: DramaSystemCampaign, history: Sequence[Recorded], *, viewer: str | None = None,
                 participant: str | None = None, scene: int | None = None, episode: int | None = None,
                 hide_gm: bool | None = None) -> list[dict[str, Any]]:
    """Every procedural-token line (and drama-token movement, if kept) of ``campaign``, oldest first.

    ``campaign`` is the replay of ``history`` as ``viewer`` may see it (:mod:`.player_views`);
    ``participant``, ``scene`` and ``episode`` keep only their lines. ``hide_gm`` (default: whether
    a resolution may be open in ``campaign``, for a player's view) leaves the GM's piles out.
    """
    by_sequence = {r.sequence: r for r in effective(history)}
    gm = campaign.table.gm
    if hide_gm is None:
        hide_gm = gm_pile_hidden(campaign, viewer)
    lines: list[dict[str, Any]] = []
    piles = campaign.rules.piles
    for spend in piles.ledger:
        lines += _spend_lines(spend, by_sequence.get(spend.sequence), gm, hide_gm)
    lines += _held_lines(campaign, by_sequence.values())
    for move in drama_movements(campaign, by_sequence.values()):
        lines.append({**move, "participant": None, "move": "moved", "colour": None, "cause": None,
                      "rule_number": None, "unspent_after": None, **_ruling(by_sequence.get(move["sequence"]))})
    lines.sort(key=lambda line: line["sequence"])  # stable: an event's lines keep their order

    def kept(line: dict[str, Any]) -> bool:
        if participant is not None and participant not in (line["participant"], line.get("source"),
                                                            line.get("destination")):
            return False
        return (scene is None or line["scene"] == scene) and (episode is None or line["episode"] == episode)

    return [line for line in lines if kept(line)]


def _ruling(recorded: Recorded | None) -> dict[str, Any]:
    """A movement the GM ruled (``ruling tokens``): named "GM ruling" in the ledger, with her reason."""
    if recorded is None or not isinstance(recorded.payload, TokensTransferred):
        return {}
    return {"rule_number": GM_RULING, "reason": recorded.payload.reason}


def _spend_lines(spend: PileLine, recorded: Recorded | None, gm: str, hide_gm: bool) -> list[dict[str, Any]]:
    """A spend, and the refresh it brought when it was the pile's last token (DS31)."""
    episode = recorded.episode if recorded is not None else None
    hidden = hide_gm and spend.participant == gm
    cause = cause_of(recorded, spend.event_type, spend.participant, gm)
    after = None if hidden else [] if spend.refreshed else _colours(spend.unspent_after)
    move = "returned" if spend.restored else "spent"  # a bennie's procedural token comes back (DS76)
    lines = [_line(spend.sequence, episode, spend.scene, spend.participant, move, spend.colour.value, cause,
                   after, spend.event_type)]
    if spend.refreshed:
        lines.append(_line(spend.sequence, episode, spend.scene, spend.participant, "refreshed", None,
                           Cause.REFRESH, None if hidden else _colours(ALL_COLOURS), spend.event_type))
    return lines


def _held_lines(campaign: DramaSystemCampaign, seen: Any) -> list[dict[str, Any]]:
    """The GM's secret token set aside for a resolution: in her view only, since only she sees its event."""
    lines = []
    for rec in seen:
        if isinstance(rec.payload, OppositionSet):
            p = rec.payload
            lines.append(_line(rec.sequence, rec.episode, p.scene, p.gm, "set aside", p.token.value, Cause.SIMPLE_GM,
                               None, rec.event_type, note="spent in secret; it leaves her pile when revealed"))
    return lines


def token_board(campaign: DramaSystemCampaign, *, viewer: str | None = None,
                hide_gm: bool | None = None) -> dict[str, Any]:
    """Every participant's procedural pile (unspent, spent, and for the GM what she set aside), with
    drama tokens and bennies when the state keeps them. ``hide_gm`` (default: whether a resolution
    may be open in ``campaign``, for a player's view) leaves the GM's pile out."""
    piles = campaign.rules.piles
    table = campaign.table
    if hide_gm is None:
        hide_gm = gm_pile_hidden(campaign, viewer)
    drama = drama_holdings(campaign)
    held = {colour.value for who, colour in piles.held.values() if who == table.gm}
    rows = []
    for name in [table.gm, *table.players]:
        pile = piles.pile(name)
        gm = table.is_gm(name)
        row: dict[str, Any] = {"name": name, "gm": gm, "character": campaign.rules.sheets.of_player.get(name)}
        if gm and hide_gm:
            row.update(unspent=None, spent=None, set_aside=None, hidden=HIDDEN)
        else:
            row.update(unspent=_colours(pile.unspent), spent=_colours(pile.spent),
                       set_aside=sorted(held) if gm else [], hidden=None)
        if drama is not None:
            row.update(drama.get(name, {"drama_tokens": 0, "bennies": 0}))
        rows.append(row)
    return {"as_of": campaign.sequence, "episode": campaign.timeline.episode, "viewer": viewer,
            "drama": drama is not None, "participants": rows}
