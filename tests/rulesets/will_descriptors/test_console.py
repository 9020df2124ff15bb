"""``yarnlog play`` on a Will & Descriptors campaign: the same verbs, completed, recorded, refused."""

from __future__ import annotations

import io
import json

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
