"""Names typed at the table are matched to names as registered, ignoring case, with a suggestion for
a near miss; what is recorded carries the name as registered, and verify still holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from yarnlog.cli.main import EXIT_CODES
from yarnlog.core.names import (
    Registered,
    canonical,
    completed,
    did_you_mean,
    resolve_command,
    starting_with,
    which_match,
)
from yarnlog.core.referee import InvalidCommand
from yarnlog.core.table import AddParticipant, RemoveParticipant
from yarnlog.core.timeline import AddNote

SHEETS = Path(__file__).resolve().parents[2] / "journals" / "sheets"


def test_a_name_is_resolved_to_the_one_registered_name_equal_ignoring_case():
    assert canonical("mara", ["Mara", "Ilo"]) == "Mara"
    assert canonical(" ILO ", ["Mara", "Ilo"]) == "Ilo"
    assert canonical("Marra", ["Mara"]) == "Marra"  # no match: left for the decider to refuse
    assert canonical("ana", ["Ana", "ANA"]) == "ana"  # two registered names differ only in case: ambiguous


def test_a_near_miss_is_suggested():
    assert did_you_mean("Marra", ["Mara", "Ilo"]) == "; did you mean Mara?"
    assert did_you_mean("Zed", ["Mara", "Ilo"]) == ""


def test_only_name_fields_are_resolved_never_free_text():
    assert resolve_command(AddNote(text="ana"), ["Ana"]) == AddNote(text="ana")
    assert resolve_command(RemoveParticipant(name="ana", reason="ana"), ["Ana"]) == \
        RemoveParticipant(name="Ana", reason="ana")


class Unlisted(dict):
    """A map of names that may be looked up but not walked: walking it fails the test."""

    def __iter__(self):
        raise AssertionError("the registered names were walked")


def test_a_name_typed_as_registered_is_looked_up_not_searched_for():
    # The console's moves must not grow with the campaign: a long one registers thousands of
    # supporting characters and locations, and a move that names them as registered walks none.
    many = Unlisted.fromkeys(f"Extra {i}" for i in range(10_000))
    names = Registered({"Maya": "gm", "Ana": "player"}, many)
    assert resolve_command(RemoveParticipant(name="Ana", reason="ana"), names) == \
        RemoveParticipant(name="Ana", reason="ana")
    assert resolve_command(RemoveParticipant(name="Extra 9999"), names).name == "Extra 9999"
    with pytest.raises(AssertionError, match="walked"):  # another case is searched for, among all of them
        resolve_command(RemoveParticipant(name="extra 9999"), names)
    assert resolve_command(RemoveParticipant(name="extra 9"), Registered(dict(many))).name == "Extra 9"


def test_the_recorded_event_carries_the_name_as_registered(journal, campaign):
    recorded = journal.execute(campaign, RemoveParticipant(name="cy"), by="maya")
    assert recorded[0].payload.name == "Cy" and recorded[0].recorded_by == "Maya"
    with pytest.raises(InvalidCommand, match="Ana is already at the table"):
        journal.execute(campaign, AddParticipant(name="ana"))  # one person, whatever the case typed
    with pytest.raises(InvalidCommand, match="did you mean Ben"):
        journal.execute(campaign, RemoveParticipant(name="Benn"))
    assert journal.verify(campaign).ok


@pytest.fixture
def seated(cli):
    assert cli("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya")[0] == 0
    for args in (("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--from-file", str(SHEETS / "iris.json")),
                 ("character", "create", "Tomas", "--from-file", str(SHEETS / "tomas.json")),
                 ("episode", "start", "--title", "Fog")):
        assert cli(*args)[0] == 0, args
    return cli


def test_cast_and_caller_match_ignoring_case_and_verify_holds(seated):
    code, out, err = seated("call", "ana", "--cast", "Iris,tomas", "--json")
    assert code == 0, err
    payload = json.loads(out)[0]["payload"]
    assert payload["caller"] == "Ana" and payload["cast"] == ["Iris", "Tomas"]
    assert seated("verify")[0] == 0


def test_an_unknown_name_is_one_line_with_a_suggestion_and_writes_nothing(seated):
    _, before, _ = seated("export")
    code, out, err = seated("call", "Ana", "--cast", "Iris,Tomass")
    assert code == EXIT_CODES["invalid"] and out == ""
    assert err.count("\n") == 1 and "did you mean Tomas?" in err
    code, _, err = seated("note", "hi", "--by", "Mya")
    assert code == EXIT_CODES["invalid"] and "did you mean Maya?" in err
    assert seated("export")[1] == before


# -- issue 26: names with spaces, taken by a unique first name or prefix ---------------------------


def test_a_prefix_begins_names_and_two_begun_are_named():
    known = ["Marek Dunn", "Marek Vas", "Tam Okafor", "Maya"]
    assert starting_with("marek", known) == ["Marek Dunn", "Marek Vas"]
    assert starting_with("Ta", known) == ["Tam Okafor"] and starting_with(" ", known) == []
    assert which_match("Marek", known) == "; Marek matches Marek Dunn and Marek Vas: say which"
    assert which_match("Tam", known) == ""
    refused = RemoveParticipant(name="Tam", reason="Tam left")
    assert completed(refused, known, "Tam is not at the table") == RemoveParticipant(name="Tam Okafor",
                                                                                    reason="Tam left")
    assert completed(RemoveParticipant(name="Marek"), known, "Marek is not at the table") is None
    assert completed(RemoveParticipant(name="Tam"), known, "another refusal") is None


def test_a_unique_first_name_or_prefix_is_taken_on_the_command_line_and_two_are_named(cli):
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("join", "Tam Okafor"),
                 ("join", "Marek Dunn"), ("join", "Marek Vas"), ("join", "Tomas")):
        assert cli(*args)[0] == 0, args
    code, out, err = cli("note", "fog", "--by", "Tam", "--json")
    assert code == 0 and json.loads(out)[0]["recorded_by"] == "Tam Okafor", err
    code, out, err = cli("note", "fog", "--by", "Marek")
    assert (code, out) == (EXIT_CODES["invalid"], "")
    assert err == "error: Marek is not at this campaign's table; Marek matches Marek Dunn and Marek Vas: say which\n"
    code, out, err = cli("leave", "marek v", "--json")  # a name field of the command itself
    assert code == 0 and json.loads(out)[0]["payload"]["name"] == "Marek Vas", err
    code, out, err = cli("join", "Tom", "--json")  # a new name is never taken for the one it begins
    assert code == 0 and json.loads(out)[0]["payload"]["name"] == "Tom", err
