"""Bennies in DramaSystem: the vote's ties as the shared rules count them, and the menu's DramaSystem
mapping (digest 001: DS73-DS77, book-8, readings 5 and 6)."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.referee import InvalidCommand, Referee, RuleViolation
from yarnlog.core.timeline import OpenScene
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour
from yarnlog.rulesets.dramasystem.ruleset import RULESET
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_spends import SpendBennie
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferTokens
from yarnlog.rulesets.scenes_and_tokens.rules.bennies import Ballot, tally_bennie_vote

from .storm_table import CAMPAIGN

PLAYERS = ("Ana", "Ben", "Cy", "Dee")


def test_book_8_bennie_ties():
    # DS75, lines 716-720: "If two players are tied for the lowest score, each gets a bennie. The second
    # place finisher(s) does not. If two players tie for second place, both of them gain bennies, as does
    # the player in first. If three or more players tie for first, all gain bennies."
    tokens = {"Ana": 0, "Ben": 0, "Cy": 0, "Dee": 0}
    ballots = [Ballot("Maya", {"Ana": 1, "Ben": 2, "Cy": 3, "Dee": 4}),
               Ballot("Ana", {"Ben": 1, "Cy": 2, "Dee": 3}), Ballot("Ben", {"Ana": 1, "Cy": 2, "Dee": 3}),
               Ballot("Cy", {"Ana": 1, "Ben": 2, "Dee": 3}), Ballot("Dee", {"Ben": 1, "Ana": 2, "Cy": 3})]
    vote = tally_bennie_vote(Referee(), players=PLAYERS, gm="Maya", ballots=ballots, tokens_in_hand=tokens)
    # DS74, line 707: the sum of the ranks received, less the drama tokens in hand.
    assert {t.player: t.score for t in vote.tallies} == {"Ana": 5, "Ben": 6, "Cy": 10, "Dee": 13}
    assert {g.player for g in vote.gains()} == {"Ana", "Ben"}  # first and second: the two lowest
    tied = tally_bennie_vote(Referee(), players=PLAYERS, gm="Maya", ballots=ballots,
                             tokens_in_hand={**tokens, "Ben": 1, "Cy": 5})
    assert {t.player: t.score for t in tied.tallies} == {"Ana": 5, "Ben": 5, "Cy": 5, "Dee": 13}
    assert {g.player for g in tied.gains()} == {"Ana", "Ben", "Cy"}  # three tied for first: all
    two_first = tally_bennie_vote(Referee(), players=PLAYERS, gm="Maya", ballots=ballots,
                                  tokens_in_hand={**tokens, "Ben": 1})
    assert {g.player for g in two_first.gains()} == {"Ana", "Ben"}  # two tied lowest: not the second place
    second_tie = tally_bennie_vote(Referee(), players=PLAYERS, gm="Maya", ballots=ballots,
                                   tokens_in_hand={**tokens, "Dee": 7})
    assert {t.player: t.score for t in second_tie.tallies}["Dee"] == 6
    assert {g.player for g in second_tie.gains()} == {"Ana", "Ben", "Dee"}  # a tie for second: both, and first


def _give(journal, name: str, amount: int, currency: str = "drama") -> None:
    journal.execute(CAMPAIGN, TransferTokens("kitty", name, amount, reason="set up the scene", currency=currency))


def _unspent(journal, who: str) -> frozenset[Colour]:
    return journal.state(CAMPAIGN).rules.piles.pile(who).unspent


def _ok(journal) -> None:
    report = verify(journal.stored_events(CAMPAIGN), CAMPAIGN)
    assert report.ok, report


def test_ds76_a_bennie_returns_a_spent_procedural_token_of_the_spender_s_choice(journal):
    # DS76, line 730: "a procedural token"; reading 5: one spent token of the player's choice returns.
    _give(journal, "Ana", 2, "bennie")
    journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Tomas",), mode="procedural"))  # green spent (DS33)
    assert _unspent(journal, "Ana") == {Colour.YELLOW, Colour.RED}
    with pytest.raises(RuleViolation, match="yellow token is not spent"):
        journal.execute(CAMPAIGN, SpendBennie("Ana", "procedural-token", colour="yellow"))
    with pytest.raises(InvalidCommand, match="name the colour"):
        journal.execute(CAMPAIGN, SpendBennie("Ana", "procedural-token"))
    [spent] = journal.execute(CAMPAIGN, SpendBennie("Ana", "procedural-token", colour="green"))
    assert [(r.participant, r.colour) for r in spent.payload.procedural_restores] == [("Ana", Colour.GREEN)]
    assert _unspent(journal, "Ana") == set(Colour)
    assert dict(journal.state(CAMPAIGN).rules.economy.bennies) == {"Ana": 1}
    _ok(journal)


def test_ds76_burning_a_procedural_token_spends_it_and_the_last_one_refreshes_the_pile(journal):
    # DS76, line 740: "A dramatic token returns to the kitty; a procedural token is treated as spent."
    # Reading 6: burning the last unspent token triggers the immediate refresh (DS31, line 423).
    _give(journal, "Ana", 1, "bennie")
    _give(journal, "Cy", 1, "bennie")
    journal.execute(CAMPAIGN, OpenScene(caller="Ben", cast=("Iris", "Vel"), mode="procedural"))  # his green (DS33)
    assert _unspent(journal, "Ben") == {Colour.YELLOW, Colour.RED}
    [burned] = journal.execute(CAMPAIGN, SpendBennie("Ana", "burn", burn_target="Ben", burn_kind="procedural",
                                                     colour="red"))
    [spend] = burned.payload.procedural_spends
    assert (spend.participant, spend.colour, spend.refreshed) == ("Ben", Colour.RED, False)
    assert _unspent(journal, "Ben") == {Colour.YELLOW}
    with pytest.raises(RuleViolation, match="no unspent green token"):
        journal.execute(CAMPAIGN, SpendBennie("Cy", "burn", burn_target="Ben", burn_kind="procedural",
                                              colour="green"))
    [last] = journal.execute(CAMPAIGN, SpendBennie("Cy", "burn", burn_target="Ben", burn_kind="procedural",
                                                   colour="yellow"))
    assert last.payload.procedural_spends[0].refreshed and _unspent(journal, "Ben") == set(Colour)
    # The UI flags that the burn helped its victim (reading 6).
    said = RULESET.words.narrate(last, journal.state(CAMPAIGN))
    assert "Ben's yellow token is burned: spent. It was the last: Ben's tokens refresh at once" in said
    _ok(journal)


def test_ds76_bennie_spend_sends_an_additional_card_to_the_verb_that_draws_it(journal):
    _give(journal, "Ana", 1, "bennie")
    journal.execute(CAMPAIGN, OpenScene(caller="Ana", cast=("Iris",), mode="procedural"))
    with pytest.raises(InvalidCommand, match="additional card .*: yarnlog extra-card PLAYER"):
        journal.execute(CAMPAIGN, SpendBennie("Ana", "extra-card"))
    assert dict(journal.state(CAMPAIGN).rules.economy.bennies) == {"Ana": 1}
