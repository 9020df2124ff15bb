"""DramaSystem SRD (Robin D. Laws): the composition of its parts.

What DramaSystem adds to the journal: characters with action types (:mod:`.parts.sheets`),
procedural tokens (:mod:`.parts.procedural_piles`), simple card resolution
(:mod:`.parts.card_procedure`), the advanced one (:mod:`.parts.advanced_procedure`) and simple
player-versus-player contests (:mod:`.parts.contests`); its dramatic side is the core it shares
with Yarn (:mod:`yarnlog.rulesets.scenes_and_tokens`), composed in :mod:`.parts.drama`: the economy of drama
tokens and the petitions.
"""

from __future__ import annotations

from yarnlog.core.composition import Composition, Part
from yarnlog.core.names import Registered
from yarnlog.core.ruleset import Rules, Ruleset, Views, Words
from yarnlog.core.timeline import EndEpisode, OpenScene, StartEpisode
from yarnlog.rulesets.dramasystem.parts import (
    advanced_procedure,
    card_procedure,
    consequences,
    contests,
    drama,
    procedural_piles,
    sheets,
)
from yarnlog.rulesets.dramasystem.parts.token_ledger import token_board
from yarnlog.rulesets.dramasystem.state import DramaSystemCampaign, DramaSystemState
from yarnlog.rulesets.dramasystem.words import follow_up, narrate

PARTS: tuple[Part, ...] = (sheets.PART, procedural_piles.PART, card_procedure.PART, advanced_procedure.PART,
                           contests.PART, consequences.PART, drama.ECONOMY, drama.PART)


COMPOSED: Composition[DramaSystemState] = Composition(PARTS, DramaSystemState)


def registered_names(campaign: DramaSystemCampaign) -> Registered:
    """The player and supporting characters and the locations (commands name them ignoring case),
    looked up in the state's own maps, not copied (:class:`~yarnlog.core.names.Registered`)."""
    sheets = campaign.rules.sheets
    return Registered(sheets.pcs, sheets.cast.supporting, other=sheets.cast.locations)


RULESET = Ruleset(
    name="dramasystem",
    title="DramaSystem SRD (Robin D. Laws)",
    book="001_d92eeb8e25f80b6a.txt",
    rules=Rules.composed(
        COMPOSED,
        takes_over={
            StartEpisode: drama.PART.decide,  # the theme rota names who chose the theme (DS10)
            EndEpisode: drama.PART.decide,  # unspent drama tokens revert to the kitty (DS19)
            OpenScene: drama.PART.decide,  # a call's price (DS12, DS33)
        },
        names=registered_names,
        state_packages=("yarnlog.rulesets.dramasystem.state", "yarnlog.rulesets.dramasystem.parts",
                        "yarnlog.rulesets.dramasystem.rules", "yarnlog.rulesets.scenes_and_tokens"),
    ),
    # ``procedural-tokens`` is an alias of ``tokens`` (the same board, with its --as visibility, reading 16).
    views=Views(projections={"tokens": token_board, "calling-order": drama.calling_view}),
    words=Words(narrate=narrate, follow_up=follow_up),
    templates="yarnlog/templates/dramasystem",  # recap and sheet templates, shadowed by --templates DIR
)
