"""A precedence draw made between scenes belongs to the next scene (issue 10), and the tool says when it
drew an order itself. Yarn 0.1, "Order of Precedence": "From time to time, the GM determines precedence
[...] Whenever you need a precedence order, shuffle them and note the result." The order is noted for
what comes next, so it is told with the scene it was drawn for, not the one just closed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from yarnlog.core.audience import Audience
from yarnlog.core.state import as_told
from yarnlog.core.timeline import AddNote, CloseScene, EndEpisode, OpenScene
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote import CastBallot
from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import DrawPrecedence
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import Purpose, precedence_data
from yarnlog.rulesets.yarn.recap.build import Scope, build_recap
from yarnlog.rulesets.yarn.recap.sentences import precedence_drawn

from .drama_table import GM, seat_characters


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


def test_the_folds_keep_where_the_draw_was_recorded_and_the_views_tell_it_with_the_next_scene(journal, between):
    journal.execute(between, OpenScene(caller="Ana", cast=("Iris", "Jon"), mode="dramatic"))
    history = journal.history(between)
    draw = next(r for r in history if r.event_type == "yarn.precedence.drawn" and r.payload.purpose == Purpose.OTHER)
    assert (draw.episode, draw.scene) == (1, None)  # recorded between scenes: what replay folds
    told = {r.sequence: r for r in as_told(history)}
    assert told[draw.sequence].scene == 2 and [r.scene for r in history if r is not draw] == \
        [told[r.sequence].scene for r in history if r is not draw]  # nothing else moves


def test_the_tool_says_it_drew_the_order():
    assert precedence_drawn({"purpose": "calling-order", "source": "shuffled", "order": ["Ana", "Ben"]}).startswith(
        "Precedence for calling order (drawn by the tool): Ana, Ben")
    assert "as drawn at the table" in precedence_drawn({"purpose": "other", "source": "entered", "order": ["A"]})


# -- every view of scenes tells the draw with the scene it was drawn for (the command line) --------

SHEETS = Path(__file__).resolve().parents[3] / "journals" / "sheets"


@pytest.fixture
def drawn_between(cli):
    """Scene 1 played (Ana gains a token) and closed, then an order the tool shuffled, then scene 2."""
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--from-file", str(SHEETS / "iris.json")),
                 ("character", "create", "Tomas", "--from-file", str(SHEETS / "tomas.json")),
                 ("episode", "start", "--title", "Fog", "--theme", "trust", "--theme-by", "Ana"),
                 ("precedence", "draw", "--purpose", "calling-order", "--order", "Ana,Ben"),
                 ("call", "Ana", "--cast", "Iris,Tomas", "--mode", "dramatic"),
                 ("petition", "refused", "-p", "Iris", "-g", "Tomas"),
                 ("scene", "close")):
        assert cli(*args)[0] == 0, args
    code, out, err = cli("precedence", "draw", "--purpose", "other")
    assert code == 0 and "(drawn by the tool)" in out  # the tool says it drew the order itself
    assert cli("call", "Maya", "--cast", "Tomas", "--mode", "procedural")[0] == 0
    return cli


def as_json(cli, *args):
    code, out, err = cli(*args, "--json")
    assert code == 0, err
    return json.loads(out)


def sequences(rows):
    return {row["sequence"]: row for row in rows}


def test_the_log_files_the_draw_under_the_scene_it_was_drawn_for(drawn_between):
    draws = [r for r in as_json(drawn_between, "log") if r["event_type"] == "yarn.precedence.drawn"]
    # The calling order, drawn before the episode's first scene, is for scene 1; the other for scene 2.
    assert [(d["payload"]["purpose"], d["scene"]) for d in draws] == [("calling-order", 1), ("other", 2)]
    shuffled = draws[1]["sequence"]
    assert shuffled in sequences(as_json(drawn_between, "log", "--scene", "2"))
    assert shuffled not in sequences(as_json(drawn_between, "log", "--scene", "1"))
    code, out, _ = drawn_between("log", "--scene", "2")
    assert code == 0 and "yarn.precedence.drawn" in out


def test_explain_a_scene_shows_the_draw_made_for_it(drawn_between):
    shuffled = [r for r in as_json(drawn_between, "log") if r["event_type"] == "yarn.precedence.drawn"][-1]
    second = as_json(drawn_between, "explain", "--scene", "2")
    assert second["first"] == shuffled["sequence"]
    first = as_json(drawn_between, "explain", "--scene", "1")
    assert first["last"] == shuffled["sequence"] - 1  # scene 1 ends where it closed


def test_the_end_of_the_scene_closed_is_its_close_not_the_draw_after_it(drawn_between):
    closed = [r for r in as_json(drawn_between, "log") if r["event_type"] == "scene.closed"][0]
    assert as_json(drawn_between, "tokens", "--end-of-scene", "1")["as_of"] == closed["sequence"]
    assert as_json(drawn_between, "tokens", "--end-of-scene", "2")["as_of"] > closed["sequence"] + 1


def test_the_ledger_and_the_recap_tell_the_scenes_as_the_log_does(drawn_between):
    log = sequences(as_json(drawn_between, "log"))
    lines = as_json(drawn_between, "ledger")
    assert lines and all(line["scene"] == log[line["sequence"]]["scene"] for line in lines)
    code, recap, _ = drawn_between("recap")
    assert code == 0
    scene_1, scene_2 = recap.split("### Scene 1", 1)[1].split("### Scene 2", 1)
    assert "Precedence for other (drawn by the tool)" in scene_2 and "Precedence for other" not in scene_1
