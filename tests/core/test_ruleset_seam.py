"""The ruleset seam: rulesets come from entry points, and take over journal commands only explicitly."""

from __future__ import annotations

from dataclasses import replace
from importlib.metadata import entry_points

import pytest

from yarnlog.core.decide import decide
from yarnlog.core.installed import ENTRY_POINT_GROUP, RULESETS
from yarnlog.core.referee import InvalidCommand, Referee
from yarnlog.core.ruleset import CORE_COMMANDS, Rules, Ruleset, get_ruleset, ruleset_problems
from yarnlog.core.timeline import AddNote, EndEpisode, Note, OpenScene, StartEpisode


def test_registered_rulesets_have_unique_names_equal_to_their_event_prefix():
    names = [point.name for point in entry_points(group=ENTRY_POINT_GROUP)]
    assert len(names) == len(set(names)) and set(names) == set(RULESETS)
    for name in names:
        ruleset = get_ruleset(name)
        assert ruleset.name == name
        assert ruleset_problems(name, ruleset) == []


def test_every_ruleset_takes_over_only_journal_commands_and_has_loadable_verbs():
    from yarnlog.cli.verbs import Verbs, verbs_of

    for name in RULESETS:
        ruleset = get_ruleset(name)
        assert set(ruleset.rules.takes_over) <= CORE_COMMANDS
        assert isinstance(verbs_of(name), Verbs)


def test_yarn_takes_over_episodes_and_scene_calls_explicitly():
    assert set(get_ruleset("yarn").rules.takes_over) == {StartEpisode, OpenScene, EndEpisode}
    # DramaSystem takes over what its shared core decides: the theme rota (DS10), a call's price (DS12,
    # DS33), the episode's end (DS19, DS73).
    assert set(get_ruleset("dramasystem").rules.takes_over) == {StartEpisode, OpenScene, EndEpisode}


def test_a_misnamed_or_overreaching_ruleset_is_refused():
    bad = Ruleset(name="mine", title="Mine", book="", rules=Rules(takes_over={str: lambda *a: []}))
    problems = ruleset_problems("theirs", bad)
    assert any("calls itself 'mine'" in p for p in problems)
    assert any("takes over str" in p for p in problems)


def _state_of(journal, campaign, ruleset):
    state = journal.state(campaign)
    return replace(state, ruleset=ruleset)


def test_a_ruleset_is_not_asked_about_a_journal_command_it_does_not_take_over(journal):
    journal.create_campaign("d", title="D", gm="Maya", ruleset="dramasystem")
    journal.execute("d", StartEpisode())
    ds = get_ruleset("dramasystem")
    greedy = replace(ds, rules=replace(ds.rules, decide=lambda command, state, referee: [Note(text="mine!")]))
    opened = decide(OpenScene(caller="Maya"), _state_of(journal, "d", greedy), Referee())
    assert [p.event_type for p in opened] == ["scene.opened"]
    taking = replace(greedy, rules=replace(greedy.rules, takes_over={
        OpenScene: lambda command, state, referee: [Note(text="taken")]}))
    assert decide(OpenScene(caller="Maya"), _state_of(journal, "d", taking), Referee())[0].text == "taken"
    assert decide(AddNote(text="x"), _state_of(journal, "d", taking), Referee())[0].text == "x"


def test_a_subclass_of_a_journal_command_is_the_rulesets_own(journal):
    from yarnlog.rulesets.yarn.parts.drama.scene_calls import CallScene

    journal.create_campaign("d", title="D", gm="Maya", ruleset="dramasystem")
    journal.execute("d", StartEpisode())
    with pytest.raises(InvalidCommand, match="CallScene is not a command of the dramasystem ruleset"):
        journal.execute("d", CallScene(caller="Maya"))
