"""The drama part of the Yarn ruleset: scene calls, challenges, petitions, bennies.

Composes the modules that each own one concern of Yarn 0.1's "Episodes" and "Dramatic Scenes"
chapters and of its "Bennies" chapter: :mod:`.scene_calls`, :mod:`.scene_challenges`,
:mod:`.petitions`, :mod:`.bennie_spends`, :mod:`.bennie_vote`, :mod:`.scene_roles` (opener,
development, closer), :mod:`.setting_shifts` (a scene moving place), :mod:`.montage_actions` and
:mod:`.rulings` (a GM's ruling that moves nothing).
They share one slice of state, :class:`~.drama_state.Drama` (``campaign.rules.drama``). Token and
bennie movements travel in each payload's ``transfers``, which the economy part folds into balances
and the ledger.
"""

from __future__ import annotations

import functools
import operator

from yarnlog.core.composition import Part, Router, compose_validators, folds
from yarnlog.core.events import Recorded
from yarnlog.core.frozen import replace
from yarnlog.core.referee import Referee
from yarnlog.core.timeline import EpisodeEnded
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import (
    JOURNAL_FOLDS,
    Drama,
    DramaBuilder,
    journal_fold,
    journal_fold_in_place,
)
from yarnlog.rulesets.yarn.parts.drama import (
    bennie_spends,
    bennie_vote,
    montage_actions,
    petitions,
    rulings,
    scene_calls,
    scene_challenges,
    scene_roles,
    setting_shifts,
)
from yarnlog.rulesets.yarn.state import YarnCampaign, YarnState

MODULES = (scene_calls, scene_challenges, petitions, bennie_spends, bennie_vote, scene_roles, setting_shifts,
           montage_actions, rulings)

#: Each event goes to the modules that fold its type, in the order of :data:`MODULES`.
ROUTE = Router((module.FOLDS, module.evolve) for module in MODULES)
#: The same route to the modules' folds in place (a replay's, :class:`~.state.DramaBuilder`).
ROUTE_IN_PLACE = Router((module.FOLDS, module.fold_in_place) for module in MODULES)

#: The events the part itself folds, besides its modules'.
OWN_FOLDS = folds(*JOURNAL_FOLDS)


def evolve(drama: Drama, recorded: Recorded, yarn: YarnState) -> Drama:
    p = recorded.payload
    drama = journal_fold(drama, recorded)
    if isinstance(p, EpisodeEnded):  # the episode's ballots have done their work (its tally is kept)
        drama = replace(drama, ballots=drama.ballots.discard(p.number))
    for fold in ROUTE(type(p)):
        drama = fold(drama, recorded, yarn)
    return drama


def fold_in_place(drama: DramaBuilder, recorded: Recorded, yarn: YarnState) -> None:
    """:func:`evolve` in a replay: the slice thawed (``yarn`` is the state before the event)."""
    p = recorded.payload
    journal_fold_in_place(drama, recorded)
    if isinstance(p, EpisodeEnded):
        drama.ballots.discard(p.number)
    for fold in ROUTE_IN_PLACE(type(p)):
        fold(drama, recorded, yarn)


def decide(command, campaign: YarnCampaign, referee: Referee):
    for module in MODULES:
        payloads = module.decide(command, campaign, referee)
        if payloads is not None:
            return payloads
    return None


#: The part's own events and its modules'; no other event changes the slice.
FOLDS = functools.reduce(operator.or_, (module.FOLDS for module in MODULES), OWN_FOLDS)

# A replay folds the slice in place; a scene called reads the characters as they were (its caller's own).
PART = Part(name="drama", initial=Drama, evolve=evolve, folds=FOLDS, decide=decide, audit=scene_calls.audit,
            validators=compose_validators(*(m.VALIDATORS for m in MODULES)),
            thaw=functools.partial(DramaBuilder, fold=fold_in_place), reads=frozenset({"characters"}))
