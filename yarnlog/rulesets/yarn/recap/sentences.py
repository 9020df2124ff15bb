"""The book's words for what the journal recorded: one sentence per event, from its payload.

Pure functions of a payload's data (``payload.model_dump()``) and, for a roll against another,
the rolls the audience may see. Each returns the recap section it belongs to and the sentence,
or ``None`` for events a recap tells elsewhere (ballots, the tally) or not at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yarnlog.core.referee import heading
from yarnlog.rulesets.scenes_and_tokens import story
from yarnlog.rulesets.yarn.recap.book_sections import cited
from yarnlog.rulesets.yarn.recap.phrasing import Data, _counted, _dice, _names
from yarnlog.rulesets.yarn.recap.roll_sentences import consequence, group, roll  # told by sentence()

KITTY = "kitty"


def _count(n: int, currency: str = "drama") -> str:
    word = "bennie" if currency == "bennie" else "token"
    return f"a {word}" if n == 1 else f"{n} {word}s"


def _account(name: str) -> str:
    return "the kitty" if name == KITTY else name


def movement(t: Data) -> str:
    """One transfer in words: ``Ana gains a token from the kitty``, ``Ana pays a token to the kitty``."""
    what = _count(t["amount"], t.get("currency", "drama"))
    if t["destination"] == KITTY:
        return f"{t['source']} pays {what} to the kitty"
    return f"{t['destination']} gains {what} from {_account(t['source'])}"


def movements(p: Data) -> str:
    moved = [movement(t) for t in p.get("transfers") or ()]
    return "; ".join(moved) if moved else "no token changes hands"


def _who(character: str, holder: str | None) -> str:
    return f"{character} ({holder})" if holder and holder != character else character


def _supporters(lines: Any) -> str:
    return ", ".join(f"{s['character']} ({s['supporter']}, {_count(s['tokens'])})" for s in lines)


def _wanting(want: str | None) -> str:
    """How a declared want reads after the petition: ``for an apology``, ``(the want: to come home)``."""
    if not want:
        return ""
    return f" (the want: {want})" if want.startswith("to ") else f" for {want}"


def petition(p: Data, wants: Mapping[tuple[str, str], str]) -> str:
    """``Iris Vane petitioned Jonah Crane for an apology. Refused: Ana gains a token from the kitty
    (Gaining Tokens).``"""
    want = p.get("sought") or wants.get((p["petitioner"], p["granter"]))
    answer = str(p["outcome"]).capitalize()
    move = f"petition {p['outcome']}"
    if p.get("vote"):
        answer += " by the group's vote"
        move = "petition voted"
    then = movements(p)
    if p["outcome"] == "no contest":
        then += f"; {p.get('caller') or 'the caller'} may call a new scene"
    return f"{p['petitioner']} petitioned {p['granter']}{_wanting(want)}. {answer}: {then}{cited(move)}."


def two_way(p: Data) -> str:
    def got(name: str, granted: bool) -> str:
        return f"{name} got the payoff sought" if granted else f"{name} was denied"

    return (f"Two-way exchange between {p['first']} and {p['second']}: {got(p['first'], p['first_granted'])}, "
            f"{got(p['second'], p['second_granted'])}. {_first_up(movements(p))}{cited('two-way exchange')}.")


def _first_up(text: str) -> str:
    """``text`` starting a sentence (names keep their own capitals)."""
    return text[:1].upper() + text[1:]


def quizzed(p: Data, wants: Mapping[tuple[str, str], str]) -> str:
    answers = []
    for a in p["answers"]:
        want = wants.get((a["petitioner"], a["wanted_from"]))
        answers.append(f"{a['petitioner']} petitioned {a['wanted_from']}{_wanting(want)}"
                       + (": got it" if a["got_it"] else ": did not get it"))
    return (f"Multiple petitioners, quizzed by the GM in precedence order {', '.join(p['precedence'])}: "
            + "; ".join(answers) + f". {_first_up(movements(p))}{cited('multiple petitioners')}.")


def forced(p: Data) -> str:
    text = f"{_who(p['petitioner'], p.get('petitioner_holder'))} forced {_who(p['granter'], p.get('granter_holder'))}"
    if p.get("force_support"):
        text += f", supported by {_supporters(p['force_support'])}"
    if p.get("blocked"):
        text = text.replace(" forced ", " tried to force ", 1)
        text += f"; {p['granter']} blocked the force"
        if p.get("block_support"):
            text += f", supported by {_supporters(p['block_support'])}"
    else:
        text += "; the force takes place"
    return f"{text}. {_first_up(movements(p))}{cited('force')}."


def ducked(p: Data) -> str:
    """Who won the duck, and what the caller does now ("Ducking a Scene")."""
    who, character, caller = _who(p["character"], p.get("ducker")), p["character"], p["caller"]
    if p.get("in_scene"):
        return (f"{who} tried to duck the scene; {caller} compels {character} to take part, "
                f"so {character} stays in{cited('duck')}.")
    text = f"{who} ducked the scene"
    if p.get("spends_token"):
        text += f" by spending a drama token, which goes to the caller, {caller}"
    if p.get("caller_starts_over"):
        text += f". {caller} must start over, calling a new scene without {character}"
    else:
        text += f". {caller} calls the scene without {character}"
    return text + f"{cited('duck')}."


def rushed(p: Data) -> str:
    """Who won the rush: the caller who blocked it, or the rusher now in the scene ("Rushing a Scene")."""
    who = _who(p["character"], p.get("rusher"))
    if p.get("caller_blocks"):
        return (f"{who} tried to rush the scene; the caller, {p['caller']}, blocked the entrance with a bennie, "
                f"so {p['character']} stays out. {_first_up(movements(p))}{cited('rush blocked')}.")
    if p.get("caller_consents"):
        return f"{who} joined the scene with the caller's consent, which costs nothing{cited('rush')}."
    paid = "a bennie" if p.get("payment") == "bennie" else "a drama token"
    return f"{who} rushed the scene, spending {paid}. {_first_up(movements(p))}{cited('rush')}."


def _upheld(p: Data) -> str:
    """What the caller must do now that the challenge of ``p`` is upheld."""
    caller = p["caller"]
    if p["kind"] == "time jump":
        return "the scene takes place without the time jump"
    if p["kind"] == "plot jump":
        return (f"{caller} must revise the situation to meet the objections of "
                f"{_names(p.get('must_satisfy') or [p['challenger']])}")
    if p["kind"] == "reversal":
        return f"{caller} must call another scene, one that does not re-run the force"
    if p["kind"] == "narration":
        return f"{caller}'s narration does not stand as told"
    return "the challenge is upheld"


def challenge_voted(p: Data) -> str:
    """The show of hands, who won, and what the caller must do now."""
    tie = f"; the GM broke the tie for the {p['gm_tie_break']}" if p.get("gm_tie_break") else ""
    sides = (f"For the caller: {', '.join(p['for_caller']) or 'no one'}; "
             f"for the challenger: {', '.join(p['for_challenger']) or 'no one'}{tie}. ")
    text = f"{p['challenger']} challenged {p['caller']}'s call ({p['kind']}). {sides}"
    if p["winner"] == "caller":
        text += f"{p['caller']} wins: the call stands"
    else:
        text += f"{p['challenger']} wins: {_upheld(p)}"
    text += f"{cited(p['kind'])}."
    if p.get("revised_situation"):
        text += f" Revised situation: {p['revised_situation']}."
    return text


def novelty_ruled(p: Data) -> str:
    """A challenge for novelty: the GM's judgement, who won, and what the caller must do now."""
    earlier = f" scene {p['earlier_scene']}" if p.get("earlier_scene") else " an earlier scene"
    text = f"{p['challenger']} challenged {p['caller']}'s call for novelty"
    if not p.get("too_similar"):
        text += f": the GM finds it no retry of{earlier}"
    else:
        text += f": the GM finds it too similar to{earlier}"
        if p.get("change"):
            text += f", but {p['caller']} points to a change: {p['change']}"
    if p["ruling"] == "call_stands":
        text += f". {p['caller']} wins: the call stands"
    else:
        text += f". {p['challenger']} wins: {p['caller']} must call an entirely different scene"
    return text + f"{cited('novelty')}."


_REPLIES = {"withdraw": "withdraws the description entirely",
            "adjust": "adjusts it to satisfy the objectors",
            "procedural": "lets it go to a procedural resolution: roll for it"}


def procedural_demanded(p: Data) -> str:
    """Objections to a narrated success and the narrator's reply ("Going To Procedural")."""
    what = f" ({p['narration']})" if p.get("narration") else ""
    return (f"{_names(p['objectors'])} demanded a procedural resolution of {p['narrator']}'s narration{what}. "
            f"{p['narrator']} {_REPLIES.get(p['reply'], p['reply'])}{cited('going to procedural')}.")


def ruled_offstage(p: Data) -> str:
    return (f"The GM rules that scene {p['scene']} happened off stage: {p['caller']} may call another scene "
            f"at once{cited('offstage')}.")


def bennie_option(option: str) -> str:
    return {"drama_token": "a dramatic token", "procedural_token": "a procedural token",
            "jump_the_queue": "the right to jump the queue", "jump_into_scene": "jumping into a scene",
            "block_jump_in": "blocking another player's attempt to jump into the scene",
            "burn_token": "burning a token", "extra_card": "an additional card"}.get(option, option.replace("_", " "))


def bennie_spent(p: Data) -> str:
    spends = ", ".join(f"{s['spender']} cashed in a bennie for {bennie_option(s['option'])}"
                       for s in p.get("bennie_spends") or ())
    return f"{spends or 'A bennie was spent'}. {_first_up(movements(p))}{cited('bennie spent')}."


def ballot_cast(p: Data) -> str:
    ranks = ", ".join(f"{name} #{rank}" for name, rank in sorted(p["ranks"].items(), key=lambda item: item[1]))
    return f"{p['voter']} ranked the players for the bennie vote of episode {p['episode']}: {ranks}{cited('ballot')}."


def vote_tallied(p: Data) -> str:
    """The bennie vote's winners (the full tally, with the low score only the GM sees, is ``bennies --tally``)."""
    winners = [t for t in p["tallies"] if t["gains_bennie"]]
    tied = len({t["placement"] for t in winners}) < len(winners)
    text = f"Bennie vote of episode {p['episode']}: "
    text += f"{_names([t['player'] for t in winners])} {'gain' if len(winners) > 1 else 'gains'} a bennie" \
        if winners else "no one gains a bennie"
    if p.get("missing"):
        text += f", without the ballots of {_names(p['missing'])}"
    return text + f"{cited('tied results' if tied else 'tally')}."


def scene_called(p: Data) -> str | None:
    parts = [f"{s['spender']} spent a bennie for {bennie_option(s['option'])}{cited('bennie spent')}"
             for s in p.get("bennie_spends") or ()]
    costs = [t for t in p.get("transfers") or () if t.get("currency") == "drama"]
    if costs:
        character = p.get("caller_character")
        without = f"without {character}" if character else "their character is not in"
        parts.append(f"{p['caller']} cast a scene {without}, which costs a drama token"
                     + f": {'; '.join(movement(t) for t in costs)}{cited('casting cost')}")
    if p.get("new_element"):
        parts.append(f"new element: {p['new_element']}")
    return "; ".join(parts) + "." if parts else None


def override(p: Data) -> str:
    rules = "; ".join(f"{heading(r['chapter'])} ({r['message']})" for r in p.get("rules") or ())
    return f"The GM {p['by']} set a rule aside: {rules}. Reason: {p['reason']}."


def attacked(p: Data) -> str:
    d = p["declared"]
    weapon = d.get("weapon") or d.get("firearm") or ""
    trait = d.get("attack_trait") or ""
    text = (f"{d['attacker']} attacked {d['defender']}" + (f" with {trait}" if trait else "")
            + (f" ({weapon})" if weapon else "")
            + f": attack {_dice(p.get('attack'))} against defense {_dice(p.get('defense'))}")
    if p.get("outcome") != "beats" or not p.get("damage"):
        return text + f". A miss{cited('attack')}."
    text += f". {p['damage']} damage"
    # What the armor stopped is a step of the damage (halved against gunfire, "Armor/Attack Summary").
    stopped = [step["step"].split(" (")[0] for step in p.get("steps") or () if "armor" in step["step"]]
    if stopped:
        text += f" after {'; '.join(stopped)}"
    text += f": {p['hit_points_before']} → {p['hit_points_after']} hit points"
    return text + f"{cited('attack')}."


def recovered(p: Data) -> str:
    reason = f": {p['reason']}" if p.get("reason") else ""
    return (f"{p['character']} recovers {p['fraction']} of the way: {p['before']} → {p['after']} hit points{reason}"
            f"{cited('recovery')}.")


def healed(p: Data) -> str:
    levels = ", ".join(str(n) for n in p.get("levels") or ())
    days = _counted(p["days"], "day")
    return (f"{p['character']} heals for {days} of {p['activity']}: {p['before']} → {levels} hit points"
            f"{cited('healing')}.")


def damaged(p: Data) -> str:
    return f"{p['character']} takes {p.get('points')} damage" + (" (temporary)" if p.get("temporary") else "") + "."


def combat_started(p: Data) -> str:
    return f"Combat {p['number']} ({p['mode']}) begins: {', '.join(p['combatants'])}."


def initiative(p: Data) -> str:
    return f"Initiative ({p['method']}): {', '.join(p['order'])}{cited('initiative')}."


def combat_left(p: Data) -> str:
    return f"{p['name']} leaves the fight" + (f": {p['reason']}" if p.get("reason") else "") + "."


def combat_ended(p: Data) -> str:
    return f"Combat {p['number']} ends" + (f": {p['summary']}" if p.get("summary") else "") + "."


def death_faced(p: Data) -> str:
    choice = "attempts to recover" if p.get("attempts_recovery") else "lets go"
    return f"{p['character']} faces death and {choice}: {p['outcome']}{cited('death')}."


def supporting_introduced(p: Data) -> str:
    desc = f", {p['description']}" if p.get("description") else ""
    move = "recurring character" if p["kind"] == "recurring" else "minor character"
    return f"{p['introduced_by']} introduced {p['name']} ({p['kind']} character){desc}{cited(move)}."


def supporting_promoted(p: Data) -> str:
    return (f"{p['by_character']} made {p['name']} a recurring character, needing {p['need']}"
            f"{cited('recurring character')}.")


def location(p: Data) -> str:
    desc = f": {p['description']}" if p.get("description") else ""
    return f"{p['introduced_by']} introduced the location {p['name']}{desc}{cited('location')}."


def experience_awarded(p: Data) -> str:
    dice = sorted(set(p["awards"].values()))
    if len(dice) == 1:
        who = ", ".join(p["awards"])
        text = f"{who}: {dice[0]} experience {'die' if dice[0] == 1 else 'dice'} each"
    else:
        text = ", ".join(f"{c} {n}" for c, n in p["awards"].items())
    return text + (f": {p['reason']}" if p.get("reason") else "") + f"{cited('experience award')}."


def trait_raised(p: Data) -> str:
    return (f"{p['character']} raised {p['trait']} to {p['score']} for {p['experience_spent']} experience dice"
            + (", approved by the GM" if p.get("gm_approved") else "") + f"{cited('raise trait')}.")


def trait_developed(p: Data) -> str:
    trait = p.get("trait")
    name = trait.get("name") if isinstance(trait, Mapping) else trait
    return (f"{p['character']} developed {name} for {p.get('experience_spent')} experience dice"
            f"{cited('new trait')}.")


def character_created(p: Data) -> str:
    return f"{p['name']}, {p['role']}, joins as {p['player']}'s character (desire: {p['desire']})."


def precedence_drawn(p: Data) -> str:
    # Issue 10: an order the tool shuffled itself says so, "(drawn by the tool)".
    how = " (drawn by the tool)" if p.get("source") == "shuffled" else ", as drawn at the table"
    cite = cited("calling order") if p["purpose"] == "calling-order" else ""
    return f"Precedence for {p['purpose'].replace('-', ' ')}{how}: {', '.join(p['order'])}{cite}."


def tokens_transferred(p: Data) -> str:
    return f"By the GM's ruling ({p['reason']}): {movements(p)}."


def tokens_returned(p: Data) -> str:
    return f"Unspent drama tokens revert to the kitty: {movements(p)}{cited('tokens returned')}."


def want_declared(p: Data) -> str:
    why_not = f"; why not: {p['why_not']}" if p.get("why_not") else ""
    return f"{p['character']} wants from {p['withholder']}: {p['want']}{why_not}."


def relationship_defined(p: Data) -> str:
    return f"{p['character']}'s relationship with {p['other']}: {p['nature']}."


def retired(p: Data) -> str:
    return f"{p['name']} leaves the series" + (f": {p['reason']}" if p.get("reason") else "") + "."


def supporting_described(p: Data) -> str:
    return f"More about {p['name']}: {p['detail']}."


def location_elaborated(p: Data) -> str:
    return f"More about the location {p['name']}: {p['detail']}."


def armor_worn(p: Data) -> str:
    worn = ", ".join(p.get("armor") or ()) or "no armor"
    return f"{p['character']} wears {worn}{cited('armor')}."


def combatant_registered(p: Data) -> str:
    kind = "a supporting character" if p.get("supporting") else "a walk-on"
    desc = f": {p['description']}" if p.get("description") else ""
    return f"{p['name']}, {kind} with {p['hit_points']} hit points, is ready to fight{desc}."


def combat_joined(p: Data) -> str:
    return f"{_names(p['names'])} {'join' if len(p['names']) > 1 else 'joins'} the fight."


def gestalt_rolled(p: Data) -> str:
    side = "The players' side" if p["side"] == "players" else "The GMCs' side"
    rolls = ", ".join(f"{r['roller']}" + (f" ({r['trait']})" if r.get("trait") else "") + f" {r['dice']['total']}"
                      for r in p["rolls"])
    return f"{side} rolled for the fight: {rolls}; total {p['total']}{cited('gestalt')}."


def death_option_spent(p: Data) -> str:
    return (f"{p['player']} spends a drama token for {p['character']}: {p['option']}. "
            f"{_first_up(movements(p))}{cited('death token')}.")


def roll_read(p: Data) -> str:
    return f"The GM reads roll {p['roll']}: {p['reading']}"


def power_studied(p: Data) -> str:
    how = ", ".join(w for w, on in (("full time", p.get("full_time")), ("with a teacher", p.get("teacher"))) if on)
    text = (f"{p['character']} studied {p['power']} for {p['months']:g} month{'s' if p['months'] != 1 else ''}"
            + (f" ({how})" if how else "")
            + f", rolling {_counted(len(p['faces']), 'experience die', 'experience dice')}: "
            + f"{', '.join(str(f) for f in p['faces']) or 'none'}")
    if p.get("psi_mute"):
        text += "; a psi-mute, who can never learn it"
    elif p.get("learned"):
        text += f"; a {p['success_face']}: learned"
        if p.get("dice"):
            text += f", at {p['dice']} {'die' if p['dice'] == 1 else 'dice'}"
    else:
        text += f"; no {p['success_face']}: not learned"
    return text + f"{cited('fringe power study')}."


def psychic_pool_gained(p: Data) -> str:
    powers = _names([w["name"] for w in p["powers"]])
    rolled = f", rolled {', '.join(str(r) for r in p['rolls'])}" if p.get("rolls") else ""
    return (f"{p['character']} gains a {p.get('pool_name') or 'psychic pool'} of {_counted(p['shots'], 'shot')} "
            f"for {powers}{rolled}{cited('psychic pool')}.")


def psychic_recovered(p: Data) -> str:
    return (f"{p['character']} recovers shots over {p['hours']} hours (rate {p['rate']}): "
            f"{p['shots_before']} → {p['shots']} shots.")


def shots_bought(p: Data) -> str:
    return (f"{p['character']} bought {_counted(p['shots'], 'shot')} for {p['experience_spent']} experience dice, "
            f"up to {p['capacity']} in the pool{cited('shots bought')}.")


def spell_studied(p: Data) -> str:
    faces = " + ".join(str(f) for f in p.get("faces") or ())
    faces = f"{faces} = {p['total']}" if len(p.get("faces") or ()) > 1 else str(p["total"])
    result = "learned" if p.get("learned") else "a botch" if p.get("botched") else "not learned yet"
    return (f"{p['character']} studied {p['spell']} (level {p['level']}) for week {p['week']}, "
            f"{p['hours_per_day']:g} hours a day, for {p['experience_spent']} experience dice: "
            f"{faces}, {result}{cited('spell study')}.")


def spell_cast(p: Data) -> str:
    purpose = f" to {p['purpose']}" if p.get("purpose") else ""
    cost = f", for {_counted(p['shots'], 'shot')}" if p.get("shots") else ""
    return f"{p['character']} cast {p['spell']}, a level {p['level']} spell{purpose}{cost}{cited('spell cast')}."


def sentence(kind: str, p: Data, wants: Mapping[tuple[str, str], str], rolls: Mapping[int, Data],
             secret: bool = False) -> str | None:
    """The sentence of one event of type ``kind`` with payload data ``p``, or ``None`` for a type told
    elsewhere or not at all: what the recap says of it, and what a move answers (:mod:`.words`)."""
    if kind in ("yarn.petition.resolved", "yarn.petition.quizzed"):
        return petition(p, wants) if kind == "yarn.petition.resolved" else quizzed(p, wants)
    if kind in ("yarn.roll.made", "yarn.group.resolved"):
        return roll(p, rolls, secret) if kind == "yarn.roll.made" else group(p, rolls)
    if kind == "yarn.combat.round_started":
        return f"Round {p['number']}."
    say = _SAYINGS.get(kind)
    return say(p) if say is not None else None


_SAYINGS: dict[str, Any] = {
    "yarn.petition.two_way": two_way, "yarn.petition.forced": forced, "yarn.challenge.ducked": ducked,
    "yarn.challenge.rushed": rushed, "yarn.challenge.voted": challenge_voted, "yarn.scene.called": scene_called,
    "yarn.challenge.novelty_ruled": novelty_ruled, "yarn.challenge.procedural_demanded": procedural_demanded,
    "yarn.scene.ruled_offstage": ruled_offstage,
    "override.recorded": override, "yarn.bennie.spent": bennie_spent,
    "yarn.supporting.introduced": supporting_introduced, "yarn.supporting.promoted": supporting_promoted,
    "yarn.supporting.described": supporting_described,
    "yarn.location.introduced": location, "yarn.location.elaborated": location_elaborated,
    "yarn.consequence.rolled": consequence, "yarn.roll.read": roll_read,
    "yarn.combat.started": combat_started, "yarn.combat.initiative_set": initiative, "yarn.combat.attacked": attacked,
    "yarn.combat.left": combat_left, "yarn.combat.ended": combat_ended, "yarn.combat.joined": combat_joined,
    "yarn.combat.combatant_registered": combatant_registered, "yarn.combat.armor_worn": armor_worn,
    "yarn.combat.gestalt_rolled": gestalt_rolled, "yarn.wounds.recovered": recovered,
    "yarn.wounds.healed": healed, "yarn.wounds.damaged": damaged, "yarn.wounds.death_faced": death_faced,
    "yarn.wounds.death_option_spent": death_option_spent,
    "yarn.experience.awarded": experience_awarded, "yarn.experience.trait_raised": trait_raised,
    "yarn.experience.trait_developed": trait_developed,
    "yarn.power.studied": power_studied, "yarn.psychic.pool_gained": psychic_pool_gained,
    "yarn.psychic.recovered": psychic_recovered, "yarn.psychic.shots_bought": shots_bought,
    "yarn.spell.studied": spell_studied, "yarn.spell.cast": spell_cast,
    # Told elsewhere in the recap (the sheet, the vote, the balances), said when a move records them.
    "yarn.character.created": character_created, "yarn.character.want_declared": want_declared,
    "yarn.character.relationship_defined": relationship_defined, "yarn.character.retired": retired,
    "yarn.precedence.drawn": precedence_drawn, "yarn.bennie.ballot_cast": ballot_cast,
    "yarn.bennie.vote_tallied": vote_tallied,
    "yarn.tokens.transferred": tokens_transferred, "yarn.tokens.returned": tokens_returned,
    "yarn.ruling.recorded": story.ruled,
}


# -- the moves of issue 10 (scene roles and shifts, montage actions, themes, consequences, location
# and narration challenges): their sentences, kept together ------------------------------------

_ROLE_WORDS = {"opener": "the episode's opener, which introduces the theme",
               "development": "a development scene, riffing on the theme",
               "closer": "the episode's closer, which completes the theme"}


def scene_role_named(p: Data) -> str:
    return f"Scene {p['scene']} is {_ROLE_WORDS.get(p['role'], p['role'])}."


def scene_shifted(p: Data) -> str:
    later = f", {p['time_shift']}" if p.get("time_shift") else ""
    return f"{p['by']} moves the scene to {p['location']}{later}."


def montage_action(p: Data) -> str:
    activity = f", {p['activity']}" if p.get("activity") else ""
    return f"In the montage, {_who(p['character'], p.get('player'))}{activity}: {p['action']}."


def theme_chosen(p: Data) -> str:
    return f"{p['chosen_by']} chose the theme of episode {p['episode']}: {p['theme']}."


def consequence_introduced(p: Data) -> str:
    good = p["kind"] == "good"
    what = "an advantage for an upcoming scene" if good else "an obstacle to resolve in an upcoming scene"
    return f"{p['character']}'s {p['kind']} consequence turned out to be {what}: {p['text']}."


def location_challenged(p: Data) -> str:
    detail = "the description" if not p.get("detail") else f"detail {p['detail']}"
    text = f"{p['challenger']} challenged {detail} of {p['name']} on {p['ground']}"
    if not p.get("gm_allows"):
        return text + ": the GM did not allow the challenge; the detail stands."
    tie = f"; the GM broke the tie for the {p['gm_tie_break']}" if p.get("gm_tie_break") else ""
    verdict = "the detail is struck" if p.get("upheld") else "the detail stands"
    return (f"{text}: for the detail {', '.join(p.get('for_detail') or ()) or 'no one'}, for the challenger "
            f"{', '.join(p.get('for_challenger') or ()) or 'no one'}{tie}; {verdict}.")


_SAYINGS.update({
    "yarn.scene.role_named": scene_role_named, "yarn.scene.shifted": scene_shifted,
    "yarn.montage.action_called": montage_action, "yarn.theme.chosen": theme_chosen,
    "yarn.consequence.introduced": consequence_introduced, "yarn.location.challenged": location_challenged,
})
