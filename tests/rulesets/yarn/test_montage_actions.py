"""Each player's action in a montage, against Yarn 0.1 "Montage Scene":

"During a montage any and all players may call actions for their character that can be played out
without significant dialogue including: Preparing for a future scene, Researching, Training, Shopping,
Travelling"."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.timeline import OpenScene
from yarnlog.rulesets.yarn.parts.drama.montage_actions import MONTAGE_ACTIONS, CallMontageAction
from yarnlog.rulesets.yarn.parts.drama.scene_calls import CallScene

from .drama_table import seat_characters
from .refusals import refused, rejected


@pytest.fixture
def montage(journal, campaign):
    """Ana calls a montage of a week, casting only Iris."""
    seat_characters(journal, campaign)
    journal.execute(campaign, CallScene(caller="Ana", cast=("Iris",), kind="montage", duration="a week"))
    return campaign


def test_any_and_all_players_call_actions_for_their_character(journal, montage):
    """Kit is not cast in the montage, and Cy still calls an action for him ("any and all players")."""
    first = journal.execute(montage, CallMontageAction("Iris", "drills with the harbour watch", "Training"))[0]
    second = journal.execute(montage, CallMontageAction("Cy", "charts the reefs"))[0]
    assert (first.payload.character, first.payload.player, first.payload.activity) == ("Iris", "Ana", "training")
    assert (second.payload.character, second.payload.player, second.payload.activity) == ("Kit", "Cy", None)
    state = journal.state(montage)
    assert state.rules.drama.scenes[state.timeline.scene].montage_actions == (
        ("Iris", "drills with the harbour watch"), ("Kit", "charts the reefs"))
    assert verify(journal.store.read(montage), montage).ok


def test_actions_are_for_player_characters_in_a_montage(journal, montage):
    rejected(journal, montage, CallMontageAction("Old Tom", "mends nets"), "not a player character")
    rejected(journal, montage, CallMontageAction("Iris", "sails", "sailing"), "one of preparing")
    rejected(journal, montage, CallMontageAction("Iris", "  "), "say what the character does")
    journal.execute(montage, OpenScene(caller="Ben", cast=("Jon", "Kit"), mode="dramatic"))
    refused(journal, montage, CallMontageAction("Jon", "trains"), MONTAGE_ACTIONS)
