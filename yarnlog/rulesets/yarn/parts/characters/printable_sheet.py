"""The character sheet as the book lays it out, as of any point of the journal (Yarn 0.1 "Character
Checklist": name, role, relationships, desire, poles, wants, traits with their dice and signs, the
flaw, hit points with their descriptor, the experience pool, finances and equipment; and what play
adds to it: wounds ("Messed Up", "Down for the Count"), armor worn ("Armor"), the psychic pool, fringe
powers and spells (Appendix: Fringe Powers, Appendix: Magic), and the player's drama tokens and
bennies).

One pure projection over a replayed campaign (``journal.state(cid, upto=N)``); every value is read
from the projection that owns it (the sheet, ``wounds_report``, ``psychic_data``, the economy), so the
printed sheet never disagrees with the other reports.
"""

from __future__ import annotations

from typing import Any

from yarnlog.core.referee import InvalidCommand, present
from yarnlog.rulesets.yarn.parts.characters.experience_awards import experience_dice_available, experience_dice_used
from yarnlog.rulesets.yarn.parts.characters.relationships import edges_of
from yarnlog.rulesets.yarn.parts.combat.wound_reports import wounds_report
from yarnlog.rulesets.yarn.parts.powers.part import psychic_data
from yarnlog.rulesets.yarn.rules.arsenal import armor_named
from yarnlog.rulesets.yarn.state import YarnCampaign


def _armor(name: str) -> dict[str, Any]:
    """A layer of armor worn, with its rating as the Armor Ratings table prints it ("2", "1b", "3/2b")."""
    try:
        armor = armor_named(name)
    except InvalidCommand:  # an armor the GM named outside the table: worn all the same, rating unknown
        return {"name": name, "rating": "", "penalty": False}
    regular = f"{armor.points} pt" if armor.points else str(armor.dice) if armor.dice else ""
    proof = f"{armor.bullet_proof_dice}b" if armor.bullet_proof_dice else ""
    return {"name": armor.name, "rating": "/".join(r for r in (regular, proof) if r), "penalty": armor.heavy}


def printable_sheet(campaign: YarnCampaign, name: str) -> dict[str, Any]:
    """PC ``name``'s sheet as of ``campaign`` (a replay up to some event), as plain data for any renderer."""
    rules = campaign.rules
    characters = rules.characters
    sheet = present(characters.pcs.get(name), f"{name} is not a player character")
    [wounds] = wounds_report(campaign, name)
    pools = psychic_data(campaign, name, gm_view=False)  # the psi-mute die is the GM's secret: never on a sheet
    psychic = pools[0] if pools else None
    economy = rules.economy
    relationships = [{"other": r.other if r.character == name else r.character, "nature": r.nature,
                      "defined_by": r.character} for r in edges_of(characters, name)]
    natures = {r["other"]: r["nature"] for r in relationships}
    wanted = {w.withholder for w in sheet.wants}
    return {
        "as_of": campaign.sequence,
        "episode": campaign.timeline.episode,
        "scene": campaign.timeline.scene,
        "name": sheet.name, "player": sheet.player, "active": sheet.active, "role": sheet.role,
        "desire": sheet.desire, "poles": list(sheet.poles), "story": sheet.story,
        "traits": [{"name": t.name, "dice": t.dice, "kind": t.kind.value, "place": t.place, "superior": t.superior,
                    "signs": list(t.signs), "description": t.description, "fighting_skill": t.fighting_skill}
                   for t in sheet.traits.values()],
        "flaw": {"name": sheet.flaw.name, "signs": list(sheet.flaw.signs), "description": sheet.flaw.description}
        if sheet.flaw else None,
        "hit_points": {
            "current": wounds.current, "normal": wounds.maximum, "descriptor": sheet.hit_point_descriptor,
            "based_on": list(sheet.hit_point_traits), "wound_state": wounds.status,
            "temporary": wounds.temporary, "last_recovered": wounds.last_recovered,
            "penalty_dice": wounds.penalty_dice, "serious_wounds": list(wounds.serious_wounds),
        },
        "armor": [_armor(a) for a in rules.combat.armor.get(name, ())],
        "experience": {"pool": sheet.experience_pool, "used_this_session": experience_dice_used(characters, name),
                       "left_this_session": experience_dice_available(characters, name)},
        "psychic": None if psychic is None else {
            "pool": psychic["pool"], "shots": psychic["shots"], "capacity": psychic["capacity"],
            "fringe_powers": [{"name": power, "dice": dice} for power, dice in psychic["powers"].items()],
            "spells": psychic["spells"],
        },
        "people_in_my_life": [{"withholder": w.withholder, "relationship": natures.get(w.withholder, ""),
                               "want": w.want, "why_not": w.why_not, "fraught": w.withholder in sheet.fraught}
                              for w in sheet.wants],
        "relationships": relationships,
        "other_relationships": [r for r in relationships if r["other"] not in wanted],
        "finances": sheet.finances, "equipment": list(sheet.equipment),
        "player_holds": {"drama_tokens": economy.tokens.get(sheet.player, 0),
                         "bennies": economy.bennies.get(sheet.player, 0)},
    }
