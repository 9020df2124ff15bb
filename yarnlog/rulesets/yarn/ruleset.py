"""Yarn 0.1 (Mark Caldwell, 2014): DramaSystem and WaRP mashed together. The default ruleset.

The ruleset is the composition of its parts (see :mod:`yarnlog.rulesets.yarn.state`): each
part folds its own slice of state, decides its own commands and validates its own event types.
Yarn takes over three of the journal's own commands (:data:`TAKES_OVER`); its verbs are in
:mod:`yarnlog.rulesets.yarn.cli.verbs`, named here by path so the domain never imports the shell.
"""

from __future__ import annotations

from yarnlog.core.composition import Composition, Fold, LazyPart, Part, Router
from yarnlog.core.names import Registered
from yarnlog.core.ruleset import Handler, Rules, Ruleset, Views, Words
from yarnlog.core.timeline import EndEpisode, OpenScene, StartEpisode
from yarnlog.rulesets.yarn.parts.characters import part as characters
from yarnlog.rulesets.yarn.parts.drama import part as drama
from yarnlog.rulesets.yarn.parts.drama.calling_order import calling_view
from yarnlog.rulesets.yarn.parts.drama.scene_cast import SCENE_CAST_PIECES, scene_cast_view
from yarnlog.rulesets.yarn.parts.economy import part as economy
from yarnlog.rulesets.yarn.parts.economy.ledger import BENNIE_PIECES, bennie_report, token_report
from yarnlog.rulesets.yarn.recap.words import follow_up, narrate
from yarnlog.rulesets.yarn.state import YarnCampaign, YarnState
from yarnlog.rulesets.yarn.status import seats

_PARTS = "yarnlog.rulesets.yarn.parts"
#: Fights, procedural rolls and powers are imported when first used: a note, a call or a petition
#: needs none of them. Each names where its payloads are defined (powers fold the procedure's rolls)
#: and where its fold is (its records): an event of theirs in the log is folded with that module
#: alone; their deciders and validators are imported when a command reaches them.
fight = LazyPart("combat", f"{_PARTS}.combat.part:PART",
                 events_within=(f"{_PARTS}.combat.fight_records", f"{_PARTS}.combat.wounds"),
                 event_types=("yarn.combat.", "yarn.wounds."), commands_within=(f"{_PARTS}.combat",),
                 fold=Fold(f"{_PARTS}.combat.fight_records", "Fights", "FightsBuilder",
                           reads=frozenset({"characters", "combat"})))
procedure = LazyPart("procedure", f"{_PARTS}.procedure.part:PART",
                     events_within=(f"{_PARTS}.procedure.roll_records",),
                     event_types=("yarn.roll.", "yarn.group.", "yarn.consequence."),
                     fold=Fold(f"{_PARTS}.procedure.roll_records", "Procedure", "ProcedureBuilder"))
powers = LazyPart("powers", f"{_PARTS}.powers.part:PART",
                  events_within=(f"{_PARTS}.powers.power_records", f"{_PARTS}.procedure.roll_records"),
                  event_types=("yarn.psychic.", "yarn.power.", "yarn.spell."),
                  fold=Fold(f"{_PARTS}.powers.power_records", "Powers", "PowersBuilder"))

PARTS: tuple[Part | LazyPart, ...] = (economy.PART, characters.PART, drama.PART, fight, procedure, powers)


#: The parts composed (:class:`~yarnlog.core.composition.Composition`): one slice of YarnState each.
COMPOSED: Composition[YarnState] = Composition(PARTS, YarnState)
initial_state = COMPOSED.initial_state
#: Each event goes to the parts whose ``folds`` handle its type; every other part's slice stays as it is.
ROUTE: Router[Part] = COMPOSED.route
evolve = COMPOSED.evolve
decide = COMPOSED.decide
audit = COMPOSED.audit
#: One validator per event type, from the part that decides it (see :mod:`yarnlog.core.validation`).
VALIDATORS = COMPOSED.validators


def registered_names(campaign: YarnCampaign) -> Registered:
    """The names Yarn registers beside the table's: player and supporting characters, locations, and
    the combatants the GM registered for a fight (commands name them ignoring case). The state's own
    maps, not a copy: they grow with the campaign, and a move looks a name up in them."""
    characters, wounds = campaign.rules.characters, campaign.rules.combat.wounds
    return Registered(characters.pcs, characters.supporting, wounds.registered, other=characters.locations)


#: The journal's own commands Yarn decides itself, and the part that does.
TAKES_OVER: dict[type, Handler] = {
    StartEpisode: characters.PART.decide,  # "Themes": the rota names who chooses the theme
    OpenScene: drama.PART.decide,  # "Calling Scenes": calling order, casting cost, scene kinds
    EndEpisode: drama.PART.decide,  # "Bennies": the vote, drama tokens back to the kitty
}

RULESET = Ruleset(
    name="yarn",
    title="Yarn 0.1",
    default=True,  # a campaign created without --ruleset plays Yarn
    book="000_548678c832322f1b.txt",
    # A replay folds the parts that offer it in place (core.state.Replay). What YarnState is built of
    # (the snapshot codec's whitelist): the parts, the pure rules' values.
    rules=Rules.composed(COMPOSED, takes_over=TAKES_OVER, names=registered_names,
                         state_packages=("yarnlog.rulesets.yarn.state", "yarnlog.rulesets.yarn.parts",
                                         "yarnlog.rulesets.yarn.rules", "yarnlog.rulesets.scenes_and_tokens")),
    # The two views that grow with the campaign are kept in pieces: a write rewrites only what it touched.
    views=Views(projections={"tokens": token_report, "bennies": bennie_report, "calling-order": calling_view,
                             "scene-casts": scene_cast_view},
                pieces={"bennies": BENNIE_PIECES, "scene-casts": SCENE_CAST_PIECES}),
    words=Words(narrate=narrate, follow_up=follow_up, seats=seats),
    templates="yarnlog/templates/yarn",  # recap (and sheet) templates, shadowed by --templates DIR
    options={
        "botch": "Optional Procedural Rules: Botch",
        "blowing_the_top_off": "Optional Procedural Rules: Blowing the Top Off",
        "unstoppable_six": "Optional Procedural Rules: The Unstoppable Six",
        "multiple_experience_dice": "Your Experience Pool: more than one experience die on a roll, each justified",
        "narrow_traits": "More About Traits: narrow traits (optional)",
        "desperate_defense": "Optional Rules for Combat: Desperate Defense",
        "alternate_damage": "Optional Rules for Combat: Alternate Damage",
        "serious_wounds": "Optional Rules for Combat: Serious Wounds",
    },
)
