"""DramaSystem's dramatic side: the core it shares with Yarn, recorded under DramaSystem's prefix and
checked against the SRD (digest 001: DS18-DS27, book-2, book-4, book-5)."""

from __future__ import annotations

import json

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.events import Payload
from yarnlog.core.referee import InvalidCommand, RuleViolation
from yarnlog.core.timeline import EndEpisode, OpenScene, StartEpisode
from yarnlog.rulesets.dramasystem.ruleset import RULESET
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote import CastBallot
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferTokens
from yarnlog.rulesets.scenes_and_tokens.parts.petitions import Force, QuizPetitioners, ResolvePetition, TwoWay

from .storm_table import CAMPAIGN, want_args


def _tokens(journal) -> dict[str, int]:
    return {name: n for name, n in journal.state(CAMPAIGN).rules.economy.tokens.items() if n}


def _give(journal, name: str, amount: int) -> None:
    journal.execute(CAMPAIGN, TransferTokens("kitty", name, amount, reason="set up the scene"))


def _dramatic(journal, caller="Ana", cast=("Iris", "Tomas")) -> None:
    journal.execute(CAMPAIGN, OpenScene(caller=caller, cast=cast, mode="dramatic"))


def _ok(journal) -> None:
    report = verify(journal.stored_events(CAMPAIGN), CAMPAIGN)
    assert report.ok, report


def test_every_dramatic_event_is_recorded_under_dramasystem_s_own_prefix(journal):
    _dramatic(journal)
    recorded = journal.execute(CAMPAIGN, ResolvePetition("Iris", "Tomas", "granted"))
    assert [r.event_type for r in recorded] == ["dramasystem.petition.resolved"]
    assert all(RULESET.owns(r.event_type) for r in recorded)


def test_a_grant_pays_the_granter_from_the_petitioner_or_the_kitty(journal):
    # DS21, line 319: "the granter earns a drama token--from the petitioner if he has one, or from the kitty if not."
    _dramatic(journal)
    [granted] = journal.execute(CAMPAIGN, ResolvePetition("Iris", "Tomas", "granted"))
    assert [(t.source, t.destination) for t in granted.payload.transfers] == [("kitty", "Ben")]
    _dramatic(journal)
    journal.execute(CAMPAIGN, ResolvePetition("Iris", "Tomas", "granted"))
    assert _tokens(journal) == {"Ben": 2}
    _give(journal, "Ana", 1)
    _dramatic(journal)
    [paid] = journal.execute(CAMPAIGN, ResolvePetition("Iris", "Tomas", "granted"))
    assert [(t.source, t.destination) for t in paid.payload.transfers] == [("Ana", "Ben")]
    _ok(journal)


def test_a_refusal_pays_the_petitioner_from_the_granter_or_the_kitty(journal):
    # DS21, line 323: "the petitioner gains the token—from the granter if she has one, or from the kitty if not."
    _give(journal, "Ben", 1)
    _dramatic(journal)
    journal.execute(CAMPAIGN, ResolvePetition("Iris", "Tomas", "refused"))
    assert _tokens(journal) == {"Ana": 1}
    _dramatic(journal)
    journal.execute(CAMPAIGN, ResolvePetition("Iris", "Tomas", "refused"))
    assert _tokens(journal) == {"Ana": 2}
    _ok(journal)


def test_a_force_pays_the_granter_the_two_tokens(journal):
    # DS22, line 329: "the forced granter receives the two drama tokens from the petitioner"
    _give(journal, "Ana", 2)
    _dramatic(journal)
    journal.execute(CAMPAIGN, Force("Iris", "Tomas"))
    assert _tokens(journal) == {"Ben": 2}
    _ok(journal)


def test_book_2_a_blocked_force_is_a_net_gain_of_three_for_the_petitioner(journal):
    # DS23, line 331: "The petitioner does not spend the 2 tokens that would have been spent on the
    # force, for a net gain of 3."
    _give(journal, "Ana", 2)
    _give(journal, "Ben", 3)
    _dramatic(journal)
    journal.execute(CAMPAIGN, Force("Iris", "Tomas", blocked=True))
    assert _tokens(journal) == {"Ana": 5}
    _ok(journal)


def test_supporters_of_a_blocked_force_get_their_tokens_back(journal):
    # DS25, line 339: "If you support a force which the granter then blocks, you get your tokens back."
    _give(journal, "Ana", 1)
    _give(journal, "Cy", 1)
    _give(journal, "Ben", 3)
    _dramatic(journal, cast=("Iris", "Tomas", "Vel"))
    journal.execute(CAMPAIGN, Force("Iris", "Tomas", blocked=True, support={"Vel": 1}))
    assert _tokens(journal) == {"Ana": 4, "Cy": 1}
    _ok(journal)


def test_a_force_the_petitioner_cannot_pay_is_refused_citing_the_srd(journal):
    # DS22, line 327: "by spending two drama tokens, force the granter"
    _dramatic(journal)
    with pytest.raises(RuleViolation) as refused:
        journal.execute(CAMPAIGN, Force("Iris", "Tomas"))
    assert refused.value.rule.book == "DramaSystem SRD (DS22-DS24, lines 325-333)"
    assert "DramaSystem SRD" in str(refused.value) and "Yarn" not in str(refused.value)
    assert _tokens(journal) == {}


def test_book_4_a_two_way_exchange_both_granted_comes_from_the_kitty_or_cancels(journal):
    # DS26, line 357: "each receives a drama token. If both players have a drama token already, this
    # cancels out [...] If one or more have zero drama tokens, however, the missing token(s) come from the kitty."
    _dramatic(journal)
    journal.execute(CAMPAIGN, TwoWay("Iris", "Tomas", True, True))
    assert _tokens(journal) == {"Ana": 1, "Ben": 1}
    _dramatic(journal)
    [cancelled] = journal.execute(CAMPAIGN, TwoWay("Iris", "Tomas", False, False))
    assert cancelled.payload.transfers == [] and _tokens(journal) == {"Ana": 1, "Ben": 1}
    _ok(journal)


def test_book_5_a_two_way_exchange_one_granted_one_denied_costs_the_denier_two(journal):
    # DS26, line 359: "the denying player pays the granting player two tokens. If the denier has less
    # than 2 tokens, the deficit is made up from the kitty."
    # Iris's petition granted (by Tomas), Tomas's denied (by Iris): Ana, who denied, pays Ben.
    _give(journal, "Ana", 1)
    _dramatic(journal)
    [split] = journal.execute(CAMPAIGN, TwoWay("Iris", "Tomas", True, False))
    assert sorted((t.source, t.destination, t.amount) for t in split.payload.transfers) == [
        ("Ana", "Ben", 1), ("kitty", "Ben", 1)]
    assert _tokens(journal) == {"Ben": 2}
    _ok(journal)


def test_a_scene_ends_with_one_exchange(journal):
    _dramatic(journal)
    journal.execute(CAMPAIGN, ResolvePetition("Iris", "Tomas", "refused"))
    with pytest.raises(InvalidCommand, match=r"already ended with its exchange \(a petition\): call the next scene"):
        journal.execute(CAMPAIGN, ResolvePetition("Iris", "Tomas", "granted"))
    _give(journal, "Ana", 2)
    before = len(journal.stored_events(CAMPAIGN))
    with pytest.raises(InvalidCommand) as refused:
        journal.execute(CAMPAIGN, Force("Iris", "Tomas"))
    assert "(a petition)" in str(refused.value) and "dramasystem." not in str(refused.value)
    assert len(journal.stored_events(CAMPAIGN)) == before  # nothing written


def test_several_petitioners_need_a_precedence_order_drawn_which_dramasystem_does_not_record_yet(journal):
    # DS27, line 381: "The GM quizzes each participating player, in a newly drawn precedence order"
    _dramatic(journal, cast=("Iris", "Tomas", "Vel"))
    with pytest.raises(InvalidCommand, match="precedence order"):
        journal.execute(CAMPAIGN, QuizPetitioners((("Iris", "Tomas", True), ("Vel", "Iris", False))))


def test_unspent_tokens_return_to_the_kitty_and_each_episode_starts_at_zero(journal):
    # DS18-DS19, lines 273-275: "Everyone starts each episode with zero tokens." "Drama tokens left
    # unspent at the end of a session [...] revert to the kitty. They do not carry over"
    _dramatic(journal)
    journal.execute(CAMPAIGN, TwoWay("Iris", "Tomas", True, True))
    for voter, ranking in (("Maya", ("Ana", "Ben", "Cy")), ("Ana", ("Ben", "Cy")), ("Ben", ("Ana", "Cy")),
                           ("Cy", ("Ana", "Ben"))):
        journal.execute(CAMPAIGN, CastBallot(voter, ranking))
    ended = journal.execute(CAMPAIGN, EndEpisode())
    assert [r.event_type for r in ended][-2:] == ["dramasystem.tokens.returned", "episode.ended"]
    journal.execute(CAMPAIGN, StartEpisode(title="Ash", theme="loss"))
    assert _tokens(journal) == {}
    _ok(journal)


def test_verify_names_a_petition_recorded_with_the_wrong_exchange(journal):
    from yarnlog.core.decide import audit
    from yarnlog.rulesets.dramasystem.parts.drama import PETITIONS
    from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferLine

    _dramatic(journal)
    forged = PETITIONS.events.resolved(scene=1, petitioner="Iris", granter="Tomas", petitioner_holder="Ana",
                                       granter_holder="Ben", answer="refused", outcome="refused",
                              transfers=[TransferLine(amount=3, source="kitty", destination="Ana",
                                                      chapter="Gaining Tokens", rule="...")])
    journal.commands.append(CAMPAIGN, journal.store.last_sequence(CAMPAIGN), [forged], by="Maya", visibility="everyone")
    faults = audit(journal.history(CAMPAIGN))
    assert len(faults) == 1 and faults[0].problem.startswith("transfers is recorded as")
    assert not verify(journal.stored_events(CAMPAIGN), CAMPAIGN).ok


def test_the_cli_records_petitions_forces_and_two_way_exchanges_with_json(cli):
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
    code, out, _ = cli("petition", "granted", "-p", "Iris", "-g", "Tomas", "--json")
    assert code == 0
    assert [e["event_type"] for e in json.loads(out)] == ["dramasystem.petition.resolved"]
    code, out, _ = cli("explain", str(json.loads(out)[0]["sequence"]))
    # DS21, line 319: the granter "earns a drama token ... from the kitty" when the petitioner has none.
    assert code == 0 and "The kitty gives Ben 1 drama token (Gaining Tokens)." in " ".join(out.split())
    code, _, err = cli("force", "-p", "Iris", "-g", "Tomas")
    assert code == 2 and "already ended" in err and len(err.strip().splitlines()) == 1
    cli("scene", "open", "--caller", "Ben", "--cast", "Iris,Tomas", "--mode", "dramatic")
    code, out, err = cli("force", "-p", "Tomas", "-g", "Iris")
    assert code == 3 and err.startswith("Refused. ") and len(err.strip().splitlines()) == 1
    code, out, err = cli("force", "-p", "Tomas", "-g", "Iris", "--json")  # the rule whole
    assert code == 3 and "DramaSystem SRD (DS22-DS24" in err and len(err.strip().splitlines()) == 1
    code, out, _ = cli("two-way", "--granted", "Iris", "--denied", "Tomas")
    assert code == 0 and "Two-way exchange: Iris granted, Tomas denied." in out and "Drama tokens:" in out
    code, _, err = cli("verify")
    assert code == 0, err


def test_the_core_payloads_are_declared_once_and_registered_per_ruleset():
    from yarnlog.rulesets.dramasystem.parts import drama
    from yarnlog.rulesets.scenes_and_tokens.parts import petitions
    from yarnlog.rulesets.yarn.parts.drama import petitions as yarn_petitions

    for ds, yarn, base in ((drama.PETITIONS.events.resolved, yarn_petitions.PETITIONS.events.resolved,
                            petitions.PetitionResolved),
                           (drama.PETITIONS.events.forced, yarn_petitions.PETITIONS.events.forced,
                            petitions.PetitionForced)):
        assert ds.__mro__[1] is base and yarn.__mro__[1] is base and issubclass(base, Payload)
        assert ds.event_type == "dramasystem." + yarn.event_type.removeprefix("yarn.")
        assert ds.model_fields.keys() == yarn.model_fields.keys()


def test_what_was_sought_is_recorded_and_told_and_left_out_when_absent(journal):
    # Issue 26: --sought, stored only when given (the events before it keep their bytes).
    from yarnlog.rulesets.dramasystem.words import narrate

    _dramatic(journal)
    [asked] = journal.execute(CAMPAIGN, ResolvePetition("Iris", "Tomas", "granted", sought="a berth"))
    assert asked.payload.to_data()["sought"] == "a berth"
    assert narrate(asked, None).startswith("Iris petitioned Tomas for a berth: granted.")  # type: ignore[arg-type]
    _dramatic(journal, caller="Ben", cast=("Tomas", "Iris"))
    [plain] = journal.execute(CAMPAIGN, ResolvePetition("Tomas", "Iris", "refused"))
    assert "sought" not in plain.payload.to_data()
    _ok(journal)
