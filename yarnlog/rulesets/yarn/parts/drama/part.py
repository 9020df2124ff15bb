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

from yarnlog.core.corrections import OverrideRecorded
from yarnlog.core.events import Recorded
from yarnlog.core.frozen import replace
from yarnlog.core.referee import Referee
from yarnlog.core.ruleset import EVERY_EVENT, Part, Router, compose_validators, folds
from yarnlog.core.table import CampaignCreated
from yarnlog.core.timeline import EpisodeEnded
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
from yarnlog.rulesets.yarn.parts.drama.state import Drama
from yarnlog.rulesets.yarn.state import YarnCampaign, YarnState

MODULES = (scene_calls, scene_challenges, petitions, bennie_spends, bennie_vote, scene_roles, setting_shifts,
           montage_actions, rulings)

#: Each event goes to the modules that fold its type, in the order of :data:`MODULES`.
ROUTE = Router((module.FOLDS, module.evolve) for module in MODULES)

#: The events the part itself folds, besides its modules'.
OWN_FOLDS = folds(CampaignCreated, OverrideRecorded, EpisodeEnded)


def evolve(drama: Drama, recorded: Recorded, yarn: YarnState) -> Drama:
    p = recorded.payload
    drama = replace(drama, pending_call=None) if drama.pending_call is not None else drama
    if isinstance(p, CampaignCreated):
        drama = replace(drama, gm=p.gm)
    if isinstance(p, OverrideRecorded):
        drama = replace(drama, overridden_through=recorded.sequence + p.covers)
    if isinstance(p, EpisodeEnded):
        # The episode's forces and ballots have done their work (its tally is kept): forgotten, so
        # the slice does not grow with the campaign.
        drama = replace(drama, recall=None, forced=(), ballots=drama.ballots.discard(p.number))
    for fold in ROUTE(type(p)):
        drama = fold(drama, recorded, yarn)
    return drama


def decide(command, campaign: YarnCampaign, referee: Referee):
    for module in MODULES:
        payloads = module.decide(command, campaign, referee)
        if payloads is not None:
            return payloads
    return None


# Every event: a scene just opened is pending only until the next event, whatever its type.
PART = Part(name="drama", initial=Drama, evolve=evolve, folds=EVERY_EVENT, decide=decide, audit=scene_calls.audit,
            validators=compose_validators(*(m.VALIDATORS for m in MODULES)))
