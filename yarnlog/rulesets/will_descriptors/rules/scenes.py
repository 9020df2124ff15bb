"""Scene Descriptors, sticking, and Refreshment scenes (W12-W14, W21-W24; readings 6, 7, 9, 11).

A win's successes may become a Scene Descriptor of as many dice (W13); invoking one costs 1 Will
(W13) and it vanishes when its scene ends unless someone pays 1 Will to stick it to a character
(W14): sticking is the only way a temporary descriptor becomes permanent (reading 7). Refreshment
scenes come only between scenes (W21); one had with another character restores the whole Power
track (W22; reading 11), and any one raises Will to its starting value (W23); the GM then escalates
(W24).
"""

from __future__ import annotations

from yarnlog.core.referee import Referee
from yarnlog.rulesets.will_descriptors.rules import rule

CHAPTER = "What does success do?"
SCENE_DESCRIPTOR = rule(CHAPTER, "the winner can turn the number of successes they rolled into a Scene "
                                       "Descriptor. (W13, line 10)")
INVOKE = rule(CHAPTER, "These can be invoked (at the cost of 1 Will point) to contribute dice to a pool. "
                             "(W13, line 10; reading 9)")
STICK = rule(CHAPTER, "A Scene Descriptor disappears when the scene ends, unless someone wants to pay a "
                            "Will point to make it stick to a character. (W14, line 10)")
REFRESHMENT = rule("Refreshment scenes", "You can get one whenever you want, between scenes, but you "
                                               "can't get one in the middle of a scene. (W21, line 14)")
TRACK_RESTORED = rule("Refreshment scenes", "The Power track is fully restored by having a Refreshment "
                                                  "scene with another character. (W22, line 15; reading 11)")
WILL_RESTORED = rule("Refreshment scenes", "Refreshment scenes also restore your Will if it has fallen "
                                                 "below its starting value. (W23, line 16)")
ESCALATION = rule("Refreshment scenes", "when you have a refreshment scene you're letting your guard down. "
                                              "So you get to heal up whenever you want, but when you do the GM "
                                              "gets to escalate the situation. (W24, line 17)")
STICK_COST = 1  # W14, line 10


def check_scene_descriptor(dice: int, successes: int, referee: Referee) -> None:
    """A Scene Descriptor has as many dice as the winner's successes (W13, line 10)."""
    referee.require(dice == successes, SCENE_DESCRIPTOR,
                    f"{successes} successes make a Scene Descriptor of {successes}D, not {dice}D")


def check_between_scenes(in_scene: bool, referee: Referee) -> None:
    """No Refreshment scene in the middle of a scene (W21, line 14)."""
    referee.require(not in_scene, REFRESHMENT, "no Refreshment scene in the middle of a scene")
