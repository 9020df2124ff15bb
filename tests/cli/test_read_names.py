"""Issue 26, "Names with spaces": a read takes a participant's or character's name as a write does,
ignoring case or by a unique first name or prefix (``recap --as ana``, ``ledger --participant ana``,
``sheet iris`` for Iris Vane), and says which when two match."""

from __future__ import annotations

from pathlib import Path

import pytest

SHEETS = Path(__file__).resolve().parents[2] / "journals" / "sheets"


@pytest.fixture
def table(cli):
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("join", "Ana"), ("join", "Ben"),
                 ("join", "Tam Okafor"), ("join", "Tam Vo"),
                 ("character", "create", "Iris", "--from-file", str(SHEETS / "iris.json")),
                 ("episode", "start", "--title", "Fog"),
                 ("ruling", "tokens", "--from", "kitty", "--to", "Ana", "--amount", "1", "--reason", "a toast"),
                 ("note", "the fog rolls in")):
        assert cli(*args)[0] == 0, args
    return cli


def test_a_participant_is_found_ignoring_case_or_by_a_unique_prefix(table):
    code, out, err = table("ledger", "--participant", "ana")
    assert code == 0, err
    assert out.startswith("Ledger of Ana ") and "+1 = 1" in out
    for args in (("recap", "--as", "an"), ("log", "--as", "ANA"), ("dice-stats", "--as", "ana")):
        code, _, err = table(*args)
        assert code == 0, (args, err)
    code, out, _ = table("recap", "--as", "an")
    assert "Ana's recap" in out


def test_two_names_begun_alike_are_named_and_nothing_is_guessed(table):
    code, out, err = table("recap", "--as", "Tam")
    assert code == 2 and out == ""
    assert err == "error: Tam is not at the table; Tam matches Tam Okafor and Tam Vo: say which\n"
    code, _, err = table("ledger", "--participant", "Zed")
    assert code == 2 and err.startswith("error: Zed is not at the table")


def test_a_character_sheet_is_found_by_its_name_in_any_case_or_a_prefix(table):
    for typed in ("iris", "Ir"):
        code, out, err = table("sheet", typed)
        assert code == 0, err
        assert out.startswith("Iris, played by Ana")
