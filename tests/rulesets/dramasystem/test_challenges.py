"""Challenges and bennie spends in DramaSystem: the shared core Yarn shares, checked against the SRD
(digest 001: DS13-DS16, DS76-DS77, book-6)."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.referee import RuleViolation
from yarnlog.core.timeline import OpenScene
from yarnlog.rulesets.dramasystem.words import narrate
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_spends import SpendBennie
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferTokens
from yarnlog.rulesets.scenes_and_tokens.parts.scene_challenges import ChallengeByVote, DemandProcedural, Duck, Rush

from .storm_table import CAMPAIGN, want_args


def _give(journal, name: str, amount: int, currency: str = "drama") -> None:
    journal.execute(CAMPAIGN, TransferTokens("kitty", name, amount, reason="set up the scene", currency=currency))


def _held(journal, currency: str = "drama") -> dict[str, int]:
    economy = journal.state(CAMPAIGN).rules.economy
    return {n: k for n, k in (economy.tokens if currency == "drama" else economy.bennies).items() if k}


def _scene(journal, caller="Ana", cast=("Iris", "Tomas", "Vel")):
    journal.execute(CAMPAIGN, OpenScene(caller=caller, cast=cast, mode="dramatic", time_break="a week later"))
    return journal.state(CAMPAIGN).rules.drama.scenes[journal.state(CAMPAIGN).timeline.scene]


def _ok(journal) -> None:
    report = verify(journal.stored_events(CAMPAIGN), CAMPAIGN)
    assert report.ok, report


def test_ds14_ducking_a_compulsion_pays_the_caller_a_drama_token(journal):
    # DS14, line 215: "You can duck this compulsion by spending a drama token, which goes to the caller."
    _give(journal, "Cy", 1)
    _scene(journal)
    [ducked] = journal.execute(CAMPAIGN, Duck("Vel", compel=True, token=True))
    assert ducked.event_type == "dramasystem.challenge.ducked" and not ducked.payload.in_scene
    assert _held(journal) == {"Ana": 1}
    assert journal.state(CAMPAIGN).rules.drama.scenes[1].cast == ("Iris", "Tomas")
    _ok(journal)


def test_book_6_ducking_a_scene_with_a_cast_of_two_sends_the_caller_back_to_call_anew(journal):
    # DS14, line 217: "After you successfully duck a scene with a cast of two, leaving nothing to play, the
    # caller starts over, calling a new scene that does not include your character."
    _scene(journal, cast=("Iris", "Tomas"))
    [ducked] = journal.execute(CAMPAIGN, Duck("Tomas", compel=False))
    assert ducked.payload.caller_starts_over and journal.state(CAMPAIGN).rules.drama.recall.caller == "Ana"
    _ok(journal)


def test_ds15_a_rush_pays_the_caller_and_costs_nothing_with_consent(journal):
    # DS15, lines 221-223: "spend a drama token (p. 8) or a bennie (p. 18.) The caller receives the token
    # or bennie. It costs nothing to join a scene if the caller consents to your joining."
    _give(journal, "Cy", 1)
    _scene(journal, cast=("Iris", "Tomas"))
    journal.execute(CAMPAIGN, Rush("Vel", payment="token"))
    assert _held(journal) == {"Ana": 1}
    _scene(journal, caller="Ben", cast=("Tomas",))
    journal.execute(CAMPAIGN, Rush("Iris", consent=True))
    assert _held(journal) == {"Ana": 1} and "Iris" in journal.state(CAMPAIGN).rules.drama.scenes[2].cast
    _ok(journal)


def test_ds15_a_caller_blocks_a_rush_with_a_bennie_and_the_rusher_keeps_hers(journal):
    # DS76, line 738: "to block another player's attempt to jump into a scene you've called. (Blocked
    # players keep the bennies they would have spent.)"
    _give(journal, "Ana", 1, "bennie")
    _give(journal, "Cy", 1, "bennie")
    _scene(journal, cast=("Iris", "Tomas"))
    [rushed] = journal.execute(CAMPAIGN, Rush("Vel", payment="bennie", blocked=True))
    assert not rushed.payload.joined and _held(journal, "bennie") == {"Cy": 1}
    _ok(journal)


def test_ds13_a_challenge_is_a_show_of_hands_of_all_players(journal):
    # DS13, line 205: "With a show of hands, all players side with the caller or the challenger. The GM
    # votes to break ties."
    _scene(journal)
    with pytest.raises(RuleViolation, match="Cy did not vote"):
        journal.execute(CAMPAIGN, ChallengeByVote("time jump", "Ben", ("Ana",), ("Ben",), "challenger"))
    [voted] = journal.execute(CAMPAIGN, ChallengeByVote("time jump", "Ben", ("Ana",), ("Ben", "Cy")))
    assert voted.event_type == "dramasystem.challenge.voted" and voted.payload.winner == "challenger"
    assert journal.state(CAMPAIGN).rules.drama.scenes[1].time_break == ""
    _ok(journal)


def test_ds16_one_objector_is_enough_to_go_to_procedural(journal):
    # DS16, line 251: "it takes only one objector to trigger a procedural resolution."
    _scene(journal)
    [demanded] = journal.execute(CAMPAIGN, DemandProcedural("Ana", ("Cy",), "procedural", "I climb the cliff"))
    assert demanded.event_type == "dramasystem.challenge.procedural_demanded"
    assert narrate(demanded, None) == "Cy demands a procedural resolution of Ana's narration: the cards decide."
    # "The narrating player may avoid the procedural resolution by either withdrawing the description
    # entirely, or adjusting it to satisfy the objector(s)." (251)
    [adjusted] = journal.execute(CAMPAIGN, DemandProcedural("Ana", ("Cy", "Ben"), "adjust", "I climb the cliff"))
    assert narrate(adjusted, None) == "Ben and Cy demand a procedural resolution of Ana's narration: Ana adjusts it."
    _ok(journal)


def test_ds76_ds77_a_bennie_buys_a_drama_token_and_only_one_is_spent_a_scene(journal):
    # DS76, line 728: "a dramatic token"; DS77, line 742: "You may spend only one bennie per scene."
    _give(journal, "Ana", 2, "bennie")
    _scene(journal)
    [spent] = journal.execute(CAMPAIGN, SpendBennie("Ana", "drama-token"))
    assert spent.event_type == "dramasystem.bennie.spent"
    assert _held(journal) == {"Ana": 1} and _held(journal, "bennie") == {"Ana": 1}
    with pytest.raises(RuleViolation) as refused:
        journal.execute(CAMPAIGN, SpendBennie("Ana", "drama-token"))
    assert "DramaSystem SRD (DS76-DS77, lines 722-742)" in str(refused.value)
    _ok(journal)


def test_the_cli_challenges_a_scene_with_json(cli):
    import json

    for args in (("init", "storm", "--title", "Storm", "--gm", "Maya", "--ruleset", "dramasystem"),
                 ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--player", "Ana", "--strong", "Fighting,Talking",
                  "--weak", "Knowing,Making"),
                 ("character", "create", "Tomas", "--player", "Ben", "--strong", "Moving,Sneaking",
                  "--weak", "Talking,Enduring"),
                 *want_args(("Iris", "Tomas")),
                 ("episode", "start", "--title", "Fog", "--theme", "trust"),
                 ("scene", "open", "--caller", "Ana", "--cast", "Iris,Tomas", "--mode", "dramatic")):
        code, _, err = cli(*args)
        assert code == 0, (args, err)
    code, out, err = cli("challenge", "duck", "Tomas", "--json")
    assert code == 0, err
    assert [e["event_type"] for e in json.loads(out)] == ["dramasystem.challenge.ducked"]
    code, _, err = cli("bennie", "spend", "Ana", "drama-token")
    assert code == 3 and err == "Refused. Ana has no bennie to spend (Spending Bennies).\n"
    code, _, err = cli("bennie", "spend", "Ana", "drama-token", "--json")  # the rule whole
    assert code == 3 and "DS76-DS77" in err and len(err.strip().splitlines()) == 1
