"""The drama part as a whole: registered in the Yarn ruleset, a session recorded end to end and
verified, projections at every point of history, and journals that keep no characters."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.decide import Retract
from yarnlog.core.events import known_event_types
from yarnlog.core.referee import RuleViolation
from yarnlog.core.ruleset import get_ruleset
from yarnlog.core.state import replay
from yarnlog.core.timeline import EndEpisode, OpenScene
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_spends import SpendBennie
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote import CastBallot
from yarnlog.rulesets.scenes_and_tokens.parts.petitions import Force, ResolvePetition
from yarnlog.rulesets.scenes_and_tokens.parts.scene_challenges import Duck, Rush
from yarnlog.rulesets.yarn.parts.drama import part as drama
from yarnlog.rulesets.yarn.ruleset import PARTS

from .drama_table import GM, give, seat_characters, tokens, types
from .refusals import rejected

DRAMA_EVENTS = {
    "yarn.scene.called", "yarn.scene.ruled_offstage", "yarn.challenge.ducked", "yarn.challenge.rushed",
    "yarn.challenge.voted", "yarn.challenge.novelty_ruled", "yarn.challenge.procedural_demanded",
    "yarn.petition.resolved", "yarn.petition.forced", "yarn.petition.two_way", "yarn.petition.quizzed",
    "yarn.bennie.spent", "yarn.bennie.ballot_cast", "yarn.bennie.vote_tallied",
}


def test_the_drama_part_is_a_part_of_the_yarn_ruleset():
    assert drama.PART in PARTS
    yarn = get_ruleset("yarn")
    assert DRAMA_EVENTS <= set(known_event_types()) and all(yarn.owns(t) for t in DRAMA_EVENTS)
    assert yarn.rules.initial_state().drama == drama.PART.initial()


def session(journal, cid) -> None:
    """One evening at the table: calls, a rush, a petition, a force, a bennie, the vote, the end."""
    give(journal, cid, "Cy", 1, currency="bennie")
    journal.execute(cid, OpenScene(caller="Ana", cast=("Iris", "Jon", "Old Tom"), mode="dramatic"))
    journal.execute(cid, Duck("Jon", compel=False))
    journal.execute(cid, Rush("Kit", consent=True))
    journal.execute(cid, ResolvePetition("Iris", "Old Tom", "refused"))
    journal.execute(cid, OpenScene(caller="Cy", cast=("Kit", "Iris"), mode="dramatic"))
    journal.execute(cid, SpendBennie("Cy", "drama-token"))
    give(journal, cid, "Cy", 1)
    journal.execute(cid, Force("Kit", "Iris"))
    for voter, ranking in {"Ana": ("Cy", "Ben"), "Ben": ("Cy", "Ana"), "Cy": ("Ana", "Ben"),
                           GM: ("Cy", "Ana", "Ben")}.items():
        journal.execute(cid, CastBallot(voter, ranking))
    journal.execute(cid, EndEpisode())


def test_a_session_recorded_end_to_end_verifies_and_every_point_replays(journal, campaign):
    seat_characters(journal, campaign)
    session(journal, campaign)
    assert verify(journal.store.read(campaign), campaign).ok
    state = journal.state(campaign)
    # Ana: refused (+1), forced by Kit (+2): 3 in hand; ranks 2 + 1 + 2 = 5, score 2. Cy spent his
    # bennie on a token and paid 2 for the force: ranks 1 + 1 + 1 = 3. Ben: 2 + 2 + 3 = 7.
    from yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote import tallied

    [tally] = tallied(state.rules.drama)  # the episode's vote as the state keeps it for the bennies report
    assert tally["episode"] == 1
    assert [(t["player"], t["rank_total"], t["tokens_in_hand"], t["score"], t["gains_bennie"])
            for t in tally["tallies"]] == [
        ("Ana", 5, 3, 2, True), ("Cy", 3, 0, 3, True), ("Ben", 7, 0, 7, False)]
    assert state.rules.economy.tokens == {} and state.rules.economy.bennies == {"Ana": 1, "Cy": 1}
    history = journal.history(campaign)
    for upto in range(len(history) - 12, len(history) + 1):
        assert journal.state(campaign, upto=upto) == replay(history[:upto])


def test_retracting_a_grant_a_later_force_relied_on_is_refused(journal, campaign):
    seat_characters(journal, campaign)
    journal.execute(campaign, OpenScene(caller="Ana", cast=("Iris", "Jon"), mode="dramatic"))
    refused_petition = journal.execute(campaign, ResolvePetition("Iris", "Jon", "refused"))[0]
    give(journal, campaign, "Ana", 1)
    journal.execute(campaign, OpenScene(caller="Ana", cast=("Iris", "Kit"), mode="dramatic"))
    journal.execute(campaign, Force("Iris", "Kit"))
    before = journal.store.last_sequence(campaign)
    broken = "fails: Ana must pay 2 drama tokens but holds"
    with pytest.raises(RuleViolation, match=broken) as refused:
        journal.execute(campaign, Retract(sequence=refused_petition.sequence, reason="misheard"))
    assert refused.value.rule.section == "Forcing"  # the force's own rule, not the rule of corrections
    assert journal.store.last_sequence(campaign) == before


def test_a_journal_that_keeps_no_characters_records_calls_as_told(journal, campaign):
    """Without characters the journal cannot tell whose character is cast: it records the cast, takes no
    casting token, and cannot settle petitions between names it does not know."""
    from yarnlog.core.timeline import StartEpisode

    journal.execute(campaign, StartEpisode())
    recorded = journal.execute(campaign, OpenScene(caller="Ana", cast=("Iris",), mode="dramatic"))
    assert types(recorded) == ["scene.opened"] and tokens(journal, campaign) == {}
    rejected(journal, campaign, ResolvePetition("Iris", "Tom", "granted"), "not a character of this campaign")
    assert verify(journal.store.read(campaign), campaign).ok
