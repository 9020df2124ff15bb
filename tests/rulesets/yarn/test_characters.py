"""The characters part: PCs, the supporting cast, precedence and experience, recorded in the journal."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyrsistent import pmap, pvector

from yarnlog.app.verify import verify
from yarnlog.core.decide import Correct, audit
from yarnlog.core.events import Payload, event
from yarnlog.core.referee import Override, RuleViolation
from yarnlog.core.table import AddParticipant, RemoveParticipant
from yarnlog.core.timeline import EndEpisode, OpenScene, StartEpisode
from yarnlog.rulesets.scenes_and_tokens.parts import cast_moves
from yarnlog.rulesets.scenes_and_tokens.parts import relationships as shared_relationships
from yarnlog.rulesets.scenes_and_tokens.parts import supporting_cast as cast_rules
from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import (
    DescribeSupporting,
    DrawPrecedence,
    ElaborateLocation,
    IntroduceLocation,
    IntroduceSupporting,
    PromoteSupporting,
    shuffled,
)
from yarnlog.rulesets.scenes_and_tokens.parts.relationships import DeclareWant, DefineRelationship
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import (
    Cast,
    PrecedenceOrder,
    Purpose,
    Theme,
    theme_chooser,
)
from yarnlog.rulesets.yarn.parts.characters import part as pcs_rules
from yarnlog.rulesets.yarn.parts.characters import relationships
from yarnlog.rulesets.yarn.parts.characters import sheets as character_sheets
from yarnlog.rulesets.yarn.parts.characters.experience_awards import (
    AwardExperience,
    DevelopTrait,
    RaiseTrait,
    experience_dice_available,
)
from yarnlog.rulesets.yarn.parts.characters.part import RetireCharacter, cast_list, sheet_data
from yarnlog.rulesets.yarn.parts.characters.relationships import relationship_map
from yarnlog.rulesets.yarn.parts.characters.sheet_files import creation_command
from yarnlog.rulesets.yarn.parts.characters.sheets import (
    HitPointDice,
    TrainingData,
    TraitData,
    TraitRaised,
    character_of,
    player_of,
)
from yarnlog.rulesets.yarn.rules import experience, traits

from .refusals import refused, rejected

GM = Override(by="Maya", reason="the table agreed")


def iris(**changes) -> dict:
    """The book's own examples of traits, flaw and signs ("Central Trait", "Side Traits", "Flaws")."""
    return {
        "name": "Iris", "player": "Ana", "role": "the harbour pilot", "desire": "respect",
        "poles": ["loyal daughter", "free spirit"],
        "central": {"name": "Military Background", "kind": "standard", "fighting_skill": True,
                    "description": "Includes fighting bare-handed and with a variety of weapons, first aid"},
        "sides": ["Tough:standard", "Medicine:technical"],
        "superior": "Tough",
        "flaw": "Prone to Reckless Violence",
        "signs": {"Military Background": "Wears camo clothes, or battle scars", "Tough": "Big-boned",
                  "Medicine": "A battered doctor's bag", "Prone to Reckless Violence": "Sullen demeanor"},
        "hit_point_basis": ["Tough"],
        "hit_point_descriptor": "brawn",
        "story": "My story is of a woman who wants her father's respect but cannot stay in his harbour.",
        "gm_approved": True,
    } | changes


def second(name: str, player: str, **changes) -> dict:
    return iris(name=name, player=player, **changes)


def create(journal, cid, data: dict, **kw):
    return journal.execute(cid, creation_command(data), **kw)


def chars(journal, cid, upto=None):
    return journal.state(cid, upto=upto).rules.characters






def end_episode(journal, cid) -> None:
    """End the session without the bennie vote, which is another part's concern."""
    journal.execute(cid, EndEpisode(), override=Override(by="Maya", reason="no bennie vote in this test"))


@pytest.fixture
def scene(journal, campaign):
    """Iris (Ana) in play, episode 1, a scene called by Ana."""
    create(journal, campaign, iris())
    journal.execute(campaign, StartEpisode(title="Fog"))
    journal.execute(campaign, OpenScene(caller="Ana", cast=("Iris",)))
    return campaign


# -- creating characters --------------------------------------------------------------------


def test_a_new_character_gets_the_scores_hit_points_and_pool_of_the_book(journal, campaign):
    # "Superior 4 dice [...] Good 3 dice 1 dice"; "If this trait is ranked as 4 dice, your hit
    # points are 28"; "As a beginning character, you have one die in your experience pool."
    recorded = create(journal, campaign, iris())[0]
    assert recorded.event_type == "yarn.character.created"
    assert recorded.payload.scores == {"Military Background": 3, "Tough": 4, "Medicine": 1}
    characters = chars(journal, campaign)
    sheet = characters.pcs["Iris"]
    assert (sheet.name, sheet.player, sheet.hit_points, sheet.experience_pool) == ("Iris", "Ana", 28, 1)
    assert [(t.name, t.dice, t.place, t.superior) for t in sheet.traits.values()] == [
        ("Military Background", 3, "central", False), ("Tough", 4, "side", True), ("Medicine", 1, "side", False)]
    assert sheet.flaw.signs == ("Sullen demeanor",)
    assert player_of(characters, "Iris") == "Ana" and character_of(characters, "Ana") == "Iris"
    assert character_of(characters, "Ben") is None and player_of(characters, "Nobody") is None
    assert verify(journal.store.read(campaign), campaign).ok


def test_without_a_relevant_trait_hit_points_are_14(journal, campaign):
    # "Lacking such a trait, your hit points are 14."
    create(journal, campaign, iris(hit_point_basis=[]))
    assert chars(journal, campaign).pcs["Iris"].hit_points == 14


def test_the_strong_martial_artist_takes_28_and_rolls_six_dice_for_strength(journal, campaign):
    # "The strong martial artist [...] could take 28 points for his 4 dice of martial arts and then
    # roll six dice for being strong, taking whichever result is higher."
    artist = {"central": "Martial Arts:standard", "sides": ["Strong:standard", "Medicine:technical"],
              "superior": "Martial Arts",
              "signs": {"Martial Arts": "Bowed stance", "Strong": "Thick neck", "Medicine": "Bag",
                        "Prone to Reckless Violence": "Sullen"}}
    low = iris(**artist, hit_point_basis=["Martial Arts", {"trait": "Strong", "faces": [1, 2, 3, 4, 5, 6]}])
    assert create(journal, campaign, low)[0].payload.hit_points == 28
    high = second("Jon", "Ben", relationships={"Iris": "brother"}, **artist,
                  hit_point_basis=["Martial Arts", {"trait": "Strong", "faces": [6, 6, 6, 5, 5, 4]}])
    assert create(journal, campaign, high)[0].payload.hit_points == 32


def test_rolled_hit_points_need_double_the_dice(journal, campaign):
    # "Simply roll double the number of appropriate dice (e.g. 6 dice for a trait ranked as 3 dice)"
    rejected(journal, campaign, creation_command(iris(hit_point_basis=[{"trait": "Tough", "faces": [6] * 6}])),
             "needs 8 dice")


def test_the_tool_rolls_hit_points_from_the_source_it_is_given(journal, campaign):
    command = creation_command(iris(hit_point_basis=[{"trait": "Tough", "roll": True}]), rng=random.Random(7))
    basis = command.hit_point_basis[0]
    assert basis.source == "rolled" and len(basis.faces) == 8
    assert journal.execute(campaign, command)[0].payload.hit_points == sum(basis.faces)


def test_a_story_over_25_words_is_refused_unless_the_gm_overrides(journal, campaign):
    # "If your sentence is more than 25 words long, your idea isn't simple enough."
    long_story = "My story is of a woman who " + " ".join(["really"] * 20)
    assert len(long_story.split()) == 27
    refused(journal, campaign, creation_command(iris(story=long_story)), traits.STORY_LENGTH)
    recorded = create(journal, campaign, iris(story=long_story), override=GM)
    assert [r.event_type for r in recorded] == ["override.recorded", "yarn.character.created"]
    assert "27 words" in recorded[0].payload.rules[0].message


def test_traits_are_checked_by_the_rules_of_traits(journal, campaign):
    # "Two traits are side traits" / "For each trait, including your flaw, describe one sign"
    refused(journal, campaign, creation_command(iris(sides=["Tough:standard"])), traits.TRAITS)
    refused(journal, campaign, creation_command(iris(signs={})), traits.SIGNS)
    # Narrow traits are an optional rule this campaign does not use.
    refused(journal, campaign, creation_command(iris(sides=["Tough:standard", "Medicine:narrow"])),
            traits.NARROW_TRAITS)


def test_a_player_plays_one_protagonist_at_a_time(journal, campaign):
    # "Player: one of several participants who takes on the role of one protagonist"
    create(journal, campaign, iris())
    refused(journal, campaign, creation_command(second("Ida", "Ana")), pcs_rules.ONE_PROTAGONIST)
    journal.execute(campaign, RetireCharacter("Iris", "died at sea"))
    create(journal, campaign, second("Ida", "Ana"))
    characters = chars(journal, campaign)
    assert character_of(characters, "Ana") == "Ida" and not characters.pcs["Iris"].active


def test_characters_belong_to_players_and_need_their_own_names(journal, campaign):
    # "Supporting characters are [...] portrayed by the GM": the GM has no player character.
    rejected(journal, campaign, creation_command(iris(player="Maya")), "not a player at the table")
    rejected(journal, campaign, creation_command(iris(name="Ben")), "participant's name")
    create(journal, campaign, iris())
    # Names match ignoring case (yarnlog.core.names): "iris" is Iris, and the refusal names her as registered.
    rejected(journal, campaign, creation_command(second("iris", "Ben")), "already a character called Iris")


def test_the_gm_approves_every_character(journal, campaign):
    # "The GM should look over every character before approving it for play."
    refused(journal, campaign, creation_command(iris(gm_approved=False)), pcs_rules.APPROVAL)


def test_each_new_character_relates_to_every_character_already_proclaimed(journal, campaign):
    # "Third player proclaims his/her character's name, role in the group, and relationship to all
    # other proclaimed characters."
    create(journal, campaign, iris())
    refused(journal, campaign, creation_command(second("Jon", "Ben")), relationships.RELATE_TO_ALL)
    create(journal, campaign, second("Jon", "Ben", relationships={"Iris": "younger brother"}))
    rejected(journal, campaign, creation_command(second("Kay", "Cy", relationships={"Iris": "x", "Zed": "y"})),
             "Zed is not a player character")
    assert relationship_map(chars(journal, campaign))["relationships"] == [
        {"character": "Jon", "other": "Iris", "nature": "younger brother"}]


def test_the_first_two_withholders_named_are_the_fraught_relationships(journal, campaign):
    # "The first and second PCs you name as your withholders of emotional reward are your fraught
    # relationships."
    journal.execute(campaign, AddParticipant(name="Dee"))
    create(journal, campaign, iris())
    create(journal, campaign, second("Jon", "Ben", relationships={"Iris": "brother"}))
    create(journal, campaign, second("Kay", "Cy", relationships={"Iris": "ex", "Jon": "rival"}))
    create(journal, campaign, second("Lu", "Dee", relationships={"Iris": "aunt", "Jon": "friend", "Kay": "boss"}))
    for withholder in ("Kay", "Jon", "Lu"):
        journal.execute(campaign, DeclareWant("Iris", withholder, "approval", "too proud to give it"))
    characters = chars(journal, campaign)
    assert characters.pcs["Iris"].fraught == ("Kay", "Jon")
    assert [p["fraught"] for p in sheet_data(characters, "Iris")["people_in_my_life"]] == [True, True, False]
    # "until all characters are named as objects of at least two other characters' wants"
    assert relationship_map(characters)["wanted_by_fewer_than_two"] == ["Iris", "Jon", "Kay", "Lu"]


def test_the_other_player_says_why_a_want_cannot_be_had(journal, campaign):
    # "The player of the other character defines why they can't get it."
    create(journal, campaign, iris())
    create(journal, campaign, second("Jon", "Ben", relationships={"Iris": "brother"}))
    refused(journal, campaign, DeclareWant("Jon", "Iris", "her approval", ""), shared_relationships.WHY_NOT)
    rejected(journal, campaign, DeclareWant("Jon", "Jon", "peace", "no"), "not from himself")


# -- supporting characters and locations ----------------------------------------------------


def test_minor_characters_are_introduced_in_a_scene_and_played_by_the_gm(journal, scene):
    # "Characters are introduced for the first time either by the caller, at the top of a scene,
    # or by any participant, while a scene is already in progress."
    journal.execute(scene, IntroduceSupporting("Old Tom", "the harbour master, who drinks", "Ana"))
    characters = chars(journal, scene)
    assert characters.supporting["Old Tom"].kind == "minor" and characters.supporting["Old Tom"].scene == 1
    assert player_of(characters, "Old Tom") is None
    end_episode(journal, scene)
    refused(journal, scene, IntroduceSupporting("Mags", "a fishwife", "Ben"), cast_rules.INTRODUCING)
    # "give him or her a name and a brief description"
    journal.execute(scene, StartEpisode())
    journal.execute(scene, OpenScene(caller="Ana", cast=("Iris",)))
    refused(journal, scene, IntroduceSupporting("Mags", " ", "Ben"), cast_rules.BRIEF_DESCRIPTION)


def test_a_player_promotes_a_minor_character_by_making_him_the_object_of_a_need(journal, scene):
    # "A player can promote a minor character to recurring status by making him or her the object
    # of his character's emotional needs."
    journal.execute(scene, IntroduceSupporting("Old Tom", "the harbour master", "Maya"))
    journal.execute(scene, DescribeSupporting("Old Tom", "lost a hand to the sea"))
    journal.execute(scene, PromoteSupporting("Old Tom", "Iris", "his blessing to sail"))
    tom = chars(journal, scene).supporting["Old Tom"]
    assert (tom.kind, tom.promoted_by, tom.details) == ("recurring", "Iris", ("lost a hand to the sea",))
    rejected(journal, scene, PromoteSupporting("Old Tom", "Iris", "again"), "already a recurring character")
    assert relationship_map(chars(journal, scene))["needs"] == [
        {"character": "Iris", "recurring": "Old Tom", "need": "his blessing to sail"}]


def test_a_character_starts_recurring_only_when_first_called_to_grant_a_petition(journal, scene):
    # "Some characters start out as recurring, when their first appearance is a dramatic scene in
    # which they are called upon to grant a PCs' petition."
    create(journal, scene, second("Jon", "Ben", relationships={"Iris": "brother"}))
    journal.execute(scene, OpenScene(caller="Ana", cast=("Iris", "Jon"), mode="dramatic"))
    journal.execute(scene, IntroduceSupporting("The Mayor", "runs the town", "Ana", recurring=True, petitioner="Iris"))
    assert chars(journal, scene).supporting["The Mayor"].kind == "recurring"
    journal.execute(scene, OpenScene(caller="Ana", cast=("Iris",), mode="procedural"))
    refused(journal, scene, IntroduceSupporting("The Bishop", "a schemer", "Ana", recurring=True, petitioner="Iris"),
            cast_rules.STARTS_RECURRING)


def test_relationships_to_recurring_characters_are_made_in_a_scene_with_both(journal, scene):
    # "Players may establish relationships to recurring characters promoted by other players. Do
    # this during any scene featuring both your character and the recurring character."
    journal.execute(scene, IntroduceSupporting("Old Tom", "the harbour master", "Maya"))
    refused(journal, scene, DefineRelationship("Iris", "Old Tom", "godfather"),
            shared_relationships.MINOR_HAS_NO_RELATIONSHIP)
    journal.execute(scene, PromoteSupporting("Old Tom", "Iris", "his blessing"))
    refused(journal, scene, DefineRelationship("Iris", "Old Tom", "godfather"),
            shared_relationships.RECURRING_RELATIONSHIP)
    journal.execute(scene, OpenScene(caller="Ana", cast=("Iris", "Old Tom"), mode="dramatic"))
    journal.execute(scene, DefineRelationship("Iris", "Old Tom", "godfather"))
    assert sheet_data(chars(journal, scene), "Iris")["relationships"] == [
        {"other": "Old Tom", "nature": "godfather", "defined_by": "Iris"}]


def test_locations_are_introduced_with_a_description_and_elaborated(journal, campaign):
    # "The caller, or any participant during a shift in location, provides an introductory
    # description of the place, which other participants can then elaborate on."
    refused(journal, campaign, IntroduceLocation("The Quay", "", "Ana"), cast_rules.LOCATIONS)
    journal.execute(campaign, IntroduceLocation("The Quay", "wet stone and gulls", "Ana"))
    journal.execute(campaign, ElaborateLocation("The Quay", "a chapel at its end"))
    rejected(journal, campaign, IntroduceLocation("the quay", "again", "Ben"), "already introduced")
    assert chars(journal, campaign).locations["The Quay"].details == ("a chapel at its end",)


def test_the_series_cast_lists_characters_and_locations_in_the_order_they_were_introduced(journal, scene):
    # "keep a list of characters appearing in the series": the list reads in the order of play
    # (the state keeps them in persistent maps, which have no order of their own).
    places = [f"Pier {n}" for n in (9, 3, 14, 1, 7, 12, 5, 10, 2, 13, 8, 4, 11, 6)]
    people = [f"Sailor {n}" for n in (6, 11, 4, 8, 13, 2, 10, 5, 12, 7, 1, 14, 3, 9)]
    for place, person in zip(places, people):
        journal.execute(scene, IntroduceLocation(place, "a berth", "Ana"))
        journal.execute(scene, IntroduceSupporting(person, "a deckhand", "Maya"))
    listed = cast_list(chars(journal, scene))
    assert [loc["name"] for loc in listed["locations"]] == places
    assert [c["name"] for c in listed["minor"]] == people


# -- precedence -----------------------------------------------------------------------------


def test_a_precedence_order_has_one_card_per_player(journal, campaign):
    # "write your player's names on index cards, one card per player. Whenever you need a
    # precedence order, shuffle them and note the result."
    journal.execute(campaign, DrawPrecedence(Purpose.CREATION, ("Cy", "Ana", "Ben")))
    order = chars(journal, campaign).cast.precedence[-1]
    assert (order.purpose, order.order, order.source) == (Purpose.CREATION, ("Cy", "Ana", "Ben"), "entered")
    refused(journal, campaign, DrawPrecedence(Purpose.WANTS, ("Cy", "Ana")), cast_rules.ONE_CARD_PER_PLAYER)
    rejected(journal, campaign, DrawPrecedence(Purpose.WANTS, ("Cy", "Ana", "Maya")), "Maya draws no card")
    rejected(journal, campaign, DrawPrecedence(Purpose.WANTS, ("Cy", "Ana", "Ana", "Ben")), "once")
    # "The GM quizzes each participating player, in a newly drawn precedence order"
    journal.execute(campaign, DrawPrecedence(Purpose.PETITIONERS, ("Ben", "Ana")))


def test_the_tool_shuffles_every_card(journal, campaign):
    # "Whenever you need a precedence order, shuffle them and note the result."
    order = shuffled(["Ana", "Ben", "Cy"], random.Random(1))
    assert sorted(order) == ["Ana", "Ben", "Cy"]
    journal.execute(campaign, DrawPrecedence(Purpose.OTHER, order, "shuffled"))
    assert chars(journal, campaign).cast.precedence[-1].source == "shuffled"


def test_the_theme_rota_is_drawn_at_the_end_of_the_first_session(journal, campaign):
    # "At the end of the first session, the GM chooses the next precedence ranking. [...] The first
    # player in the precedence order chooses the theme for the second session, the second choose
    # for the third session, and so on. Once everyone has had a chance to pick a theme, start over."
    refused(journal, campaign, DrawPrecedence(Purpose.THEME_ROTA, ("Ben", "Cy", "Ana")), cast_rules.THEME_ROTA)
    journal.execute(campaign, StartEpisode())
    end_episode(journal, campaign)
    journal.execute(campaign, DrawPrecedence(Purpose.THEME_ROTA, ("Ben", "Cy", "Ana")))
    journal.execute(campaign, StartEpisode(theme="Debts", theme_chosen_by="Ben"))
    cast = chars(journal, campaign).cast
    assert [theme_chooser(cast, n) for n in range(1, 7)] == [None, "Ben", "Cy", "Ana", "Ben", "Cy"]
    rows = cast_rules.theme_rota(cast)
    assert [(r["episode"], r["chooser"], r["theme"]) for r in rows] == [
        (2, "Ben", "Debts"), (3, "Cy", None), (4, "Ana", None)]


def test_the_theme_is_chosen_by_the_player_the_rota_names(journal, campaign):
    # "The first player in the precedence order chooses the theme for the second session, the second
    # choose for the third session, and so on."
    journal.execute(campaign, StartEpisode())
    end_episode(journal, campaign)
    journal.execute(campaign, DrawPrecedence(Purpose.THEME_ROTA, ("Ben", "Cy", "Ana")))
    refused(journal, campaign, StartEpisode(theme="Debts", theme_chosen_by="Cy"), cast_moves.THEMES)
    started = journal.execute(campaign, StartEpisode(theme="Debts"))[-1]
    assert started.payload.theme_chosen_by == "Ben"  # named from the rota when nobody is given
    end_episode(journal, campaign)
    overridden = journal.execute(campaign, StartEpisode(theme="Storms", theme_chosen_by="Ana"),
                                 override=Override(by="Maya", reason="Cy is away; Ana swaps turns with her"))
    assert [r.event_type for r in overridden] == ["override.recorded", "episode.started"]
    assert verify(journal.store.read(campaign), campaign).ok


def test_a_calling_order_is_drawn_before_the_episodes_first_scene(journal, campaign):
    # "Before the episode's first scene, the GM picks the next precedence order."
    journal.execute(campaign, StartEpisode())
    journal.execute(campaign, DrawPrecedence(Purpose.CALLING_ORDER, ("Ana", "Ben", "Cy")))
    journal.execute(campaign, OpenScene(caller="Maya"))
    refused(journal, campaign, DrawPrecedence(Purpose.CALLING_ORDER, ("Ana", "Ben", "Cy")), cast_rules.CALLING_ORDER)


@given(st.lists(st.sampled_from("ABCDEFGH"), min_size=1, max_size=8, unique=True),
       st.integers(min_value=1, max_value=5), st.integers(min_value=0, max_value=30))
def test_each_player_chooses_once_in_every_round_of_the_rota(order, drawn_after, start):
    order = tuple(order)
    rota = PrecedenceOrder(1, Purpose.THEME_ROTA, order, "entered", "", None, drawn_after)
    cast = Cast(precedence=pvector([rota]), latest_of_purpose=pmap({Purpose.THEME_ROTA: rota}),
                themes=pmap({n: Theme("", None) for n in range(1, drawn_after + 1)}), last_episode=drawn_after)
    first = drawn_after + 1 + start
    choosers = [theme_chooser(cast, n) for n in range(first, first + len(order))]
    assert sorted(choosers) == sorted(order)
    assert theme_chooser(cast, drawn_after) is None


# -- experience -----------------------------------------------------------------------------


def test_every_active_pc_receives_the_same_award(journal, scene):
    # "All PCs active in a session should receive the same number of dice."
    create(journal, scene, second("Jon", "Ben", relationships={"Iris": "brother"}))
    refused(journal, scene, AwardExperience(1, individual={"Jon": 3}), experience.SAME_AWARD)
    recorded = journal.execute(scene, AwardExperience(1, individual={"Jon": 3}), override=GM)
    assert recorded[-1].payload.awards == {"Iris": 1, "Jon": 3}
    characters = chars(journal, scene)
    assert [characters.pcs[n].experience_pool for n in ("Iris", "Jon")] == [2, 4]


def test_absent_pcs_are_not_active_in_the_session_and_receive_nothing(journal, scene):
    create(journal, scene, second("Jon", "Ben", relationships={"Iris": "brother"}))
    journal.execute(scene, AwardExperience(2, absent=("Jon",), reason="a session's play, a foe defeated"))
    # Awards add up over the session: Jon cannot then be given a different total from Iris.
    journal.execute(scene, AwardExperience(1, absent=("Jon",)))
    refused(journal, scene, AwardExperience(1, absent=("Iris",)), experience.SAME_AWARD)
    characters = chars(journal, scene)
    assert [characters.pcs[n].experience_pool for n in ("Iris", "Jon")] == [4, 1]
    assert characters.pcs["Iris"].history[0].note == "a session's play, a foe defeated"


def test_experience_is_awarded_for_a_session(journal, campaign):
    create(journal, campaign, iris())
    rejected(journal, campaign, AwardExperience(1), "no episode has been played")


@event("yarn.test.roll_with_experience")
class RollWithExperience(Payload):
    """Stands for another part's roll: any payload naming a character and experience dice counts."""

    character: str
    experience_dice: int


def test_experience_dice_used_this_session_come_back_next_session(journal, scene):
    # "once per game session you can use this die as a bonus die [...] Once you use this die, you
    # cannot use it again for the rest of the session."
    assert experience_dice_available(chars(journal, scene), "Iris") == 1
    journal.commands.append(scene, journal.store.last_sequence(scene), [RollWithExperience(character="Iris",
                                                                                   experience_dice=1)],
                            by="Ana", visibility="everyone")
    characters = chars(journal, scene)
    assert characters.experience_used == {"Iris": 1}
    assert experience_dice_available(characters, "Iris") == 0
    end_episode(journal, scene)
    journal.execute(scene, StartEpisode())
    assert experience_dice_available(chars(journal, scene), "Iris") == 1
    assert experience_dice_available(chars(journal, scene), "Old Tom") == 0


def test_a_new_trait_costs_five_dice_and_starts_one_die_better_than_normal(journal, scene):
    # "It costs 5 dice from your pool plus game-world experience to develop a new trait." [...] "If
    # the trait is standard, something most people can do, if not well, then you now have a score of 3."
    brawling = DevelopTrait("Iris", TraitData(name="Brawling", signs=["Split knuckles"]), training_required=False,
                            gm_approved=True)
    refused(journal, scene, brawling, experience.NEW_TRAIT)
    journal.execute(scene, AwardExperience(5))
    recorded = journal.execute(scene, brawling)[0]
    assert (recorded.payload.score, recorded.payload.experience_spent) == (3, 5)
    sheet = chars(journal, scene).pcs["Iris"]
    assert (sheet.traits["Brawling"].dice, sheet.traits["Brawling"].place, sheet.experience_pool) == (3, "developed", 1)
    assert [(e.event_type, e.experience) for e in sheet.history] == [
        ("yarn.experience.awarded", 5), ("yarn.experience.trait_developed", -5)]


def test_technical_traits_need_training_and_the_gms_approval(journal, scene):
    # "If it is technical or specialized, such as kung fu or computer programming, you need some
    # kind of training." / "The GM must approve every trait improvement"
    journal.execute(scene, AwardExperience(5))
    kung_fu = TraitData(name="Kung Fu", kind=traits.TraitKind.TECHNICAL, signs=["Calloused hands"])
    refused(journal, scene, DevelopTrait("Iris", kung_fu, True, gm_approved=True), experience.NEW_TRAIT_TRAINING)
    refused(journal, scene, DevelopTrait("Iris", kung_fu, True, TrainingData(months=3, scenes=[1])),
            experience.GM_APPROVES)
    recorded = journal.execute(scene, DevelopTrait("Iris", kung_fu, True, TrainingData(months=3, scenes=[1]), True))
    assert recorded[0].payload.score == 1 and recorded[0].payload.training.scenes == [1]
    rejected(journal, scene, DevelopTrait("Iris", kung_fu.model_copy(update={"name": "Karate"}), True,
                                          TrainingData(months=3, scenes=[9]), True), "no scene 9")


def test_raising_the_central_trait_doubles_time_and_dice(journal, scene):
    # "For a trait listed as 1 or 2 dice, you can increase the score by 1 for every 5 experience dice"
    # "you must spend 10 experience dice" (to 4) / "For your central trait, double the time and dice required."
    journal.execute(scene, AwardExperience(40))
    assert journal.execute(scene, RaiseTrait("Iris", "Medicine", gm_approved=True))[0].payload.experience_spent == 5
    refused(journal, scene, RaiseTrait("Iris", "Military Background", TrainingData(months=12), True),
            experience.CENTRAL_DOUBLES)
    raised = journal.execute(scene, RaiseTrait("Iris", "Military Background", TrainingData(months=24), True))[0]
    assert (raised.payload.score, raised.payload.experience_spent) == (4, 20)
    sheet = chars(journal, scene).pcs["Iris"]
    dice = (sheet.traits["Military Background"].dice, sheet.traits["Medicine"].dice)
    assert (*dice, sheet.experience_pool) == (4, 2, 16)


def test_raising_a_score_to_6_is_beyond_the_rules(journal, scene):
    # "Raising any trait to 5 requires [...] at least $1,000 US per month [...] spend 15 experience
    # dice." / "Raising a score to 6 is pretty much beyond the scope of the rules."
    journal.execute(scene, AwardExperience(30))
    to_five = TrainingData(months=6, full_time=True, usd_per_month=1500)
    assert journal.execute(scene, RaiseTrait("Iris", "Tough", to_five, True))[0].payload.experience_spent == 15
    refused(journal, scene, RaiseTrait("Iris", "Tough", to_five, True), experience.RAISE_TO_6)
    recorded = journal.execute(scene, RaiseTrait("Iris", "Tough", to_five, True, gm_cost=15), override=GM)
    assert recorded[-1].payload.score == 6 and chars(journal, scene).pcs["Iris"].experience_pool == 1


def test_hit_points_rise_with_the_book_example_capped_at_12(journal, campaign):
    # "if a character works out and develops the trait “strong, 3 dice,” he can roll 6 dice. If this
    # total beats his current hit points of 22, he gets the new roll [...] If he manages to beat the
    # odds and roll 35 or 36, however, he only gets to keep 34 hit points, 12 better than his previous score."
    tough_rolled = {"trait": "Tough", "faces": [6, 6, 4, 3, 2, 1]}
    data = iris(superior="Military Background", hit_point_basis=[tough_rolled])
    assert create(journal, campaign, data)[0].payload.hit_points == 22
    journal.execute(campaign, StartEpisode())
    journal.execute(campaign, AwardExperience(5))
    strong = DevelopTrait("Iris", TraitData(name="Strong", signs=["Broad shoulders"]), True,
                          TrainingData(months=2), True, HitPointDice(source="entered", faces=[6, 6, 6, 6, 6, 6]))
    assert journal.execute(campaign, strong)[0].payload.hit_points == 34
    sheet = chars(journal, campaign).pcs["Iris"]
    assert (sheet.hit_points, sheet.hit_point_traits, sheet.history[-1].hit_points) == (34, ("Tough", "Strong"), 12)


def test_the_sole_hit_point_trait_adds_7_or_two_dice(journal, scene):
    # "If this trait is the only one on which your hit points are based [...] you may take +7 hit
    # points or roll two dice and add the result." / "If another trait besides this one had a hand
    # in improving your hit points, then roll double the number of dice"
    journal.execute(scene, AwardExperience(20))
    to_five = TrainingData(months=6, full_time=True, usd_per_month=1000)
    rejected(journal, scene, RaiseTrait("Iris", "Tough", to_five, True, hit_point_gain=HitPointDice(
        source="entered", faces=[3])), "needs 2 dice")
    raised = journal.execute(scene, RaiseTrait("Iris", "Tough", to_five, True,
                                               hit_point_gain=HitPointDice(source="listed")))[0]
    assert raised.payload.hit_points == 28 + 7
    rejected(journal, scene, RaiseTrait("Iris", "Medicine", gm_approved=True,
                                        hit_point_gain=HitPointDice(source="listed")), "the new ones are rolled")


# -- projections, verify, corrections -------------------------------------------------------


def test_the_sheet_as_of_any_event(journal, scene):
    journal.execute(scene, AwardExperience(5))
    before = journal.store.last_sequence(scene)
    journal.execute(scene, DevelopTrait("Iris", TraitData(name="Brawling", signs=["Fists"]), False, gm_approved=True))
    then = sheet_data(chars(journal, scene, upto=before), "Iris")
    now = sheet_data(chars(journal, scene), "Iris")
    assert [t["name"] for t in then["traits"]] == ["Military Background", "Tough", "Medicine"]
    assert (then["experience_pool"], now["experience_pool"], now["traits"][-1]["dice"]) == (6, 1, 3)


def test_verify_flags_a_sheet_forced_in_behind_the_decider(journal, campaign):
    recorded = create(journal, campaign, iris())[0]
    assert verify(journal.store.read(campaign), campaign).ok
    forged = recorded.payload.model_copy(update={"name": "Jon", "player": "Ben", "hit_points": 40})
    journal.commands.append(campaign, journal.store.last_sequence(campaign), [forged], by="Ben", visibility="everyone")
    faults = verify(journal.store.read(campaign), campaign).faults
    problems = [f.problem for f in faults]
    assert len(faults) == 2 and faults[0].sequence == recorded.sequence + 1
    assert "Jon has no relationship to Iris" in problems[0]
    assert problems[1] == "hit_points is recorded as 40 but the rules give 28"


def test_verify_flags_a_spend_the_pool_could_not_pay(journal, scene):
    forged = TraitRaised(character="Iris", trait="Medicine", gm_approved=True, score=2, experience_spent=5)
    journal.commands.append(scene, journal.store.last_sequence(scene), [forged], by="Ana", visibility="everyone")
    faults = verify(journal.store.read(scene), scene).faults
    assert len(faults) == 1 and "costs 5 experience dice, the pool has 1" in faults[0].problem
    assert chars(journal, scene).pcs["Iris"].experience_pool == -4


def test_corrections_change_a_sheet_but_not_against_the_rules(journal, campaign):
    # "Later changes to a sheet happen by events or by the journal's corrections."
    created = create(journal, campaign, iris())[0]
    journal.execute(campaign, Correct(created.sequence, {"desire": "forgiveness"}, "misheard"))
    assert chars(journal, campaign).pcs["Iris"].desire == "forgiveness"
    before = journal.store.last_sequence(campaign)
    broken = "fails: hit_points is 30, the rules give 28"
    with pytest.raises(RuleViolation, match=broken):
        journal.execute(campaign, Correct(created.sequence, {"hit_points": 30}, "generous"))
    assert journal.store.last_sequence(campaign) == before
    assert audit(journal.history(campaign)) == []


def test_a_pc_whose_player_left_is_no_longer_in_play(journal, campaign):
    # "All PCs active in a session": a PC whose player has left the table is not active.
    create(journal, campaign, iris())
    journal.execute(campaign, RemoveParticipant("Ana"))
    # Jon need not relate to a character no longer in play.
    create(journal, campaign, second("Jon", "Ben"))
    assert character_sheets.active_pcs(chars(journal, campaign), journal.state(campaign).table) == ["Jon"]

