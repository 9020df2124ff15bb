"""The seam between the journal and a game system.

A campaign names its ruleset in its first event. A ruleset contributes event types (payload
classes registered under its own prefix, which is also its name), a decider for its commands,
an explicit map of the journal's own commands it takes over (Yarn decides ``OpenScene`` as a
scene call), an ``evolve`` fold for its state, a validator per event type
(:mod:`yarnlog.core.validation`) that its decider and ``verify`` both run, an ``audit`` for the
rules that span events, named projections and a folder of recap/sheet templates; the
command-line verbs it adds live beside it in its ``cli`` module, which the domain never imports. The
store knows none of this: it keeps envelopes and JSON payloads.

Rulesets are found through the ``yarnlog.rulesets`` entry-point group, so a third party can ship
one as a package, and are imported lazily, so the command line starts without loading them.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from yarnlog.core.frozen import replace
from yarnlog.core.referee import InvalidCommand, YarnlogError

if TYPE_CHECKING:
    from yarnlog.core.events import Payload, Recorded
    from yarnlog.core.referee import Referee
    from yarnlog.core.seats import Seats
    from yarnlog.core.state import CampaignState
    from yarnlog.core.views import ViewPieces

#: The entry-point group a package registers its rulesets in: ``name = "module:RULESET"``.
ENTRY_POINT_GROUP = "yarnlog.rulesets"

#: ``validate(payload, campaign_state, referee) -> payload`` (see :mod:`yarnlog.core.validation`). Each
#: validator takes the one payload class it is registered for, hence ``Any`` for the payload.
Validator = Callable[[Any, "CampaignState[Any]", "Referee"], "Payload"]

#: ``handler(command, campaign_state, referee) -> payloads``: decides one command, or ``None`` when the
#: command is not its own. Commands are plain dataclasses of every kind, hence ``Any``.
Handler = Callable[[Any, "CampaignState[Any]", "Referee"], "list[Payload] | None"]

DEFAULT_RULESET = "yarn"


class RulesetError(YarnlogError):
    """An installed ruleset is broken (its name, prefix or takeovers do not add up): not the user's fault."""

    exit_code = 70


@functools.cache
def _entry_points() -> Any:
    from importlib.metadata import entry_points

    return entry_points()


def installed_entry_points(group: str) -> list[tuple[str, str]]:
    """``(name, "module:attribute")`` of every installed entry point of ``group``. Every package's
    entry points are read once per process (that opens each installed package's metadata), for
    all the groups the journal asks about (rulesets, their verbs)."""
    return [(point.name, point.value) for point in _entry_points().select(group=group)]


class _Registry(Mapping[str, str]):
    """Installed rulesets, name -> "module:attribute", read from the entry points on first use."""

    def __init__(self, group: str):
        self.group = group

    @functools.cached_property
    def _found(self) -> tuple[dict[str, str], frozenset[str]]:
        found: dict[str, str] = {}
        twice: set[str] = set()
        for name, value in installed_entry_points(self.group):
            if name in found and found[name] != value:
                twice.add(name)
            found[name] = value
        return found, frozenset(twice)

    @property
    def duplicates(self) -> frozenset[str]:
        """Names two installed packages both claim (neither is used)."""
        return self._found[1]

    def __getitem__(self, name: str) -> str:
        return self._found[0][name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._found[0])

    def __len__(self) -> int:
        return len(self._found[0])


#: name -> "module:attribute" of its :class:`Ruleset`, from the ``yarnlog.rulesets`` entry points.
RULESETS: _Registry = _Registry(ENTRY_POINT_GROUP)


def _no_audit(state: CampaignState[Any], recorded: Recorded) -> list[str]:
    return []


def _not_mine(command: Any, state: CampaignState[Any], referee: Referee) -> None:
    return None


def _unchanged(state: Any, recorded: Recorded) -> Any:
    return state


def _no_names(state: CampaignState[Any]) -> Iterable[str]:
    return ()


def _no_words(recorded: Recorded, state: CampaignState[Any]) -> str | None:
    return None


def _nothing_follows(state: CampaignState[Any]) -> str | None:
    return None


def _names_only(state: CampaignState[Any], names: list[str]) -> Seats:
    from yarnlog.core.seats import names_only

    return names_only(state, names)


class SliceBuilder(Protocol):
    """A slice of state thawed for a replay: it folds events in place and is frozen once, at the end.

    ``fold(recorded, before)`` is the mutating twin of a fold ``evolve(slice, recorded, before)``:
    after it, ``freeze()`` equals what ``evolve`` would have returned. ``before`` is the state
    before the event, as ``evolve`` gets it. ``freeze()`` returns the slice folded so far, as
    immutable as the fold's own and sharing nothing the builder mutates, so the builder may
    go on folding after it (a replay freezes a slice another part reads mid-way).
    """

    def fold(self, recorded: Recorded, before: Any, /) -> None: ...

    def freeze(self) -> Any: ...


@dataclass(frozen=True)
class Rules:
    """A system's events: how they are decided, checked and folded into its state.

    ``decide(command, campaign_state, referee)`` returns the payloads one of its own commands
    produces, or ``None`` when the command is not one of its (it is never asked about the journal's
    own commands). ``takes_over`` maps a journal command type it decides itself (``OpenScene``,
    ``EndEpisode``...) to its handler; every other journal command is decided by the journal.
    ``validators`` maps each of its payload types (and any journal type it decides itself) to its
    validator: ``verify`` re-checks every recorded event with the same validator that decided it,
    and an event type without one is a fault. ``audit(campaign_state, recorded)`` lists the rules a
    recorded event broke that no validator of a single payload can see (across event types, from
    one event to the next, on the envelope); ``verify`` skips both for events recorded under a GM
    override. ``evolve(ruleset_state, recorded)`` folds any event, the journal's own included, and
    never refuses; ``thaw(ruleset_state)``, when given, is a :class:`SliceBuilder` of the whole state
    for a replay of many events (:class:`yarnlog.core.state.Replay`), equal to ``evolve`` event by
    event. ``state_packages`` name the modules and packages whose dataclasses, enums and pydantic
    models may appear in its state: the snapshot codec (:mod:`yarnlog.core.codec`) rebuilds those
    classes and no others. ``names(campaign_state)`` lists the names it registers beside the table's
    (characters, locations): a command's names are matched to them ignoring case (:mod:`yarnlog.core.names`).
    """

    initial_state: Callable[[], Any] = dict
    evolve: Callable[[Any, Recorded], Any] = _unchanged
    decide: Handler = _not_mine
    audit: Callable[[CampaignState[Any], Recorded], list[str]] = _no_audit
    validators: Mapping[type, Validator] = field(default_factory=dict)
    takes_over: Mapping[type, Handler] = field(default_factory=dict)
    thaw: Callable[[Any], SliceBuilder] | None = None
    state_packages: tuple[str, ...] = ()
    names: Callable[[CampaignState[Any]], Iterable[str]] = _no_names

    @classmethod
    def composed(cls, composition: Composition[Any], *, takes_over: Mapping[type, Handler] | None = None,
                 state_packages: tuple[str, ...] = (),
                 names: Callable[[CampaignState[Any]], Iterable[str]] = _no_names) -> Rules:
        """The rules of a system made of :class:`Part` s: its state, folds, deciders, validators and
        audits are the parts' own, composed."""
        return cls(initial_state=composition.initial_state, evolve=composition.evolve, decide=composition.decide,
                   audit=composition.audit, validators=composition.validators, takes_over=takes_over or {},
                   thaw=composition.thaw, state_packages=state_packages, names=names)


@dataclass(frozen=True)
class Views:
    """What a system lets people read: ``projections`` name read models ``(campaign_state) -> data``
    (stored beside the events, :meth:`yarnlog.app.journal.Journal.view`); ``pieces`` says how one
    that grows with the campaign is kept in pieces, so that a write brings it to the head at a cost
    flat in the history (:class:`yarnlog.core.views.ViewPieces`); one without is worked out whole."""

    projections: Mapping[str, Callable[[CampaignState[Any]], Any]] = field(default_factory=dict)
    pieces: Mapping[str, ViewPieces] = field(default_factory=dict)


@dataclass(frozen=True)
class Words:
    """What the shell says of a move, from the state already in memory, in plain text.

    ``narrate(recorded, campaign_state)`` says a recorded event in the book's words, or ``None`` to
    leave it to the journal's own sentences (:mod:`yarnlog.core.words`); ``follow_up(campaign_state)``
    is one sentence on what follows a move (balances, who calls next), or ``None``;
    ``seats(campaign_state, names)`` is what the console's status line shows of each participant
    named, and who calls next (:class:`yarnlog.core.seats.Seats`); by default, only the names.
    """

    narrate: Callable[[Recorded, CampaignState[Any]], str | None] = _no_words
    follow_up: Callable[[CampaignState[Any]], str | None] = _nothing_follows
    seats: Callable[[CampaignState[Any], list[str]], Seats] = _names_only


@dataclass(frozen=True)
class Ruleset:
    """What a game system adds to a journal, registered under the ``yarnlog.rulesets`` entry point.

    ``name`` is also the prefix of its event types (``name.noun.verb``); ``book`` the rule book it
    quotes. It adds its events (:class:`Rules`), its read models (:class:`Views`), its sentences
    (:class:`Words`), its recap and sheet ``templates`` (``package/folder``, shadowed file by file by
    ``--templates DIR``) and its optional rules (``options``: name -> where the book says so). Its
    verbs are ``VERBS`` in the ``cli`` module beside its ruleset module, found by the shell
    (:func:`yarnlog.cli.verbs.verbs_of`), so the domain never imports the shell.
    """

    name: str
    title: str
    book: str
    rules: Rules = field(default_factory=Rules)
    views: Views = field(default_factory=Views)
    words: Words = field(default_factory=Words)
    templates: str | None = None
    options: Mapping[str, str] = field(default_factory=dict)

    def owns(self, event_type: str) -> bool:
        return event_type.startswith(self.name + ".")


def import_object(target: str) -> Any:
    """The object a ``module:attribute`` path names (how entry points name things)."""
    module, attribute = target.split(":")
    return getattr(importlib.import_module(module), attribute.strip())


def ruleset_problems(name: str, ruleset: Any) -> list[str]:
    """Why the ruleset registered as ``name`` cannot be used (empty when it is sound).

    Its name (the prefix of its event types) must equal the registered name, so that reading an event of type
    ``name.x`` finds it, and it may take over only the journal's own commands.
    """
    from yarnlog.core.decide import CORE_COMMANDS

    if not isinstance(ruleset, Ruleset):
        return [f"{name} is registered as {type(ruleset).__name__}, not a Ruleset"]
    problems = []
    if ruleset.name != name:
        problems.append(f"it is registered as {name!r} but calls itself {ruleset.name!r}")
    foreign = sorted(t.__name__ for t in ruleset.rules.takes_over if t not in CORE_COMMANDS)
    if foreign:
        problems.append(f"it takes over {', '.join(foreign)}, which are not the journal's own commands")
    return problems


@functools.cache
def get_ruleset(name: str) -> Ruleset:
    """Import, check and return the installed ruleset called ``name``."""
    try:
        target = RULESETS[name]
    except KeyError:
        raise InvalidCommand(f"unknown ruleset {name!r}; choose one of: {', '.join(sorted(RULESETS))}") from None
    if name in RULESETS.duplicates:
        raise RulesetError(f"two installed packages both register a ruleset called {name!r}")
    ruleset = import_object(target)
    problems = ruleset_problems(name, ruleset)
    if problems or not isinstance(ruleset, Ruleset):  # anything but a Ruleset has a problem
        raise RulesetError(f"the installed ruleset {name!r} ({target}) is broken: {'; '.join(problems)}")
    return ruleset


@dataclass(frozen=True)
class Folds:
    """The payload types a fold reacts to; it leaves its state as it is for every other event.

    ``types`` are payload classes (and their subclasses); ``carrying`` names fields, for folds
    that react to whatever payload carries them (any payload with ``transfers`` moves tokens);
    ``every_event`` is for a fold that must see every event, and says so (:data:`EVERY_EVENT`).
    """

    types: frozenset[type] = frozenset()
    carrying: frozenset[str] = frozenset()
    every_event: bool = False

    def handles(self, payload_type: type) -> bool:
        if self.every_event or any(issubclass(payload_type, t) for t in self.types):
            return True
        fields = getattr(payload_type, "model_fields", {})
        return any(name in fields for name in self.carrying)

    def __or__(self, other: Folds) -> Folds:
        return Folds(self.types | other.types, self.carrying | other.carrying, self.every_event or other.every_event)


def folds(*types: type, carrying: Iterable[str] = ()) -> Folds:
    """What a fold reacts to: the payload ``types`` it names, and any payload with a field in ``carrying``."""
    return Folds(frozenset(types), frozenset(carrying))


#: The :class:`Folds` of a fold that must see every event.
EVERY_EVENT = Folds(every_event=True)

T = TypeVar("T")


class Router(Generic[T]):
    """Routes each payload type to the folds (parts, modules) whose :class:`Folds` handle it, in order.

    The route of a type is worked out the first time the type is seen, then remembered.
    """

    def __init__(self, entries: Iterable[tuple[Folds, T]]):
        self.entries = tuple(entries)
        self._routes: dict[type, tuple[T, ...]] = {}

    def __call__(self, payload_type: type) -> tuple[T, ...]:
        route = self._routes.get(payload_type)
        if route is None:
            route = tuple(item for handled, item in self.entries if handled.handles(payload_type))
            self._routes[payload_type] = route
        return route


@dataclass(frozen=True)
class Part:
    """One concern of the ruleset.

    ``evolve(slice, recorded, state_before) -> slice`` never refuses; ``folds`` says which
    payload types it reacts to (it is only called for those; a part that does not say sees every
    event); ``decide(command, campaign_state, referee)`` returns payloads or ``None`` if the
    command is not this part's; ``validators`` maps each of the part's payload types to its
    validator (see :class:`Ruleset`); ``audit(campaign_state, recorded)`` lists rules the recorded
    event broke that span events. ``thaw(slice)``, when given, is a :class:`SliceBuilder` the part's
    slice is folded into during a replay (``evolve`` stays the fold of one event at a time); a
    part without one is replayed with ``evolve``. ``reads`` names the parts whose slices a thawed
    part's fold reads in the state before the event, its own included if it reads it there (a
    replay freezes those before they change within the event, and refuses a thawed fold any
    other read).
    """

    name: str
    initial: Callable[[], Any]
    evolve: Callable[[Any, Recorded, Any], Any]
    decide: Handler = _not_mine
    audit: Callable[[CampaignState[Any], Recorded], list[str]] = _no_audit
    validators: Mapping[type, Validator] = field(default_factory=dict)
    folds: Folds = EVERY_EVENT
    thaw: Callable[[Any], SliceBuilder] | None = None
    reads: frozenset[str] = frozenset()


def compose_validators(*mappings: Mapping[type, Validator]) -> dict[type, Validator]:
    """The validators of several parts (or modules), by payload type; no type may have two."""
    composed: dict[type, Validator] = {}
    for validators in mappings:
        for payload_type, validate in validators.items():
            if payload_type in composed:
                raise RuntimeError(f"{payload_type.__name__} has two validators")
            composed[payload_type] = validate
    return composed


@dataclass(frozen=True)
class Composition(Generic[T]):
    """A ruleset made of :class:`Part` s: its state is a frozen dataclass ``state_type`` with one field
    per part (named as the part), and each of the ruleset's functions is the parts' own, composed.

    ``evolve`` folds an event only in the parts whose ``folds`` handle its type, each seeing the
    state before the event, and builds a new state only when a slice changed; ``decide`` asks each
    part in turn; ``audit`` gathers every part's problems; ``validators`` has one validator per type.
    """

    parts: tuple[Part, ...]
    state_type: Callable[..., T]
    route: Router[Part] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "route", Router((part.folds, part) for part in self.parts))

    def initial_state(self) -> T:
        return self.state_type(**{part.name: part.initial() for part in self.parts})

    def evolve(self, state: T, recorded: Recorded) -> T:
        changed: dict[str, Any] = {}
        for part in self.route(type(recorded.payload)):
            before = getattr(state, part.name)
            after = part.evolve(before, recorded, state)
            if after is not before:
                changed[part.name] = after
        return replace(state, **changed) if changed else state

    def thaw(self, state: T) -> ComposedBuilder[T]:
        """``state`` thawed for a replay: the parts that offer ``thaw`` fold in place (see :class:`ComposedBuilder`)."""
        return ComposedBuilder(self, state)

    def decide(self, command: Any, campaign: CampaignState[Any], referee: Referee) -> list[Payload] | None:
        for part in self.parts:
            payloads = part.decide(command, campaign, referee)
            if payloads is not None:
                return payloads
        return None

    def audit(self, campaign: CampaignState[Any], recorded: Recorded) -> list[str]:
        return [problem for part in self.parts for problem in part.audit(campaign, recorded)]

    @functools.cached_property
    def validators(self) -> dict[type, Validator]:
        return compose_validators(*(part.validators for part in self.parts))


class _Before:
    """The composed state before the event being folded, as the parts' folds read it (``before.characters``).

    A persistent part's slice is read as it is; a thawed part's is frozen when first read and kept
    until that part folds again, so a slice that other parts read at every event is frozen once
    per change, not once per read.
    """

    __slots__ = ("_builder",)

    def __init__(self, builder: ComposedBuilder[Any]):
        self._builder = builder

    def __getattr__(self, name: str) -> Any:
        return self._builder.slice(name)


class UndeclaredRead(RuntimeError):
    """A thawed part's fold read another part's slice it does not name in its ``reads``."""


#: Per payload type, what a :class:`ComposedBuilder` does: the persistent parts routed it, then
#: the thawed ones, each with its builder and whether it or a later thawed part of the event reads it.
_Plan = tuple[tuple[Part, ...], tuple[tuple[Part, SliceBuilder, bool], ...]]


class ComposedBuilder(Generic[T]):
    """A :class:`Composition`'s state thawed for a replay (a :class:`SliceBuilder` of the whole state).

    Equal to :meth:`Composition.evolve` event by event. The parts that offer ``thaw`` fold into
    their builders in place; the others keep their fold, and the state is rebuilt only by
    :meth:`freeze`. Every part of an event sees the state before it, as in ``evolve``: the
    persistent parts fold first (their new slices kept aside until the event is folded), then the
    thawed ones; a thawed slice that a thawed part of the same event reads (its ``reads``) is
    frozen before it changes, and a thawed fold may read no other part's slice.
    """

    def __init__(self, composition: Composition[T], state: T):
        self.composition = composition
        self.slices: dict[str, Any] = {}  # the persistent parts' slices
        self.builders: dict[str, SliceBuilder] = {}
        for part in composition.parts:
            current = getattr(state, part.name)
            if part.thaw is None:
                self.slices[part.name] = current
            else:
                self.builders[part.name] = part.thaw(current)
        self.frozen: dict[str, Any] = {}  # thawed slices frozen since their part last folded
        self.before = _Before(self)
        self._folding: Part | None = None  # the thawed part folding now
        self._plans: dict[type, _Plan] = {}

    def slice(self, name: str) -> Any:
        """The part ``name``'s slice as folded so far (frozen, for a thawed part)."""
        if name in self.slices:
            return self.slices[name]
        folding = self._folding
        if folding is not None and name not in folding.reads:
            raise UndeclaredRead(f"part {folding.name} reads the {name} slice but does not name it in its reads")
        frozen = self.frozen.get(name)
        if frozen is None:
            if name not in self.builders:
                raise AttributeError(name)
            frozen = self.frozen[name] = self.builders[name].freeze()
        return frozen

    def _plan(self, payload_type: type) -> _Plan:
        route = self.composition.route(payload_type)
        thawed = [part for part in route if part.name in self.builders]
        plan = (tuple(part for part in route if part.name in self.slices),
                tuple((part, self.builders[part.name], any(part.name in later.reads for later in thawed[i:]))
                      for i, part in enumerate(thawed)))
        self._plans[payload_type] = plan
        return plan

    def fold(self, recorded: Recorded, before: Any = None) -> None:
        """Fold one event (``before`` is unused: the parts see this state before the event)."""
        kind = type(recorded.payload)
        persistent, thawed = self._plans.get(kind) or self._plan(kind)
        slices, frozen = self.slices, self.frozen
        changed = None
        for part in persistent:
            current = slices[part.name]
            after = part.evolve(current, recorded, self.before)
            if after is not current:
                changed = changed or {}
                changed[part.name] = after
        if thawed:
            try:
                for part, builder, read_later in thawed:
                    if read_later and part.name not in frozen:
                        frozen[part.name] = builder.freeze()  # as it was before the event, for whoever reads it
                    self._folding = part
                    builder.fold(recorded, self.before)
            finally:
                self._folding = None
            for part, _, _ in thawed:
                frozen.pop(part.name, None)
        if changed:
            slices.update(changed)

    def freeze(self) -> T:
        """The state folded so far: every thawed slice frozen, in a new state."""
        return self.composition.state_type(**{part.name: self.slice(part.name) for part in self.composition.parts})
