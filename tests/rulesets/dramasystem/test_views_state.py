"""The read views over a replayed DramaSystem campaign: drama tokens shown when the state keeps them,
the GM's pile hidden from players while a resolution may be open, each spend's rule."""

from __future__ import annotations

from dataclasses import replace

from yarnlog.core.events import Recorded, payload_class
from yarnlog.core.state import GM_ONLY
from yarnlog.core.timeline import OpenScene
from yarnlog.rulesets.dramasystem.parts.card_procedure import DrawTarget, Oppose, PlayCards
from yarnlog.rulesets.dramasystem.parts.player_views import campaign_seen_by, gm_pile_hidden, resolution_pending
from yarnlog.rulesets.dramasystem.parts.printable_sheet import printable_sheet
from yarnlog.rulesets.dramasystem.parts.token_ledger import token_board, token_ledger
from yarnlog.rulesets.scenes_and_tokens.parts.economy import Economy, TransferLine

from .storm_table import CAMPAIGN, _played_scene, _procedural_scene


def _with_drama(campaign, economy: Economy):
    """``campaign`` with ``economy`` as its drama tokens and bennies (the shared core's slice)."""
    return replace(campaign, rules=replace(campaign.rules, economy=economy))


def test_drama_tokens_and_bennies_are_shown_beside_the_procedural_piles(journal):
    _played_scene(journal)
    campaign = journal.state(CAMPAIGN)
    plain = token_board(campaign)
    assert plain["drama"] is True and plain["participants"][0]["drama_tokens"] == 0  # the shared core's economy
    assert all(line["currency"] == "procedural" for line in token_ledger(campaign, journal.history(CAMPAIGN)))
    # "Everyone, including the GM, starts each episode with no drama tokens." (SRD 273)
    # A movement is read from the event that carries it, as Yarn's ledger reads it.
    history = journal.history(CAMPAIGN)
    moved = Recorded(campaign_id=CAMPAIGN, sequence=history[-1].sequence + 1, event_id="moved",
                     event_type="dramasystem.tokens.transferred", schema_version=1, recorded_at="", recorded_by="Maya",
                     visibility="everyone", episode=1, scene=1,
                     payload=payload_class("dramasystem.tokens.transferred")(reason="a ruling", transfers=[TransferLine(
                         amount=1, source="kitty", destination="Ana", chapter="Gaining Tokens",
                         rule="the petitioner gains a token")]))
    economy = Economy(tokens={"Ana": 1}, bennies={"Ben": 1})
    with_drama = _with_drama(campaign, economy)
    board = {p["name"]: p for p in token_board(with_drama)["participants"]}
    assert token_board(with_drama)["drama"] is True
    assert (board["Ana"]["drama_tokens"], board["Ben"]["bennies"], board["Maya"]["drama_tokens"]) == (1, 1, 0)
    assert board["Ana"]["unspent"] == plain["participants"][1]["unspent"]  # the procedural pile beside them
    lines = token_ledger(with_drama, [*history, moved], participant="Ana")
    assert [(line["currency"], line["sequence"]) for line in lines][-1] == ("drama", moved.sequence)
    sheet = printable_sheet(with_drama, "Iris")
    assert (sheet["drama_tokens"], sheet["bennies"]) == (1, 0)
    assert printable_sheet(campaign, "Iris")["drama_tokens"] == 0


def test_the_gm_s_pile_is_hidden_from_players_from_the_call_of_a_procedural_scene_to_its_resolution(journal):
    table = journal.state(CAMPAIGN).table
    _procedural_scene(journal)
    # Before the GM spends (or when a player's replay cannot know she has), a resolution may be coming.
    assert resolution_pending(journal.state(CAMPAIGN))
    journal.execute(CAMPAIGN, Oppose("green"), visibility=GM_ONLY)
    journal.execute(CAMPAIGN, DrawTarget("KC", ("Ana", "Ben", "Cy")))
    journal.execute(CAMPAIGN, PlayCards("Ana", "yellow", ("5D",)))
    history = journal.history(CAMPAIGN)
    ana = campaign_seen_by(history, table, "Ana")
    assert not ana.rules.procedure.secret and gm_pile_hidden(ana, "Ana") and not gm_pile_hidden(ana, None)
    maya = next(p for p in token_board(ana, viewer="Ana")["participants"] if p["gm"])
    assert maya["unspent"] is None and maya["hidden"]
    gm = next(p for p in token_board(journal.state(CAMPAIGN))["participants"] if p["gm"])
    assert gm["set_aside"] == ["green"]


def test_a_dramatic_scene_hides_nothing(journal):
    journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Iris",), mode="dramatic"))
    campaign = journal.state(CAMPAIGN)
    assert not resolution_pending(campaign)
    maya = next(p for p in token_board(campaign, viewer="Ana")["participants"] if p["gm"])
    assert maya["unspent"] == ["green", "yellow", "red"]
