"""A disputed "no" goes to the group's vote, the caller breaking a tie (DS20, lines 309-315), through
DramaSystem's command line."""

from __future__ import annotations

import json

from .storm_table import want_args

SETUP = (
    ("init", "storm", "--title", "Storm", "--gm", "Maya", "--ruleset", "dramasystem"),
    ("join", "Ana"), ("join", "Ben"), ("join", "Cy"),
    ("character", "create", "Iris", "--player", "Ana", "--strong", "Fighting,Talking", "--weak", "Knowing,Making"),
    ("character", "create", "Tomas", "--player", "Ben", "--strong", "Moving,Sneaking", "--weak", "Talking,Enduring"),
    ("character", "create", "Vel", "--player", "Cy", "--strong", "Knowing,Making", "--weak", "Fighting,Moving"),
    *want_args(),
    ("episode", "start", "--title", "Fog", "--theme", "trust"),
    ("call", "Ana", "--cast", "Iris,Tomas", "--mode", "dramatic"),
)
PETITION = ("petition", "refused", "--petitioner", "Iris", "--granter", "Tomas")


def _table(cli) -> None:
    for args in SETUP:
        code, _, err = cli(*args)
        assert code == 0, (args, err)


def _tokens(cli) -> dict[str, int]:
    code, out, err = cli("tokens", "--json")
    assert code == 0, err
    return {p["name"]: p["drama_tokens"] for p in json.loads(out)["participants"] if p["drama_tokens"]}


def test_a_disputed_no_is_settled_by_the_group_s_vote_gm_included(cli):
    # DS20, line 315: "If the answer is no, but other participants feel that a significant shift in
    # emotional power from granter to petitioner occurred, the group, including GM, votes."
    _table(cli)
    code, out, err = cli(*PETITION, "--for-grant", "Cy,Maya,Ben", "--for-refusal", "Ana", "--json")
    assert code == 0, err
    [resolved] = json.loads(out)
    assert resolved["event_type"] == "dramasystem.petition.resolved"
    assert resolved["payload"]["outcome"] == "granted"
    # DS21, line 319: a granted petition pays the granter a token (the kitty's, as Iris's player has none).
    assert _tokens(cli) == {"Ben": 1}


def test_a_tied_vote_needs_the_caller_s_extra_vote(cli):
    # DS20, line 315: "The scene's caller gets an extra tie-breaking vote, where necessary."
    _table(cli)
    _, before, _ = cli("export")
    code, out, err = cli(*PETITION, "--for-grant", "Cy,Maya", "--for-refusal", "Ana,Ben")
    assert code == 2 and out == "" and err.count("\n") == 1 and "the scene's caller must break the tie" in err
    assert cli("export")[1] == before  # nothing written
    code, out, err = cli(*PETITION, "--for-grant", "Cy,Maya", "--for-refusal", "Ana,Ben", "--tie", "refused",
                         "--json")
    assert code == 0, err
    [resolved] = json.loads(out)
    assert resolved["payload"]["outcome"] == "refused"
    assert resolved["payload"]["vote"]["caller_tie_break"] == "refused"


def test_the_caller_has_no_extra_vote_without_a_tie(cli):
    _table(cli)
    code, _, err = cli(*PETITION, "--for-grant", "Cy,Maya,Ben", "--for-refusal", "Ana", "--tie", "refused")
    assert code == 2 and "has no tie-breaking vote" in err and err.count("\n") == 1


def test_everyone_at_the_table_votes(cli):
    _table(cli)
    code, _, err = cli(*PETITION, "--for-grant", "Cy,Maya", "--for-refusal", "Ana")
    assert code == 3 and err.startswith("Refused. Ben did not vote") and err.count("\n") == 1
