"""The section a sentence names is a real heading of the Yarn book, the one whose rule decides the move."""

from __future__ import annotations

from yarnlog.core.referee import heading
from yarnlog.rulesets.yarn.recap import sentences
from yarnlog.rulesets.yarn.recap.book_sections import DECIDED_BY, section

#: The book's headings, as its table of contents lists them ("Contents", Yarn 0.1).
CONTENTS = """Introduction|Components|Order of Precedence|Creating Characters|Character Checklist|Step By Step|
Role in the Group|Defining Relationships|Your Desire|Your Dramatic Poles|What You Want From Others|Traits|Central Trait|
Side Traits|More About Traits|Scores for Traits|Flaws|Signs|Hit Points|Experience Pool|Approval|Your Story|Episodes|
Themes|Scenes|Calling Scenes|Calling Order|Challenges|Ducking a Scene|Rushing a Scene|Challenging a Time Jump|
Challenging a Plot Jump|Challenging For Novelty|Going To Procedural|The Right to Describe|Dramatic Scenes|Tokens|
Calling Dramatic Scenes|Playing and Resolving Dramatic Scenes|Gaining Tokens|Forcing|Supporting or Blocking a Force|
Concessions and Emotional Power|No Contest Scenes|Two-Way Exchanges|Multiple Petitioners|
Petitioning For Practical Favors|Drama with Recurring Characters|Soft Opens|Conference Scenes|Montage Scene|
Healing Scene|Training Scene|Shopping Scenes|Researching|Healing|Procedural Scenes|Mechanics|Your Experience Pool|
Basic Mechanics|General Actions|Chancy Actions|How Many Dice Do You Roll?|Comparing Your Roll|The Hand of Fate|
Multiple Actions|Tangential Traits|Group Efforts|Simple Addition|Combining Dice|Either/Or|Worst Roller|
Personal Consequences|Breaks|Resulting Personal Consequences|Combat|Gestalt Combat|Detailed Combat|Rounds|Initiative|
Attacks|Ranged Attacks|How Much Damage?|Messed Up|Down for the Count|Character Death|Armor|Regular Armor|
Bullet-Proof Armor|Recovery|Hit Point Recovery Conventions|Supporting Characters|Minor Characters|
Introducing Minor Characters|Recurring Characters|Introducing Locations|Bennies|Gaining Bennies|Tied Results|
Spending Bennies|Awarding Experience Pool Dice|Experience|Developing a New Trait|Improving a Current Trait|
Learning Fringe Powers|Using Fringe Powers|Learning a Spell|Casting a Spell""".replace("\n", "").split("|")


def test_every_section_named_is_a_heading_of_the_book():
    assert {move: section(move) for move in DECIDED_BY if section(move) not in CONTENTS} == {}


def test_the_heading_is_the_last_part_of_the_rules_chapter():
    assert heading("Basic Mechanics › How Many Dice Do You Roll?") == "How Many Dice Do You Roll?"
    assert heading("Gaining Tokens") == "Gaining Tokens"


def test_a_refused_petition_names_gaining_tokens():
    # "If the granter refuses, the petitioner gains the token—from the granter if she has one, or from the kitty
    # if not." ("Gaining Tokens")
    refused = {"petitioner": "Rin", "granter": "Coral", "outcome": "refused",
               "transfers": [{"source": "kitty", "destination": "Uma", "amount": 1}]}
    assert sentences.petition(refused, {}) == \
        "Rin petitioned Coral. Refused: Uma gains a token from the kitty (Gaining Tokens)."


def test_a_lost_plot_jump_says_what_the_caller_must_do():
    # "If the caller loses the challenge, she must then revise her situation description to meet the objections
    # of the challenging player, and the voters who supported him." ("Challenging a Plot Jump")
    lost = {"kind": "plot jump", "challenger": "Ben", "caller": "Ana", "for_caller": ["Ana"],
            "for_challenger": ["Ben", "Cy"], "gm_tie_break": None, "winner": "challenger",
            "must_satisfy": ["Ben", "Cy"]}
    assert sentences.challenge_voted(lost).endswith(
        "Ben wins: Ana must revise the situation to meet the objections of Ben and Cy (Challenging a Plot Jump).")
    # "If the player can't point to a changed situation, the GM resolves the challenge by requiring the caller to
    # call an entirely different scene." ("Challenging For Novelty")
    retried = {"challenger": "Ben", "caller": "Ana", "earlier_scene": 2, "too_similar": True, "change": "",
               "ruling": "call_another_scene"}
    assert sentences.novelty_ruled(retried).endswith(
        "Ben wins: Ana must call an entirely different scene (Challenging For Novelty).")
