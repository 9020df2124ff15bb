"""Rule decisions the command line used to make, now pure functions of the drama and economy parts:
the default side of a vote, whose cards a quiz shuffles, which recorded events are bennie votes."""

from __future__ import annotations

import pytest

from yarnlog.core.referee import Override
from yarnlog.core.timeline import EndEpisode, OpenScene
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote import CastBallot
from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import DrawPrecedence
from yarnlog.rulesets.scenes_and_tokens.parts.scene_challenges import vote_sides
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import Purpose
from yarnlog.rulesets.yarn.parts.drama.petitions import players_to_draw_for_quiz
from yarnlog.rulesets.yarn.parts.economy.ledger import tallied_votes

from .drama_table import GM, seat_characters


@pytest.fixture
def table(journal, campaign):
    seat_characters(journal, campaign)
    return campaign


def test_a_side_left_out_of_a_show_of_hands_is_every_other_player():
    players = ["Ana", "Ben", "Cy"]
    assert vote_sides(players, ["Ana"], []) == (("Ana",), ("Ben", "Cy"))
    assert vote_sides(players, [], ["Cy"]) == (("Ana", "Ben"), ("Cy",))
    assert vote_sides(players, ["Ana"], ["Ben"]) == (("Ana",), ("Ben",))
    assert vote_sides(players, [], []) == ((), ())


def test_a_quiz_shuffles_the_petitioners_players_unless_their_order_was_drawn_this_scene(journal, table):
    journal.execute(table, OpenScene(caller=GM, cast=("Iris", "Jon", "Kit"), kind="conference"))
    answers = (("Iris", "Jon", True), ("Kit", "Iris", False))
    assert players_to_draw_for_quiz(journal.state(table), answers) == ("Ana", "Cy")
    journal.execute(table, DrawPrecedence(Purpose.PETITIONERS, ("Cy", "Ana"), "entered"))
    assert players_to_draw_for_quiz(journal.state(table), answers) is None


def test_the_recorded_bennie_votes_are_found_by_payload_type(journal, table):
    assert tallied_votes(journal.history(table)) == []
    journal.execute(table, CastBallot("Ana", ("Ben", "Cy")))
    journal.execute(table, EndEpisode(), override=Override(GM, "the others left early"))
    votes = tallied_votes(journal.history(table))
    assert [r.event_type for r in votes] == ["yarn.bennie.vote_tallied"]
