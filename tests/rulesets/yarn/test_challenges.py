"""Challenges and votes against Yarn 0.1's "Challenges" and "Playing and Resolving Dramatic Scenes"."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yarnlog.core.referee import InvalidCommand, Referee
from yarnlog.rulesets.scenes_and_tokens.rules import bennies as bn
from yarnlog.rulesets.scenes_and_tokens.rules import challenges as ch
from yarnlog.rulesets.scenes_and_tokens.rules.bennies import BennieGain, BennieOption, BennieSpend
from yarnlog.rulesets.scenes_and_tokens.rules.challenges import (
    DuckReply,
    NarrationReply,
    NoveltyRuling,
    RushPayment,
    Side,
    challenge_vote,
    duck_scene,
    going_to_procedural,
    grant_vote,
    novelty_challenge,
    petition_outcome,
    rush_scene,
)
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import PetitionOutcome, Transfer

from .refusals import refused_by

GM = "Gwen"
PLAYERS = ("Ann", "Bob", "Cy", "Di")




def vote(for_caller, for_challenger, gm_tie_break=None):
    return challenge_vote(
        Referee(),
        players=PLAYERS,
        challenger="Bob",
        for_caller=for_caller,
        for_challenger=for_challenger,
        gm_tie_break=gm_tie_break,
    )


# "With a show of hands, all players side with the caller or the challenger. The GM votes to break ties."
def test_a_challenge_is_settled_by_the_players_majority():
    assert vote({"Ann", "Cy", "Di"}, {"Bob"}).winner is Side.CALLER
    assert vote({"Ann"}, {"Bob", "Cy", "Di"}).winner is Side.CHALLENGER


@pytest.mark.parametrize("ruling", list(Side))
def test_the_gm_breaks_a_tie(ruling):
    result = vote({"Ann", "Cy"}, {"Bob", "Di"}, gm_tie_break=ruling)
    assert result.winner is ruling


def test_the_gm_votes_only_to_break_ties_and_only_players_raise_hands():
    with pytest.raises(InvalidCommand):
        vote({"Ann", "Cy"}, {"Bob", "Di"})
    with pytest.raises(InvalidCommand):
        vote({"Ann", "Cy", "Di"}, {"Bob"}, gm_tie_break=Side.CHALLENGER)
    with pytest.raises(InvalidCommand):
        vote({"Ann", "Cy", "Di", GM}, {"Bob"})
    with pytest.raises(InvalidCommand):
        vote({"Ann", "Cy", "Bob"}, {"Bob", "Di"})


def test_every_player_sides_with_someone():
    refused_by(ch.CHALLENGE_VOTE, lambda: vote({"Ann"}, {"Bob", "Cy"}))


@given(st.lists(st.sampled_from(list(Side)), min_size=len(PLAYERS), max_size=len(PLAYERS)), st.sampled_from(list(Side)))
def test_the_winner_has_at_least_as_many_hands(sides, ruling):
    caller_side = {p for p, s in zip(PLAYERS, sides) if s is Side.CALLER}
    challenger_side = set(PLAYERS) - caller_side
    tied = len(caller_side) == len(challenger_side)
    result = vote(caller_side, challenger_side, gm_tie_break=ruling if tied else None)
    winners, losers = (
        (caller_side, challenger_side) if result.winner is Side.CALLER else (challenger_side, caller_side)
    )
    assert len(winners) >= len(losers)


# "If the caller loses the challenge, she must then revise her situation description to meet the
# objections of the challenging player, and the voters who supported him."
def test_a_caller_who_loses_a_plot_jump_challenge_must_satisfy_the_challenger_and_his_supporters():
    assert vote({"Ann"}, {"Bob", "Cy", "Di"}).must_satisfy == {"Bob", "Cy", "Di"}
    assert vote({"Ann", "Bob", "Cy"}, {"Di"}).must_satisfy == frozenset()


# "If the player can't point to a changed situation, the GM resolves the challenge by requiring the
# caller to call an entirely different scene." Novelty is the GM's call, not a vote (the issue said vote).
@pytest.mark.parametrize(
    ("too_similar", "points_to_change", "ruling"),
    [
        (False, False, NoveltyRuling.CALL_STANDS),
        (True, True, NoveltyRuling.CALL_STANDS),
        (True, False, NoveltyRuling.CALL_ANOTHER_SCENE),
    ],
)
def test_novelty_is_the_gms_ruling(too_similar, points_to_change, ruling):
    assert novelty_challenge(gm_finds_too_similar=too_similar, caller_points_to_change=points_to_change) is ruling


# "Unlike other challenges, it takes only one objector to trigger a procedural resolution. The
# narrating player may avoid the procedural resolution by either withdrawing the description
# entirely, or adjusting it to satisfy the objector(s)."
def test_one_objector_sends_a_narration_to_procedural():
    assert going_to_procedural(narrator="Ann", objectors=()) is None
    assert (
        going_to_procedural(narrator="Ann", objectors={GM}, reply=NarrationReply.PLAY_PROCEDURAL)
        is NarrationReply.PLAY_PROCEDURAL
    )
    with pytest.raises(InvalidCommand):
        going_to_procedural(narrator="Ann", objectors={"Bob"})
    with pytest.raises(InvalidCommand):
        going_to_procedural(narrator="Ann", objectors={"Ann"}, reply=NarrationReply.WITHDRAW)


# "The caller may then acquiesce to your objection, and call the scene without you"
def test_a_caller_may_acquiesce_to_a_duck_for_free():
    outcome = duck_scene(Referee(), {}, ducker="Bob", caller="Ann", cast_size=3, reply=DuckReply.ACQUIESCE)
    assert outcome == ch.DuckOutcome(in_scene=False, caller_starts_over=False)


# "You can duck this compulsion by spending a drama token, which goes to the caller."
def test_ducking_a_compelled_casting_pays_the_caller_a_token():
    outcome = duck_scene(
        Referee(), {"Bob": 1}, ducker="Bob", caller="Ann", cast_size=3, reply=DuckReply.COMPEL, spends_token=True
    )
    assert outcome.transfers == (Transfer(1, "Bob", "Ann", ch.DUCKING),)
    assert not outcome.in_scene
    refused_by(
        ch.DUCKING,
        lambda: duck_scene(
            Referee(), {}, ducker="Bob", caller="Ann", cast_size=3, reply=DuckReply.COMPEL, spends_token=True
        ),
    )
    stays = duck_scene(Referee(), {}, ducker="Bob", caller="Ann", cast_size=3, reply=DuckReply.COMPEL)
    assert stays.in_scene


# "After you successfully duck a scene with a cast of two, leaving nothing to play, the caller starts over"
def test_ducking_a_cast_of_two_makes_the_caller_start_over():
    outcome = duck_scene(
        Referee(), {"Bob": 1}, ducker="Bob", caller="Ann", cast_size=2, reply=DuckReply.COMPEL, spends_token=True
    )
    assert outcome.caller_starts_over


def rush(payment=None, consents=False, blocks=False, caller="Ann", tokens=None, held=None, history=()):
    return rush_scene(
        Referee(),
        tokens or {},
        rusher="Bob",
        caller=caller,
        gm=GM,
        scene=7,
        caller_consents=consents,
        payment=payment,
        caller_blocks=blocks,
        bennies_held=held or {},
        bennie_history=history,
    )


# "It costs nothing to join a scene if the caller consents to your joining."
def test_joining_with_consent_is_free():
    assert rush(consents=True) == ch.RushOutcome(joined=True)


# "spend a drama token or a bennie. The caller receives the token or bennie."
def test_rushing_pays_the_caller_a_token_or_a_bennie():
    by_token = rush(RushPayment.DRAMA_TOKEN, tokens={"Bob": 1})
    assert by_token.joined and by_token.transfers == (Transfer(1, "Bob", "Ann", ch.RUSHING),)
    by_bennie = rush(RushPayment.BENNIE, held={"Bob": 1})
    assert by_bennie.joined
    assert by_bennie.bennie_spends == (BennieSpend("Bob", BennieOption.JUMP_INTO_SCENE, 7),)
    assert by_bennie.bennie_gains == (BennieGain("Ann", ch.RUSHING),)


# "No one ranks the GM, who never gets bennies." A bennie paid to a GM caller is simply spent.
def test_a_gm_caller_receives_no_bennie():
    assert rush(RushPayment.BENNIE, caller=GM, held={"Bob": 1}).bennie_gains == ()


def test_a_rusher_must_have_what_he_pays():
    refused_by(ch.RUSHING, lambda: rush(RushPayment.DRAMA_TOKEN))
    refused_by(bn.HAVE_A_BENNIE, lambda: rush(RushPayment.BENNIE))
    spent_already = (BennieSpend("Bob", BennieOption.EXTRA_CARD, 7),)
    refused_by(bn.ONE_PER_SCENE, lambda: rush(RushPayment.BENNIE, held={"Bob": 1}, history=spent_already))


# "A caller may block your unwanted entrance into a scene by spending a bennie." and "(Blocked
# players keep the bennies they would have spent.)"
def test_a_caller_blocks_a_rush_with_a_bennie_and_the_rusher_keeps_his_payment():
    blocked = rush(RushPayment.BENNIE, blocks=True, held={"Bob": 1, "Ann": 1})
    assert blocked == ch.RushOutcome(
        joined=False, bennie_spends=(BennieSpend("Ann", BennieOption.BLOCK_JUMP_IN, 7),)
    )
    assert rush(RushPayment.DRAMA_TOKEN, blocks=True, tokens={"Bob": 1}, held={"Ann": 1}).transfers == ()
    refused_by(bn.HAVE_A_BENNIE, lambda: rush(RushPayment.DRAMA_TOKEN, blocks=True, tokens={"Bob": 1}))


def test_a_rush_needs_a_payment_unless_the_caller_consents():
    with pytest.raises(InvalidCommand):
        rush()
    with pytest.raises(InvalidCommand):
        rush(RushPayment.DRAMA_TOKEN, consents=True, tokens={"Bob": 1})


# "If the answer is yes, the petition is considered granted ... Neither the caller or the other
# players in general may gainsay the petitioner's player on this point."
def test_the_petitioners_yes_grants_and_cannot_be_voted_down():
    assert petition_outcome(Referee(), petitioner_got_concession=True) is PetitionOutcome.GRANTED
    disputed = grant_vote(
        Referee(), participants=(*PLAYERS, GM), for_grant={"Ann"}, for_refusal={"Bob", "Cy", "Di", GM}
    )
    refused_by(ch.NO_GAINSAYING, lambda: petition_outcome(Referee(), petitioner_got_concession=True, vote=disputed))


# "If the answer is no, and the rest of the group agrees with the petitioner's assessment, the
# petition is considered to have been refused."
def test_an_agreed_no_is_a_refusal():
    assert petition_outcome(Referee(), petitioner_got_concession=False) is PetitionOutcome.REFUSED


# "the group, including GM, votes. The scene's caller gets an extra tie-breaking vote, where necessary."
def test_a_disputed_no_goes_to_a_group_vote_that_the_caller_breaks():
    group = (*PLAYERS, GM)
    majority = grant_vote(Referee(), participants=group, for_grant={"Bob", "Cy", GM}, for_refusal={"Ann", "Di"})
    assert petition_outcome(Referee(), petitioner_got_concession=False, vote=majority) is PetitionOutcome.GRANTED
    tied = grant_vote(
        Referee(),
        participants=(*PLAYERS, GM, "Eve"),
        for_grant={"Bob", "Cy", GM},
        for_refusal={"Ann", "Di", "Eve"},
        caller_tie_break=PetitionOutcome.REFUSED,
    )
    assert tied.outcome is PetitionOutcome.REFUSED
    with pytest.raises(InvalidCommand):
        grant_vote(
            Referee(),
            participants=(*PLAYERS, GM, "Eve"),
            for_grant={"Bob", "Cy", GM},
            for_refusal={"Ann", "Di", "Eve"},
            caller_tie_break=PetitionOutcome.NO_CONTEST,
        )
    refused_by(
        ch.GRANT_VOTE,
        lambda: grant_vote(Referee(), participants=group, for_grant={"Bob", "Cy"}, for_refusal={"Ann", "Di"}),
    )
