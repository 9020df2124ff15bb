"""Precedence, themes, supporting characters and locations in DramaSystem: the shared core Yarn shares
(digest 001: moves 1, 3, 4 and 14; DS10, DS27-DS29; book-3, book-7)."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.referee import RuleViolation
from yarnlog.core.timeline import EndEpisode, OpenScene, StartEpisode
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote import CastBallot
from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import (
    ChooseTheme,
    DrawPrecedence,
    IntroduceLocation,
    IntroduceSupporting,
    PromoteSupporting,
)
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferTokens
from yarnlog.rulesets.scenes_and_tokens.parts.petitions import Force, QuizPetitioners, ResolvePetition
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import Purpose

from .storm_table import CAMPAIGN


def _ok(journal) -> None:
    report = verify(journal.stored_events(CAMPAIGN), CAMPAIGN)
    assert report.ok, report


def _tokens(journal) -> dict[str, int]:
    return {n: k for n, k in journal.state(CAMPAIGN).rules.economy.tokens.items() if k}


def _vote_and_end(journal) -> None:
    for voter, ranking in (("Maya", ("Ana", "Ben", "Cy")), ("Ana", ("Ben", "Cy")), ("Ben", ("Ana", "Cy")),
                           ("Cy", ("Ana", "Ben"))):
        journal.execute(CAMPAIGN, CastBallot(voter, ranking))
    journal.execute(CAMPAIGN, EndEpisode())


def test_move_1_a_precedence_order_is_one_card_per_player(journal):
    # Lines 63-65: "write your player's names on index cards, one card per player. Whenever you need a
    # precedence order, shuffle them and note the result."
    with pytest.raises(RuleViolation, match="no card drawn for Cy"):
        journal.execute(CAMPAIGN, DrawPrecedence(Purpose.OTHER, ("Ben", "Ana")))
    [drawn] = journal.execute(CAMPAIGN, DrawPrecedence(Purpose.OTHER, ("Ben", "Cy", "Ana")))
    assert drawn.event_type == "dramasystem.precedence.drawn"
    assert journal.state(CAMPAIGN).rules.sheets.cast.precedence[-1].order == ("Ben", "Cy", "Ana")
    _ok(journal)


def test_book_7_the_theme_rota_gives_each_player_in_turn_the_next_session_s_theme(journal):
    # DS10, line 165: "The first player in the precedence order chooses the theme for the second session,
    # the second choose for the third session, and so on."
    journal.execute(CAMPAIGN, DrawPrecedence(Purpose.THEME_ROTA, ("Cy", "Ana", "Ben")))
    with pytest.raises(RuleViolation, match="by the theme rota Cy chooses"):
        journal.execute(CAMPAIGN, ChooseTheme("debts", chosen_by="Ana"))
    [chosen] = journal.execute(CAMPAIGN, ChooseTheme("debts"))
    assert (chosen.event_type, chosen.payload.chosen_by, chosen.payload.episode) == (
        "dramasystem.theme.chosen", "Cy", 2)
    _vote_and_end(journal)
    [*_, started] = journal.execute(CAMPAIGN, StartEpisode(title="Ash"))
    assert (started.payload.theme, started.payload.theme_chosen_by) == ("debts", "Cy")
    [second] = journal.execute(CAMPAIGN, ChooseTheme("loss"))
    assert (second.payload.chosen_by, second.payload.episode) == ("Ana", 3)
    _ok(journal)


def test_book_3_the_gm_s_one_pool_pays_a_force_for_one_recurring_character_with_tokens_of_two_others(journal):
    # DS28, line 675: "the GM [...] drawing on a single pool of drama tokens"; book-3: a force for one
    # recurring character may use two tokens earned by granting for two other recurring characters.
    journal.execute(CAMPAIGN, OpenScene(caller="Maya", cast=("Iris",), mode="dramatic"))
    for name in ("Old Tom", "Mags", "Captain Rue"):
        journal.execute(CAMPAIGN, IntroduceSupporting(name, "a harbour regular", "Maya"))
        journal.execute(CAMPAIGN, PromoteSupporting(name, "Iris", "a blessing"))
    for granter in ("Old Tom", "Mags"):
        journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Iris", granter), mode="dramatic"))
        journal.execute(CAMPAIGN, ResolvePetition("Iris", granter, "granted"))
    assert _tokens(journal) == {"Maya": 2}
    journal.execute(CAMPAIGN, OpenScene(caller="Maya", cast=("Captain Rue", "Tomas"), mode="dramatic"))
    [forced] = journal.execute(CAMPAIGN, Force("Captain Rue", "Tomas"))
    assert [(t.source, t.destination, t.amount) for t in forced.payload.transfers] == [("Maya", "Ben", 2)]
    _ok(journal)


def test_ds29_a_minor_character_never_grants_a_dramatic_concession(journal):
    # DS29, line 419: "Drama tokens are never awarded or spent as the result of a Talking scene."
    journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Iris",), mode="procedural"))
    journal.execute(CAMPAIGN, IntroduceSupporting("Fisher", "sells eels", "Maya"))
    with pytest.raises(RuleViolation, match="Fisher is a minor character") as refused:
        journal.execute(CAMPAIGN, ResolvePetition("Iris", "Fisher", "granted"))
    assert "DramaSystem SRD (DS29, lines 417-419)" in str(refused.value)


def test_move_14_several_petitioners_are_quizzed_in_a_newly_drawn_order(journal):
    # DS27, line 381: "The GM quizzes each participating player, in a newly drawn precedence order"
    journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Iris", "Tomas", "Vel"), mode="dramatic"))
    recorded = journal.execute(CAMPAIGN, QuizPetitioners((("Iris", "Tomas", True), ("Vel", "Iris", False)),
                                                         order=("Cy", "Ana")))
    assert [r.event_type for r in recorded] == ["dramasystem.precedence.drawn", "dramasystem.petition.quizzed"]
    assert _tokens(journal) == {"Ben": 1, "Cy": 1}
    _ok(journal)


def test_move_3_a_location_is_introduced_by_a_participant(journal):
    # Line 679: "The caller, or any participant during a shift in location, provides an introductory description"
    journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Iris",), mode="procedural"))
    [placed] = journal.execute(CAMPAIGN, IntroduceLocation("The Salt Stair", "steps cut into the cliff", "Ana"))
    assert placed.event_type == "dramasystem.location.introduced"
    assert "The Salt Stair" in journal.state(CAMPAIGN).rules.sheets.cast.locations
    journal.execute(CAMPAIGN, TransferTokens("kitty", "Ana", 1, reason="a grant earlier"))
    _ok(journal)
