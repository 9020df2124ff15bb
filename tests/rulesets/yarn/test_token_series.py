"""Drama tokens through an episode, scene by scene: the start, then what `yarnlog tokens
--end-of-scene N` shows after each scene, for every participant."""

from __future__ import annotations

import pytest

from yarnlog.core.charts import TokenLine
from yarnlog.core.corrections import effective
from yarnlog.core.referee import Override
from yarnlog.core.timeline import CloseScene, EndEpisode, OpenScene, StartEpisode
from yarnlog.rulesets.scenes_and_tokens.parts.economy import ledger_entries
from yarnlog.rulesets.yarn.parts.economy.ledger import token_report
from yarnlog.rulesets.yarn.parts.economy.token_series import token_series

from .drama_table import GM, give, seat_characters
from .sample_harbor import CID, harbor_journal


@pytest.fixture(scope="module")
def harbor():
    return harbor_journal()


def series_of(journal, campaign: str, episode: int):
    """The token series of ``episode`` from the campaign's state and its ledger (read from its events)."""
    return token_series(journal.state(campaign), episode, ledger_entries(effective(journal.history(campaign))))


def held(state) -> dict[str, int]:
    return {p["name"]: p["drama_tokens"] for p in token_report(state)["participants"]}


def end_of_scene(history, number: int) -> int:
    """The sequence ``--end-of-scene N`` replays to: the last event of scene N."""
    return [r.sequence for r in history if r.scene == number][-1]


@pytest.mark.parametrize("episode", [1, 2, 3])
def test_each_point_is_the_token_report_at_the_end_of_that_scene(harbor, episode):
    history = harbor.history(CID)
    series = series_of(harbor, CID, episode)
    assert series.scenes == tuple(sorted({r.scene for r in history if r.episode == episode and r.scene}))
    opened = [r.sequence for r in history if r.event_type == "scene.opened" and r.scene == series.scenes[0]][0]
    checkpoints = [opened - 1, *(end_of_scene(history, n) for n in series.scenes)]
    for i, sequence in enumerate(checkpoints):
        report = held(harbor.state(CID, upto=sequence))
        assert {line.participant: line.balances[i] for line in series.lines} == report, (episode, i)


def test_the_last_point_of_every_episode_is_what_each_participant_held_when_its_last_scene_ended(harbor):
    history = harbor.history(CID)
    state = harbor.state(CID)
    ledger = ledger_entries(effective(history))
    for episode in state.timeline.episodes:
        series = token_series(state, episode, ledger)
        report = held(harbor.state(CID, upto=end_of_scene(history, series.scenes[-1])))
        assert {line.participant: line.balances[-1] for line in series.lines} == report


def test_the_lines_are_the_players_with_their_characters_then_the_gm(harbor):
    series = series_of(harbor, CID, 1)
    assert [(line.participant, line.character) for line in series.lines] == [
        ("Ana", "Iris Vane"), ("Ben", "Jonah Crane"), ("Cy", "Kit Marlowe"), ("Dee", "Rosa Quill"),
        ("Eli", "Tobias Wren"), ("Fay", "Nell Harrow"), (GM, None)]
    # Worked in tests/rulesets/yarn/test_sample_journal.py from the book: Eli holds 3 when the closer ends, Maya 2.
    assert series.lines[4].balances[-1] == 3 and series.lines[6].balances[-1] == 2
    assert all(len(line.balances) == len(series.scenes) + 1 == 11 for line in series.lines)


def test_tokens_moved_before_the_first_scene_or_between_scenes_count_from_the_next_point(journal, campaign):
    seat_characters(journal, campaign)  # episode 1, the GM's scene 1
    journal.execute(campaign, CloseScene())
    journal.execute(campaign, EndEpisode(), override=Override(by=GM, reason="no vote in this test"))
    journal.execute(campaign, StartEpisode(title="Debts", theme="debts", theme_chosen_by="Ana"))
    give(journal, campaign, "Ana", 2)  # before episode 2's first scene: its start
    journal.execute(campaign, OpenScene(caller=GM, cast=("Iris", "Jon"), mode="dramatic"))
    journal.execute(campaign, CloseScene())
    give(journal, campaign, "Ben", 1)  # between scenes 2 and 3: after scene 3, not after scene 2
    journal.execute(campaign, OpenScene(caller=GM, cast=("Iris", "Kit"), mode="dramatic"))
    series = series_of(journal, campaign, 2)
    assert series.scenes == (2, 3)
    assert series.lines[:2] == (TokenLine("Ana", "Iris", (2, 2, 2)), TokenLine("Ben", "Jon", (0, 0, 1)))


def test_an_episode_without_scenes_is_its_start_alone(journal, campaign):
    seat_characters(journal, campaign)
    series = series_of(journal, campaign, 2)
    assert (series.scenes, {line.balances for line in series.lines}) == ((), {(0,)})
