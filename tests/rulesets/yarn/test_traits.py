"""Character creation numbers of Yarn 0.1: "Creating Characters", Traits through Your Story."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yarnlog.core.referee import InvalidCommand, Override, Referee, RuleViolation
from yarnlog.rulesets.yarn.rules.traits import (
    FLAW,
    NARROW_TRAITS,
    NO_NARROW_FIGHTING,
    SIGNS,
    STARTING_EXPERIENCE_POOL,
    STORY_LENGTH,
    SUPERIOR,
    TRAITS,
    UNIQUE_NAMES,
    Flaw,
    HitPointSource,
    Rank,
    Trait,
    TraitKind,
    TraitSet,
    describe_hit_points,
    listed_hit_points,
    score_label,
    score_trait_set,
    starting_hit_points,
    story_sentence,
    trait_score,
)

MILITARY = Trait(
    "Military Background", TraitKind.STANDARD, ("Wears camo clothes, or battle scars",), fighting_skill=True
)
TOUGH = Trait("Tough", TraitKind.STANDARD, ("Big-boned",))
MEDICINE = Trait("Medicine", TraitKind.TECHNICAL, ("Stethoscope",))
RECKLESS = Flaw("Prone to Reckless Violence", ("Sullen demeanor",))


def a_set(**changes) -> TraitSet:
    base = dict(central=MILITARY, sides=(TOUGH, MEDICINE), superior="Tough", flaw=RECKLESS)
    return TraitSet(**(base | changes))


def refused(rule, fn, *args, **kwargs):
    with pytest.raises(RuleViolation) as caught:
        fn(Referee(), *args, **kwargs)
    assert caught.value.rule == rule


# "Superior 4 dice 2 dice 6 dice 4 dice / Good 3 dice 1 dice 4 dice 2 dice /
#  Average 2 dice 0 dice 2 dice 0 dice"
@pytest.mark.parametrize(
    ("kind", "superior", "good", "average"),
    [
        (TraitKind.STANDARD, 4, 3, 2),
        (TraitKind.TECHNICAL, 2, 1, 0),
        (TraitKind.NARROW, 6, 4, 2),
        (TraitKind.NARROW_TECHNICAL, 4, 2, 0),
    ],
)
def test_scores_for_traits_table(kind, superior, good, average):
    assert trait_score(kind, Rank.SUPERIOR) == superior
    assert trait_score(kind, Rank.GOOD) == good
    assert trait_score(kind, Rank.AVERAGE) == average


def test_score_labels_match_the_books_examples():
    # "Military Background — [...] 3/4"; "Tough — [...] (Big-boned) 3/4";
    # a fringe power's "dice scores are usually 1/2";
    # "“4/6,” [...] represents higher than normal scores for “narrow” traits".
    assert score_label(TraitKind.STANDARD) == "3/4"
    assert score_label(TraitKind.TECHNICAL) == "1/2"
    assert score_label(TraitKind.NARROW) == "4/6"


@given(st.sampled_from(list(TraitKind)))
def test_superior_beats_good_beats_average(kind):
    # "'Superior' indicates your score if this trait is your superior trait. 'Good' [...] if you have
    # chosen the trait, but not as your superior trait. 'Average' [...] does not have that trait at all."
    assert trait_score(kind, Rank.SUPERIOR) > trait_score(kind, Rank.GOOD) > trait_score(kind, Rank.AVERAGE)


def test_a_valid_trait_set_is_scored():
    # "Of the above three traits, one is chosen as superior."
    scored = score_trait_set(Referee(), a_set())
    assert [(s.trait.name, s.central, s.superior, s.score) for s in scored] == [
        ("Military Background", True, False, 3),
        ("Tough", False, True, 4),
        ("Medicine", False, False, 1),
    ]


def test_a_superior_technical_trait_rolls_two_dice():
    scored = score_trait_set(Referee(), a_set(superior="Medicine"))
    assert [s.score for s in scored] == [3, 3, 2]


def test_two_side_traits_exactly():
    # "Two traits are side traits, additional skills or characteristics."
    refused(TRAITS, score_trait_set, a_set(sides=(TOUGH,)))
    refused(TRAITS, score_trait_set, a_set(sides=(TOUGH, MEDICINE, Trait("Stealth", signs=("Soft shoes",)))))


def test_a_flaw_is_required():
    # "it is time to choose a flaw."
    refused(FLAW, score_trait_set, a_set(flaw=None))


def test_one_trait_must_be_superior_and_not_the_flaw():
    # "First, you choose one of your three traits to be superior."
    refused(SUPERIOR, score_trait_set, a_set(superior=None))
    refused(TRAITS, score_trait_set, a_set(superior=RECKLESS.name))
    with pytest.raises(InvalidCommand):
        score_trait_set(Referee(), a_set(superior="Juggling"))


def test_every_trait_and_the_flaw_has_a_sign():
    # "For each trait, including your flaw, describe one sign related to it that others can notice."
    refused(SIGNS, score_trait_set, a_set(sides=(Trait("Tough"), MEDICINE)))
    refused(SIGNS, score_trait_set, a_set(flaw=Flaw("Weak", ("  ",))))


def test_trait_names_are_unique():
    # "Take care in naming your trait. Make each unique."
    refused(UNIQUE_NAMES, score_trait_set, a_set(sides=(TOUGH, Trait("tough", signs=("Scars",)))))


def test_narrow_traits_need_the_optional_rule():
    # "Optional Rule: Narrow Traits [...] the GM may award the PC with extra dice in that score"
    painter = Trait("Painter", TraitKind.NARROW, ("Paint-stained fingers",))
    refused(NARROW_TRAITS, score_trait_set, a_set(sides=(TOUGH, painter)))
    scored = score_trait_set(Referee(), a_set(sides=(TOUGH, painter), superior="Painter"), narrow_traits=True)
    assert scored[2].score == 6


def test_no_fighting_skill_is_narrow():
    # "No fighting skill counts as “narrow.”"
    fencing = Trait("Fencing", TraitKind.NARROW, ("Foil",), fighting_skill=True)
    refused(NO_NARROW_FIGHTING, score_trait_set, a_set(sides=(TOUGH, fencing)), narrow_traits=True)


def test_gm_override_lets_a_missing_flaw_through_and_records_it():
    referee = Referee(override=Override(by="gm", reason="flaw comes later"))
    score_trait_set(referee, a_set(flaw=None))
    assert [rule for rule, _ in referee.overridden] == [FLAW]


# "If this trait is ranked as 4 dice, your hit points are 28. If ranked as 3 dice, your hit points are 21.
#  Lacking such a trait, your hit points are 14."
def test_listed_hit_points():
    assert listed_hit_points(4) == 28
    assert listed_hit_points(3) == 21
    assert starting_hit_points([]) == 14


def test_no_fewer_than_14_hit_points():
    # "(You do not have fewer than 14 hit points for having a trait like “weak.”)"
    assert listed_hit_points(1) == 14
    assert listed_hit_points(0) == 14


@given(st.integers(min_value=2, max_value=10))
def test_seven_points_per_die(dice):
    # "You get 7 points per die"
    assert listed_hit_points(dice) == 7 * dice


def test_rolled_hit_points_are_double_the_dice():
    # "roll double the number of appropriate dice (e.g. 6 dice for a trait ranked as 3 dice), and your
    # total is your hit points."
    assert starting_hit_points([HitPointSource("Strong", 3, (6, 5, 4, 3, 2, 1))]) == 21
    with pytest.raises(InvalidCommand):
        starting_hit_points([HitPointSource("Strong", 3, (6, 5, 4))])
    with pytest.raises(InvalidCommand):
        starting_hit_points([HitPointSource("Strong", 1, (7, 1))])


def test_two_traits_rolled_take_the_highest():
    # "if you are a 4 die martial artist and also have 3 dice strength, you could roll eight dice and
    # six dice, using whichever roll results in the higher figure."
    martial = HitPointSource("Martial Arts", 4, (1, 1, 2, 2, 3, 3, 1, 1))  # 14
    strong = HitPointSource("Strong", 3, (6, 6, 5, 5, 4, 4))  # 30
    assert starting_hit_points([martial, strong]) == 30


def test_one_trait_taken_the_other_rolled():
    # "The strong martial artist [...] could take 28 points for his 4 dice of martial arts and then roll
    # six dice for being strong, taking whichever result is higher."
    taken = HitPointSource("Martial Arts", 4)
    assert starting_hit_points([taken, HitPointSource("Strong", 3, (6, 6, 6, 5, 5, 5))]) == 33
    assert starting_hit_points([taken, HitPointSource("Strong", 3, (4, 4, 4, 4, 4, 4))]) == 28
    # "Or he could take 21 points for being strong and then roll eight dice for the martial arts"
    strong = HitPointSource("Strong", 3)
    assert starting_hit_points([strong, HitPointSource("Martial Arts", 4, (1, 2, 2, 2, 2, 2, 2, 2))]) == 21


@given(st.lists(st.integers(min_value=0, max_value=6), min_size=1, max_size=4))
def test_hit_points_are_the_best_of_the_traits(dice):
    sources = [HitPointSource(f"t{i}", d) for i, d in enumerate(dice)]
    assert starting_hit_points(sources) == max(listed_hit_points(d) for d in dice)


def test_hit_points_get_a_descriptor():
    # "attach a descriptive word or phrase to them [...] a strong character might call his 'brawn'"
    assert describe_hit_points(Referee(), 28, " brawn ").descriptor == "brawn"
    with pytest.raises(RuleViolation):
        describe_hit_points(Referee(), 28, "")


def test_experience_pool_starts_at_one_die():
    # "As a beginning character, you have one die in your experience pool."
    assert STARTING_EXPERIENCE_POOL == 1


def test_story_of_25_words_is_accepted_and_26_refused():
    # "If your sentence is more than 25 words long, your idea isn't simple enough."
    twenty_five = "My story is of a man who " + " ".join(["waits"] * 18)
    assert len(twenty_five.split()) == 25
    assert story_sentence(Referee(), twenty_five) == twenty_five
    with pytest.raises(RuleViolation) as caught:
        story_sentence(Referee(), twenty_five + " alone")
    assert caught.value.rule == STORY_LENGTH
    assert "more than 25 words" in str(caught.value)


def test_empty_story_is_invalid():
    with pytest.raises(InvalidCommand):
        story_sentence(Referee(), "   ")
