"""The recap: a projection of the history one audience may see, episode by episode, scene by scene.

``build_recap(history, table, audience, scope)`` filters first (:mod:`.audience`), then folds the
visible events, in order, into plain :mod:`.model` data: each scene's call, cast as it actually
was (the drama part's ``scene_cast``), notes, challenges, petitions, forces, procedure, combat,
consequences and token movements; each episode's theme, calling order, balances, bennie vote,
experience, dice statistics, token series and the moments worth retelling; the relationship map.
Every derived number comes from the audience's own replay of the visible events (the state the
fold carries), never from the full campaign, so a player's balances, statistics and charts are
what that player can account for. Events recorded between scenes (a note written after a scene
closed) belong to the scene just closed, except a precedence draw, which belongs to the next scene
of its episode (the one it is drawn for), or to the episode's last scene when none follows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from yarnlog.core.audience import Audience, visible_history
from yarnlog.core.corrections import Amendments
from yarnlog.core.events import Recorded
from yarnlog.core.ruleset import CampaignState
from yarnlog.core.scope import Scope
from yarnlog.core.state import empty_state, evolve
from yarnlog.core.table import Table
from yarnlog.rulesets.scenes_and_tokens import story
from yarnlog.rulesets.scenes_and_tokens.parts.calling_order import calling_order
from yarnlog.rulesets.scenes_and_tokens.parts.economy import LedgerEntry, ledger_entries
from yarnlog.rulesets.yarn.parts.characters.relationship_graph import relationship_graph
from yarnlog.rulesets.yarn.parts.drama.scene_cast import scene_cast
from yarnlog.rulesets.yarn.parts.economy.ledger import token_report
from yarnlog.rulesets.yarn.parts.economy.token_series import token_series
from yarnlog.rulesets.yarn.parts.procedure.roll_statistics import dice_statistics
from yarnlog.rulesets.yarn.recap import roll_sentences
from yarnlog.rulesets.yarn.recap import sentences as say
from yarnlog.rulesets.yarn.recap.model import (
    Balance,
    BennieVote,
    EpisodeRecap,
    Line,
    Note,
    Recap,
    SceneRecap,
    VoteLine,
)

#: The part of a scene that tells each of these events, in its sentence (:func:`.sentences.sentence`).
TOLD_IN = {
    "yarn.challenge.novelty_ruled": "challenges", "yarn.challenge.procedural_demanded": "challenges",
    "yarn.scene.ruled_offstage": "calling", "yarn.supporting.described": "introduced",
    "yarn.location.elaborated": "introduced", "yarn.combat.combatant_registered": "combat",
    "yarn.combat.armor_worn": "combat", "yarn.combat.joined": "combat", "yarn.combat.gestalt_rolled": "combat",
    "yarn.wounds.death_option_spent": "combat", "yarn.power.studied": "procedure",
    "yarn.psychic.pool_gained": "procedure", "yarn.psychic.recovered": "procedure",
    "yarn.psychic.shots_bought": "procedure", "yarn.spell.studied": "procedure", "yarn.spell.cast": "procedure",
}

#: Events recorded between episodes that belong to the episode just ended.
AFTER_THE_END = ("yarn.experience.awarded", "yarn.experience.trait_raised", "yarn.experience.trait_developed")

#: A success whose chance was below this is one "against long odds", worth retelling.
LONG_ODDS = Fraction(1, 2)


@dataclass
class _Telling:
    """What the fold carries between events."""

    table: Table
    audience: Audience
    state: CampaignState[Any] = field(default_factory=empty_state)
    wants: dict[tuple[str, str], str] = field(default_factory=dict)
    rolls: dict[int, dict[str, Any]] = field(default_factory=dict)
    secret_rolls: set[int] = field(default_factory=set)
    episodes: dict[int, EpisodeRecap] = field(default_factory=dict)
    scene_episode: dict[int, int] = field(default_factory=dict)
    scenes: dict[int, SceneRecap] = field(default_factory=dict)
    last_scene: int | None = None
    calling_drawn: dict[int, tuple[str, ...]] = field(default_factory=dict)
    series_notes: list[Note] = field(default_factory=list)
    in_hand: dict[int, dict[str, int]] = field(default_factory=dict)  # drama tokens before they return
    # Events that belong to a scene not opened yet (an override covering the call that opens it).
    pending: dict[int, list[Recorded]] = field(default_factory=dict)
    # Precedence draws recorded between scenes: told in the next scene of their episode.
    awaiting_scene: list[Line] = field(default_factory=list)
    # Each episode's flows: participant -> [tokens gained, tokens paid, bennies gained, bennies spent].
    flows: dict[int, dict[str, list[int]]] = field(default_factory=dict)
    experience: dict[int, dict[str, int]] = field(default_factory=dict)  # episode -> character -> dice
    ledger: list[LedgerEntry] = field(default_factory=list)  # the movements of the events folded (token series)


@dataclass(frozen=True)
class Before:
    """What the GM's recap of one episode, told from that episode's events alone, reads from the rest of
    the history: the campaign just before its first event (no amendment recorded later reaches back
    before it) and at the history's end, the events before it that its telling names (wants declared,
    needs named by a promotion, the rolls its rolls are compared with), every correction and
    retraction of the history, and the history's last event."""

    state: CampaignState[Any]
    head: CampaignState[Any]
    earlier: Sequence[Recorded]
    amendments: Sequence[Recorded]
    as_of: int


def build_recap(history: Sequence[Recorded], table: Table, audience: Audience, scope: Scope,
                before: Before | None = None) -> Recap:
    """The recap of ``scope`` for ``audience`` (``history``: every event, with its context).

    With ``before``, ``history`` is one episode's events only (the GM's recap of that episode, told
    as it is told from the whole history): the fold starts from the campaign just before them, and
    what a telling reads at the end (casts, dice, the relationship map) comes from the head."""
    t = _Telling(table=table, audience=audience)
    opening: dict[str, int] | None = None
    if before is None:
        visible = visible_history(history, audience, table)
        amended = _amendments(history, audience, table)
    else:
        applied = Amendments(before.amendments)
        visible = [seen for seen in map(applied.apply, history) if seen is not None]
        last = history[-1].sequence if history else 0
        amended = _amendments([*history, *(r for r in before.amendments if r.sequence > last)], audience, table)
        t.state = before.state
        _recall(t, [seen for seen in map(applied.apply, before.earlier) if seen is not None])
        if before.state.rules is not None:  # the drama tokens held before the episode's ledger
            opening = dict(before.state.rules.economy.tokens)
    for rec in visible:
        if rec.event_type == "yarn.tokens.returned":
            t.in_hand[rec.payload.model_dump()["episode"]] = dict(t.state.rules.economy.tokens) if t.state.rules else {}
        t.state = evolve(t.state, rec)
        t.ledger.extend(ledger_entries((rec,)))
        _tell(t, rec)
    # The audience's replay where the fold ended (the history's end, or the end of the one episode
    # told), and at the history's end: the table, the characters and their relationships as they are.
    # An episode's scenes, casts and rolls are all in the first, amendments recorded later applied.
    ended = t.state
    final = ended if before is None else before.head
    for episode in t.episodes.values():
        if not episode.ended:  # the episode in play: what is held now
            episode.balances = balances(ended)
        if ended.rules is not None and scope.has_episode(episode.number):  # only what the recap tells
            episode.token_series = token_series(ended, episode.number, t.ledger, opening, head=final)
    if ended.rules is not None:
        # Counted over the audience's own replay and history: a secret roll is not in them at all,
        # so neither its count nor its total reaches a player's statistics.
        # Told from one episode's events: that episode's rolls only (its line is the same).
        only = next(iter(t.episodes), None) if before is not None and len(t.episodes) == 1 else None
        stats = dice_statistics(ended, history=visible, episode=only)["by_episode"]
        for line in stats:
            if line["episode"] in t.episodes:
                t.episodes[line["episode"]].dice = {k: v for k, v in line.items() if k != "episode"}
    # The cast as it actually was: the drama part's read model, over what the audience may see.
    for number, scene in t.scenes.items():
        cast = scene_cast(ended, number) if ended.rules is not None else None
        if cast is not None:
            scene.cast = list(cast.cast)
        scene.story.insert(0, Line(None, story.opening(scene)))
        scene.story.extend(amended.get(number, ()))
        if scene.summary:
            scene.story.append(Line(None, story.ending(scene.summary)))
    for number, episode in t.episodes.items():
        _economy(t, episode)
    episodes = []
    for number, episode in sorted(t.episodes.items()):
        if not scope.has_episode(number):
            continue
        episode.scenes = [s for s in episode.scenes if scope.whole_episodes or scope.has_scene(s.number)]
        if not episode.scenes and not scope.whole_episodes:
            continue
        episode.complete = scope.whole_episodes
        if not episode.complete:
            episode.moments = [m for m in episode.moments if any(_in_scene(m, s) for s in episode.scenes)]
        episodes.append(episode)
    told = Recap(
        campaign=table.campaign_id, title=table.title, gm=table.gm, audience=audience.kind,
        audience_name=audience.name, audience_label=audience.label(), scope=scope.label,
        whole_series=scope == Scope(),
        as_of=before.as_of if before is not None else history[-1].sequence if history else 0, episodes=episodes,
        series_notes=t.series_notes if scope == Scope() else [],
        relationships=relationship_graph(final) if final.rules is not None else None,
    )
    return told if audience.is_gm else _without_event_numbers(told)


def _recall(t: _Telling, earlier: Sequence[Recorded]) -> None:
    """What the telling of one episode keeps from the ``earlier`` events (amendments applied), as the
    fold over the whole history would have kept it: wants declared, needs a promotion named, rolls."""
    for rec in earlier:
        p = rec.payload.model_dump(mode="json")
        if rec.event_type == "yarn.character.want_declared":
            t.wants[(p["character"], p["withholder"])] = p["want"]
        elif rec.event_type == "yarn.supporting.promoted":
            t.wants[(p["by_character"], p["name"])] = p["need"]
        elif rec.event_type == "yarn.roll.made":
            t.rolls[rec.sequence] = p
            if rec.visibility != "everyone":
                t.secret_rolls.add(rec.sequence)


#: The types of the earlier events :func:`_recall` reads (the rolls it reads are the ones named: :func:`rolls_named`).
RECALLED = ("yarn.character.want_declared", "yarn.supporting.promoted")


def rolls_named(history: Sequence[Recorded]) -> set[int]:
    """The rolls the rolls and group efforts of ``history`` are compared with or made of (by sequence)."""
    named: set[int] = set()
    for rec in history:
        if rec.event_type == "yarn.roll.made":
            against = rec.payload.model_dump(mode="json").get("against") or {}
            if against.get("roll") is not None:
                named.add(int(against["roll"]))
        elif rec.event_type == "yarn.group.resolved":
            named.update(int(n) for n in rec.payload.model_dump(mode="json").get("rolls") or ())
    return named


def _without_event_numbers(told: Recap) -> Recap:
    """A player's recap without event numbers: their gaps and the last one count the hidden events."""
    def lines(items: list[Any]) -> list[Any]:
        return [replace(item, sequence=None) for item in items]

    for episode in told.episodes:
        for scene in episode.scenes:
            for name in ("calling", "unfolded", "introduced", "notes", "challenges", "petitions", "forces",
                         "procedure", "combat", "consequences", "tokens", "bennies", "story"):
                setattr(scene, name, lines(getattr(scene, name)))
        for name in ("notes", "experience_awarded", "experience_spent", "moments", "next_theme"):
            setattr(episode, name, lines(getattr(episode, name)))
    return replace(told, as_of=None, series_notes=lines(told.series_notes))


def _amendments(history: Sequence[Recorded], audience: Audience, table: Table) -> dict[int, list[Line]]:
    """Each scene's corrections and retractions the audience may see, in words, by the scene of the event amended."""
    seen = [r for r in history if audience.sees(r, table)]
    scene_of = {r.sequence: r.scene for r in seen}
    told: dict[int, list[Line]] = {}
    for rec in seen:
        p = rec.payload.model_dump()
        target = p.get("corrects") if rec.event_type == "correction" else \
            p.get("retracts") if rec.event_type == "retraction" else None
        scene = scene_of.get(target) if target is not None else None
        if scene is None:
            continue
        said = story.correction if rec.event_type == "correction" else story.retraction
        told.setdefault(scene, []).append(Line(rec.sequence, said(p["reason"], p["approved_by"])))
    return told


def _flow(t: _Telling, episode: int, p: dict[str, Any]) -> None:
    """Counts the event's transfers into the episode's economy (gained, paid; bennies gained, spent)."""
    flows = t.flows.setdefault(episode, {})
    for transfer in p.get("transfers") or ():
        bennie = transfer.get("currency") == "bennie"
        if transfer["destination"] != say.KITTY:
            flows.setdefault(transfer["destination"], [0, 0, 0, 0])[2 if bennie else 0] += transfer["amount"]
        if transfer["source"] != say.KITTY:
            flows.setdefault(transfer["source"], [0, 0, 0, 0])[3 if bennie else 1] += transfer["amount"]


def _economy(t: _Telling, episode: EpisodeRecap) -> None:
    """The episode's flows and experience, beside each participant's balance."""
    flows = t.flows.get(episode.number, {})
    dice = t.experience.get(episode.number, {})
    for b in episode.balances:
        gained, paid, b_gained, b_spent = flows.get(b.name, [0, 0, 0, 0])
        b.tokens_gained, b.tokens_paid, b.bennies_gained, b.bennies_spent = gained, paid, b_gained, b_spent
        b.experience = dice.get(b.character or "", 0)


def _in_scene(line: Line, scene: SceneRecap) -> bool:
    return any(line.sequence == x.sequence for part in (scene.petitions, scene.forces, scene.procedure,
                                                         scene.combat, scene.tokens, scene.calling,
                                                         scene.challenges) for x in part)


def _note(rec: Recorded, table: Table) -> Note:
    by = rec.recorded_by
    return Note(rec.sequence, by, table.is_gm(by), str(rec.payload.model_dump()["text"]))


def _tell(t: _Telling, rec: Recorded) -> None:
    p = rec.payload.model_dump(mode="json")
    kind = rec.event_type
    if kind == "yarn.character.want_declared":
        t.wants[(p["character"], p["withholder"])] = p["want"]
        return
    if kind == "episode.started":
        t.episodes[p["number"]] = EpisodeRecap(
            number=p["number"], title=p.get("title") or "", theme=p.get("theme") or "",
            theme_chosen_by=p.get("theme_chosen_by"), calling_order=[], complete=True, ended=False)
        return
    if kind == "yarn.theme.chosen":  # at the end of the episode before the one it themes
        before = t.episodes.get(p["episode"] - 1)
        if before is not None:
            before.next_theme = [_line(rec, say.theme_chosen(p))]
        return
    episode = t.episodes.get(rec.episode) if rec.episode is not None else None
    if episode is None and kind in AFTER_THE_END and t.episodes:
        # Awarded after ``episode end`` (the book's order: at the end of each session): the episode just ended.
        last = t.episodes[max(t.episodes)]
        episode = last if last.ended else None
    if kind == "episode.ended" and episode is not None:
        _flush_awaiting(t, episode)
        _end_episode(t, episode)
        return
    if kind == "yarn.precedence.drawn" and p["purpose"] == "calling-order" and episode is not None:
        chooser = episode.theme_chosen_by
        episode.calling_order = list(calling_order(tuple(p["order"]), gm=t.table.gm,
                                                   theme_chooser=chooser if chooser != t.table.gm else None))
        episode.calling_order_drawn_by_tool = p.get("source") == "shuffled"
        return
    if kind == "yarn.precedence.drawn" and rec.scene is None and episode is not None \
            and p["purpose"] != "petitioners":
        t.awaiting_scene.append(_line(rec, say.precedence_drawn(p)))  # drawn for the next scene
        return
    if rec.scene is not None and rec.scene not in t.scenes and kind != "scene.opened":
        t.pending.setdefault(rec.scene, []).append(rec)
        return
    if kind == "scene.opened" and episode is not None:
        scene = SceneRecap(
            number=p["number"], title=p.get("title") or "", caller=p["caller"], mode=p["mode"], kind=p.get("kind"),
            setting=p.get("setting") or "", time_break=p.get("time_break") or "", situation=p.get("situation") or "",
            cast_called=list(p.get("cast") or ()), cast=list(p.get("cast") or ()))
        t.scenes[scene.number] = scene
        t.scene_episode[scene.number] = episode.number
        episode.scenes.append(scene)
        t.last_scene = scene.number
        scene.calling.extend(t.awaiting_scene)
        scene.story.extend(t.awaiting_scene)  # the precedence drawn for it, told in its story too
        t.awaiting_scene = []
        for waiting in t.pending.pop(scene.number, ()):
            _tell(t, waiting)
        return
    if kind == "scene.closed":
        closed = t.scenes.get(p["number"])
        if closed is not None:
            closed.summary = p.get("summary") or ""
        return
    if kind == "yarn.roll.made":
        t.rolls[rec.sequence] = p
        if rec.visibility != "everyone":
            t.secret_rolls.add(rec.sequence)
    # Where the event belongs: its scene, else the scene just closed in its episode, else the episode.
    home = t.scenes.get(rec.scene) if rec.scene is not None else None
    if home is None and episode is not None and t.last_scene is not None \
            and t.scene_episode.get(t.last_scene) == episode.number:
        home = t.scenes[t.last_scene]
    if kind == "note":
        note = _note(rec, t.table)
        if home is not None:
            home.notes.append(note)
        elif episode is not None:
            episode.notes.append(note)
        else:
            t.series_notes.append(note)
        return
    if episode is None:
        return
    _tell_in_episode(t, rec, p, episode, home)


def _line(rec: Recorded, text: str) -> Line:
    return Line(rec.sequence, text)


def _flush_awaiting(t: _Telling, episode: EpisodeRecap) -> None:
    """Draws still waiting when the episode ends: no scene followed them, so the last one tells them."""
    if t.awaiting_scene and episode.scenes:
        episode.scenes[-1].calling.extend(t.awaiting_scene)
        episode.scenes[-1].story.extend(t.awaiting_scene)
    t.awaiting_scene = []


def _tell_in_episode(t: _Telling, rec: Recorded, p: dict[str, Any], episode: EpisodeRecap,
                     scene: SceneRecap | None) -> None:
    kind = rec.event_type
    line = lambda text: _line(rec, text)  # noqa: E731
    if kind != "yarn.tokens.returned":
        _flow(t, episode.number, p)
    if kind == "yarn.experience.awarded":
        episode.experience_awarded.append(line(say.experience_awarded(p)))
        awarded = t.experience.setdefault(episode.number, {})
        for character, n in p["awards"].items():
            awarded[character] = awarded.get(character, 0) + n
        return
    if kind == "yarn.experience.trait_raised":
        episode.experience_spent.append(line(say.trait_raised(p)))
        return
    if kind == "yarn.experience.trait_developed":
        episode.experience_spent.append(line(say.trait_developed(p)))
        return
    if kind == "yarn.bennie.vote_tallied":
        episode.vote = _vote(p, t.audience.is_gm)
        if episode.vote.winners:
            episode.moments.append(line(story.vote_won(episode.vote.winners)))
        return
    if kind == "yarn.tokens.returned":  # told by the balances ("then revert to the kitty")
        return
    if kind == "yarn.roll.made" and p.get("experience_dice"):
        episode.experience_spent.append(line(f"{p['character']} spent {p['experience_dice']} experience "
                                             f"{'die' if p['experience_dice'] == 1 else 'dice'} on a roll."))
    if scene is None:
        return
    told = _story(t, kind, p, rec.sequence in t.secret_rolls)
    if told:
        scene.story.append(line(told))
    if kind == "yarn.petition.resolved":
        scene.petitions.append(line(say.petition(p, t.wants)))
    elif kind == "yarn.petition.two_way":
        scene.petitions.append(line(say.two_way(p)))
    elif kind == "yarn.petition.quizzed":
        scene.petitions.append(line(say.quizzed(p, t.wants)))
    elif kind == "yarn.petition.forced":
        scene.forces.append(line(say.forced(p)))
        episode.moments.append(line(told or ""))
    elif kind == "yarn.challenge.ducked":
        scene.challenges.append(line(say.ducked(p)))
    elif kind == "yarn.challenge.rushed":
        scene.challenges.append(line(say.rushed(p)))
    elif kind == "yarn.challenge.voted":
        scene.challenges.append(line(say.challenge_voted(p)))
    elif kind == "yarn.scene.called":
        text = say.scene_called(p)
        if text:
            (scene.bennies if p.get("bennie_spends") else scene.calling).append(line(text))
    elif kind == "override.recorded":
        scene.calling.append(line(say.override(p)))
    elif kind == "yarn.bennie.spent":
        scene.bennies.append(line(say.bennie_spent(p)))
    elif kind == "yarn.supporting.introduced":
        scene.introduced.append(line(say.supporting_introduced(p)))
    elif kind == "yarn.supporting.promoted":
        scene.introduced.append(line(say.supporting_promoted(p)))
        t.wants[(p["by_character"], p["name"])] = p["need"]  # "Recurring Characters": what the PC needs of them
    elif kind == "yarn.location.introduced":
        scene.introduced.append(line(say.location(p)))
    elif kind == "yarn.precedence.drawn" and p["purpose"] != "petitioners":  # the quiz tells its order
        scene.calling.append(line(say.precedence_drawn(p)))
    elif kind == "yarn.scene.role_named":
        named = t.scenes.get(p["scene"])
        if named is not None:
            named.role = p["role"]
    elif kind in ("yarn.scene.shifted", "yarn.montage.action_called"):
        scene.unfolded.append(line(say.scene_shifted(p) if kind == "yarn.scene.shifted" else say.montage_action(p)))
    elif kind == "yarn.location.challenged":
        scene.challenges.append(line(say.location_challenged(p)))
    elif kind == "yarn.consequence.introduced":
        (t.scenes.get(p["scene"]) or scene).consequences.append(line(say.consequence_introduced(p)))
    elif kind == "yarn.roll.made":
        scene.procedure.append(line(roll_sentences.roll(p, t.rolls, rec.sequence in t.secret_rolls)))
        _roll_moment(episode, line(told or ""), p)
    elif kind == "yarn.group.resolved":
        scene.procedure.append(line(roll_sentences.group(p, t.rolls)))
        _roll_moment(episode, line(told or ""), p)
    elif kind == "yarn.consequence.rolled":
        scene.consequences.append(line(roll_sentences.consequence(p)))
    elif kind == "yarn.combat.started":
        scene.combat.append(line(say.combat_started(p)))
    elif kind == "yarn.combat.initiative_set":
        scene.combat.append(line(say.initiative(p)))
    elif kind == "yarn.combat.attacked":
        scene.combat.append(line(say.attacked(p)))
        after = p.get("hit_points_after")
        if after is not None and after <= 0 < (p.get("hit_points_before") or 0):
            episode.moments.append(line(told or ""))
    elif kind == "yarn.combat.round_started":
        scene.combat.append(line(f"Round {p['number']}."))
    elif kind == "yarn.combat.left":
        scene.combat.append(line(say.combat_left(p)))
    elif kind == "yarn.combat.ended":
        scene.combat.append(line(say.combat_ended(p)))
    elif kind == "yarn.wounds.recovered":
        scene.combat.append(line(say.recovered(p)))
    elif kind == "yarn.wounds.healed":
        scene.combat.append(line(say.healed(p)))
    elif kind == "yarn.wounds.damaged":
        scene.combat.append(line(say.damaged(p)))
    elif kind == "yarn.wounds.death_faced":
        scene.combat.append(line(say.death_faced(p)))
        if "die" in str(p.get("outcome", "")):
            episode.moments.append(line(told or ""))
    elif kind in TOLD_IN:
        getattr(scene, TOLD_IN[kind]).append(line(say.sentence(kind, p, t.wants, t.rolls) or ""))
    for transfer in p.get("transfers") or ():
        scene.tokens.append(line(say.movement(transfer)))


#: Events whose audit sentence, its book section left out, tells the story well enough.
_AS_SAID = ("yarn.supporting.introduced", "yarn.supporting.promoted", "yarn.location.introduced",
            "yarn.scene.shifted", "yarn.montage.action_called", "yarn.consequence.introduced",
            "yarn.challenge.novelty_ruled", "yarn.wounds.recovered", "yarn.wounds.healed", "yarn.spell.cast",
            "yarn.supporting.described", "yarn.location.elaborated", "yarn.challenge.procedural_demanded",
            "yarn.location.challenged", "yarn.scene.ruled_offstage", "yarn.wounds.death_option_spent",
            "yarn.wounds.damaged", "yarn.power.studied", "yarn.spell.studied", "yarn.combat.armor_worn",
            "yarn.combat.combatant_registered", "yarn.combat.joined", "yarn.combat.gestalt_rolled",
            "yarn.psychic.pool_gained", "yarn.psychic.recovered", "yarn.psychic.shots_bought")


def uncited(text: str) -> str:
    """``text`` without the book's section before its full stop (`` (Gaining Tokens).`` becomes ``.``)."""
    return re.sub(r" \([A-Z][^()]*\)\.$", ".", text)


def _story(t: _Telling, kind: str, p: dict[str, Any], secret: bool) -> str | None:
    """The event's sentence in the scene's story (:mod:`.story`), or ``None`` if the story leaves it out."""
    shared = story.shared_move(kind.partition(".")[2], p, t.wants)  # told alike in both rulesets
    if shared is not None:
        return shared
    if kind in ("yarn.bennie.spent", "yarn.scene.called") and p.get("bennie_spends"):
        return story.bennie_spent(p["bennie_spends"], say.bennie_option)
    if kind == "yarn.roll.made":
        return story.roll(p, secret)
    if kind == "yarn.group.resolved":
        return story.group(p)
    if kind == "override.recorded":
        return say.override(p)
    if kind == "yarn.precedence.drawn" and p["purpose"] != "petitioners":  # the quiz tells its order
        return say.precedence_drawn(p)
    if kind == "yarn.combat.started":
        return "A fight broke out."
    if kind == "yarn.combat.attacked":
        return story.attacked(p)
    if kind == "yarn.combat.ended":
        return "The fight ended."
    if kind == "yarn.wounds.death_faced":
        return story.death_faced(p)
    if kind == "yarn.consequence.rolled":
        return story.consequence(p)
    if kind in _AS_SAID:
        text = {"yarn.scene.shifted": say.scene_shifted, "yarn.montage.action_called": say.montage_action,
                "yarn.consequence.introduced": say.consequence_introduced,
                "yarn.location.challenged": say.location_challenged}.get(kind, lambda p: None)(p) \
            or say.sentence(kind, p, t.wants, t.rolls)
        return uncited(text) if text else None
    return None


def _roll_moment(episode: EpisodeRecap, line: Line, p: dict[str, Any]) -> None:
    """A botch, or a success whose chance was below :data:`LONG_ODDS`, is worth retelling."""
    odds = (p.get("odds") or {}).get("beats")
    if p.get("botch") or (p.get("against") or {}).get("botched"):
        episode.moments.append(line)
    elif p.get("outcome") == "beats" and odds and Fraction(odds["exact"]) < LONG_ODDS:
        episode.moments.append(line)


def _vote(p: dict[str, Any], full: bool) -> BennieVote:
    """The vote: winners for everyone; the arithmetic for the GM only ("Only the GM ever sees the low score")."""
    winners = [line["player"] for line in p["tallies"] if line["gains_bennie"]]
    if not full:
        return BennieVote(winners=winners)
    return BennieVote(winners=winners, tally=[
        VoteLine(player=line["player"], ranks=[f"{r['voter']} #{r['rank']}" for r in line["ranks_received"]],
                 rank_total=line["rank_total"], tokens_in_hand=line["tokens_in_hand"], score=line["score"],
                 placement=line["placement"], gains_bennie=line["gains_bennie"])
        for line in p["tallies"]])


def _end_episode(t: _Telling, episode: EpisodeRecap) -> None:
    episode.ended = True
    episode.balances = balances(t.state, t.in_hand.get(episode.number))


def balances(state: CampaignState[Any], in_hand: dict[str, int] | None = None) -> list[Balance]:
    """Each participant's drama tokens (``in_hand``: as held before they went back to the kitty) and bennies.

    From the tokens projection of ``state``, the replay of what the audience may see.
    """
    report = token_report(state)
    return [Balance(name=row["name"], role=row["role"], character=row["character"],
                    drama_tokens=(in_hand or {}).get(row["name"], 0) if in_hand is not None else row["drama_tokens"],
                    bennies=row["bennies"])
            for row in report["participants"]]

