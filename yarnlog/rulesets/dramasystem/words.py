"""What a DramaSystem move answers: one sentence of each recorded event, in the SRD's words, and
one line on the procedural tokens that follow."""

from __future__ import annotations

from typing import Any

from yarnlog.core.events import Recorded
from yarnlog.core.ruleset import CampaignState
from yarnlog.rulesets.dramasystem.parts.player_views import resolution_pending
from yarnlog.rulesets.dramasystem.rules.cards import Card
from yarnlog.rulesets.dramasystem.rules.procedural_tokens import Colour
from yarnlog.rulesets.dramasystem.rules.simple_resolution import OPPOSITION, Match

_NEEDED_WORDS = {Match.VALUE: "the same value", Match.SUIT: "the same suit", Match.COLOUR: "the same colour"}


def _card(text: str) -> str:
    return Card.parse(text).display


def _cards(texts: list[str]) -> str:
    return ", ".join(_card(t) for t in texts)


def _refreshed(spends: list[dict[str, Any]]) -> str:
    names = [s["participant"] for s in spends if s.get("refreshed")]
    return "".join(f" {n}'s procedural tokens refresh." for n in names)


def _called(p: dict[str, Any]) -> str:
    """What a call cost: its price without the caller's character (DS12, DS33), a queue jump (DS76)."""
    without = p["caller_character"] or "a character of theirs"
    drama_paid = any(t["currency"] == "drama" for t in p["transfers"])
    paid = (f"a {p['procedural_spends'][0]['colour']} procedural token (DS33)" if p["procedural_spends"]
            else "a drama token to the kitty (DS12)" if drama_paid else "")
    sentences = [f"{p['caller']} pays {paid} to call scene {p['scene']} without {without}."] if paid else []
    if p.get("bennie_spends"):
        sentences.append(f"{p['caller']} spends a bennie to jump the queue and call scene {p['scene']}; "
                         f"{p['caller']}'s next turn is skipped (DS76).")
    return " ".join(sentences)


#: How user text that already ends its sentence ends (no second full stop after it).
SENTENCE_ENDS = (".", "!", "?", "\u2026")


def narrate(recorded: Recorded, state: CampaignState[Any]) -> str | None:
    """``recorded`` in the SRD's words (``None``: the journal's own words)."""
    kind = recorded.event_type
    if not kind.startswith("dramasystem."):
        return None
    p = recorded.payload.model_dump(mode="json")
    if kind == "dramasystem.character.created":
        strong = [t for t, g in p["grades"].items() if g == "strong"]
        weak = [t for t, g in p["grades"].items() if g == "weak"]
        return (f"{p['name']} joins as {p['player']}'s character: Strong {', '.join(strong)}; "
                f"Weak {', '.join(weak)}.")
    if kind == "dramasystem.procedure.opposed":
        token = Colour(p["token"])
        return (f"The GM spends a {token.value} token in secret: a {OPPOSITION[token]} opposition "
                f"for scene {p['scene']}.")
    if kind == "dramasystem.procedure.target_drawn":
        tool = " (drawn by the tool)" if p["order_drawn_by_tool"] else ""
        cut = " (drawn by the tool)" if p["card_drawn_by_tool"] else ""
        return (f"Target card: {Card.parse(p['target']).name} ({_card(p['target'])}){cut}. "
                f"Players draw in this order{tool}: {', '.join(p['order'])}.")
    if kind == "dramasystem.procedure.played":
        return _played(p)
    if kind == "dramasystem.procedure.resolved":
        return _resolved(p)
    if kind == "dramasystem.consequence.invoked":
        return (f"{p['player']} works their {p['kind']} ({_card(p['card'])}, event {p['source']}) into "
                f"scene {p['scene']}.")
    if kind == "dramasystem.consequence.faded":
        why = f" ({p['reason']})" if p["reason"] else ""
        return f"{p['player']}'s {p['kind']} ({_card(p['card'])}, event {p['source']}) fades{why}."
    if kind == "dramasystem.procedure.extra_card":
        return _extra_card(p)
    if kind.startswith("dramasystem.advanced."):
        return _advanced(kind.rsplit(".", 1)[1], p)
    if kind.startswith("dramasystem.contest."):
        return _contest(kind.rsplit(".", 1)[1], p)
    if kind == "dramasystem.scene.called":
        return _called(p)
    if kind == "dramasystem.character.want_declared":
        return (f"{p['character']} wants {p['want']} from {p['withholder']}; "
                f"why not, says {p['withholder']}'s player: {p['why_not']} (DS8-DS9).")
    if kind == "dramasystem.ruling.recorded":
        return f"The GM rules on {p['rule']}: {p['ruling']}" + ("" if p["ruling"].endswith(SENTENCE_ENDS) else ".")
    if kind == "dramasystem.character.relationship_defined":
        return f"{p['character']} and {p['other']}: {p['nature']} (relationship map)."
    if kind.startswith(("dramasystem.supporting.", "dramasystem.location.", "dramasystem.theme.",
                        "dramasystem.precedence.")):
        return _cast(kind.split(".", 1)[1], p)
    if kind == "dramasystem.bennie.ballot_cast":
        return f"{p['voter']} casts a bennie ballot (DS73)."
    if kind == "dramasystem.bennie.vote_tallied":
        gainers = [t["player"] for t in p["tallies"] if t["gains_bennie"]]
        scores = ", ".join(f"{t['player']} {t['score']}" for t in p["tallies"])
        return f"The bennie vote: {scores}. A bennie each to {', '.join(gainers) or 'no one'} (DS74-DS75)."
    if kind.startswith(("dramasystem.challenge.", "dramasystem.bennie.")):
        return _challenge(kind.rsplit(".", 1)[1], p)
    if kind.startswith(("dramasystem.petition.", "dramasystem.tokens.")):
        return _exchange(kind.rsplit(".", 2)[1:], p)
    return None


def _moves(transfers: list[dict[str, Any]]) -> str:
    """Each token moved: "Ben gives Ana 1 drama token (Gaining Tokens)"."""
    said = []
    for t in transfers:
        what = f"{t['amount']} {'drama token' if t['currency'] == 'drama' else 'bennie'}{'s' * (t['amount'] > 1)}"
        said.append(f"{_holder(t['source'])} gives {_holder(t['destination'])} {what} ({t['chapter']})")
    if not said:
        return "No token moves."
    text = "; ".join(said) + "."
    # "The kitty gives ..." starts a sentence; a participant's name stays exactly as typed.
    return "The" + text[3:] if text.startswith("the kitty") else text


def _holder(name: str) -> str:
    return "the kitty" if name == "kitty" else name


def _cast(kind: str, p: dict[str, Any]) -> str:
    """The supporting cast, locations, themes and precedence orders in the SRD's words."""
    if kind == "supporting.introduced":
        return f"{p['name']} enters the series as a {p['kind']} character: {p['description']}"
    if kind == "supporting.promoted":
        return f"{p['name']} becomes a recurring character, the object of {p['by_character']}'s need: {p['need']}"
    if kind == "supporting.described":
        return f"{p['name']}: {p['detail']}"
    if kind == "location.introduced":
        return f"{p['introduced_by']} introduces {p['name']}: {p['description']}"
    if kind == "location.elaborated":
        return f"{p['name']}: {p['detail']}"
    if kind == "location.challenged":
        return (f"{p['challenger']} challenges a detail of {p['name']} ({p['ground']}): "
                f"{'struck' if p['upheld'] else 'it stands'}.")
    if kind == "theme.chosen":
        return f"{p['chosen_by']} chooses the theme of episode {p['episode']}: {p['theme']}"
    tool = " (drawn by the tool)" if p["source"] == "shuffled" else ""
    return f"Precedence for {p['purpose']}{tool}: {', '.join(p['order'])}."


def _challenge(verb: str, p: dict[str, Any]) -> str:
    """A challenge to the scene in play, or a bennie spent, in the SRD's words (DS13-DS16, DS76)."""
    scene = p["scene"]
    if verb == "ducked":
        head = (f"{p['character']} stays in scene {scene}: the caller compels." if p["in_scene"]
                else f"{p['character']} ducks scene {scene}.")
        if p["caller_starts_over"]:
            head += f" {p['caller']} calls a new scene without {p['character']}."
    elif verb == "rushed":
        head = (f"{p['character']} joins scene {scene}." if p["joined"]
                else f"{p['caller']} blocks {p['character']}'s rush with a bennie.")
    elif verb == "voted":
        head = f"{p['challenger']} challenges scene {scene} ({p['kind']}): the {p['winner']} wins the vote."
    elif verb == "novelty_ruled":
        head = f"The GM rules on {p['challenger']}'s novelty challenge: {p['ruling'].replace('_', ' ')}."
    elif verb == "procedural_demanded":
        # "The narrating player may avoid the procedural resolution by either withdrawing the
        # description entirely, or adjusting it" (DS16, line 251), or let the cards decide.
        reply = {"withdraw": f"{p['narrator']} withdraws it", "adjust": f"{p['narrator']} adjusts it"}.get(
            p["reply"], "the cards decide")
        demand = "demands" if len(p["objectors"]) == 1 else "demand"
        head = (f"{' and '.join(p['objectors'])} {demand} a procedural resolution of {p['narrator']}'s "
                f"narration: {reply}.")
    else:
        head = f"{p['bennie_spends'][0]['spender']} spends a bennie: {p['effect']}."
        for back in p.get("procedural_restores", []):
            head += f" {back['participant']}'s {back['colour']} token returns unspent."
        for burned in p.get("procedural_spends", []):
            head += f" {burned['participant']}'s {burned['colour']} token is burned: spent."
            if burned["refreshed"]:
                head += f" It was the last: {burned['participant']}'s tokens refresh at once (reading 6)."
        drama = [t for t in p["transfers"] if t["currency"] == "drama"]
        return f"{head} {_moves(drama)}" if drama else head
    return f"{head} {_moves(p['transfers'])}" if p.get("transfers") else head


def _sought(p: dict[str, Any], before: str = " for ", after: str = "") -> str:
    """What the exchange sought, as recorded (``--sought``), or nothing."""
    return f"{before}{p['sought']}{after}" if p.get("sought") else ""


def _exchange(kind: list[str], p: dict[str, Any]) -> str:
    """A dramatic scene's end, or tokens moved, in the SRD's words (DS18-DS27)."""
    noun, verb = kind
    if noun == "tokens":
        head = ("The episode ends: unspent drama tokens revert to the kitty." if verb == "returned"
                else f"The GM rules: {p['reason']}.")
    elif verb == "resolved":
        head = f"{p['petitioner']} petitioned {p['granter']}{_sought(p)}: {p['outcome']}."
    elif verb == "forced":
        head = f"{p['petitioner']} forced {p['granter']}{_sought(p)}{', who blocked' if p['blocked'] else ''}."
    elif verb == "two_way":
        said = {True: "granted", False: "denied"}
        head = (f"Two-way exchange{_sought(p, ' (', ')')}: {p['first']} {said[p['first_granted']]}, "
                f"{p['second']} {said[p['second_granted']]}.")
    else:
        head = f"The GM quizzed {len(p['answers'])} petitioners in the order {', '.join(p['precedence'])}."
    return f"{head} {_moves(p['transfers'])}"


def _contest(step: str, p: dict[str, Any]) -> str | None:
    if step == "started":
        first_grade, second_grade = (p["grades"] + [None, None])[:2]
        if p["outright_winner"]:
            return (f"{p['first']} ({p['first_type']}, {first_grade}) against {p['second']} "
                    f"({p['second_type']}, {second_grade}): {p['outright_winner']} wins outright, no card drawn.")
        draws = (p["allowance"] + [0, 0])[:2]
        unit = "redraw" if p["advanced"] else "draw"

        def counted(n: int, word: str) -> str:  # "1 draw", "2 draws"
            return f"{n} {word}{'' if n == 1 else 's'}"

        first = f"{p['first']} ({p['first_type']}, {first_grade}; {p['first_token']}, {counted(draws[0], unit)})"
        if p["second"] == "GM":
            extra = ", formidable" if p["formidable"] else ""
            return f"Solo action: {first} against the GM ({p['second_token']}{extra}, {counted(draws[1], 'draw')})."
        second = (f"{p['second']} ({p['second_type']}, {second_grade}; {p['second_token']}, "
                  f"{counted(draws[1], unit)})")
        stakes = "".join(f" Stakes: {g}." for g in p["goals"])
        return f"{'Advanced contest' if p['advanced'] else 'Contest'}: {first} against {second}.{stakes}"
    if step == "redrew":
        tool = " (drawn by the tool)" if p["drawn_by_tool"] else ""
        if p["actor"] == p["target"]:
            how = f"{p['actor']} redraws"
        elif p["actor"] == "GM":
            how = f"The GM makes {p['target']} redraw"
        else:
            how = f"{p['actor']} makes {p['target']} redraw"
        return f"{how}: {_card(p['card'])}{tool}." + _refreshed(p["procedural_spends"])
    if step == "assisted":
        return (f"{p['assistant']} helps {p['side']} with {p['action_type']} ({p['token']}): "
                f"{p['extra']} more draw{'' if p['extra'] == 1 else 's'}." + _refreshed(p["procedural_spends"]))
    if step == "drew":
        by = f" (drawn by {p['drawn_by']}, helping)" if p["by_assistant"] else ""
        tool = " (drawn by the tool)" if p["drawn_by_tool"] else ""
        return f"{p['side']} draws {_card(p['card'])}{by}{tool}."
    if step == "stopped":
        return f"{p['side']} stops drawing."
    if step == "ended":
        if p.get("surprise"):
            return f"Equal values: they agree on a surprise outcome: {p['surprise']}"
        if not p["winning_card"]:
            return f"{p['winner']} wins outright."
        over = f" over {_card(p['losing_card'])}" if p["losing_card"] else ""
        suit = " (the suit decides)" if p["by_suit"] else ""
        text = f"{p['winner']} wins with {_card(p['winning_card'])}{over}{suit}."
        for c in p["consequences"]:
            gains = "gains an advantage" if c["kind"] == "advantage" else "faces an obstacle"
            text += f" {c['player']} {gains} ({_card(c['card'])})."
        return text
    return None


_BANDS = {"UP_FACE": "an up face card", "UP_NUMBER": "an up number", "DOWN_NUMBER": "a down number",
          "DOWN_FACE": "a down face card"}
_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _band(value: Any) -> str:
    from yarnlog.rulesets.dramasystem.rules.advanced_resolution import Band

    return _BANDS[Band(value).name]


def _advanced(step: str, p: dict[str, Any]) -> str | None:
    from yarnlog.rulesets.dramasystem.rules.advanced_resolution import CHANCE_OF_FAILURE, UP_SUITS

    if step == "opened":
        token = Colour(p["gm_token"])
        up = "".join(_SUITS[s.value] for s in sorted(UP_SUITS[token], key=lambda s: -s.order))
        down = "".join(v for k, v in _SUITS.items() if v not in up)
        return (f"{p['primary']} ({p['primary_player']}) takes the lead with {p['action_type']} "
                f"({p['grade']}). The GM spends {token.value}: {up} up, {down} down (a "
                f"{CHANCE_OF_FAILURE[token]} chance of failure). Opening run: {_cards(p['opening'])}; the "
                f"scene starts from {_card(p['opening'][-1])}.")
    if step == "primary_drew":
        drawn = _cards(p["cards"])
        if len(p["cards"]) == 1:
            return f"The GM draws {drawn} for the primary: {_band(p['band'])}."
        return f"The GM draws {drawn} for the primary and keeps {_card(p['kept'])}: {_band(p['band'])}."
    if step == "redrawn":
        how = {"token": f"spends {p['token']} to force a redraw",
               "absent": "spends green from afar to force a redraw",
               "cash-in": "cashes in a positive consequence for a redraw",
               "bennie": "spends a bennie on a redraw",
               "ruling": "redraws by the GM's ruling"}[p["means"]]
        tool = " (drawn by the tool)" if p["drawn_by_tool"] else ""
        text = f"{p['player']} {how}: {_card(p['card'])}{tool}, {_band(p['band'])}."
        if p["consequence_card"]:
            if p["consequence"] == "bad":
                after = f"something bad will happen to {p['player']}'s character"
            elif p["consequence"] == "good":
                after = f"something good will happen to {p['player']}'s character"
            else:
                after = "no consequence"
            tool = " (drawn by the tool)" if p["consequence_drawn_by_tool"] else ""
            text += f" Consequence card {_card(p['consequence_card'])}{tool}: {after}."
        return text + _refreshed(p["procedural_spends"])
    if step == "clinched":
        teller = p["narrator"] if p["success"] else "the GM"
        return f"The clincher is {_card(p['clincher'])}: {p['outcome']}; {teller} describes it."
    return None


def _extra_card(p: dict[str, Any]) -> str:
    """An additional card (DS76, line 732; reading 5), bought with a bennie or granted by the GM (149)."""
    from yarnlog.rulesets.dramasystem.parts.extra_cards import WHAT_IT_IS

    what = WHAT_IT_IS.get(p["procedure"], "an additional card")
    head = (f"The GM grants {p['player']} {what} (How I Do It: {p['ruling']})" if p["ruling"] is not None
            else f"{p['player']} spends a bennie on {what} (DS76)")
    if p["card"] is None:
        return f"{head}. {p['side']} may draw it in turn."
    tool = " (drawn by the tool)" if p["drawn_by_tool"] else ""
    if p["band"] is not None:
        return f"{head}: {_card(p['card'])}{tool}, {_band(p['band'])}."
    text = f"{head}: {_card(p['card'])}{tool} ({Match(p['match']).narration})."
    if p["knocked_out"]:
        text += " The waiting knock-out takes it."
    return text


def _played(p: dict[str, Any]) -> str:
    if p["token"] is None:
        return f"{p['player']} passes (their character is not present)."
    draws = ", ".join(f"{_card(c)} ({Match(m).narration})" for c, m in zip(p["cards"], p["matches"]))
    by_tool = " (drawn by the tool)" if p["drawn_by_tool"] else ""
    text = f"{p['player']} spends {p['token']} and draws {draws}{by_tool}."
    if p["knocked_out"]:
        text += f" The GM knocks out {_cards(p['knocked_out'])}."
    if p["waiting_knock_outs"]:
        text += " A knock-out waits for the next matching card."
    return text + _refreshed(p["procedural_spends"])


def _resolved(p: dict[str, Any]) -> str:
    token = Colour(p["gm_token"])
    needed = _NEEDED_WORDS[Match(p["needed"])]
    result = ("The characters prevail" if p["success"] else "They fail")
    text = (f"The GM reveals {token.value}: a {OPPOSITION[token]} opposition, {needed} needed. "
            f"{result}.")
    for c in p["consequences"]:
        gains = "gains an advantage" if c["kind"] == "advantage" else "faces an obstacle"
        text += f" {c['player']} {gains} ({_card(c['card'])})."
    return text + _refreshed(p["procedural_spends"])


def follow_up(state: CampaignState[Any]) -> str | None:
    """``Procedural tokens unspent: Ana green, yellow; Ben all three; ...``; the GM's pile is left out while a
    resolution may be open, since it would hint at her secret token (reading 16): from the call of a
    procedural scene, before she spends it (``oppose``: her pile would show which colour went) until the
    resolution ends, as in a player's ``tokens --as`` (:func:`.parts.player_views.resolution_pending`)."""
    rules = state.rules
    if rules is None:
        return None
    held = {name: n for name, n in rules.economy.tokens.items() if n}
    drama = f"Drama tokens: {', '.join(f'{n} {k}' for n, k in held.items())}. " if held else ""
    piles = rules.piles
    hide_gm = resolution_pending(state)
    shown = [n for n in piles.piles if not (hide_gm and state.table.is_gm(n))]
    if not shown:
        return drama.strip() or None

    def unspent(name: str) -> str:
        pile = piles.pile(name)
        return "all three" if len(pile.unspent) == 3 else pile.describe()

    parts = [f"{n}{' (GM)' if state.table.is_gm(n) else ''} {unspent(n)}" for n in shown]
    return f"{drama}Procedural tokens unspent: {'; '.join(parts)}."


def vote_winners(p: dict[str, Any]) -> str:
    """The bennie vote as a player may hear it: the winners only (DS74: only the GM sees the scores)."""
    gainers = [t["player"] for t in p["tallies"] if t["gains_bennie"]]
    return f"The bennie vote: a bennie each to {', '.join(gainers) or 'no one'} (DS74-DS75)."
