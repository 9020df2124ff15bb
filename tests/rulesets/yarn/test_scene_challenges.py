"""Challenges to a scene in a Yarn campaign, against "Challenges" (Ducking a Scene, Rushing a Scene,
Challenging a Time Jump, a Plot Jump, For Novelty, Going To Procedural) and the vote of "Forcing"."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.decide import audit
from yarnlog.core.table import AddParticipant
from yarnlog.core.timeline import OpenScene
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferLine
from yarnlog.rulesets.scenes_and_tokens.parts.petitions import Force
from yarnlog.rulesets.scenes_and_tokens.parts.scene_challenges import (
    ChallengeByVote,
    ChallengeNovelty,
    DemandProcedural,
    Duck,
    Rush,
)
from yarnlog.rulesets.scenes_and_tokens.rules import bennies as bn
from yarnlog.rulesets.scenes_and_tokens.rules import challenges
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import NO_REVERSAL
from yarnlog.rulesets.yarn.parts.drama.calling_order import calling_view
from yarnlog.rulesets.yarn.parts.drama.scene_challenges import CHALLENGES

from .drama_table import GM, bennies, give, seat_characters, tokens
from .refusals import refused, rejected


@pytest.fixture
def scene(journal, campaign):
    """Ana calls a dramatic scene casting Iris, Jon and Old Tom, a day later."""
    seat_characters(journal, campaign)
    journal.execute(campaign, OpenScene(caller="Ana", cast=("Iris", "Jon", "Old Tom"), mode="dramatic",
                                        time_break="the next morning"))
    return campaign


def cast(journal, cid) -> tuple[str, ...]:
    state = journal.state(cid)
    return state.rules.drama.scenes[state.timeline.scene].cast


def test_a_caller_who_acquiesces_calls_the_scene_without_you(journal, scene):
    """ "You may challenge your casting in a scene you do not want your character to take part in. The
    caller may then acquiesce to your objection, and call the scene without you" """
    ducked = journal.execute(scene, Duck("Ben", compel=False))[0]
    assert (ducked.payload.character, ducked.payload.in_scene, ducked.payload.transfers) == ("Jon", False, [])
    assert cast(journal, scene) == ("Iris", "Old Tom")
    rejected(journal, scene, Duck("Jon", compel=False), "not cast")
    rejected(journal, scene, Duck("Iris", compel=False), "caller cannot duck her own scene")


def test_a_compelled_character_ducks_by_paying_the_caller_a_drama_token(journal, scene):
    """ "You can duck this compulsion by spending a drama token, which goes to the caller." """
    assert journal.execute(scene, Duck("Jon", compel=True))[0].payload.in_scene
    refused(journal, scene, Duck("Jon", compel=True, token=True), challenges.DUCKING)
    give(journal, scene, "Ben", 1)
    ducked = journal.execute(scene, Duck("Jon", compel=True, token=True))[0]
    assert (ducked.payload.transfers[0].source, ducked.payload.transfers[0].destination) == ("Ben", "Ana")
    assert tokens(journal, scene) == {"Ana": 1} and "Jon" not in cast(journal, scene)


def test_ducking_a_scene_of_two_makes_the_caller_start_over(journal, scene):
    """ "After you successfully duck a scene with a cast of two, leaving nothing to play, the caller
    starts over, calling a new scene that does not include your character." """
    journal.execute(scene, OpenScene(caller="Cy", cast=("Kit", "Jon"), mode="dramatic"))
    assert journal.execute(scene, Duck("Jon", compel=False))[0].payload.caller_starts_over
    assert calling_view(journal.state(scene))["recall"]["caller"] == "Cy"


def test_rushing_costs_nothing_when_the_caller_consents_else_a_token_to_the_caller(journal, scene):
    """ "It costs nothing to join a scene if the caller consents to your joining." "To insert your
    character into a scene the caller has not cast you in [...] spend a drama token or a bennie. The
    caller receives the token or bennie." """
    assert journal.execute(scene, Rush("Kit", consent=True))[0].payload.joined
    assert "Kit" in cast(journal, scene)
    rejected(journal, scene, Rush("Kit", consent=True), "already in scene")
    journal.execute(scene, OpenScene(caller="Ana", cast=("Iris", "Jon"), mode="dramatic"))
    refused(journal, scene, Rush("Kit", payment="token"), challenges.RUSHING)
    give(journal, scene, "Cy", 1)
    journal.execute(scene, Rush("Cy", payment="token"))
    assert tokens(journal, scene) == {"Ana": 1} and "Kit" in cast(journal, scene)


def test_a_bennie_rush_goes_to_the_caller_unless_she_blocks_with_a_bennie(journal, scene):
    """ "A caller may block your unwanted entrance into a scene by spending a bennie." "(Blocked players
    keep the bennies they would have spent.)" "You may spend only one bennie per scene." """
    give(journal, scene, "Cy", 2, currency="bennie")
    give(journal, scene, "Ana", 1, currency="bennie")
    blocked = journal.execute(scene, Rush("Kit", payment="bennie", blocked=True))[0].payload
    assert not blocked.joined and [(t.source, t.destination, t.currency) for t in blocked.transfers] == [
        ("Ana", "kitty", "bennie")]
    assert bennies(journal, scene) == {"Cy": 2}
    journal.execute(scene, Rush("Kit", payment="bennie"))
    assert bennies(journal, scene) == {"Cy": 1, "Ana": 1}
    journal.execute(scene, OpenScene(caller="Ana", cast=("Iris",)))
    journal.execute(scene, Rush("Kit", payment="bennie"))
    refused(journal, scene, Rush("Jon", payment="bennie"), bn.HAVE_A_BENNIE)
    # The GM never gets bennies: a bennie rushed into her scene is spent to the kitty.
    give(journal, scene, "Ben", 1, currency="bennie")
    journal.execute(scene, OpenScene(caller=GM, cast=("Iris",)))
    rushed = journal.execute(scene, Rush("Jon", payment="bennie"))[0].payload
    assert rushed.transfers[0].destination == "kitty"
    assert verify(journal.store.read(scene), scene).ok


def test_a_time_jump_challenge_is_a_vote_of_all_players_that_the_gm_breaks_if_tied(journal, scene):
    """ "Resolve a challenge to a time break with a vote." "With a show of hands, all players side with
    the caller or the challenger. The GM votes to break ties." """
    refused(journal, scene, ChallengeByVote("time jump", "Ben", ("Ana",), ("Ben",)), challenges.CHALLENGE_VOTE)
    voted = journal.execute(scene, ChallengeByVote("time jump", "Ben", ("Ana",), ("Ben", "Cy")))[0].payload
    assert voted.winner == "challenger"
    state = journal.state(scene)
    assert state.rules.drama.scenes[state.timeline.scene].time_break == ""
    rejected(journal, scene, ChallengeByVote("time jump", "Ben", ("Ana",), ("Ben", "Cy")), "no time break")
    journal.execute(scene, AddParticipant("Dee"))
    journal.execute(scene, OpenScene(caller="Ana", cast=("Iris",), time_break="a year"))
    tied = ChallengeByVote("time jump", "Ben", ("Ana", "Dee"), ("Ben", "Cy"))
    rejected(journal, scene, tied, "the GM must break the tie")
    voted = journal.execute(scene, ChallengeByVote("time jump", "Ben", ("Ana", "Dee"), ("Ben", "Cy"),
                                                   gm_tie_break="caller"))[0].payload
    assert voted.winner == "caller"


def test_a_caller_who_loses_a_plot_jump_challenge_revises_her_situation(journal, scene):
    """ "If the caller loses the challenge, she must then revise her situation description to meet the
    objections of the challenging player, and the voters who supported him." """
    rejected(journal, scene, ChallengeByVote("plot jump", "Ana", ("Ana",), ("Ben", "Cy")), "her own call")
    rejected(journal, scene, ChallengeByVote("plot jump", "Ben", ("Ana", "Cy"), ("Ben",), revised_situation="x"),
             "only a caller who lost")
    voted = journal.execute(scene, ChallengeByVote("plot jump", "Ben", ("Ana",), ("Ben", "Cy"),
                                                   revised_situation="the ship is still at anchor"))[0].payload
    assert voted.must_satisfy == ["Ben", "Cy"] and voted.revised_situation == "the ship is still at anchor"


def test_the_table_may_vote_down_a_scene_rerunning_this_episodes_force(journal, scene):
    """ "Some significant new element, as judged by challenge voting if need be, must be added to make
    the scene a true new development, and not just another kick at the can." """
    rejected(journal, scene, ChallengeByVote("reversal", "Cy", ("Ana",), ("Ben", "Cy")), "no force")
    give(journal, scene, "Ana", 2)
    journal.execute(scene, Force("Iris", "Jon"))
    journal.execute(scene, OpenScene(caller="Ben", cast=("Jon", "Iris"), mode="dramatic"))
    voted = journal.execute(scene, ChallengeByVote("reversal", "Ana", ("Ben",), ("Ana", "Cy")))[0]
    assert voted.payload.winner == "challenger"
    assert calling_view(journal.state(scene))["recall"]["caller"] == "Ben"
    assert journal.history(scene)[-1].payload.kind == "reversal" and NO_REVERSAL.chapter == "Forcing"


def test_a_novelty_challenge_is_the_gms_judgement(journal, scene):
    """ "If the scene seems too similar to the GM, she invites the caller to point to a change since the
    previous scene [...] If the player can't point to a changed situation, the GM resolves the challenge
    by requiring the caller to call an entirely different scene." """
    stands = journal.execute(scene, ChallengeNovelty("Ben", too_similar=True, change="Iris now owns the boat"))[0]
    assert stands.payload.ruling == "call_stands"
    assert journal.execute(scene, ChallengeNovelty("Cy", too_similar=False))[0].payload.ruling == "call_stands"
    rejected(journal, scene, ChallengeNovelty("Ben", too_similar=True, earlier_scene=9), "not an earlier scene")
    ruled = journal.execute(scene, ChallengeNovelty("Ben", too_similar=True, earlier_scene=1))[0]
    assert ruled.payload.ruling == "call_another_scene"
    assert calling_view(journal.state(scene))["recall"]["reason"].startswith("the novelty challenge")


def test_one_objector_is_enough_to_go_to_procedural(journal, scene):
    """ "any participant, GM included, may demand that a procedural resolution instead be performed [...]
    Unlike other challenges, it takes only one objector to trigger a procedural resolution." """
    demanded = journal.execute(scene, DemandProcedural("Ana", (GM,), "adjust", "I sail through the reef"))[0]
    assert (demanded.payload.objectors, demanded.payload.reply) == ([GM], "adjust")
    rejected(journal, scene, DemandProcedural("Ana", (), "adjust"), "narration stands")
    rejected(journal, scene, DemandProcedural("Ana", ("Ana",), "adjust"), "own narration")
    rejected(journal, scene, DemandProcedural("Ana", ("Ben",), "sulk"), "withdraw, adjust, procedural")


def test_verify_flags_a_duck_recorded_without_its_token(journal, scene):
    forged = CHALLENGES.events.ducked(scene=2, character="Jon", ducker="Ben", caller="Ana", caller_compels=True,
                         spends_token=True, in_scene=False, caller_starts_over=False,
                         transfers=[TransferLine(amount=1, source="kitty", destination="Ana", chapter="Ducking a Scene",
                                                 rule=challenges.DUCKING.text)])
    journal.commands.append(scene, journal.store.last_sequence(scene), [forged], by=GM, visibility="everyone")
    problems = [f.problem for f in audit(journal.history(scene))]
    assert len(problems) == 2 and problems[0].startswith("Ben must pay 1 drama token but holds 0")
    assert problems[1].startswith("transfers is recorded as")
