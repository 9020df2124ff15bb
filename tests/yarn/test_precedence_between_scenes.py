"""A precedence draw made between scenes belongs to the next scene (issue 10), and the tool says when it
drew an order itself. Yarn 0.1, "Order of Precedence": "From time to time, the GM determines precedence
[...] Whenever you need a precedence order, shuffle them and note the result." The order is noted for
what comes next, so it is told with the scene it was drawn for, not the one just closed."""

from __future__ import annotations

import pytest
from drama_table import GM, seat_characters

from yarnlog.core.timeline import AddNote, CloseScene, EndEpisode, OpenScene
from yarnlog.rulesets.yarn.parts.characters.supporting_cast import DrawPrecedence, Purpose, precedence_data
from yarnlog.rulesets.yarn.parts.drama.bennie_vote import CastBallot
from yarnlog.rulesets.yarn.recap.audience import Audience
from yarnlog.rulesets.yarn.recap.build import Scope, build_recap
from yarnlog.rulesets.yarn.recap.sentences import precedence_drawn


@pytest.fixture
def between(journal, campaign):
    """Scene 1 closed, a note on it, then an order shuffled by the tool, then Ana calls scene 2."""
    seat_characters(journal, campaign)
    journal.execute(campaign, CloseScene())
    journal.execute(campaign, DrawPrecedence(Purpose.OTHER, ("Cy", "Ana", "Ben"), "shuffled"))
    return campaign


def orders(journal, cid):
    state = journal.state(cid)
    openings = ((s.number, s.episode, s.opened_at) for s in state.rules.drama.scenes.values())
    return precedence_data(state.rules.characters.cast, openings)["orders"]


def recap_scenes(journal, cid):
    state = journal.state(cid)
    told = build_recap(journal.history(cid), state.table, Audience("gm", None), Scope())
    return {s.number: s for e in told.episodes for s in e.scenes}


def test_a_draw_between_scenes_belongs_to_the_next_scene(journal, between):
    assert orders(journal, between)[-1]["scene"] is None  # the next scene is not called yet
    journal.execute(between, OpenScene(caller="Ana", cast=("Iris", "Jon"), mode="dramatic"))
    assert orders(journal, between)[-1]["scene"] == 2
    scenes = recap_scenes(journal, between)
    drawn = "Precedence for other (drawn by the tool): Cy, Ana, Ben."
    assert [line.text for line in scenes[2].calling] == [drawn]
    assert drawn not in [line.text for line in scenes[1].calling]


def test_a_draw_in_a_scene_stays_in_it_and_a_note_between_scenes_stays_with_the_scene_closed(journal, between):
    journal.execute(between, AddNote("the fog lifts"))
    journal.execute(between, OpenScene(caller="Ana", cast=("Iris", "Jon"), mode="dramatic"))
    journal.execute(between, DrawPrecedence(Purpose.OTHER, ("Ben", "Cy", "Ana")))
    assert [o["scene"] for o in orders(journal, between)[-2:]] == [2, 2]
    scenes = recap_scenes(journal, between)
    assert [n.text for n in scenes[1].notes] == ["the fog lifts"]
    assert scenes[2].calling[-1].text == "Precedence for other, as drawn at the table: Ben, Cy, Ana."


def test_a_draw_left_at_the_end_of_an_episode_is_told_with_its_last_scene(journal, between):
    for voter, ranking in (("Ana", ("Ben", "Cy")), ("Ben", ("Cy", "Ana")), ("Cy", ("Ana", "Ben")),
                           (GM, ("Ana", "Ben", "Cy"))):
        journal.execute(between, CastBallot(voter, ranking))
    journal.execute(between, EndEpisode())
    assert orders(journal, between)[-1]["scene"] is None
    assert recap_scenes(journal, between)[1].calling[-1].text.startswith("Precedence for other (drawn by the tool)")


def test_the_tool_says_it_drew_the_order():
    assert precedence_drawn({"purpose": "calling-order", "source": "shuffled", "order": ["Ana", "Ben"]}).startswith(
        "Precedence for calling order (drawn by the tool): Ana, Ben")
    assert "as drawn at the table" in precedence_drawn({"purpose": "other", "source": "entered", "order": ["A"]})
