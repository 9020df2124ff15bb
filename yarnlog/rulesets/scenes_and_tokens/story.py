"""A scene told as a story: plain sentences in the past tense, built from its events' payloads.

Both rulesets' recaps tell the shared moves with these. Where a ruleset's own sentences say each
move with its tokens and the book's section (the audit's words), these say only what happened at
the table: who called the scene, where and with whom, who petitioned whom for what and the
answer, the force and the block, what the dice said, who ducked or rushed. Tokens, bennies and
experience are told once, in the episode's economy table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

Data = Mapping[str, Any]


def names(names: Sequence[str]) -> str:
    names = list(names)
    return " and ".join(names) if len(names) < 3 else f"{', '.join(names[:-1])} and {names[-1]}"


#: How user text that already ends its sentence ends (no second full stop after it).
SENTENCE_ENDS = (".", "!", "?", "\u2026")


def stop(text: str) -> str:
    """``text`` ending with one full stop (a note or a want may end with its own)."""
    text = text.strip()
    return text if text.endswith(SENTENCE_ENDS) else text + "."


#: How a scene's story ends when the scene was closed with a summary.
_ENDING = "In the end: "


def ending(summary: str) -> str:
    """The last line of a scene's story: ``In the end: the Wren sails at dawn.``"""
    return _ENDING + stop(summary)


def is_ending(line: str) -> bool:
    """Whether ``line`` is a story's :func:`ending` (a "previously on" tells the summary itself)."""
    return line.startswith(_ENDING.rstrip())


def ruled(p: Data) -> str:
    """A GM's ruling recorded (``ruling.recorded``), as both rulesets' moves answer it: ``The GM rules on
    calling order: Ana calls first.``"""
    return f"The GM rules on {p['rule']}: {p['ruling']}" + ("" if p["ruling"].endswith(SENTENCE_ENDS) else ".")


def shared_move(move: str, p: Data, wants: Mapping[tuple[str, str], str]) -> str | None:
    """A shared move in the scene's story, by its event type without the ruleset's prefix
    (``petition.resolved``); ``None`` for any other move (the ruleset tells it)."""
    tell = _SHARED_MOVES.get(move)
    return None if tell is None else tell(p, wants)


def vote_won(winners: Sequence[str]) -> str:
    """The episode's highlight of the bennie vote: ``Ana and Ben won the bennie vote.``"""
    return f"{names(winners)} won the bennie vote."


def sought(p: Data, wants: Mapping[tuple[str, str], str], petitioner: str, granter: str) -> str:
    """`` for an apology``: what was sought, as recorded (``--sought``), else the want declared."""
    what = p.get("sought") or wants.get((petitioner, granter))
    if not what:
        return ""
    return f" {what}" if what.startswith("to ") else f" for {what}"


def opening(scene: Any) -> str:
    """``Ana called a dramatic scene at Breakwater Light, an hour later, with Iris Vane and Jonah Crane.``"""
    what = {"procedural": "a procedural scene", "dramatic": "a dramatic scene"}.get(scene.mode or "", "a scene")
    if scene.kind == "montage":
        what = "a montage"
    elif scene.kind:
        what = f"{what[:-6]} {scene.kind} scene" if what != "a scene" else f"a {scene.kind} scene"
    role = {"opener": " to open the episode", "closer": " to close the episode"}.get(scene.role or "", "")
    text = f"{scene.caller} called {what}{role}"
    if scene.setting:
        text += f" at {scene.setting}"
    if scene.time_break:
        text += f", {scene.time_break}"
    cast = scene.cast_called or scene.cast
    text += f", with {names(cast)}" if cast else ", with no one cast"
    text += "."
    if scene.situation:
        text += f" The situation: {stop(scene.situation)}"
    return text


def petition(p: Data, wants: Mapping[tuple[str, str], str]) -> str:
    asked = f"{p['petitioner']} petitioned {p['granter']}{sought(p, wants, p['petitioner'], p['granter'])}"
    outcome = p["outcome"]
    if p.get("vote"):
        return f"{asked}, and the table voted it {outcome}."
    if outcome == "granted":
        return f"{asked}, and {p['granter']} granted it."
    if outcome == "refused":
        return f"{asked}, and {p['granter']} refused."
    return f"{asked}; there was no contest, and the caller may call a new scene."


def two_way(p: Data) -> str:
    def got(name: str, granted: bool) -> str:
        return f"{name} got what they sought" if granted else f"{name} did not"

    what = f" ({p['sought']})" if p.get("sought") else ""
    return (f"{p['first']} and {p['second']} each wanted something of the other{what}: "
            f"{got(p['first'], p['first_granted'])}, {got(p['second'], p['second_granted'])}.")


def quizzed(p: Data, wants: Mapping[tuple[str, str], str]) -> str:
    answers = [f"{a['petitioner']} asked {a['wanted_from']}{sought(a, wants, a['petitioner'], a['wanted_from'])}"
               f" and {'got it' if a['got_it'] else 'did not get it'}" for a in p["answers"]]
    return f"Several petitioned at once, the GM asking in turn: {'; '.join(answers)}."


def forced(p: Data, wants: Mapping[tuple[str, str], str]) -> str:
    what = sought(p, wants, p["petitioner"], p["granter"])
    helpers = [s["character"] for s in p.get("force_support") or ()]
    backed = f", backed by {names(helpers)}" if helpers else ""
    if not p.get("blocked"):
        return f"{p['petitioner']} forced {p['granter']}{what}{backed}, and the force took place."
    blockers = [s["character"] for s in p.get("block_support") or ()]
    helped = f" with {names(blockers)}'s help" if blockers else ""
    return f"{p['petitioner']} tried to force {p['granter']}{what}{backed}, but {p['granter']} blocked it{helped}."


def ducked(p: Data) -> str:
    if p.get("in_scene"):
        return f"{p['character']} tried to duck out, but {p['caller']} compelled them to stay."
    if p.get("caller_starts_over"):
        return f"{p['character']} ducked out, and {p['caller']} had to call a new scene without them."
    return f"{p['character']} ducked out of the scene."


def rushed(p: Data) -> str:
    if p.get("caller_blocks"):
        return f"{p['character']} tried to rush in, but {p['caller']} blocked the way with a bennie."
    if p.get("caller_consents"):
        return f"{p['character']} joined the scene at the caller's invitation."
    return f"{p['character']} rushed into the scene."


def challenge_voted(p: Data) -> str:
    won = f"{p['caller']}'s call stood" if p["winner"] == "caller" else f"{p['challenger']} won"
    return f"{p['challenger']} challenged {p['caller']}'s call ({p['kind']}), and on a show of hands {won}."


#: The shared moves the story tells the same way in every ruleset.
_SHARED_MOVES: Mapping[str, Callable[[Data, Mapping[tuple[str, str], str]], str]] = {
    "petition.resolved": petition, "petition.forced": forced, "petition.quizzed": quizzed,
    "petition.two_way": lambda p, wants: two_way(p), "challenge.ducked": lambda p, wants: ducked(p),
    "challenge.rushed": lambda p, wants: rushed(p), "challenge.voted": lambda p, wants: challenge_voted(p),
}


def bennie_spent(spends: Sequence[Data], option_words: Any) -> str:
    return " ".join(f"{s['spender']} spent a bennie for {option_words(s['option'])}." for s in spends)


def roll(p: Data, secret: bool) -> str:
    """``Iris Vane rolled Harbour Pilot to bring the Wren alongside: 12 against Hard 11, and made it
    against long odds (38%).``"""
    trait = p.get("trait") or "with no trait"
    purpose = p.get("purpose") or ""
    purpose = f" {purpose}" if purpose.startswith("to ") else f" to {purpose}" if purpose else ""
    text = f"{p['character']} rolled {trait}{purpose}"
    if secret:
        return text + ", in secret."
    total = (p.get("dice") or {}).get("total")
    a = p.get("against") or {}
    against = ""
    if a.get("kind") == "difficulty" and a.get("number") is not None:
        against = f" against {a.get('label') or 'difficulty'} {a['number']}"
    elif a.get("kind") == "spell":
        against = f" against the spell {a['label']}"
    elif a:
        against = " against an opponent"
    text += f": {total}{against}" if total is not None else ""
    outcome = p.get("outcome")
    if outcome:
        said = {"beats": "and made it", "fails": "and failed", "equals": "and drew level"}.get(outcome, outcome)
        text += f", {said}"
        odds = (p.get("odds") or {}).get("beats")
        if odds and outcome == "beats":
            text += f" (a {odds['percent']} chance)"
    text += "."
    if p.get("botch"):
        text += " It was a botch."
    breaks = p.get("breaks") or {}
    if breaks.get("good"):
        text += " A good break."
    if breaks.get("bad"):
        text += " A bad break."
    if p.get("reading"):
        text += f" The GM read it: {stop(p['reading'])}"
    return text


def group(p: Data) -> str:
    said = {"beats": "succeeded", "fails": "failed", "equals": "drew level"}.get(p["outcome"], p["outcome"])
    return f"{names(p['characters'])} worked together ({p['method']}) and {said}."


def attacked(p: Data) -> str:
    d = p["declared"]
    weapon = d.get("weapon") or d.get("firearm")
    with_ = f" with {weapon}" if weapon else ""
    if p.get("outcome") != "beats" or not p.get("damage"):
        return f"{d['attacker']} attacked {d['defender']}{with_} and missed."
    after = p.get("hit_points_after")
    text = f"{d['attacker']} hit {d['defender']}{with_} for {p['damage']} damage"
    if after is not None and after <= 0:
        return text + f", and {d['defender']} went down."
    return text + (f", leaving {after} hit points." if after is not None else ".")


def death_faced(p: Data) -> str:
    choice = "fought to recover" if p.get("attempts_recovery") else "let go"
    return f"{p['character']} faced death and {choice}: {stop(str(p['outcome']))}"


def consequence(p: Data) -> str:
    if p.get("consequence"):
        return f"{p['character']}'s {p['kind']} break brought a consequence."
    return f"{p['character']}'s {p['kind']} break brought no consequence."


def correction(reason: str, by: str) -> str:
    return f"Corrected later, approved by {by}: {stop(reason)}"


def retraction(reason: str, by: str) -> str:
    return f"An entry was taken back, approved by {by}: {stop(reason)}"
