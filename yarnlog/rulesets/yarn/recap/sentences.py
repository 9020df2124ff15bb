"""The book's words for what the journal recorded: one sentence per event, from its payload.

Pure functions of a payload's data (``payload.model_dump()``) and, for a roll against another,
the rolls the audience may see. Each returns the recap section it belongs to and the sentence,
or ``None`` for events a recap tells elsewhere (ballots, the tally) or not at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Data = Mapping[str, Any]

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
    """``Iris Vane petitioned Jonah Crane for an apology ...: refused; Ana gains a token from the kitty``."""
    want = wants.get((p["petitioner"], p["granter"]))
    answer = p["outcome"]
    vote = p.get("vote")
    if vote:
        answer += " by the group's vote"
    return f"{p['petitioner']} petitioned {p['granter']}{_wanting(want)}: {answer}; {movements(p)}."


def two_way(p: Data) -> str:
    def got(name: str, granted: bool) -> str:
        return f"{name} got the payoff sought" if granted else f"{name} was denied"

    return (f"Two-way exchange between {p['first']} and {p['second']}: {got(p['first'], p['first_granted'])}, "
            f"{got(p['second'], p['second_granted'])}; {movements(p)}.")


def quizzed(p: Data, wants: Mapping[tuple[str, str], str]) -> str:
    answers = []
    for a in p["answers"]:
        want = wants.get((a["petitioner"], a["wanted_from"]))
        answers.append(f"{a['petitioner']} petitioned {a['wanted_from']}{_wanting(want)}"
                       + (": got it" if a["got_it"] else ": did not get it"))
    return (f"Multiple petitioners, quizzed by the GM in precedence order {', '.join(p['precedence'])}: "
            + "; ".join(answers) + f". {movements(p)}.")


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
    return f"{text}; {movements(p)}."


def ducked(p: Data) -> str:
    text = f"{_who(p['character'], p.get('ducker'))} ducked the scene"
    if p.get("spends_token"):
        text += " by spending a drama token, which goes to the caller"
    elif not p.get("caller_compels"):
        text += "; the caller called it without them"
    if p.get("caller_starts_over"):
        text += "; the caller starts over"
    return text + "."


def rushed(p: Data) -> str:
    who = _who(p["character"], p.get("rusher"))
    if p.get("caller_blocks"):
        return (f"{who} tried to rush the scene; the caller {p['caller']} blocked the entrance with a bennie; "
                f"{movements(p)}.")
    if p.get("caller_consents"):
        return f"{who} joined the scene with the caller's consent (it costs nothing)."
    paid = "a bennie" if p.get("payment") == "bennie" else "a drama token"
    return f"{who} rushed the scene, spending {paid}; {movements(p)}."


def challenge_voted(p: Data) -> str:
    tie = f"; the GM broke the tie for the {p['gm_tie_break']}" if p.get("gm_tie_break") else ""
    verdict = "the call stands" if p["winner"] == "caller" else "the challenge is upheld"
    text = (f"{p['challenger']} challenged {p['caller']}'s call ({p['kind']}): for the caller "
            f"{', '.join(p['for_caller']) or 'no one'}, for the challenger {', '.join(p['for_challenger']) or 'no one'}"
            f"{tie}; {verdict}")
    if p.get("revised_situation"):
        text += f"; revised situation: {p['revised_situation']}"
    return text + "."


def bennie_option(option: str) -> str:
    return {"drama_token": "a dramatic token", "procedural_token": "a procedural token",
            "jump_the_queue": "the right to jump the queue", "jump_into_scene": "jumping into a scene",
            "block_jump_in": "blocking another player's attempt to jump into the scene",
            "burn_token": "burning a token", "extra_card": "an additional card"}.get(option, option.replace("_", " "))


def bennie_spent(p: Data) -> str:
    spends = ", ".join(f"{s['spender']} cashed in a bennie for {bennie_option(s['option'])}"
                       for s in p.get("bennie_spends") or ())
    return f"{spends or 'A bennie was spent'}; {movements(p)}."


def scene_called(p: Data) -> str | None:
    parts = [f"{s['spender']} spent a bennie for {bennie_option(s['option'])}" for s in p.get("bennie_spends") or ()]
    costs = [t for t in p.get("transfers") or () if t.get("currency") == "drama"]
    if costs:
        character = p.get("caller_character")
        without = f"without {character}" if character else "their character is not in"
        parts.append(f"{p['caller']} cast a scene {without}, which costs a drama token"
                     + f" ({'; '.join(movement(t) for t in costs)})")
    if p.get("new_element"):
        parts.append(f"new element: {p['new_element']}")
    return "; ".join(parts) + "." if parts else None


def override(p: Data) -> str:
    rules = "; ".join(f"{r['chapter']} ({r['message']})" for r in p.get("rules") or ())
    return f"The GM {p['by']} set a rule aside: {rules}. Reason: {p['reason']}."


def _dice(d: Data | None) -> str:
    if not d:
        return "?"
    faces = d["faces"]
    kept = set(d.get("kept") or range(len(faces)))
    shown = [str(f) if i in kept else f"({f})" for i, f in enumerate(faces)]
    return f"{' + '.join(shown)} = {d['total']}" if len(faces) > 1 else f"{d['total']}"


def _chance(odds: Data | None) -> str:
    if not odds or not odds.get("beats"):
        return ""
    return f" (chance of success {odds['beats']['exact']}, {odds['beats']['percent']})"


def _against(p: Data, rolls: Mapping[int, Data]) -> str:
    a = p.get("against")
    if not a:
        return ""
    if a["kind"] == "difficulty":
        label = f"{a['label']} " if a.get("label") else "difficulty "
        return f" against {label}{a['number']}"
    if a.get("roll") is not None:
        other = rolls.get(a["roll"])
        if other is None:
            # The GM need not say what she rolls for a GMC ("Comparing Your Roll").
            return " against a roll the GM keeps to herself"
        return f" against {other['character']}'s {_dice(other['dice'])}"
    if a.get("dice"):
        return f" against the GM's dice {_dice(a['dice'])}"
    return f" against {a.get('label') or a['kind']}"


def _hidden_opponent(p: Data, rolls: Mapping[int, Data]) -> bool:
    opponent = (p.get("against") or {}).get("roll")
    return opponent is not None and opponent not in rolls


def roll(p: Data, rolls: Mapping[int, Data], secret: bool) -> str:
    trait = p.get("trait") or "no trait"
    extras = []
    if p.get("bonus"):
        extras.append(f"{p['bonus']} bonus {'die' if p['bonus'] == 1 else 'dice'}")
    if p.get("penalty"):
        extras.append(f"{p['penalty']} penalty {'die' if p['penalty'] == 1 else 'dice'}")
    if p.get("experience_dice"):
        extras.append(f"{p['experience_dice']} experience {'die' if p['experience_dice'] == 1 else 'dice'}")
    how = f" ({', '.join(extras)})" if extras else ""
    why = f" to {p['purpose']}" if p.get("purpose") else ""
    text = f"{p['character']} rolled {trait}{how}{why}: {_dice(p['dice'])}{_against(p, rolls)}"
    if secret:
        text += " (a secret roll)"
    if p.get("outcome"):
        text += f": {p['outcome']}"
        # Against a roll the audience may not see, the margin would give its total away.
        # "fails by 8", not "by -8": the outcome already says which way.
        if p.get("margin") and not _hidden_opponent(p, rolls):
            text += f" by {abs(p['margin'])}"
        text += _chance(p.get("odds"))
    if p.get("botch"):
        text += "; a botch"
    breaks = p.get("breaks") or {}
    if breaks.get("good"):
        text += "; a good break"
    if breaks.get("bad"):
        text += "; a bad break"
    return text + "."


def group(p: Data, rolls: Mapping[int, Data]) -> str:
    """A group effort; when one of its rolls is hidden from the audience, its total and margin are
    left out, since they would give that roll away (the outcome stays: the characters see it)."""
    a = p.get("against") or {}
    against = f" against {a.get('label') or 'difficulty'} {a['number']}" if a.get("number") is not None else ""
    hidden = any(n not in rolls for n in p.get("rolls") or ())
    total = "a total that includes a roll the GM keeps to herself" if hidden else p["total"]
    text = f"Group effort of {', '.join(p['characters'])} ({p['method']}): {total}{against}: {p['outcome']}"
    if p.get("margin") and not hidden:
        text += f" by {abs(p['margin'])}"
    return text + _chance(p.get("odds")) + "."


def consequence(p: Data) -> str:
    kind = p["kind"]
    result = f"a {kind} consequence" if p.get("consequence") else f"no {kind} consequence"
    return f"{p['character']} rolled 1d6 for a {kind} break: {p['face']}, {result}."


def attacked(p: Data) -> str:
    d = p["declared"]
    weapon = d.get("weapon") or d.get("firearm") or ""
    trait = d.get("attack_trait") or ""
    text = (f"{d['attacker']} attacked {d['defender']}" + (f" with {trait}" if trait else "")
            + (f" ({weapon})" if weapon else "")
            + f": attack {_dice(p.get('attack'))} against defense {_dice(p.get('defense'))}")
    if p.get("outcome") != "beats" or not p.get("damage"):
        return text + ": a miss."
    text += f": {p['damage']} damage"
    if p.get("regular_armor"):
        text += f" after armor stops {p['regular_armor']['total']}"
    text += f" ({p['hit_points_before']} → {p['hit_points_after']} hit points)"
    return text + "."


def recovered(p: Data) -> str:
    reason = f": {p['reason']}" if p.get("reason") else ""
    return f"{p['character']} recovers {p['fraction']} of the way: {p['before']} → {p['after']} hit points{reason}."


def healed(p: Data) -> str:
    levels = ", ".join(str(n) for n in p.get("levels") or ())
    return f"{p['character']} heals for {p['days']} day(s) of {p['activity']}: {p['before']} → {levels} hit points."


def damaged(p: Data) -> str:
    return f"{p['character']} takes {p.get('points')} damage" + (" (temporary)" if p.get("temporary") else "") + "."


def combat_started(p: Data) -> str:
    return f"Combat {p['number']} ({p['mode']}) begins: {', '.join(p['combatants'])}."


def initiative(p: Data) -> str:
    return f"Initiative ({p['method']}): {', '.join(p['order'])}."


def combat_left(p: Data) -> str:
    return f"{p['name']} leaves the fight" + (f": {p['reason']}" if p.get("reason") else "") + "."


def combat_ended(p: Data) -> str:
    return f"Combat {p['number']} ends" + (f": {p['summary']}" if p.get("summary") else "") + "."


def death_faced(p: Data) -> str:
    choice = "attempts to recover" if p.get("attempts_recovery") else "lets go"
    return f"{p['character']} faces death and {choice}: {p['outcome']}."


def supporting_introduced(p: Data) -> str:
    desc = f", {p['description']}" if p.get("description") else ""
    return f"{p['introduced_by']} introduced {p['name']} ({p['kind']} character){desc}."


def supporting_promoted(p: Data) -> str:
    return f"{p['by_character']} made {p['name']} a recurring character, needing {p['need']}."


def location(p: Data) -> str:
    desc = f": {p['description']}" if p.get("description") else ""
    return f"{p['introduced_by']} introduced the location {p['name']}{desc}."


def experience_awarded(p: Data) -> str:
    dice = sorted(set(p["awards"].values()))
    if len(dice) == 1:
        who = ", ".join(p["awards"])
        text = f"{who}: {dice[0]} experience {'die' if dice[0] == 1 else 'dice'} each"
    else:
        text = ", ".join(f"{c} {n}" for c, n in p["awards"].items())
    return text + (f" ({p['reason']})" if p.get("reason") else "") + "."


def trait_raised(p: Data) -> str:
    return (f"{p['character']} raised {p['trait']} to {p['score']} for {p['experience_spent']} experience dice"
            + (" (approved by the GM)" if p.get("gm_approved") else "") + ".")


def trait_developed(p: Data) -> str:
    return f"{p['character']} developed {p.get('trait')} for {p.get('experience_spent')} experience dice."


def character_created(p: Data) -> str:
    return f"{p['name']}, {p['role']}, joins as {p['player']}'s character (desire: {p['desire']})."


def precedence_drawn(p: Data) -> str:
    how = "drawn by the tool" if p.get("source") == "shuffled" else "as drawn at the table"
    return f"Precedence for {p['purpose'].replace('-', ' ')} ({how}): {', '.join(p['order'])}."


def tokens_transferred(p: Data) -> str:
    return f"By the GM's ruling ({p['reason']}): {movements(p)}."


def tokens_returned(p: Data) -> str:
    return f"Unspent drama tokens revert to the kitty: {movements(p)}."


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
    "override.recorded": override, "yarn.bennie.spent": bennie_spent,
    "yarn.supporting.introduced": supporting_introduced, "yarn.supporting.promoted": supporting_promoted,
    "yarn.location.introduced": location, "yarn.consequence.rolled": consequence,
    "yarn.combat.started": combat_started, "yarn.combat.initiative_set": initiative, "yarn.combat.attacked": attacked,
    "yarn.combat.left": combat_left, "yarn.combat.ended": combat_ended, "yarn.wounds.recovered": recovered,
    "yarn.wounds.healed": healed, "yarn.wounds.damaged": damaged, "yarn.wounds.death_faced": death_faced,
    "yarn.experience.awarded": experience_awarded, "yarn.experience.trait_raised": trait_raised,
    "yarn.experience.trait_developed": trait_developed,
    # Not in the recap (it tells these elsewhere), said when a move records them.
    "yarn.character.created": character_created, "yarn.precedence.drawn": precedence_drawn,
    "yarn.tokens.transferred": tokens_transferred, "yarn.tokens.returned": tokens_returned,
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
