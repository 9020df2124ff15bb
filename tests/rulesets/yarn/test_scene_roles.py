"""A scene's part in its episode, against Yarn 0.1 "Episodes › Scenes":

"Each episode consists of a number of scenes: an opener that introduces the theme; an indeterminate
number of development scenes that riff on and refer to the theme in various ways; a closer that
somehow completes the theme—or ends organically, on a cliffhanger, conclusive line, or other
exciting moment"."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.referee import Override
from yarnlog.core.timeline import OpenScene
from yarnlog.rulesets.yarn.parts.drama.scene_calls import CallScene
from yarnlog.rulesets.yarn.parts.drama.scene_roles import SCENE_ROLES, NameSceneRole

from .drama_table import GM, seat_characters
from .refusals import refused, rejected


@pytest.fixture
def episode(journal, campaign):
    """Episode 1 with the GM's opening scene (scene 1) in play."""
    seat_characters(journal, campaign)
    return campaign


def role(journal, cid, number):
    return journal.state(cid).rules.drama.scenes[number].role


def test_the_first_scene_is_the_opener_and_only_it(journal, episode):
    """ "an opener that introduces the theme": the episode's first scene."""
    named = journal.execute(episode, NameSceneRole("opener"))
    assert (named[0].event_type, named[0].payload.scene, named[0].payload.role) == ("yarn.scene.role_named", 1,
                                                                                     "opener")
    assert role(journal, episode, 1) == "opener"
    rejected(journal, episode, NameSceneRole("closer", 1), "already the opener")
    journal.execute(episode, OpenScene(caller="Ana", cast=("Iris", "Jon"), mode="dramatic"))
    refused(journal, episode, NameSceneRole("opener"), SCENE_ROLES)
    rejected(journal, episode, NameSceneRole("prologue"), "one of opener, development, closer")


def test_a_role_named_as_the_scene_is_called(journal, episode):
    recorded = journal.execute(episode, CallScene(caller="Ana", cast=("Iris", "Jon"), mode="dramatic",
                                                  role="development"))
    assert [r.event_type for r in recorded] == ["scene.closed", "scene.opened", "yarn.scene.role_named"]
    assert role(journal, episode, 2) == "development"
    # The first scene of an episode is its opener, nothing else.
    refused(journal, episode, NameSceneRole("development", 1), SCENE_ROLES)
    assert verify(journal.store.read(episode), episode).ok


def test_the_closer_is_the_last_scene_and_no_scene_follows_it(journal, episode):
    """ "a closer that somehow completes the theme": one per episode, its last scene."""
    journal.execute(episode, OpenScene(caller="Ana", cast=("Iris", "Jon"), mode="dramatic"))
    journal.execute(episode, OpenScene(caller="Ben", cast=("Jon", "Kit"), mode="dramatic"))
    refused(journal, episode, NameSceneRole("closer", 2), SCENE_ROLES, match="scene 3 came after it")
    journal.execute(episode, NameSceneRole("closer"))
    assert role(journal, episode, 3) == "closer"
    refused(journal, episode, OpenScene(caller="Cy", cast=("Kit", "Iris"), mode="dramatic"), SCENE_ROLES,
            match="end the episode")
    refused(journal, episode, NameSceneRole("closer", 2), SCENE_ROLES, match="already this episode's closer")
    # The GM may set the shape aside, and the override says so.
    called = journal.execute(episode, OpenScene(caller="Cy", cast=("Kit", "Iris"), mode="dramatic"),
                             override=Override(by=GM, reason="one more scene tonight"))
    assert called[0].event_type == "override.recorded"
    assert verify(journal.store.read(episode), episode).ok
