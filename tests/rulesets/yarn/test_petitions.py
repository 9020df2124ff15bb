"""How dramatic scenes end in a Yarn campaign, against "Playing and Resolving Dramatic Scenes",
"Gaining Tokens", "Forcing", "Supporting or Blocking a Force", "No Contest Scenes", "Two-Way
Exchanges", "Multiple Petitioners" and "Drama with Recurring Characters"."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.decide import audit
from yarnlog.core.timeline import OpenScene
from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import DrawPrecedence, IntroduceSupporting, PromoteSupporting
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferLine
from yarnlog.rulesets.scenes_and_tokens.parts.petitions import (
    Force,
    GrantVoteData,
    QuizPetitioners,
    ResolvePetition,
    TwoWay,
)
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import Purpose
from yarnlog.rulesets.scenes_and_tokens.rules import challenges
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import FORCE, SUPPORT
from yarnlog.rulesets.yarn.parts.characters.players import TALKING
from yarnlog.rulesets.yarn.parts.drama.calling_order import calling_view
from yarnlog.rulesets.yarn.parts.drama.petitions import PETITIONS

from .drama_table import GM, give, seat_characters, tokens, types
from .refusals import refused, rejected


@pytest.fixture
def table(journal, campaign):
    seat_characters(journal, campaign)
    return campaign


def dramatic(journal, cid, caller: str, *cast: str) -> None:
    journal.execute(cid, OpenScene(caller=caller, cast=cast, mode="dramatic"))


def moves(recorded) -> list[tuple[str, str, int]]:
    return [(t.source, t.destination, t.amount) for t in recorded.payload.transfers]


def test_a_granter_earns_a_token_from_the_petitioner_or_the_kitty(journal, table):
    """ "If the petition is willingly granted by the participant, the granter earns a drama token--from
    the petitioner if he has one, or from the kitty if not." """
    dramatic(journal, table, "Ana", "Iris", "Jon")
    assert moves(journal.execute(table, ResolvePetition("Iris", "Jon", "granted"))[0]) == [("kitty", "Ben", 1)]
    dramatic(journal, table, "Ben", "Jon", "Iris")
    assert moves(journal.execute(table, ResolvePetition("Jon", "Iris", "granted"))[0]) == [("Ben", "Ana", 1)]
    assert tokens(journal, table) == {"Ana": 1}


def test_a_refused_petitioner_gains_a_token_from_the_granter_or_the_kitty(journal, table):
    """ "If the granter refuses, the petitioner gains the token—from the granter if she has one, or from
    the kitty if not." """
    dramatic(journal, table, "Ana", "Iris", "Jon")
    resolved = journal.execute(table, ResolvePetition("Iris", "Jon", "refused"))[0]
    assert moves(resolved) == [("kitty", "Ana", 1)] and resolved.payload.transfers[0].chapter == "Gaining Tokens"
    rejected(journal, table, ResolvePetition("Iris", "Jon", "refused"), "already ended with its exchange")


def test_recurring_characters_draw_on_the_gms_single_pool(journal, table):
    """ "The GM keeps a single pool of drama tokens which represents all of the recurring characters.
    [...] It is possible, for example, to make a force for one recurring character using two tokens
    garnered by granting on behalf of two other recurring characters in two separate previous scenes." """
    journal.execute(table, IntroduceSupporting("The Bishop", "a schemer", GM))
    journal.execute(table, PromoteSupporting("The Bishop", "Kit", "absolution"))
    for granter in ("Old Tom", "Mags"):
        dramatic(journal, table, "Ana", "Iris", granter)
        journal.execute(table, ResolvePetition("Iris", granter, "granted"))
    assert tokens(journal, table) == {GM: 2}
    dramatic(journal, table, GM, "The Bishop", "Kit")
    forced = journal.execute(table, Force("The Bishop", "Kit"))[0]
    assert (forced.payload.petitioner_holder, moves(forced)) == (GM, [(GM, "Cy", 2)])
    dramatic(journal, table, GM, "Old Tom", "Iris", "Mags")
    rejected(journal, table, ResolvePetition("Old Tom", "Mags", "granted"), "cannot petition themselves")


def test_minor_characters_never_grant_dramatic_concessions(journal, table):
    """ "all dialogue interactions with minor characters are procedural [...] They can never grant
    meaningful dramatic concessions" """
    journal.execute(table, OpenScene(caller="Ana", cast=("Iris", "Fisher", "Jon")))
    refused(journal, table, ResolvePetition("Iris", "Fisher", "granted"), TALKING)
    rejected(journal, table, ResolvePetition("Iris", "Kit", "granted"), "Kit is not in scene")


def test_a_no_contest_scene_exchanges_nothing_and_its_caller_calls_again(journal, table):
    """ "you can declare this a no-contest scene, bringing it to a quick conclusion. The caller may then
    call a new scene" """
    dramatic(journal, table, "Cy", "Kit", "Old Tom")
    assert moves(journal.execute(table, ResolvePetition("Kit", "Old Tom", "no-contest"))[0]) == []
    assert calling_view(journal.state(table))["recall"] == {"caller": "Cy", "reason": "the scene was no contest"}


def test_a_disputed_no_goes_to_the_group_vote_and_the_caller_breaks_a_tie(journal, table):
    """ "If the answer is no, but other participants feel that a significant shift in emotional power
    from granter to petitioner occurred, the group, including GM, votes. The scene's caller gets an
    extra tie-breaking vote, where necessary." """
    dramatic(journal, table, "Ana", "Iris", "Jon")
    tied = GrantVoteData(for_grant=["Ben", GM], for_refusal=["Ana", "Cy"])
    rejected(journal, table, ResolvePetition("Iris", "Jon", "refused", tied), "caller must break the tie")
    # "If the answer is yes [...] Neither the caller or the other players in general may gainsay"
    refused(journal, table, ResolvePetition("Iris", "Jon", "granted", GrantVoteData(for_grant=["Ben", GM, "Cy"],
                                                                                    for_refusal=["Ana"])),
            challenges.NO_GAINSAYING)
    voted = GrantVoteData(for_grant=["Ben", GM], for_refusal=["Ana", "Cy"], caller_tie_break="granted")
    resolved = journal.execute(table, ResolvePetition("Iris", "Jon", "refused", voted))[0]
    assert (resolved.payload.answer, resolved.payload.outcome) == ("refused", "granted")
    assert moves(resolved) == [("kitty", "Ben", 1)]


def test_a_force_pays_the_granter_two_tokens(journal, table):
    """ "the petitioner may, by spending two drama tokens, force the granter [...] At the end of the
    scene, the forced granter receives the two drama tokens from the petitioner" """
    dramatic(journal, table, "Ana", "Iris", "Jon")
    give(journal, table, "Ana", 1)
    refused(journal, table, Force("Iris", "Jon"), FORCE)
    give(journal, table, "Ana", 1)
    assert moves(journal.execute(table, Force("Iris", "Jon"))[0]) == [("Ana", "Ben", 2)]
    assert journal.state(table).rules.drama.forced[0].petitioner == "Iris"


def test_a_blocked_force_pays_the_petitioner_three_and_refunds_its_supporters(journal, table):
    """ "The granter's player may block a force by spending three drama tokens. These are paid to the
    petitioner [...] for a net gain of 3." "If you support a force which the granter then blocks, you get
    your tokens back." Supporters give tokens "provided their character is present in the scene". """
    dramatic(journal, table, "Ana", "Iris", "Jon", "Kit")
    give(journal, table, "Ana", 1)
    give(journal, table, "Cy", 1)
    give(journal, table, "Ben", 3)
    forced = journal.execute(table, Force("Iris", "Jon", blocked=True, support={"Kit": 1}))[0]
    assert moves(forced) == [("Cy", "Ana", 1), ("Ben", "Ana", 3), ("Ana", "Cy", 1)]
    assert tokens(journal, table) == {"Ana": 4, "Cy": 1}
    dramatic(journal, table, "Ben", "Jon", "Iris")
    refused(journal, table, Force("Jon", "Iris", support={"Kit": 1}), SUPPORT)
    assert verify(journal.store.read(table), table).ok


def test_two_way_exchanges_cancel_out_or_come_from_the_kitty(journal, table):
    """ "If both participants were a) denied or b) got the payoffs they sought, each receives a drama
    token. If both players have a drama token already, this cancels out [...] If one petition was
    granted and the other denied, the denying player pays the granting player two tokens. If the denier
    has less than 2 tokens, the deficit is made up from the kitty." """
    dramatic(journal, table, "Ana", "Iris", "Jon")
    both = journal.execute(table, TwoWay("Iris", "Jon", first_granted=False, second_granted=False))[0]
    assert moves(both) == [("kitty", "Ana", 1), ("kitty", "Ben", 1)]
    dramatic(journal, table, "Ana", "Iris", "Jon")
    assert moves(journal.execute(table, TwoWay("Iris", "Jon", True, True))[0]) == []
    dramatic(journal, table, "Ana", "Iris", "Jon")
    split = journal.execute(table, TwoWay("Iris", "Jon", first_granted=True, second_granted=False))[0]
    assert moves(split) == [("Ana", "Ben", 1), ("kitty", "Ben", 1)]
    assert tokens(journal, table) == {"Ben": 3}


def test_several_petitioners_are_quizzed_in_a_newly_drawn_order(journal, table):
    """ "The GM quizzes each participating player, in a newly drawn precedence order [...] If they got
    what they wanted, the specified player granted their petition and earns a drama token—from the
    petitioning player if he or she has one, or from the kitty if not. If they didn't [...] The
    petitioner earns a drama token—from the refuser of the grant if he or she has one, or from the
    kitty if not." """
    journal.execute(table, OpenScene(caller=GM, cast=("Iris", "Jon", "Kit"), kind="conference"))
    answers = (("Iris", "Jon", True), ("Jon", "Kit", False), ("Kit", "Iris", False))
    rejected(journal, table, QuizPetitioners(answers), "draw the petitioners' precedence order first")
    rejected(journal, table, QuizPetitioners(answers[:1], ("Ana",)), "ordinary dramatic scene")
    recorded = journal.execute(table, QuizPetitioners(answers, ("Ben", "Cy", "Ana")))
    assert types(recorded) == ["yarn.precedence.drawn", "yarn.petition.quizzed"]
    # Ben first: Jon refused by Kit (Cy has none: the kitty pays Ben); then Cy: Kit refused by Iris
    # (Ana has none: the kitty pays Cy); then Ana: Iris granted by Jon, so Ana's petition earns Ben a
    # token from Ana, who holds none: the kitty.
    assert moves(recorded[1]) == [("kitty", "Ben", 1), ("kitty", "Cy", 1), ("kitty", "Ben", 1)]
    journal.execute(table, OpenScene(caller=GM, cast=("Iris", "Jon", "Old Tom")))
    journal.execute(table, DrawPrecedence(Purpose.PETITIONERS, ("Ana", "Ben"), "shuffled"))
    rejected(journal, table, QuizPetitioners((("Old Tom", "Iris", True), ("Jon", "Iris", True))), "quizzes each")
    quizzed = journal.execute(table, QuizPetitioners((("Iris", "Old Tom", True), ("Jon", "Iris", True))))[0]
    # Ana first: Old Tom granted, the GM's pool earns from the kitty (Ana holds none); then Ben: Iris
    # granted, and Ben pays Ana from the tokens he holds.
    assert quizzed.payload.precedence == ["Ana", "Ben"]
    assert moves(quizzed) == [("kitty", GM, 1), ("Ben", "Ana", 1)]
    assert verify(journal.store.read(table), table).ok


def test_verify_flags_a_petition_recorded_with_the_wrong_exchange(journal, table):
    dramatic(journal, table, "Ana", "Iris", "Jon")
    forged = PETITIONS.events.resolved(
        scene=2, petitioner="Iris", granter="Jon", petitioner_holder="Ana", granter_holder="Ben",
        answer="refused", outcome="refused",
        transfers=[TransferLine(amount=3, source="kitty", destination="Ana",
                                chapter="Gaining Tokens", rule="...")])
    journal.commands.append(table, journal.store.last_sequence(table), [forged], by=GM, visibility="everyone")
    faults = audit(journal.history(table))
    assert len(faults) == 1 and faults[0].problem.startswith("transfers is recorded as")
