"""Token balances, the GM's pool, the kitty's flows and the ledger with running balances, at any
point of the journal ("Tokens", "Drama with Recurring Characters")."""

from __future__ import annotations

import pytest

from yarnlog.core.corrections import effective
from yarnlog.core.timeline import EndEpisode, OpenScene
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote import CastBallot
from yarnlog.rulesets.scenes_and_tokens.parts.economy import ledger_entries
from yarnlog.rulesets.scenes_and_tokens.parts.petitions import ResolvePetition, TwoWay
from yarnlog.rulesets.yarn.parts.economy.ledger import ledger_lines, token_report

from .drama_table import GM, give, seat_characters


def ledger_of(journal, campaign: str):
    """The campaign's ledger, read from its events (corrections and retractions applied)."""
    return ledger_entries(effective(journal.history(campaign)))


@pytest.fixture
def played(journal, campaign):
    """Ana wins a token twice, spends one to cast a scene without Iris; Old Tom grants a petition."""
    seat_characters(journal, campaign)
    journal.execute(campaign, OpenScene(caller="Ana", cast=("Iris", "Kit"), mode="dramatic"))  # scene 2
    journal.execute(campaign, TwoWay("Iris", "Kit", first_granted=False, second_granted=False))
    journal.execute(campaign, OpenScene(caller="Ana", cast=("Iris", "Jon"), mode="dramatic"))  # scene 3
    journal.execute(campaign, ResolvePetition("Iris", "Jon", "refused"))
    journal.execute(campaign, OpenScene(caller="Ana", cast=("Jon", "Old Tom"), mode="dramatic"))  # scene 4
    journal.execute(campaign, ResolvePetition("Jon", "Old Tom", "granted"))
    return campaign


def test_why_ana_has_one_token_and_not_two_reads_line_by_line(journal, played):
    """ "Everyone starts each episode with zero tokens." Every entry names its event, scene and rule. """
    rows = [(line.entry.event_type, line.entry.scene, line.entry.source, line.entry.destination,
             line.entry.chapter, line.balances_after["Ana"])
            for line in ledger_lines(ledger_of(journal, played), participant="Ana")]
    assert rows == [
        ("yarn.petition.two_way", 2, "kitty", "Ana", "Two-Way Exchanges", 1),
        ("yarn.petition.resolved", 3, "kitty", "Ana", "Gaining Tokens", 2),
        ("yarn.scene.called", 4, "Ana", "kitty", "Calling Scenes", 1),
    ]


def test_the_gms_pool_and_the_kitty_flows(journal, played):
    """ "The GM keeps a single pool of drama tokens which represents all of the recurring characters.
    This is distinct from the kitty." """
    report = token_report(journal.state(played))
    held = {p["name"]: (p["character"], p["drama_tokens"]) for p in report["participants"]}
    assert held == {"Ana": ("Iris", 1), "Ben": ("Jon", 0), "Cy": ("Kit", 1), GM: (None, 1)}
    assert report["gm_pool"] == {"gm": GM, "drama_tokens": 1, "recurring": ["Mags", "Old Tom"]}
    assert report["kitty"] == {"episode": 1, "paid_out": 4, "taken_in": 1, "net_paid_out": 3}
    # Ben had no token to pay for Old Tom's grant: the kitty paid the GM's pool.
    last = ledger_lines(ledger_of(journal, played), scene=4)[-1]
    assert (last.entry.source, last.entry.destination, last.balances_after) == ("kitty", GM, {GM: 1})


def test_balances_as_of_any_event_and_after_the_episode(journal, played):
    history = journal.history(played)
    after_scene_2 = max(r.sequence for r in history if r.scene == 2)
    early = token_report(journal.state(played, upto=after_scene_2))
    assert {p["name"]: p["drama_tokens"] for p in early["participants"]}["Ana"] == 1
    give(journal, played, "Ben", 1, currency="bennie")
    for voter, ranking in {"Ana": ("Ben", "Cy"), "Ben": ("Ana", "Cy"), "Cy": ("Ana", "Ben"),
                           GM: ("Ana", "Ben", "Cy")}.items():
        journal.execute(played, CastBallot(voter, ranking))
    journal.execute(played, EndEpisode())
    report = token_report(journal.state(played))
    assert all(p["drama_tokens"] == 0 for p in report["participants"])
    # Every token the kitty paid out this episode came back to it.
    assert report["kitty"]["paid_out"] == report["kitty"]["taken_in"] == 4
    assert ledger_lines(ledger_of(journal, played), currency="bennie", participant="Ben")[0].balances_after \
        == {"Ben": 1}
