"""Verbs per ruleset: a system's verbs exist only in its campaigns; the help says who adds what."""

from __future__ import annotations

import json

import pytest

from yarnlog.cli.main import EXIT_CODES


@pytest.fixture
def two_systems(cli):
    """A journal with a Yarn campaign (lantern) and a DramaSystem one (ds)."""
    assert cli("init", "lantern", "--title", "Lantern Harbor", "--gm", "Maya")[0] == 0
    assert cli("init", "ds", "--title", "Drama", "--gm", "Maya", "--ruleset", "dramasystem")[0] == 0
    for campaign in ("lantern", "ds"):
        assert cli("join", "Ana", "-c", campaign)[0] == 0
        assert cli("episode", "start", "-c", campaign)[0] == 0
    return cli


def test_help_outside_a_campaign_lists_core_verbs_and_what_each_system_adds(cli):
    code, out, _ = cli("--help")
    assert code == 0 and "verify" in out and "episode" in out
    assert "yarn adds: " in out and "call," in out and "Yarn 0.1 verbs" not in out


@pytest.mark.parametrize("verb", [("roll",), ("call",), ("xp", "award"), ("sheet",), ("recap",), ("tokens",)])
def test_a_verbs_help_needs_no_journal(cli, tmp_path, verb):
    """Issue 26: ``VERB --help`` before any journal exists shows the verb's help (the default system's
    verb when it has one); the verb itself still says there is no journal."""
    assert not (tmp_path / "journal.db").exists()
    code, out, err = cli(*verb, "--help")
    assert (code, err) == (0, ""), err
    assert f"Usage: yarnlog {' '.join(verb)} " in " ".join(out.split())
    assert not (tmp_path / "journal.db").exists()
    code, _, err = cli("tokens")
    assert code == EXIT_CODES["store"] and "no journal database" in err


def test_help_inside_a_yarn_campaign_lists_its_verbs_and_hides_the_replaced_core_verb(two_systems):
    code, out, _ = two_systems("-c", "lantern", "--help")
    assert code == 0 and "Yarn 0.1 verbs" in out and " roll " in out and "yarn adds" not in out
    _, scene_help, _ = two_systems("-c", "lantern", "scene", "--help")
    assert "close" in scene_help and "open" not in scene_help


def test_help_inside_a_dramasystem_campaign_lists_only_core_verbs(two_systems, monkeypatch):
    monkeypatch.setenv("YARNLOG_CAMPAIGN", "ds")
    code, out, _ = two_systems("--help")
    assert code == 0 and "verify" in out and " roll " not in out and "Yarn 0.1" not in out
    _, scene_help, _ = two_systems("scene", "--help")
    assert "open" in scene_help


def test_several_campaigns_without_a_choice_is_outside_a_campaign(two_systems):
    _, out, _ = two_systems("--help")
    assert "yarn adds: " in out


def test_a_yarn_verb_on_a_dramasystem_campaign_is_a_one_line_error(two_systems):
    _, before, _ = two_systems("export", "-c", "ds")
    code, out, err = two_systems("roll", "Iris", "-c", "ds")
    assert code == EXIT_CODES["invalid"] and out == ""
    assert err == "error: 'roll' is a verb of the yarn ruleset; campaign ds plays dramasystem\n"
    assert two_systems("export", "-c", "ds")[1] == before


def test_ruleset_verbs_work_in_their_campaign_whichever_way_it_is_named(two_systems, monkeypatch):
    code, out, _ = two_systems("call", "Ana", "-c", "lantern", "--json")
    assert code == 0 and json.loads(out)[0]["event_type"] == "scene.opened"
    assert two_systems("-c", "lantern", "tokens", "--json")[0] == 0
    monkeypatch.setenv("YARNLOG_CAMPAIGN", "lantern")
    assert two_systems("calling-order", "--json")[0] == 0


def test_a_core_verb_a_system_replaces_points_to_its_verb(two_systems):
    _, before, _ = two_systems("export", "-c", "lantern")
    code, _, err = two_systems("scene", "open", "--caller", "Ana", "-c", "lantern")
    assert code == EXIT_CODES["invalid"] and "use 'yarnlog call'" in err and err.count("\n") == 1
    assert two_systems("export", "-c", "lantern")[1] == before  # nothing written
    code, out, _ = two_systems("scene", "open", "--caller", "Ana", "-c", "ds", "--json")
    assert code == 0 and json.loads(out)[0]["event_type"] == "scene.opened"


def test_an_unknown_verb_is_a_usage_error_even_outside_a_campaign(two_systems):
    code, _, err = two_systems("teleport")
    assert code == 2 and "no such command 'teleport'" in err and err.count("\n") == 1
    code, _, err = two_systems("roll", "Iris")
    assert code == EXIT_CODES["invalid"] and "several campaigns" in err


def test_episode_end_is_the_one_verb_that_ends_an_episode(two_systems):
    code, out, _ = two_systems("episode", "end", "-c", "lantern", "--override", "no ballots", "--json")
    types = [e["event_type"] for e in json.loads(out)]
    assert code == 0 and types[0] == "override.recorded" and types[-1] == "episode.ended"  # Yarn's vote rule
    # DramaSystem's episodes end with the same bennie vote (DS73), from the shared core both compose.
    assert two_systems("episode", "end", "-c", "ds")[0] == 3
    code, out, _ = two_systems("episode", "end", "-c", "ds", "--override", "no ballots", "--json")
    types = [e["event_type"] for e in json.loads(out)]
    assert code == 0 and types[0] == "override.recorded" and types[-1] == "episode.ended"
    assert two_systems("end-episode", "-c", "lantern")[0] == 2


def test_each_ruleset_s_verbs_are_found_beside_it_without_importing_its_rules():
    """A system's verbs are ``VERBS`` in the ``cli`` module beside its ruleset module, read without
    importing its rules; their panel is titled as the ruleset is."""
    import subprocess
    import sys

    from yarnlog.cli.verbs import verbs_of
    from yarnlog.core.installed import RULESETS
    from yarnlog.core.ruleset import get_ruleset

    for name in RULESETS:
        assert verbs_of(name).title == get_ruleset(name).title
    probe = ("import sys; from yarnlog.cli.verbs import verbs_of; verbs_of('yarn'); verbs_of('dramasystem'); "
             "print(' '.join(m for m in sys.modules if m.startswith('yarnlog.rulesets.')))")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert "yarnlog.rulesets.yarn.cli" in loaded and "yarnlog.rulesets.dramasystem.cli" in loaded
    assert not [m for m in loaded if m.endswith(".ruleset") or ".parts" in m or ".rules." in m], loaded


def test_each_ruleset_s_verbs_build_each_alone_as_the_help_lists_them():
    """A one-shot command builds only its own verb: the same command, help and options as the help's."""
    from yarnlog.cli.verbs import command_of, commands_of, verb_names
    from yarnlog.core.installed import RULESETS

    for name in RULESETS:
        every = commands_of(name)
        assert verb_names(name) == list(every)
        for verb, command in every.items():
            alone = command_of(name, verb)
            assert alone is not None and alone is not command  # built on its own
            assert (alone.name, alone.help, alone.rich_help_panel) == (command.name, command.help,
                                                                       command.rich_help_panel)
            assert [p.name for p in alone.params] == [p.name for p in command.params]
        assert command_of(name, "no-such-verb") is None


@pytest.mark.slow
def test_a_one_shot_board_read_imports_neither_the_rules_nor_the_other_verbs(cli, tmp_path):
    """Issue 10: ``yarnlog tokens`` pays only for what it uses. Run in a fresh interpreter on a journal
    whose board is stored: no state, decider or ruleset part is imported, no other verb's module,
    and with ``--json`` no Rich."""
    import subprocess
    import sys
    from pathlib import Path

    sample = Path(__file__).resolve().parents[2] / "journals" / "lantern-harbor.jsonl"
    db = str(tmp_path / "journal.db")
    assert cli("--db", db, "import", str(sample))[0] == 0
    assert cli("--db", db, "tokens", "--json")[0] == 0  # the board is stored
    probe = ("import json, sys\nfrom yarnlog.cli.main import main\nsys.argv = ['yarnlog', '--db', sys.argv[1], "
             "'tokens'] + sys.argv[2:]\ntry:\n    main()\nexcept SystemExit as exit_:\n    assert not exit_.code\n"
             "sys.stderr.write(json.dumps(sorted(sys.modules)))\n")
    for extra in ([], ["--json"]):
        done = subprocess.run([sys.executable, "-c", probe, db, *extra], capture_output=True, text=True, check=True)
        loaded = set(json.loads(done.stderr))
        assert "Kitty this episode" in done.stdout or json.loads(done.stdout)["participants"]
        assert "yarnlog.rulesets.yarn.cli.drama_reports" in loaded
        unused = {"yarnlog.core.state", "yarnlog.core.decide", "yarnlog.app.verify", "yarnlog.app.interchange",
                  "yarnlog.rulesets.yarn.ruleset", "icepool", "psycopg"}
        assert not unused & loaded, unused & loaded
        assert not any(m.startswith("yarnlog.rulesets.yarn.parts") for m in loaded)
        assert ("rich.table" in loaded) == (extra == [])
