"""DramaSystem in the journal: characters with action types, procedural tokens and simple card
resolution recorded step by step, replayed, seen by each audience and re-checked by ``verify``."""

from __future__ import annotations

import random

import pytest

from yarnlog.app.journal import Journal
from yarnlog.app.rolling import execute_rolling
from yarnlog.app.verify import verify
from yarnlog.core.referee import InvalidCommand, Referee, RuleViolation
from yarnlog.core.state import EVERYONE, GM_ONLY, replay, visible_to
from yarnlog.core.table import AddParticipant
from yarnlog.core.timeline import CloseScene, EndEpisode, OpenScene, StartEpisode
from yarnlog.persistence.memory import MemoryStore
from yarnlog.rulesets.dramasystem.parts.card_procedure import (
    DrawTarget,
    Oppose,
    PlayCards,
    ProcedureResolved,
    Resolve,
    validate_resolved,
)
from yarnlog.rulesets.dramasystem.parts.sheets import CreateCharacter
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote import CastBallot

from .storm_table import CAMPAIGN, _grades, _played_scene, _procedural_scene


def test_a_character_needs_the_books_layout_of_grades(journal):
    # SRD 121: two Strong, two Weak, the rest Middling.
    journal.execute(CAMPAIGN, AddParticipant(name="Di"))
    with pytest.raises(RuleViolation, match="3 Strong and 2 Weak"):
        journal.execute(CAMPAIGN, CreateCharacter("Dee", "Di", _grades(("Fighting", "Talking", "Moving"),
                                                                          ("Knowing", "Making"))))
    with pytest.raises(InvalidCommand, match="Ana already plays Iris"):
        journal.execute(CAMPAIGN, CreateCharacter("Dee", "Ana", _grades(("Fighting", "Talking"),
                                                                          ("Knowing", "Making"))))


def test_everyone_starts_with_three_procedural_tokens_the_gm_included(journal):
    # SRD 423: "Each player, and the GM, starts the first session with three procedural tokens".
    piles = journal.state(CAMPAIGN).rules.piles
    assert set(piles.piles) == {"Maya", "Ana", "Ben", "Cy"}
    assert all(len(p.unspent) == 3 for p in piles.piles.values())


def test_a_simple_resolution_step_by_step(journal):
    resolved = _played_scene(journal)
    p = resolved.payload
    assert isinstance(p, ProcedureResolved)
    # Ben's 2♠ (a colour match) was knocked out after his red draw; Ana's 3♣ matches the suit,
    # which a yellow (Middling) opposition needs (SRD 486-512); her Q♥ drawn with green is an advantage.
    assert (p.gm_token, p.success, p.best.value, p.needed.value) == (Colour.YELLOW, True, "suit", "suit")
    assert [(c.player, c.card, c.kind) for c in p.consequences] == [("Ana", "QH", "advantage")]
    piles = journal.state(CAMPAIGN).rules.piles
    assert piles.pile("Maya").unspent == {Colour.GREEN, Colour.RED}
    assert piles.pile("Ben").unspent == {Colour.GREEN, Colour.YELLOW}
    assert piles.pile("Ana").unspent == {Colour.YELLOW, Colour.RED}
    assert [(line.participant, line.colour) for line in piles.ledger] == [
        ("Ben", Colour.RED), ("Ana", Colour.GREEN), ("Maya", Colour.YELLOW)]
    assert verify(journal.stored_events(CAMPAIGN), CAMPAIGN).ok


def test_the_gms_token_is_seen_by_the_gm_alone_until_it_is_revealed(journal):
    _procedural_scene(journal)
    [opposed] = journal.execute(CAMPAIGN, Oppose("green"), visibility=GM_ONLY)
    journal.execute(CAMPAIGN, DrawTarget("KC", ("Ana", "Ben", "Cy")))
    table = journal.state(CAMPAIGN).table
    assert visible_to(opposed, "Maya", table) and not visible_to(opposed, "Ana", table)
    seen_by_ana = [r for r in journal.history(CAMPAIGN) if visible_to(r, "Ana", table)]
    # Ana's own replay holds no secret token and still counts the GM's three tokens as unspent.
    state = replay(seen_by_ana)
    assert state.rules.procedure.secret == {} and len(state.rules.piles.pile("Maya").unspent) == 3


def test_recording_the_gms_token_for_everyone_is_a_fault(journal):
    _procedural_scene(journal)
    journal.execute(CAMPAIGN, Oppose("green"), visibility=EVERYONE)
    report = verify(journal.stored_events(CAMPAIGN), CAMPAIGN)
    assert [f.problem for f in report.faults] == [
        "the GM's token for a resolution is secret: it must be recorded for the GM only"]


def test_one_resolution_a_scene_and_only_in_procedural_scenes(journal):
    _played_scene(journal)
    with pytest.raises(RuleViolation, match="already had its procedural resolution"):
        journal.execute(CAMPAIGN, Oppose("red"), visibility=GM_ONLY)
    journal.execute(CAMPAIGN, CloseScene())
    journal.execute(CAMPAIGN, OpenScene(caller="Ben", cast=("Tomas",), mode="dramatic"))
    with pytest.raises(RuleViolation, match="not a procedural scene"):
        journal.execute(CAMPAIGN, Oppose("red"), visibility=GM_ONLY)


def test_present_players_must_draw_before_the_reveal(journal):
    _procedural_scene(journal)
    journal.execute(CAMPAIGN, Oppose("yellow"), visibility=GM_ONLY)
    journal.execute(CAMPAIGN, DrawTarget("KC", ("Ana", "Ben", "Cy")))
    journal.execute(CAMPAIGN, PlayCards("Ana", "yellow", ("2C",)))
    before = journal.store.last_sequence(CAMPAIGN)
    with pytest.raises(RuleViolation, match="Ben must still spend"):
        journal.execute(CAMPAIGN, Resolve())
    with pytest.raises(RuleViolation, match="Ben's character is present: Ben must spend"):
        journal.execute(CAMPAIGN, PlayCards("Ben", None))
    assert journal.store.last_sequence(CAMPAIGN) == before


def test_the_tool_draws_the_order_and_the_cards_from_those_left_once(journal):
    _procedural_scene(journal)
    journal.execute(CAMPAIGN, Oppose("red"), visibility=GM_ONLY)
    rng = random.Random(7)
    [target] = execute_rolling(journal, CAMPAIGN, DrawTarget(), rng=rng)
    assert target.payload.order_drawn_by_tool and target.payload.card_drawn_by_tool
    assert sorted(target.payload.order) == ["Ana", "Ben", "Cy"]
    for player in target.payload.order:
        token = "green" if player != "Cy" else None
        [played] = execute_rolling(journal, CAMPAIGN, PlayCards(player, token), rng=rng)
        assert played.payload.drawn_by_tool == (token is not None)
        assert target.payload.target not in played.payload.cards
    cards = [c for r in journal.history(CAMPAIGN) if r.event_type == "dramasystem.procedure.played"
             for c in r.payload.cards]
    assert len(cards) == len(set(cards)) == 4
    journal.execute(CAMPAIGN, Resolve())
    assert verify(journal.stored_events(CAMPAIGN), CAMPAIGN).ok


def test_three_spends_refresh_and_the_pile_carries_over_to_the_next_episode(journal):
    # SRD 423 (immediate refresh) and 425 ("It does not refresh between sessions.").
    _played_scene(journal)  # Ana spends green
    for voter, ranking in (("Maya", ("Ana", "Ben", "Cy")), ("Ana", ("Ben", "Cy")), ("Ben", ("Ana", "Cy")),
                           ("Cy", ("Ana", "Ben"))):  # the bennie vote ends the episode (DS73)
        journal.execute(CAMPAIGN, CastBallot(voter, ranking))
    journal.execute(CAMPAIGN, EndEpisode())
    journal.execute(CAMPAIGN, StartEpisode(title="Rain", theme="debt"))
    assert journal.state(CAMPAIGN).rules.piles.pile("Ana").unspent == {Colour.YELLOW, Colour.RED}
    for token, cards in (("yellow", ("5H",)), ("red", ("6H",))):
        journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Iris",), mode="procedural"))
        journal.execute(CAMPAIGN, Oppose("red" if token == "yellow" else "green"), visibility=GM_ONLY)
        journal.execute(CAMPAIGN, DrawTarget("KC", ("Ana", "Ben", "Cy")))
        [played] = journal.execute(CAMPAIGN, PlayCards("Ana", token, cards))
        journal.execute(CAMPAIGN, PlayCards("Ben", None))
        journal.execute(CAMPAIGN, PlayCards("Cy", None))
        journal.execute(CAMPAIGN, Resolve())
        journal.execute(CAMPAIGN, CloseScene())
    assert played.payload.procedural_spends[0].refreshed
    assert len(journal.state(CAMPAIGN).rules.piles.pile("Ana").unspent) == 3
    assert verify(journal.stored_events(CAMPAIGN), CAMPAIGN).ok


def test_a_forged_result_is_named_by_verify(journal):
    _procedural_scene(journal)
    journal.execute(CAMPAIGN, Oppose("green"), visibility=GM_ONLY)
    journal.execute(CAMPAIGN, DrawTarget("KC", ("Ana", "Ben", "Cy")))
    journal.execute(CAMPAIGN, PlayCards("Ana", "yellow", ("2C",)))
    journal.execute(CAMPAIGN, PlayCards("Ben", "yellow", ("3H",)))
    state = journal.state(CAMPAIGN)
    honest = ProcedureResolved(scene=1, gm="Maya", gm_token=Colour.GREEN)
    derived = validate_resolved(honest, state, Referee())
    assert derived.success is False  # a suit match is not enough against green
    forged = derived.model_copy(update={"success": True})
    journal.commands.append(CAMPAIGN, journal.store.last_sequence(CAMPAIGN), [forged], by="Maya", visibility=EVERYONE)
    report = verify(journal.stored_events(CAMPAIGN), CAMPAIGN)
    assert [f.problem for f in report.faults] == ["success is recorded as True but the rules give False"]


def test_a_snapshot_of_a_resolution_in_progress_reads_back_as_the_replay():
    store = MemoryStore()
    journal = Journal(store, snapshot_every=3)
    journal.create_campaign(CAMPAIGN, title="Storm", gm="Maya", ruleset="dramasystem")
    for name in ("Ana", "Ben"):
        journal.execute(CAMPAIGN, AddParticipant(name=name))
    journal.execute(CAMPAIGN, CreateCharacter("Iris", "Ana", _grades(("Fighting", "Talking"), ("Knowing", "Making"))))
    journal.execute(CAMPAIGN, StartEpisode(title="Fog", theme="trust"))
    _procedural_scene(journal, cast=("Iris",))
    journal.execute(CAMPAIGN, Oppose("yellow"), visibility=GM_ONLY)
    journal.execute(CAMPAIGN, DrawTarget("KC", ("Ana", "Ben")))
    journal.execute(CAMPAIGN, PlayCards("Ana", "red", ("5C",)))
    assert store.snapshots(CAMPAIGN)
    fresh = Journal(store).state(CAMPAIGN)
    assert fresh == replay(journal.history(CAMPAIGN))
    assert fresh.rules.procedure.open[1].pending_knock_outs == 0
