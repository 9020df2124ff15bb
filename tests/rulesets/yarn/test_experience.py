"""Experience pool of Yarn 0.1: "Awarding Experience Pool Dice", "Experience", "Experience Pool"."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yarnlog.core.referee import InvalidCommand, Override, Referee, RuleViolation
from yarnlog.rulesets.yarn.rules.experience import (
    CENTRAL_DOUBLES,
    GM_APPROVES,
    JUSTIFY_USE,
    NEW_TRAIT,
    NEW_TRAIT_SIGN,
    NEW_TRAIT_TRAINING,
    ONCE_PER_SESSION,
    ONE_DIE_PER_ROLL,
    ONE_JUSTIFICATION_PER_DIE,
    RAISE_LOW,
    RAISE_TO_4,
    RAISE_TO_5,
    RAISE_TO_6,
    SAME_AWARD,
    Training,
    check_award,
    develop_trait,
    new_trait_score,
    raise_trait,
    raised_hit_points,
    raising_cost,
    use_experience_dice,
)
from yarnlog.rulesets.yarn.rules.traits import Rank, TraitKind, trait_score

GM = Override(by="gm", reason="the story needs it")
A_YEAR = Training(months=12)


def refused(rule, fn, **kwargs):
    with pytest.raises(RuleViolation) as caught:
        fn(Referee(), **kwargs)
    assert caught.value.rule == rule


# -- Awarding Experience Pool Dice ---------------------------------------------------------------


def test_every_active_pc_gets_the_same_award():
    # "All PCs active in a session should receive the same number of dice."
    check_award(Referee(), {"ann": 3, "bob": 3}, active_pcs={"ann", "bob"})
    refused(SAME_AWARD, check_award, awards={"ann": 3, "bob": 1}, active_pcs={"ann", "bob"})
    refused(SAME_AWARD, check_award, awards={"ann": 1}, active_pcs={"ann", "bob"})


def test_the_same_award_rule_is_a_should_the_gm_may_override():
    # The issue said "unless recorded otherwise": the book's "should" is a rule the GM may set aside.
    referee = Referee(override=GM)
    check_award(referee, {"ann": 3, "bob": 1}, active_pcs={"ann", "bob"})
    assert [rule for rule, _ in referee.overridden] == [SAME_AWARD]


def test_inactive_pcs_do_not_count_and_awards_are_not_negative():
    check_award(Referee(), {"ann": 2, "bob": 2, "cy": 0}, active_pcs={"ann", "bob"})
    with pytest.raises(InvalidCommand):
        check_award(Referee(), {"ann": -1}, active_pcs={"ann"})


# -- Experience dice as bonus dice -----------------------------------------------------------------


def use(**kwargs):
    args = dict(pool=1, used_this_session=0, justifications_accepted=1) | kwargs
    return lambda referee: use_experience_dice(referee, **args)


def test_each_die_once_per_session():
    # "once per game session you can use this die as a bonus die on any roll you make [...] Once you use
    # this die, you cannot use it again for the rest of the session."
    assert use_experience_dice(Referee(), pool=1, used_this_session=0, justifications_accepted=1) == 1
    refused(ONCE_PER_SESSION, use(pool=1, used_this_session=1))
    assert use_experience_dice(Referee(), pool=3, used_this_session=2, justifications_accepted=1) == 3


def test_one_die_per_roll():
    # "you can improve more of your rolls each session, but you cannot use more than one die on a single roll."
    refused(ONE_DIE_PER_ROLL, use(pool=3, dice=2, justifications_accepted=2))


def test_multiple_dice_need_a_justification_each():
    # "The GM may allow you to use more than one experience die, but only if you can give one good
    # justification for each die [...] You only use a bonus die for each justification that the GM accepts"
    assert use_experience_dice(
        Referee(), pool=3, used_this_session=0, dice=2, justifications_accepted=2, multiple_dice_rule=True
    ) == 2
    refused(ONE_JUSTIFICATION_PER_DIE, use(pool=3, dice=2, justifications_accepted=1, multiple_dice_rule=True))


def test_a_use_must_be_justified():
    # "If the GM does not tell you what a roll is for, you cannot use an experience die to modify it
    # because you cannot justify its use."
    refused(JUSTIFY_USE, use(justifications_accepted=0))


@given(pool=st.integers(0, 20), used=st.integers(0, 20))
def test_a_use_is_legal_exactly_while_unused_dice_remain(pool, used):
    try:
        use_experience_dice(Referee(), pool=pool, used_this_session=used, justifications_accepted=1)
        legal = True
    except RuleViolation:
        legal = False
    assert legal == (used < pool)


# -- Developing a New Trait ------------------------------------------------------------------------


def develop(**kwargs):
    args = dict(
        kind=TraitKind.STANDARD,
        sign="bruised knuckles",
        pool=5,
        training_required=False,
        training=None,
        gm_approved=True,
    ) | kwargs
    return lambda referee: develop_trait(referee, **args)


def test_new_trait_costs_5_dice_and_scores_3_or_1():
    # "It costs 5 dice from your pool plus game-world experience to develop a new trait." [...]
    # "If it is a technical or unusual skill, you have a score of 1 with the trait. If the trait is
    # standard, something most people can do, if not well, then you now have a score of 3."
    standard = develop()(Referee())
    assert (standard.score, standard.cost) == (3, 5)
    technical = develop(kind=TraitKind.TECHNICAL, training_required=True, training=Training(2))(Referee())
    assert (technical.score, technical.cost) == (1, 5)


@given(st.sampled_from(list(TraitKind)))
def test_a_new_trait_is_one_die_better_than_normal(kind):
    # "you have one die better than normal in your new skill."
    assert new_trait_score(kind) == trait_score(kind, Rank.AVERAGE) + 1


def test_new_trait_refusals():
    refused(NEW_TRAIT, develop(pool=4))
    # "If it is technical or specialized, such as kung fu or computer programming, you need some kind of training."
    refused(NEW_TRAIT_TRAINING, develop(training_required=True))
    # "Invent a sign for each trait you develop."
    refused(NEW_TRAIT_SIGN, develop(sign=""))
    # "The GM must approve every trait improvement"
    refused(GM_APPROVES, develop(gm_approved=False))


# -- Improving a Current Trait ---------------------------------------------------------------------


def test_raising_costs_from_the_book():
    # "For a trait listed as 1 or 2 dice, you can increase the score by 1 for every 5 experience dice you
    # spend." / to 4: "you must spend 10 experience dice" / to 5: "you will need to spend 15 experience dice"
    # / "For your central trait, double the time and dice required."  (The numbers agree.)
    assert [raising_cost(t, central=False) for t in (2, 3, 4, 5)] == [5, 5, 10, 15]
    assert [raising_cost(t, central=True) for t in (2, 3, 4, 5)] == [10, 10, 20, 30]
    # "Raising a score to 6 is pretty much beyond the scope of the rules."
    assert raising_cost(6, central=False) is None


@given(st.integers(min_value=2, max_value=5))
def test_central_trait_costs_double(target):
    assert raising_cost(target, central=True) == 2 * raising_cost(target, central=False)


def raise_(**kwargs):
    args = dict(score=1, central=False, pool=50, training=None, gm_approved=True) | kwargs
    return lambda referee: raise_trait(referee, **args)


def test_raise_one_step_at_a_time():
    advance = raise_(score=2)(Referee())
    assert (advance.score, advance.cost) == (3, 5)
    refused(RAISE_LOW, raise_(pool=4))
    refused(CENTRAL_DOUBLES, raise_(central=True, pool=9))
    with pytest.raises(InvalidCommand):
        raise_(score=0)(Referee())


def test_raising_to_4_needs_a_year_or_six_months_full_time():
    # "you definitely need training to raise any score to 4. This training takes at least a year, if you are
    # carrying on other activities at the same time, or six months, if you are training full time."
    assert raise_(score=3, training=A_YEAR)(Referee()).cost == 10
    assert raise_(score=3, training=Training(6, full_time=True))(Referee()).cost == 10
    refused(RAISE_TO_4, raise_(score=3, training=Training(11)))
    refused(RAISE_TO_4, raise_(score=3, training=Training(5, full_time=True)))
    refused(RAISE_TO_4, raise_(score=3))


def test_central_trait_doubles_the_training_time():
    # "For your central trait, double the time and dice required."
    refused(CENTRAL_DOUBLES, raise_(score=3, central=True, training=A_YEAR))
    advance = raise_(score=3, central=True, training=Training(12, full_time=True))(Referee())
    assert (advance.score, advance.cost) == (4, 20)


def test_raising_to_5_needs_full_time_training_at_1000_dollars_a_month():
    # "Raising any trait to 5 requires highly specialized, nearly full-time training. [...] The training you
    # need costs at least $1,000 US per month [...] you will need to spend 15 experience dice."
    costly = Training(6, full_time=True, usd_per_month=1000)
    assert raise_(score=4, training=costly)(Referee()).cost == 15
    refused(RAISE_TO_5, raise_(score=4, training=Training(6, full_time=True, usd_per_month=999)))
    refused(RAISE_TO_5, raise_(score=4, training=Training(6, usd_per_month=1000)))


def test_raising_to_6_is_refused_and_the_gm_sets_the_cost_when_she_allows_it():
    # "Raising a score to 6 is pretty much beyond the scope of the rules. It may not even be possible."
    refused(RAISE_TO_6, raise_(score=5))
    referee = Referee(override=GM)
    assert raise_trait(referee, score=5, central=False, pool=50, training=None, gm_approved=True, gm_cost=30).cost == 30
    with pytest.raises(InvalidCommand):
        raise_trait(Referee(override=GM), score=5, central=False, pool=50, training=None, gm_approved=True)


def test_every_improvement_needs_gm_approval():
    refused(GM_APPROVES, raise_(gm_approved=False))


# -- Increasing Hit Points -------------------------------------------------------------------------


def test_sole_hit_point_trait_adds_7_or_two_dice():
    # "you may take +7 hit points or roll two dice and add the result."
    assert raised_hit_points(14, sole_source=True, new_score=3, rolled=None) == 21
    assert raised_hit_points(14, sole_source=True, new_score=3, rolled=(6, 5)) == 25
    with pytest.raises(InvalidCommand):
        raised_hit_points(14, sole_source=True, new_score=3, rolled=(6, 5, 4))


def test_the_books_strong_example():
    # "if a character works out and develops the trait “strong, 3 dice,” he can roll 6 dice. If this total
    # beats his current hit points of 22, he gets the new roll as his hit points. If he manages to beat the
    # odds and roll 35 or 36, however, he only gets to keep 34 hit points, 12 better than his previous score."
    assert raised_hit_points(22, sole_source=False, new_score=3, rolled=(6, 6, 6, 6, 6, 5)) == 34
    assert raised_hit_points(22, sole_source=False, new_score=3, rolled=(6, 6, 6, 6, 6, 6)) == 34
    assert raised_hit_points(22, sole_source=False, new_score=3, rolled=(6, 5, 4, 3, 2, 1)) == 22  # 21 does not beat 22
    assert raised_hit_points(22, sole_source=False, new_score=3, rolled=(6, 5, 4, 3, 2, 5)) == 25
    with pytest.raises(InvalidCommand):
        raised_hit_points(22, sole_source=False, new_score=3, rolled=None)


@given(current=st.integers(1, 60), faces=st.lists(st.integers(1, 6), min_size=8, max_size=8))
def test_hit_points_never_drop_and_rise_at_most_12(current, faces):
    # "(You may not raise your hit points by more than 12 points by this method.)"
    new = raised_hit_points(current, sole_source=False, new_score=4, rolled=faces)
    assert current <= new <= current + 12
