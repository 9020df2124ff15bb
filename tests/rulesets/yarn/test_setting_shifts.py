"""A scene moving place as it unfolds, against Yarn 0.1 "Calling Scenes" and "Introducing Locations".

"Setting: where the scene takes place (at least at its outset; a scene can shift in time and place as
it unfolds)" and "Any participant can introduce a new location in which a scene can take place, or to
which a scene in progress can logically shift. [...] The caller, or any participant during a shift in
location, provides an introductory description of the place"."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.timeline import OpenScene
from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import IntroduceLocation
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import LOCATIONS
from yarnlog.rulesets.yarn.parts.drama.setting_shifts import ShiftScene

from .drama_table import seat_characters
from .refusals import refused, rejected


@pytest.fixture
def journey(journal, campaign):
    """Ana's scene on the road, in play."""
    seat_characters(journal, campaign)
    journal.execute(campaign, OpenScene(caller="Ana", cast=("Iris", "Jon"), mode="dramatic", setting="the road"))
    return campaign


def places(journal, cid):
    state = journal.state(cid)
    return state.rules.drama.scenes[state.timeline.scene].places


def test_a_scene_on_a_road_ends_up_in_a_swamp(journal, journey):
    """ "(For example, a scene that takes place during a journey might start on a road and end up in a swamp.)"
    Any participant moves it; a new place comes with its introductory description."""
    recorded = journal.execute(journey, ShiftScene("the swamp", "Ben", "reeds, mud and a sunken barge", "at dusk"))
    assert [r.event_type for r in recorded] == ["yarn.location.introduced", "yarn.scene.shifted"]
    assert (recorded[1].payload.location, recorded[1].payload.by, recorded[1].payload.time_shift) == (
        "the swamp", "Ben", "at dusk")
    assert recorded[0].payload.introduced_by == "Ben"
    assert places(journal, journey) == ("the swamp",)
    assert verify(journal.store.read(journey), journey).ok


def test_a_place_not_introduced_needs_its_description_and_a_known_one_does_not(journal, journey):
    refused(journal, journey, ShiftScene("the lighthouse", "Cy"), LOCATIONS)
    journal.execute(journey, IntroduceLocation("The Lighthouse", "a white tower on the rocks", "Maya"))
    shifted = journal.execute(journey, ShiftScene("the lighthouse", "Cy"))
    assert [r.event_type for r in shifted] == ["yarn.scene.shifted"]
    assert shifted[0].payload.location == "The Lighthouse"  # as introduced
    rejected(journal, journey, ShiftScene("the lighthouse", "Cy"), "already at The Lighthouse")
    rejected(journal, journey, ShiftScene("the lighthouse", "Zed"), "not at the table")


def test_only_a_scene_in_play_moves(journal, campaign):
    seat_characters(journal, campaign)
    from yarnlog.core.timeline import CloseScene

    journal.execute(campaign, CloseScene())
    rejected(journal, campaign, ShiftScene("the swamp", "Ben", "reeds"), "no scene is in play")
