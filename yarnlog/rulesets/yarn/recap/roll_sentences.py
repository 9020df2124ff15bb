"""The book's words for rolls: a trait roll with its dice and odds, a group effort, a break's
consequence roll (pure functions of a payload's data, as :mod:`.sentences`)."""

from __future__ import annotations

from collections.abc import Mapping

from yarnlog.core.referee import heading
from yarnlog.rulesets.yarn.recap.book_sections import cited
from yarnlog.rulesets.yarn.recap.phrasing import Data, _counted, _dice, _names


def _chance(odds: Data | None) -> str:
    """`` Chance of success was 76%.``: the prior odds the roll recorded (none against a hidden roll)."""
    if not odds or not odds.get("beats"):
        return ""
    return f" Chance of success was {odds['beats']['percent']}."


def _against(p: Data, rolls: Mapping[int, Data]) -> str:
    a = p.get("against")
    if not a:
        return ""
    if a["kind"] == "spell":
        return f" against the spell {a['label']}, level {a['number']}"
    if a["kind"] == "difficulty":
        label = f"{a['label']} " if a.get("label") else "difficulty "
        return f" against {label}{a['number']}"
    if a.get("roll") is not None:
        other = rolls.get(a["roll"])
        if other is None:
            # The GM need not say what she rolls for a GMC ("Comparing Your Roll").
            return " against a roll the GM keeps to herself"
        return f" against {other['character']}'s {other['dice']['total']}"
    if a.get("dice"):
        return f" against the GM's {_dice(a['dice'])} for the inert force"
    return f" against {a.get('label') or a['kind']}"


def _hidden_opponent(p: Data, rolls: Mapping[int, Data]) -> bool:
    opponent = (p.get("against") or {}).get("roll")
    return opponent is not None and opponent not in rolls


_BASE_DICE = {"no trait": "with no trait", "hand of fate": "for the hand of fate",
              "technical": "for a technical trait the character lacks", "tangential": "for a tangential trait"}


def dice_reasons(p: Data) -> list[str]:
    """Why a roll used the dice it did, from its recorded facts ("How Many Dice Do You Roll?"): the trait's
    dice, then each bonus and penalty die with its cause, then how many of them cancelled."""
    d = p["dice"]
    use = p.get("trait_use") or "trait"
    extra = p.get("extra_actions") or 0
    fewer = max(extra - 1, 0)
    psychic = p.get("psychic") or {}
    if use == "tangential":  # the untrained dice (and a bonus die, below), not the trait's own score
        base = d["dice"] + fewer - (psychic.get("extra_dice") or 0)
    else:
        base = p.get("trait_dice", 0)
        fewer = min(fewer, base)  # a roll cannot lose more dice than it has
    reasons = [f"{base} {_BASE_DICE.get(use, 'for the trait')}"]
    if fewer:
        reasons.append(f"{fewer} fewer for {extra} extra actions")
    if psychic.get("extra_dice"):
        reasons.append(f"{psychic['extra_dice']} more for {psychic['power']}")
    gm, shots = p.get("bonus") or 0, psychic.get("bonus_dice") or 0
    helpers = p.get("helpers") or ()
    # The bonus dice not the GM's nor the shots': a tangential trait's, or the helpers' ("Combining Dice").
    others = (d.get("bonus") or 0) - gm - shots
    why_others = f" from {_names([h['character'] for h in helpers])}'s dice" if helpers else \
        " for the tangential trait" if use == "tangential" else ""
    for n, why in ((gm, ""), (others, why_others), (shots, f" for the shots of {psychic.get('power')}")):
        if n > 0:
            reasons.append(_counted(n, "bonus die", "bonus dice") + why)
    if d.get("experience"):
        reasons.append(_counted(d["experience"], "experience die", "experience dice"))
    penalties = [(p.get("penalty") or 0, ""), (1 if extra == 1 else 0, " for an extra action"),
                 (p.get("wound_penalty") or 0, " for being messed up")]
    rest = (d.get("penalty") or 0) - sum(n for n, _ in penalties)
    penalties.append((rest, ""))
    for n, why in penalties:
        if n > 0:
            reasons.append(_counted(n, "penalty die", "penalty dice") + why)
    plus, minus = (d.get("bonus") or 0) + (d.get("experience") or 0), d.get("penalty") or 0
    if plus and minus:
        n = min(plus, minus)
        # "You can use an experience die to cancel a penalty die" ("How Many Dice Do You Roll?").
        kind = "experience" if not d.get("bonus") else "bonus"
        reasons.append(f"{_counted(n, kind + ' die', kind + ' dice')} "
                       f"{'cancels' if n == 1 else 'cancel'} {_counted(n, 'penalty die', 'penalty dice')}")
    return reasons


def _kept(d: Data) -> str:
    """The faces that count and their total, the dropped ones named: ``6 + 4 + 3 + 2 = 15, dropping 1``."""
    faces = list(d["faces"])
    kept = set(d["kept"]) if d.get("kept") is not None else set(range(len(faces)))
    counted = [str(f) for i, f in enumerate(faces) if i in kept] + [str(f) for f in d.get("top_off") or ()]
    text = f"{' + '.join(counted)} = {d['total']}" if len(counted) > 1 else str(d["total"])
    if d.get("top_off"):
        text += f" (blowing the top off: {', '.join(str(f) for f in d['top_off'])})"
    dropped = [str(f) for i, f in enumerate(faces) if i not in kept]
    if dropped:
        text += f" ({', '.join(dropped)} dropped)"
    return text


def roll(p: Data, rolls: Mapping[int, Data], secret: bool) -> str:
    """``Tomas rolled 5 dice for Brawler (4 for the trait, a bonus die): 6 + 4 + 3 + 2 = 15 (1 dropped)
    against Hard 11: beats by 4 (Chancy Actions). Chance of success was 90%.``"""
    d = p["dice"]
    trait = f"for {p['trait']}" if p.get("trait") else "with no trait"
    rolled = len(d["faces"])
    reasons = dice_reasons(p)
    why = f" ({', '.join(reasons)})" if len(reasons) > 1 or rolled != p.get("trait_dice", rolled) else ""
    purpose = p.get("purpose") or ""
    purpose = f" {purpose}" if purpose.startswith("to ") else f" to {purpose}" if purpose else ""
    text = (f"{p['character']} rolled {rolled} {'die' if rolled == 1 else 'dice'} {trait}{purpose}{why}: "
            f"{_kept(d)}{_against(p, rolls)}")
    if secret:
        text += " (a secret roll)"
    if p.get("outcome"):
        text += f": {p['outcome']}"
        # Against a roll the audience may not see, the margin would give its total away.
        # "fails by 8", not "by -8": the outcome already says which way.
        if p.get("margin") and not _hidden_opponent(p, rolls):
            text += f" by {abs(p['margin'])}"
        move = "opposed roll" if (p.get("against") or {}).get("kind") in ("opponent", "inert force") else "roll"
        text += (f" ({heading(p['decided_by'])})" if p.get("decided_by") else cited(move)) + "."
        text += _chance(p.get("odds"))
    else:
        text += "."
    if p.get("botch"):
        text += " A botch."
    breaks = p.get("breaks") or {}
    if breaks.get("good"):
        text += " A good break."
    if breaks.get("bad"):
        text += " A bad break."
    if p.get("limited_success"):
        text += " The unstoppable six brings a limited success."
    psychic = p.get("psychic")
    if psychic:
        text += (f" It takes {_counted(psychic['shots'], 'shot')} from the psychic pool"
                 f"{' to push ' + psychic['power'] if psychic['kind'] == 'push' else ''}{cited('psychic pool')}.")
    if p.get("reading"):
        text += f" The GM reads it: {p['reading']}"
    return text


def group(p: Data, rolls: Mapping[int, Data]) -> str:
    """A group effort; when one of its rolls is hidden from the audience, its total and margin are
    left out, since they would give that roll away (the outcome stays: the characters see it)."""
    a = p.get("against") or {}
    against = f" against {a.get('label') or 'difficulty'} {a['number']}" if a.get("number") is not None else ""
    hidden = any(n not in rolls for n in p.get("rolls") or ())
    total = "a total that includes a roll the GM keeps to herself" if hidden else p["total"]
    text = f"Group effort of {_names(p['characters'])} ({p['method']}): {total}{against}: {p['outcome']}"
    if p.get("margin") and not hidden:
        text += f" by {abs(p['margin'])}"
    return text + f"{cited(p['method'])}." + _chance(p.get("odds"))


def consequence(p: Data) -> str:
    kind = p["kind"]
    result = f"a {kind} consequence" if p.get("consequence") else f"no {kind} consequence"
    return f"{p['character']} rolled 1d6 for a {kind} break: {p['face']}, {result}{cited('consequence')}."
