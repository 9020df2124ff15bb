"""The command line: JSON output, one-line errors on stderr, meaningful exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from yarnlog.cli.main import EXIT_CODES


@pytest.fixture
def table(cli):
    assert cli("init", "lantern", "--title", "Lantern Harbor", "--gm", "Maya")[0] == 0
    for name in ("Ana", "Ben"):
        assert cli("join", name)[0] == 0
    return cli


def test_every_command_answers_json(table):
    code, out, _ = table("episode", "start", "--title", "Fog", "--json")
    assert code == 0 and json.loads(out)[0]["event_type"] == "episode.started"
    code, out, _ = table("call", "Ana", "--cast", "Iris", "--mode", "dramatic", "--json")
    assert json.loads(out)[0]["payload"]["cast"] == ["Iris"]
    code, out, _ = table("log", "--json", "--type", "participant")
    assert [e["payload"]["name"] for e in json.loads(out)] == ["Ana", "Ben"]
    code, out, _ = table("status", "--json")
    assert json.loads(out)["players"] == ["Ana", "Ben"]
    code, out, _ = table("verify", "--json")
    assert code == 0 and json.loads(out)["ok"] is True
    code, out, _ = table("campaigns", "--json")
    assert json.loads(out)[0]["campaign_id"] == "lantern"


def test_log_filters_by_episode_scene_and_participant(table):
    table("episode", "start")
    table("call", "Ana", "--cast", "Iris")
    table("note", "Ana speaks", "--by", "Ana")
    table("call", "Ben")
    table("note", "Ben speaks", "--by", "Ben")
    _, out, _ = table("log", "--scene", "2", "--type", "note", "--json")
    assert [e["payload"]["text"] for e in json.loads(out)] == ["Ben speaks"]
    _, out, _ = table("log", "--participant", "Ana", "--json")
    assert {e["event_type"] for e in json.loads(out)} == {"participant.joined", "scene.opened", "note"}
    _, out, _ = table("log", "--episode", "1", "--json")
    assert len(json.loads(out)) == 6


def test_hidden_events_are_not_shown_to_other_players(table):
    table("note", "the mayor is the smuggler", "--visibility", "gm")
    _, out, _ = table("log", "--as", "Ana", "--json", "--type", "note")
    assert json.loads(out) == []
    _, out, _ = table("log", "--as", "Maya", "--json", "--type", "note")
    assert len(json.loads(out)) == 1


def test_status_as_of_the_end_of_a_scene(table):
    table("episode", "start")
    table("call", "Ana")
    table("call", "Ben")
    _, out, _ = table("status", "--end-of-scene", "1", "--json")
    data = json.loads(out)
    assert [s["number"] for s in data["scenes"]] == [1] and data["scene_in_play"] is None
    code, _, err = table("status", "--end-of-scene", "9")
    assert code == EXIT_CODES["invalid"] and "no scene 9" in err


def test_errors_are_one_line_on_stderr_with_an_exit_code_and_change_nothing(table):
    _, before, _ = table("export")
    code, out, err = table("join", "Ana")
    assert code == EXIT_CODES["invalid"]
    assert out == "" and err == "error: Ana is already at the table\n"
    code, _, err = table("retract", "2", "--reason", "x", "--by", "Ana")
    assert code == EXIT_CODES["invalid"] and "only a GM" in err
    assert table("export")[1] == before


def test_missing_database_and_campaign_are_clear_errors(cli, tmp_path):
    code, _, err = cli("log")
    assert code == EXIT_CODES["store"] and "no journal database" in err
    cli("init", "a", "--title", "A", "--gm", "Maya")
    cli("init", "b", "--title", "B", "--gm", "Maya")
    code, _, err = cli("log")
    assert code == EXIT_CODES["invalid"] and "several campaigns" in err
    assert cli("log", "--campaign", "b")[0] == 0


def test_verify_exits_non_zero_on_tampering(table, tmp_path):
    import sqlite3

    table("note", "true words")
    conn = sqlite3.connect(tmp_path / "journal.db")
    conn.execute("DROP TRIGGER events_refuse_update")
    conn.execute("UPDATE events SET payload = '{\"text\":\"false words\"}' WHERE sequence = 4")
    conn.commit()
    conn.close()
    code, _, err = table("verify")
    assert code == EXIT_CODES["faults"]
    assert "FAULT at event 4 (note): hash mismatch" in err
    code, out, _ = table("verify", "--json")
    assert json.loads(out)["faults"][0]["sequence"] == 4


def test_export_then_import_into_another_database(table, tmp_path, monkeypatch):
    table("note", "« quoted »")
    out_file = tmp_path / "lantern.jsonl"
    assert table("export", "-o", str(out_file))[0] == 0
    monkeypatch.setenv("YARNLOG_DB", str(tmp_path / "copy.db"))
    code, out, _ = table("import", str(out_file), "--json")
    assert code == 0 and json.loads(out) == {"campaign_id": "lantern", "already_present": 0, "imported": 4}
    assert table("export")[1] == out_file.read_text(encoding="utf-8")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(out_file.read_text().replace('"sequence":2', '"sequence":"2"'))
    monkeypatch.setenv("YARNLOG_DB", str(tmp_path / "third.db"))
    code, _, err = table("import", str(bad))
    assert code == EXIT_CODES["invalid"] and "line 2, field sequence" in err


def test_start_up_does_not_load_the_storage_stack():
    heavy = "('sqlalchemy', 'sqlmodel', 'pydantic', 'icepool', 'jinja2')"
    code = f"import sys, yarnlog.cli.main; print(sorted(m for m in {heavy} if m in sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


def test_help_outside_a_campaign_loads_no_storage_and_no_rules(tmp_path):
    """The verbs each system adds are listed from their light entry points, and a journal that does
    not exist is not opened: ``yarnlog --help`` on a fresh machine stays quick."""
    heavy = "('sqlalchemy', 'sqlmodel', 'icepool', 'yarnlog.rulesets.yarn.ruleset', 'yarnlog.app.journal')"
    code = ("import sys\nsys.argv = ['yarnlog', '--help']\nfrom yarnlog.cli.main import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            f"print(sorted(m for m in {heavy} if m in sys.modules), file=sys.stderr)")
    env = {**os.environ, "YARNLOG_DB": str(tmp_path / "none.db")}
    env.pop("YARNLOG_CAMPAIGN", None)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert "yarn adds: " in result.stdout
    assert result.stderr.strip().splitlines()[-1] == "[]"
    assert not (tmp_path / "none.db").exists()


def test_python_dash_m_runs_the_cli():
    result = subprocess.run([sys.executable, "-m", "yarnlog", "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "verify" in result.stdout


def test_an_unreachable_server_is_a_storage_error_not_a_traceback(cli):
    code, out, err = cli("--db", "postgresql://nobody@127.0.0.1:1/none", "status")
    assert code == EXIT_CODES["store"] and out == ""
    assert err.startswith("error: the journal database failed: ") and "Traceback" not in err


def test_as_of_counts_from_one(table):
    code, _, err = table("status", "--as-of", "0")
    assert code == EXIT_CODES["invalid"] and "counts events from 1" in err


def test_every_command_offers_json_output():
    import typer

    from yarnlog.cli.main import app
    from yarnlog.cli.verbs import commands_of

    def leaves(command, path):
        subcommands = getattr(command, "commands", None)
        if not subcommands:
            yield path, command
            return
        for name, sub in subcommands.items():
            yield from leaves(sub, [*path, name])

    commands = list(leaves(typer.main.get_command(app), []))
    for name in ("yarn", "dramasystem", "dramatis-personae", "yarn-polyhedral", "will-descriptors"):
        commands += [leaf for verb, command in commands_of(name).items() for leaf in leaves(command, [verb])]
    assert len(commands) > 50
    without = [" ".join(path) for path, command in commands
               if "--json" not in {opt for param in command.params for opt in getattr(param, "opts", [])}]
    assert without == []
