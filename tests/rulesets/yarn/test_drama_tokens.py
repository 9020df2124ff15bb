"""The drama-token economy against Yarn 0.1's "Dramatic Scenes" chapter."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yarnlog.core.referee import InvalidCommand, Override, Referee, RuleViolation
from yarnlog.rulesets.scenes_and_tokens.rules import drama_tokens as dt
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import (
    KITTY,
    ForcedScene,
    PetitionAnswer,
    PetitionOutcome,
    Support,
    Transfer,
    balances,
    casting_cost,
    check_not_reversing_force,
    end_of_episode,
    kitty_flow,
    resolve_force,
    resolve_multiple_petitioners,
    resolve_petition,
    resolve_two_way,
)

from .refusals import refused_by

GM = "Gwen"
PLAYERS = ("Ann", "Bob", "Cy", "Di")


def strict() -> Referee:
    return Referee()




# "Everyone starts each episode with zero tokens."
def test_everyone_starts_the_episode_with_zero_tokens():
    assert balances(()) == {}
    assert dt.holding(balances(()), GM) == 0


def test_a_transfer_moves_at_least_one_token_between_two_holders():
    with pytest.raises(InvalidCommand):
        Transfer(0, "Ann", "Bob", dt.GRANTED)
    with pytest.raises(InvalidCommand):
        Transfer(1, "Ann", "Ann", dt.GRANTED)
    with pytest.raises(InvalidCommand):
        Transfer(1, KITTY, KITTY, dt.GRANTED)


# "the granter earns a drama token--from the petitioner if he has one, or from the kitty if not."
@pytest.mark.parametrize(("petitioner_holds", "source"), [(1, "Ann"), (0, KITTY)])
def test_a_willing_grant_pays_the_granter_from_the_petitioner_or_the_kitty(petitioner_holds, source):
    transfers = resolve_petition(
        {"Ann": petitioner_holds}, petitioner="Ann", granter="Bob", outcome=PetitionOutcome.GRANTED
    )
    assert transfers == (Transfer(1, source, "Bob", dt.GRANTED),)


# "If the granter refuses, the petitioner gains the token—from the granter if she has one, or from the kitty if not."
@pytest.mark.parametrize(("granter_holds", "source"), [(2, "Bob"), (0, KITTY)])
def test_a_refusal_pays_the_petitioner_from_the_granter_or_the_kitty(granter_holds, source):
    transfers = resolve_petition(
        {"Bob": granter_holds}, petitioner="Ann", granter="Bob", outcome=PetitionOutcome.REFUSED
    )
    assert transfers == (Transfer(1, source, "Ann", dt.REFUSED),)


# "The GM plays all recurring characters drawing on a single pool of drama tokens. Like any player,
# the GM must earn drama points by granting or by losing petitions."
def test_a_recurring_character_earns_into_the_gms_pool():
    transfers = resolve_petition({}, petitioner="Ann", granter=GM, outcome=PetitionOutcome.GRANTED)
    assert balances(transfers) == {GM: 1}


# "Never call a dramatic scene between two recurring characters." Both would be the GM's pool.
def test_a_petition_needs_two_token_holders():
    with pytest.raises(InvalidCommand):
        resolve_petition({}, petitioner=GM, granter=GM, outcome=PetitionOutcome.GRANTED)


# "you can declare this a no-contest scene, bringing it to a quick conclusion. The caller may then
# call a new scene" — the replaced scene exchanges no tokens.
def test_a_no_contest_scene_exchanges_no_tokens():
    assert resolve_petition({"Ann": 3}, petitioner="Ann", granter="Bob", outcome=PetitionOutcome.NO_CONTEST) == ()


# "the petitioner may, by spending two drama tokens, force ... the forced granter receives the two
# drama tokens from the petitioner, provided the force actually takes place."
def test_a_force_pays_the_granter_two_tokens():
    transfers = resolve_force(
        strict(), {"Ann": 2}, petitioner="Ann", granter="Bob", gm=GM, present=(), blocked=False
    )
    assert transfers == (Transfer(2, "Ann", "Bob", dt.FORCE),)
    assert balances(transfers, {"Ann": 2}) == {"Bob": 2}


def test_a_force_needs_two_tokens():
    refused_by(
        dt.FORCE,
        lambda: resolve_force(strict(), {"Ann": 1}, petitioner="Ann", granter="Bob", gm=GM, present=(), blocked=False),
    )


def test_a_gm_override_lets_a_short_force_through_and_remembers_the_rule():
    referee = Referee(override=Override(by=GM, reason="dramatic necessity"))
    resolve_force(referee, {"Ann": 1}, petitioner="Ann", granter="Bob", gm=GM, present=(), blocked=False)
    assert [rule for rule, _ in referee.overridden] == [dt.FORCE]


# "The granter's player may block a force by spending three drama tokens. These are paid to the
# petitioner, at the end of the scene. The petitioner does not spend the 2 tokens that would have
# been spent on the force, for a net gain of 3."
def test_a_blocked_force_pays_the_petitioner_three_for_a_net_gain_of_three():
    start = {"Ann": 2, "Bob": 3}
    transfers = resolve_force(strict(), start, petitioner="Ann", granter="Bob", gm=GM, present=(), blocked=True)
    assert transfers == (Transfer(3, "Bob", "Ann", dt.BLOCK),)
    after = balances(transfers, start)
    assert after["Ann"] - start["Ann"] == 3
    assert "Bob" not in after


def test_a_block_needs_three_tokens_and_a_force_two_even_when_blocked():
    refused_by(
        dt.BLOCK,
        lambda: resolve_force(
            strict(), {"Ann": 2, "Bob": 2}, petitioner="Ann", granter="Bob", gm=GM, present=(), blocked=True
        ),
    )
    refused_by(
        dt.FORCE,
        lambda: resolve_force(
            strict(), {"Ann": 1, "Bob": 3}, petitioner="Ann", granter="Bob", gm=GM, present=(), blocked=True
        ),
    )


# "Players not directly involved in a scene may support an attempt to force ... by giving their
# drama tokens to the current petitioner or granter—provided their character is present in the scene."
def test_supporters_tokens_pay_for_a_force():
    start = {"Ann": 1, "Cy": 1}
    transfers = resolve_force(
        strict(),
        start,
        petitioner="Ann",
        granter="Bob",
        gm=GM,
        present={"Ann", "Bob", "Cy"},
        blocked=False,
        force_support=(Support("Cy", 1),),
    )
    assert transfers == (Transfer(1, "Cy", "Ann", dt.SUPPORT), Transfer(2, "Ann", "Bob", dt.FORCE))
    assert balances(transfers, start) == {"Bob": 2}


# "If you support a force which the granter then blocks, you get your tokens back."
def test_supporters_of_a_blocked_force_get_their_tokens_back_and_blockers_do_not():
    start = {"Ann": 1, "Cy": 1, "Bob": 2, "Di": 1}
    transfers = resolve_force(
        strict(),
        start,
        petitioner="Ann",
        granter="Bob",
        gm=GM,
        present=set(PLAYERS),
        blocked=True,
        force_support=(Support("Cy", 1),),
        block_support=(Support("Di", 1),),
    )
    assert transfers[-1] == Transfer(1, "Ann", "Cy", dt.SUPPORT_REFUND)
    assert balances(transfers, start) == {"Ann": 4, "Cy": 1}


@pytest.mark.parametrize(
    ("supporter", "present"),
    [("Cy", {"Ann", "Bob"}), ("Bob", {"Ann", "Bob"}), (GM, {"Ann", "Bob", GM})],
    ids=["absent", "directly involved", "not a player"],
)
def test_only_present_uninvolved_players_support_a_force(supporter, present):
    refused_by(
        dt.SUPPORT,
        lambda: resolve_force(
            strict(),
            {"Ann": 1, supporter: 1},
            petitioner="Ann",
            granter="Bob",
            gm=GM,
            present=present,
            blocked=False,
            force_support=(Support(supporter, 1),),
        ),
    )


# "After a force occurs or is canceled, the same characters may not, for the duration of the
# episode, be called into similar scenes intended to reverse the original result. Some significant
# new element ... must be added"
def test_the_same_characters_may_not_rerun_a_force_this_episode():
    history = (ForcedScene(episode=3, petitioner="Vera", granter="Lord Mott"),)

    def check(episode, petitioner, granter, new_element=False):
        check_not_reversing_force(
            strict(),
            history,
            episode=episode,
            petitioner=petitioner,
            granter=granter,
            intended_to_reverse=True,
            significant_new_element=new_element,
        )

    refused_by(dt.NO_REVERSAL, lambda: check(3, "Lord Mott", "Vera"))
    check(3, "Lord Mott", "Vera", new_element=True)
    check(4, "Lord Mott", "Vera")
    check(3, "Lord Mott", "Quill")


# "If both participants were a) denied or b) got the payoffs they sought, each receives a drama token.
# If both players have a drama token already, this cancels out—you needn't actually trade tokens. If
# one or more have zero drama tokens, however, the missing token(s) come from the kitty."
@pytest.mark.parametrize("granted", [True, False])
def test_alike_two_way_outcomes(granted):
    def two_way(start):
        return resolve_two_way(start, first="Ann", second="Bob", first_granted=granted, second_granted=granted)

    assert two_way({"Ann": 1, "Bob": 1}) == ()
    assert two_way({"Ann": 0, "Bob": 1}) == (
        Transfer(1, "Bob", "Ann", dt.TWO_WAY_ALIKE),
        Transfer(1, KITTY, "Bob", dt.TWO_WAY_ALIKE),
    )
    assert balances(two_way({"Bob": 1}), {"Bob": 1}) == {"Ann": 1, "Bob": 1}
    assert balances(two_way({})) == {"Ann": 1, "Bob": 1}


# "If one petition was granted and the other denied, the denying player pays the granting player two
# tokens. If the denier has less than 2 tokens, the deficit is made up from the kitty."
@pytest.mark.parametrize(
    ("denier_holds", "expected"),
    [
        (3, ((2, "Bob"),)),
        (1, ((1, "Bob"), (1, KITTY))),
        (0, ((2, KITTY),)),
    ],
)
def test_split_two_way_the_denier_pays_two(denier_holds, expected):
    # Ann's petition was denied by Bob; Bob's was granted by Ann: Bob is the denier.
    transfers = resolve_two_way(
        {"Bob": denier_holds}, first="Ann", second="Bob", first_granted=False, second_granted=True
    )
    assert transfers == tuple(Transfer(n, source, "Ann", dt.TWO_WAY_SPLIT) for n, source in expected)
    assert balances(transfers)["Ann"] == 2


@given(
    st.integers(0, 3), st.integers(0, 3), st.booleans(), st.booleans()
)
def test_a_two_way_exchange_does_not_depend_on_who_is_named_first(a, b, a_granted, b_granted):
    start = {"Ann": a, "Bob": b}
    one = resolve_two_way(start, first="Ann", second="Bob", first_granted=a_granted, second_granted=b_granted)
    other = resolve_two_way(start, first="Bob", second="Ann", first_granted=b_granted, second_granted=a_granted)
    assert balances(one, start) == balances(other, start)


# "The GM quizzes each participating player, in a newly drawn precedence order ... The petitioner
# earns a drama token—from the refuser of the grant if he or she has one, or from the kitty if not."
def test_multiple_petitioners_are_settled_in_the_drawn_precedence_order():
    answers = (
        PetitionAnswer("Ann", wanted_from="Bob", got_it=False),
        PetitionAnswer("Cy", wanted_from="Ann", got_it=False),
    )
    start = {"Bob": 1}
    ann_first = resolve_multiple_petitioners(start, precedence=("Ann", "Cy"), answers=answers)
    assert ann_first == (
        Transfer(1, "Bob", "Ann", dt.MULTIPLE_REFUSED),
        Transfer(1, "Ann", "Cy", dt.MULTIPLE_REFUSED),
    )
    cy_first = resolve_multiple_petitioners(start, precedence=("Cy", "Ann"), answers=answers)
    assert cy_first == (
        Transfer(1, KITTY, "Cy", dt.MULTIPLE_REFUSED),
        Transfer(1, "Bob", "Ann", dt.MULTIPLE_REFUSED),
    )


# "If they got what they wanted, the specified player granted their petition and earns a drama
# token—from the petitioning player if he or she has one, or from the kitty if not."
def test_a_multiple_petitioner_who_got_it_pays_the_granter():
    transfers = resolve_multiple_petitioners(
        {"Ann": 1}, precedence=("Ann",), answers=(PetitionAnswer("Ann", wanted_from=GM, got_it=True),)
    )
    assert transfers == (Transfer(1, "Ann", GM, dt.MULTIPLE_GRANTED),)


def test_the_precedence_order_names_exactly_the_petitioners():
    answers = (PetitionAnswer("Ann", "Bob", True), PetitionAnswer("Cy", "Bob", True))
    with pytest.raises(InvalidCommand):
        resolve_multiple_petitioners({}, precedence=("Ann",), answers=answers)
    with pytest.raises(InvalidCommand):
        resolve_multiple_petitioners({}, precedence=("Ann", "Cy", "Ann"), answers=answers)


# "To cast a scene your player character is not in costs you a drama token"; for procedural scenes
# "(This requirement does not apply to the GM.)"
def test_casting_a_scene_without_your_character_costs_a_drama_token():
    assert casting_cost(strict(), {"Ann": 1}, caller="Ann", gm=GM, caller_character_cast=False) == (
        Transfer(1, "Ann", KITTY, dt.CASTING_COST),
    )
    assert casting_cost(strict(), {}, caller="Ann", gm=GM, caller_character_cast=True) == ()
    assert casting_cost(strict(), {}, caller=GM, gm=GM, caller_character_cast=False) == ()
    refused_by(
        dt.CASTING_COST, lambda: casting_cost(strict(), {}, caller="Ann", gm=GM, caller_character_cast=False)
    )


# "Drama tokens left unspent at the end of a session ... then revert to the kitty. They do not carry
# over to the next episode."
def test_unspent_tokens_revert_to_the_kitty_at_the_end_of_the_episode():
    held = {"Ann": 2, GM: 3, "Bob": 0}
    transfers = end_of_episode(held)
    assert transfers == (Transfer(2, "Ann", KITTY, dt.EPISODE_END), Transfer(3, GM, KITTY, dt.EPISODE_END))
    assert balances(transfers, held) == {}
    assert kitty_flow(transfers).taken_in == 5


# A GM override can let a player pay a token she does not hold: her balance is then below zero.
# She has no unspent token to revert, so the episode still ends (it used to record a transfer of -1).
def test_a_balance_below_zero_reverts_nothing_at_the_end_of_the_episode():
    held = {"Ann": -1, "Bob": 2}
    assert end_of_episode(held) == (Transfer(2, "Bob", KITTY, dt.EPISODE_END),)


def test_kitty_flow_counts_tokens_paid_out_and_taken_in():
    transfers = (
        Transfer(2, KITTY, "Ann", dt.TWO_WAY_SPLIT),
        Transfer(1, "Ann", "Bob", dt.GRANTED),
        Transfer(1, "Bob", KITTY, dt.CASTING_COST),
    )
    flow = kitty_flow(transfers)
    assert (flow.paid_out, flow.taken_in, flow.net_paid_out) == (2, 1, 1)


# A random episode: each step is a resolution the book allows, refused when a payer lacks tokens.
NAMES = st.sampled_from((*PLAYERS, GM))
STEP = st.one_of(
    st.tuples(st.just("petition"), NAMES, NAMES, st.sampled_from(PetitionOutcome)),
    st.tuples(st.just("force"), NAMES, NAMES, st.booleans(), st.sampled_from(PLAYERS), st.integers(1, 2)),
    st.tuples(st.just("two-way"), NAMES, NAMES, st.booleans(), st.booleans()),
    st.tuples(st.just("cast"), NAMES),
)


def _resolve(step, now):
    kind, *facts = step
    if kind == "petition":
        petitioner, granter, outcome = facts
        return resolve_petition(now, petitioner=petitioner, granter=granter, outcome=outcome)
    if kind == "force":
        petitioner, granter, blocked, supporter, tokens = facts
        return resolve_force(
            strict(),
            now,
            petitioner=petitioner,
            granter=granter,
            gm=GM,
            present=set(PLAYERS),
            blocked=blocked,
            force_support=(Support(supporter, tokens),),
        )
    if kind == "two-way":
        first, second, first_granted, second_granted = facts
        return resolve_two_way(
            now, first=first, second=second, first_granted=first_granted, second_granted=second_granted
        )
    return casting_cost(strict(), now, caller=facts[0], gm=GM, caller_character_cast=False)


@settings(max_examples=120)
@given(st.lists(STEP, max_size=20))
def test_a_legal_episode_conserves_tokens_except_kitty_flows_and_never_goes_negative(steps):
    episode: list[Transfer] = []
    for step in steps:
        now = balances(episode)
        try:
            episode.extend(_resolve(step, now))
        except (RuleViolation, InvalidCommand):
            continue  # a refused move changes nothing
        assert all(tokens > 0 for tokens in balances(episode).values())
    final = balances(episode)
    assert sum(final.values()) == kitty_flow(episode).net_paid_out
    closed = [*episode, *end_of_episode(final)]
    assert balances(closed) == {}
    assert kitty_flow(closed).net_paid_out == 0
