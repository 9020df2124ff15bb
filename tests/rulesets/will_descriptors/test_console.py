"""``yarnlog play`` on a Will & Descriptors campaign: the same verbs, completed, recorded, refused."""

from __future__ import annotations

import io
import json
import os
import shutil

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from yarnlog.cli.console import Console
from yarnlog.cli.context import open_journal

from .test_cli import table  # noqa: F401  (the fixture)


@pytest.fixture
def console(table, tmp_path):  # noqa: F811
    return Console(open_journal(), str(tmp_path / "journal.db"), "ropes", confirm=lambda question: True,
                   out=io.StringIO(), err=io.StringIO())


def completions(console: Console, text: str) -> list[str]:
    found = console.completer().get_completions(Document(text), CompleteEvent(completion_requested=True))
    return [c.text for c in found]


def test_the_completer_offers_the_systems_verbs(console):
    verbs = {"opposed", "describe", "stick", "harm", "refresh", "xp", "advance", "board"}
    assert verbs <= set(completions(console, ""))
    assert "--against" in completions(console, "opposed Christopher --ag")


def test_moves_are_recorded_and_refusals_write_nothing(console, table, capsys):  # noqa: F811
    assert console.dispatch("opposed Christopher --against Bob --use Knots --oppose Slippery "
                            "--faces 9,8,7 --against-faces 6,2") == 0
    assert "Christopher wins with 3 successes over 6" in capsys.readouterr().out
    assert console.dispatch("refresh Bob") == 3  # W21: not in the middle of a scene
    assert console.dispatch("harm Bob") == 0
    capsys.readouterr()
    code, out, _ = table("log", "--json")
    assert [e["event_type"] for e in json.loads(out)][-2:] == ["will-descriptors.roll.made",
                                                               "will-descriptors.harm.taken"]


def test_dice_says_how_many_dice_a_roll_uses(console, capsys):
    assert console.dispatch("dice? opposed Christopher --against Bob --use Knots --oppose Slippery") == 0
    assert "3d10" in console.out.getvalue() + capsys.readouterr().out


def test_the_status_line_shows_each_players_character_and_will(console, table):  # noqa: F811
    """W1, line 2: Will starts at 9. W5, line 4: 1 Will per descriptor (Christopher pays for Knots and
    Bob's Proud, Bob for Slippery); W6, line 4: Bob's Proud used against him gives him 1 Will back."""
    status = console.refresh()
    assert "Ana/Christopher Will 9/9 | Ben/Bob Will 9/9 | Maya" in status
    assert console.dispatch("opposed Christopher --against Bob --use Knots --use Bob:Proud --oppose Slippery "
                            "--faces 9,8,7,3,1 --against-faces 6,2") == 0
    assert console.dispatch("harm Bob") == 0  # W15: 3 successes cross off box 3
    status = console.refresh()
    assert "Ana/Christopher Will 7/9 | Ben/Bob Will 9/9 crossed 3/5 | Maya" in status


def test_a_second_character_of_a_player_and_one_out_of_the_scene(console, table):  # noqa: F811
    """W18: out of the scene when the highest box (5 of 5) is crossed; W5: 2 Will for 2 descriptors."""
    assert table("character", "create", "Abigail", "--player", "Ana", "-d", "Persuasive=3")[0] == 0
    assert console.dispatch("opposed Christopher --against Bob --use Knots --use Strong "
                            "--oppose Slippery --faces 10,10,10,10,10 --against-faces 1,1") == 0
    assert console.dispatch("harm Bob") == 0
    status = console.refresh()
    assert "Ana/Christopher Will 7/9 Abigail Will 9/9 | Ben/Bob Will 8/9 crossed 5/5 out" in status


def test_the_completer_offers_the_systems_character_names(console, table):  # noqa: F811
    assert set(completions(console, "harm ")) >= {"Christopher", "Bob"}
    assert completions(console, "opposed Chr") == ["Christopher"]
    assert "Bob" in completions(console, "opposed Christopher --against B")
    assert console.dispatch("character create Abigail --player Ben") == 0
    assert completions(console, "sheet Ab") == ["Abigail"]  # a character created a moment ago
    assert completions(console, "recover Ab") == ["Abigail"]
    assert "Christopher" in completions(console, "recover Bob --injury Rope --healer ")
    assert "Bob" in completions(console, "stick 'Tied up' --payer Christopher --to ")
    assert "Bob" in completions(console, "stick 'Tied up' --payer ")
    assert "Bob" in completions(console, "refresh Christopher --with ")
    assert "Bob" in completions(console, "describe 'Tied up' --about ")
    assert completions(console, "advance Bob raise ") == []  # a descriptor, not a character


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_yarnlog_play_in_a_real_terminal_shows_will_and_completes_names(table, tmp_path):  # noqa: F811
    """The status line and the completion as a person sees them (tmux send-keys, capture-pane)."""
    from test_console_tmux import Terminal, yarnlog_command

    from yarnlog.cli.context import close_journal

    close_journal()
    env = {"TERM": "xterm-256color", "HOME": str(tmp_path), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    terminal = Terminal([*yarnlog_command(), "--db", str(tmp_path / "journal.db"), "play"], env, columns=120)
    try:
        screen = terminal.wait_for("Ben/Bob Will 9/9")
        assert "Ana/Christopher Will 9/9 | Ben/Bob Will 9/9 | Maya" in screen
        terminal.type("opposed Chri", enter=False)
        terminal.key("Tab")
        terminal.wait_for("ropes> opposed Christopher")
        terminal.type(" --against Bob --use Knots --oppose Slippery --faces 9,8,7 --against-faces 6,2")
        terminal.wait_for("Christopher wins with 3 successes over 6")
        terminal.type("harm Bob")
        screen = terminal.wait_for("crossed 3/5")  # W5: 1 Will each; W15: box 3 crossed
        assert "Ana/Christopher Will 8/9 | Ben/Bob Will 8/9 crossed 3/5 | Maya" in screen
    finally:
        terminal.close()


def test_every_move_of_the_contract_session_is_recorded_in_the_console(cli, tmp_path, capsys):
    """Each move of the session (contract.py) typed at ``yarnlog play`` is recorded as the command line
    records it, and each refused one writes nothing."""
    import shlex

    from .contract import SESSION

    lines = []
    for raw in SESSION.replace("\\\n", " ").splitlines():
        words = shlex.split(raw, comments=True)
        if words:
            refused = words[0] == "!"
            lines.append((shlex.join(words[2:] if refused else words[1:]), refused))
    (init, _), *moves = lines
    assert cli(*shlex.split(init))[0] == 0
    console = Console(open_journal(), str(tmp_path / "journal.db"), "ropes", confirm=lambda question: True,
                      out=io.StringIO(), err=io.StringIO())
    for line, refused in moves:
        before = json.loads(cli("log", "--json")[1])
        code = console.dispatch(line)
        capsys.readouterr()
        assert (code != 0) if refused else (code == 0), (line, console.err.getvalue())
        if refused:
            assert json.loads(cli("log", "--json")[1]) == before, line
    moves_recorded = {e["event_type"] for e in json.loads(cli("log", "--json")[1])}
    assert {"will-descriptors." + kind for kind in (
        "character.created", "roll.made", "scene-descriptor.created", "scene-descriptor.stuck", "harm.taken",
        "stalemate.shifted", "refreshment.had", "xp.awarded", "advance.spent", "ruling.recorded")} <= moves_recorded
