"""The ledger as an audit trail: every movement of drama tokens and bennies ever recorded, amended ones
included, with both sides of the exchange that made it (Yarn 0.1, "Gaining Tokens", "Forcing",
"Supporting or Blocking a Force", "Two-Way Exchanges", "Multiple Petitioners", "Spending Bennies").

The economy part folds only the events projections see (corrections and retractions applied), so a
token that was taken back simply vanishes from its ledger. This projection reads the history as
stored instead: a movement of a retracted event, or the original movement of a corrected one, stays
on the trail, *struck*, with the amendment that removed it, so a player who remembers holding a token
can see why it is gone. Struck movements never count in the running balances, which therefore end
where a full replay ends (``Economy.tokens``, ``Economy.bennies``).

Pure functions of a history (``Journal.history``: stored events with their episode and scene).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from yarnlog.core.corrections import Amendments, Correction, Retraction
from yarnlog.core.events import Payload, Recorded, load_payload
from yarnlog.core.referee import Rule
from yarnlog.core.timeline import SceneOpened
from yarnlog.core.words import change_words
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_spends import BennieSpent
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote import BennieVoteTallied
from yarnlog.rulesets.scenes_and_tokens.parts.economy import (
    BENNIE,
    DRAMA,
    KITTY_NAME,
    LedgerEntry,
    TokensReturned,
    TokensTransferred,
    TransferLine,
)
from yarnlog.rulesets.scenes_and_tokens.parts.petitions import (
    PetitionersQuizzed,
    PetitionForced,
    PetitionResolved,
    TwoWayExchanged,
)
from yarnlog.rulesets.scenes_and_tokens.parts.relationships import WantDeclared
from yarnlog.rulesets.scenes_and_tokens.parts.scene_challenges import SceneDucked, SceneRushed
from yarnlog.rulesets.scenes_and_tokens.rules import drama_tokens
from yarnlog.rulesets.scenes_and_tokens.rules.drama_tokens import KITTY, Transfer
from yarnlog.rulesets.yarn.parts.characters.sheets import CharacterCreated
from yarnlog.rulesets.yarn.parts.drama.scene_calls import SceneCalled

RETRACTED, CORRECTED = "retracted", "corrected"

#: The types of the earlier events a stretch of the trail reads for its exchanges' context (the wants
#: a petition sought: :class:`_Context`); scenes are opened within the stretch of an episode.
CONTEXT_TYPES = (CharacterCreated.event_type, "yarn.character.want_declared")


@dataclass(frozen=True)
class Amendment:
    """A correction or retraction pointing at an earlier event: who approved it and why."""

    sequence: int
    kind: str  # "retracted" or "corrected": what it did to its target
    target: int
    reason: str
    approved_by: str
    recorded_by: str
    change: str = ""  # a correction's change in words: "the tokens: amount 2 → 1"

    def marker(self) -> str:
        """How a struck movement reads without styling: "retracted by #123: reason (approved by Maya)", a
        correction followed by its change in words."""
        said = f"{self.kind} by #{self.sequence}: {self.reason} (approved by {self.approved_by})"
        return f"{said}; {self.change}" if self.change else said

    def to_data(self) -> dict[str, Any]:
        return {"sequence": self.sequence, "kind": self.kind, "target": self.target, "reason": self.reason,
                "approved_by": self.approved_by, "recorded_by": self.recorded_by, "change": self.change,
                "marker": self.marker()}


@dataclass(frozen=True)
class Exchange:
    """What moved the tokens: the kind of exchange, its sides (role -> who), what a petition sought, and
    any other word of why (a GM ruling's reason, what a bennie bought)."""

    kind: str
    sides: Mapping[str, str] = field(default_factory=dict)
    sought: str = ""
    note: str = ""

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "sides": dict(self.sides), "sought": self.sought, "note": self.note}

    def describe(self) -> str:
        """One line: "petition refused: petitioner Iris Vane (Ana), granter Jonah Crane (Ben)"."""
        sides = ", ".join(f"{role} {who}" for role, who in self.sides.items())
        return f"{self.kind}: {sides}" if sides else self.kind


@dataclass(frozen=True)
class TrailLine(LedgerEntry):
    """One movement on the trail. ``struck_by`` is the amendment that removed it (it then moved nothing);
    ``drama_after`` and ``bennies_after`` are the two parties' holdings of each currency right after it."""

    exchange: Exchange
    struck_by: Amendment | None
    replaces: Amendment | None  # set on the movements a correction put in place of the original ones
    drama_after: Mapping[str, int]
    bennies_after: Mapping[str, int]

    @property
    def parties(self) -> tuple[str, ...]:
        return tuple(n for n in (self.source, self.destination) if n != KITTY_NAME)

    def to_data(self) -> dict[str, Any]:
        after = self.drama_after if self.currency == DRAMA else self.bennies_after
        return {
            **{f.name: getattr(self, f.name) for f in fields(LedgerEntry)},
            "exchange": self.exchange.to_data(),
            "struck": self.struck_by is not None,
            "struck_by": self.struck_by.to_data() if self.struck_by else None,
            "replaces": self.replaces.to_data() if self.replaces else None,
            # The parties' holdings of this line's currency (as the ledger has always shown them) ...
            "balances_after": dict(after),
            # ... and of both currencies, in separate columns.
            "drama_after": dict(self.drama_after), "bennies_after": dict(self.bennies_after),
        }


def amendments(history: Iterable[Recorded]) -> dict[int, list[Amendment]]:
    """Every standing correction and retraction of ``history``, by the sequence of the event it amends.

    An amendment undone (retracted by a standing retraction) amends nothing: it is left out.
    """
    history = list(history)
    undone = Amendments(history).retracted
    out: dict[int, list[Amendment]] = {}
    recorded: dict[int, Recorded] = {}
    payloads: dict[int, dict[str, Any]] = {}  # each corrected event's payload as its last correction left it
    for rec in history:
        p = rec.payload
        recorded[rec.sequence] = rec
        if rec.sequence in undone:
            continue
        if isinstance(p, Retraction):
            out.setdefault(p.retracts, []).append(
                Amendment(rec.sequence, RETRACTED, p.retracts, p.reason, p.approved_by, rec.recorded_by))
        elif isinstance(p, Correction):
            target = recorded.get(p.corrects)
            change = ""
            if target is not None:
                before = payloads.get(p.corrects) or target.payload.to_data()
                change = change_words(target.event_type, before, p.replacement)
                payloads[p.corrects] = p.replacement
            out.setdefault(p.corrects, []).append(
                Amendment(rec.sequence, CORRECTED, p.corrects, p.reason, p.approved_by, rec.recorded_by, change))
    return out


def in_force(found: Sequence[Amendment]) -> Amendment | None:
    """The amendment that decides what projections see of an event: a retraction wins, else the last
    correction (as :func:`yarnlog.core.corrections.effective` applies them)."""
    retractions = [a for a in found if a.kind == RETRACTED]
    if retractions:
        return retractions[0]
    return found[-1] if found else None


def corrected_payload(rec: Recorded, history: Iterable[Recorded], amendment: Amendment) -> Payload:
    """The payload a correction put in place of ``rec``'s."""
    [fix] = [r.payload for r in history if r.sequence == amendment.sequence and isinstance(r.payload, Correction)]
    return load_payload(rec.event_type, type(rec.payload).schema_version, fix.replacement)


@dataclass
class _Context:
    """What the trail remembers while reading the history: scenes as opened, wants as declared."""

    scenes: dict[int, SceneOpened] = field(default_factory=dict)
    wants: dict[tuple[str, str], str] = field(default_factory=dict)  # (character, withholder) -> want

    def read(self, p: Payload) -> None:
        if isinstance(p, SceneOpened):
            self.scenes[p.number] = p
        elif isinstance(p, CharacterCreated):
            for w in p.wants:
                self.wants.setdefault((p.name, w.withholder), w.want)
        elif isinstance(p, WantDeclared):
            self.wants.setdefault((p.character, p.withholder), p.want)

    def sought(self, scene: int, petitioner: str, granter: str) -> str:
        """What the petition sought: the petitioner's declared want from the granter, else the scene's call."""
        want = self.wants.get((petitioner, granter))
        if want:
            return want
        opened = self.scenes.get(scene)
        if opened is None:
            return ""
        return opened.situation or opened.title


def _who(character: str, holder: str) -> str:
    return character if character == holder else f"{character} ({holder})"


def exchange_of(p: Payload, context: _Context | None = None) -> Exchange:
    """Both sides of the exchange a payload records, and what the petition sought."""
    context = context or _Context()
    if isinstance(p, PetitionResolved):
        return Exchange(f"petition {p.outcome}", {"petitioner": _who(p.petitioner, p.petitioner_holder),
                                                  "granter": _who(p.granter, p.granter_holder)},
                        p.sought or context.sought(p.scene, p.petitioner, p.granter))
    if isinstance(p, PetitionForced):
        sides = {"forcer": _who(p.petitioner, p.petitioner_holder)}
        sides["blocker" if p.blocked else "forced"] = _who(p.granter, p.granter_holder)
        for line in p.force_support:
            sides[f"supporting the force ({line.tokens})"] = _who(line.character, line.supporter)
        for line in p.block_support:
            sides[f"supporting the block ({line.tokens})"] = _who(line.character, line.supporter)
        return Exchange("force blocked" if p.blocked else "force", sides,
                        p.sought or context.sought(p.scene, p.petitioner, p.granter))
    if isinstance(p, TwoWayExchanged):
        def said(granted: bool) -> str:
            return "granted" if granted else "denied"
        return Exchange("two-way exchange", {
            f"first ({said(p.first_granted)})": _who(p.first, p.first_holder),
            f"second ({said(p.second_granted)})": _who(p.second, p.second_holder)},
            p.sought or "; ".join(s for s in (context.sought(p.scene, p.first, p.second),
                                              context.sought(p.scene, p.second, p.first)) if s))
    if isinstance(p, PetitionersQuizzed):
        sides = {}
        for index, a in enumerate(p.answers, 1):
            sides[f"petitioner {index}"] = _who(a.petitioner, a.petitioner_holder)
            sides[f"granter {index} ({'granted' if a.got_it else 'refused'})"] = _who(a.wanted_from, a.granter_holder)
        return Exchange("multiple petitioners", sides,
                        "; ".join(s for s in (context.sought(p.scene, a.petitioner, a.wanted_from) for a in p.answers)
                                  if s))
    if isinstance(p, SceneDucked):
        return Exchange("scene ducked", {"ducker": _who(p.character, p.ducker), "caller": p.caller})
    if isinstance(p, SceneRushed):
        return Exchange("scene rushed", {"rusher": _who(p.character, p.rusher), "caller": p.caller},
                        note="blocked by the caller" if p.caller_blocks else "")
    if isinstance(p, SceneCalled):
        return Exchange("scene call" + (" (a bennie spent)" if p.bennie_spends else ""), {"caller": p.caller})
    if isinstance(p, BennieSpent):
        spend = p.bennie_spends[0]
        return Exchange("bennie spent", {"spender": spend.spender}, note=p.effect)
    if isinstance(p, TokensTransferred):
        return Exchange("GM ruling", {}, note=p.reason)
    if isinstance(p, TokensReturned):
        return Exchange(f"end of episode {p.episode}", {})
    if isinstance(p, BennieVoteTallied):
        return Exchange(f"bennie vote, episode {p.episode}", {})
    caller = getattr(p, "caller", None)
    return Exchange(p.event_type.removeprefix("yarn."), {"caller": caller} if isinstance(caller, str) else {})


def _transfer(line: TransferLine | TrailLine) -> Transfer:
    """A stored movement (or a trail line) as the pure rules count it, the kitty as their ``KITTY``."""
    def account(name: str) -> Any:
        return KITTY if name == KITTY_NAME else name

    return Transfer(line.amount, account(line.source), account(line.destination),
                    Rule("Yarn 0.1", line.chapter, line.rule))


@dataclass(frozen=True)
class Trail:
    """The whole trail, and what everyone holds at its end (struck movements left out)."""

    lines: tuple[TrailLine, ...]
    drama: Mapping[str, int]
    bennies: Mapping[str, int]
    amended: Mapping[int, tuple[Amendment, ...]]


def ledger_trail(history: Sequence[Recorded], *, opening: Mapping[str, Mapping[str, int]] | None = None,
                 told_from: int = 0) -> Trail:
    """Every movement of ``history`` with both sides of its exchange, struck where an amendment removed it.

    A stretch of the trail (the lines of the events from ``told_from`` on) is drawn from a history
    that holds those events, every amendment, and the earlier events the exchanges read (characters
    created, wants declared): the earlier ones give context and no line; ``opening`` is what each
    held of each currency before the stretch (:func:`holdings_before` of the whole trail).
    """
    found = amendments(history)
    context = _Context()
    held: dict[str, dict[str, int]] = {DRAMA: dict((opening or {}).get(DRAMA, {})),
                                       BENNIE: dict((opening or {}).get(BENNIE, {}))}
    out: list[TrailLine] = []
    for rec in history:
        amendment = in_force(found.get(rec.sequence, []))
        payload = rec.payload
        versions: list[tuple[Payload, Amendment | None, Amendment | None]] = [(payload, None, None)]
        if amendment is not None and amendment.kind == RETRACTED:
            versions = [(payload, amendment, None)]
        elif amendment is not None:
            payload = corrected_payload(rec, history, amendment)
            versions = [(rec.payload, amendment, None), (payload, None, amendment)]
        context.read(payload)
        if rec.sequence < told_from:
            continue
        for version, struck, replaces in versions:
            exchange = exchange_of(version, context)
            for line in getattr(version, "transfers", None) or ():
                if struck is None:
                    held[line.currency] = drama_tokens.balances((_transfer(line),), held[line.currency])
                parties = [n for n in (line.source, line.destination) if n != KITTY_NAME]
                out.append(TrailLine(
                    sequence=rec.sequence, event_type=rec.event_type, recorded_by=rec.recorded_by,
                    episode=rec.episode, scene=rec.scene, currency=line.currency, amount=line.amount,
                    source=line.source, destination=line.destination, chapter=line.chapter, rule=line.rule,
                    exchange=exchange, struck_by=struck, replaces=replaces,
                    drama_after={n: held[DRAMA].get(n, 0) for n in parties},
                    bennies_after={n: held[BENNIE].get(n, 0) for n in parties},
                ))
    return Trail(tuple(out), dict(held[DRAMA]), dict(held[BENNIE]),
                 {seq: tuple(a) for seq, a in found.items()})


def filtered(trail: Trail, *, episode: int | None = None, scene: int | None = None,
             participant: str | None = None, currency: str | None = None) -> list[TrailLine]:
    """The lines of one episode, scene, participant or currency (running balances stay the whole journal's)."""
    return [line for line in trail.lines
            if (episode is None or line.episode == episode) and (scene is None or line.scene == scene)
            and (participant is None or participant in (line.source, line.destination))
            and (currency is None or line.currency == currency)]


def holdings_before(trail: Trail, sequence: int) -> dict[str, dict[str, int]]:
    """What everyone held of each currency just before event ``sequence`` (struck movements left out)."""
    held: dict[str, dict[str, int]] = {DRAMA: {}, BENNIE: {}}
    for line in trail.lines:
        if line.sequence >= sequence:
            break
        if line.struck_by is None:
            held[line.currency] = drama_tokens.balances((_transfer(line),), held[line.currency])
    return held
