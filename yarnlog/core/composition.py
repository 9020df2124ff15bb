"""A ruleset made of parts: each :class:`Part` folds, decides and validates one concern of the
game in its own slice of the ruleset's state; a :class:`Composition` composes them into the
ruleset's :class:`~yarnlog.core.ruleset.Rules` (``Rules.composed``), folding each event only in the
parts whose :class:`Folds` handle its type, and a :class:`ComposedBuilder` folds a replay in place.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from yarnlog.core.frozen import replace
from yarnlog.core.ruleset import CampaignState, Handler, SliceBuilder, Validator, no_audit, not_mine

if TYPE_CHECKING:
    from yarnlog.core.events import Payload, Recorded
    from yarnlog.core.referee import Referee


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


class Handles(Protocol):
    """What a :class:`Router` asks of a fold: whether it handles a payload type (:class:`Folds`)."""

    def handles(self, payload_type: type, /) -> bool: ...


class Router(Generic[T]):
    """Routes each payload type to the folds (parts, modules) whose :class:`Folds` handle it, in order.

    The route of a type is worked out the first time the type is seen, then remembered.
    """

    def __init__(self, entries: Iterable[tuple[Handles, T]]):
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
    decide: Handler = not_mine
    audit: Callable[[CampaignState[Any], Recorded], list[str]] = no_audit
    validators: Mapping[type, Validator] = field(default_factory=dict)
    folds: Folds = EVERY_EVENT
    thaw: Callable[[Any], SliceBuilder] | None = None
    reads: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Fold:
    """Where a part's fold is, apart from its deciders: ``module`` defines its slice (the class
    ``initial``), its ``evolve``, its ``FOLDS`` and the builder a replay folds it into (the class
    ``thaw``); ``reads`` are the :attr:`Part.reads` of that builder."""

    module: str
    initial: str
    thaw: str | None = None
    reads: frozenset[str] = frozenset()


#: What a :class:`LazyPart` takes from its :class:`Fold`, without importing the part.
_FOLD_ATTRIBUTES = ("initial", "evolve", "folds", "thaw", "reads")


class LazyPart:
    """A :class:`Part` imported when first used: ``target`` (``module:attribute``) names it.

    ``events_within`` names the modules (a package: every module under it) that define every payload
    type the part folds or validates: an event of any other type is routed past the part, and its
    validator looked up elsewhere, without importing it. ``event_types`` are the beginnings of the
    event types its payloads are registered under (``"mygame.combat."``): reading an event of such a
    type imports the part's fold first. ``commands_within``, when given, names the modules that define
    the classes of every command its decider takes: a command none of whose classes (its own, its
    bases) is defined there is not asked of it, unimported.
    ``fold``, when given, says where the part's
    fold is (:class:`Fold`): an event of the part's is folded, and its slice made and thawed, with
    that module alone (a note after a roll folds the roll, and decides nothing of the procedure's). A
    test holds each ruleset's parts to what they declare. Any other use (its decider asked, its
    audit) imports the part; once imported it is that :class:`Part` in every respect.
    """

    def __init__(self, name: str, target: str, *, events_within: tuple[str, ...], fold: Fold | None = None,
                 event_types: tuple[str, ...] = (), commands_within: tuple[str, ...] | None = None):
        self.name = name
        self.target = target
        self.events_within = events_within
        self.fold = fold
        self.event_types = event_types
        self.commands_within = commands_within
        self._part: Part | None = None

    @property
    def loaded(self) -> bool:
        """Whether the part itself is imported (its deciders, validators and audit)."""
        return self._part is not None

    @property
    def folding(self) -> bool:
        """Whether what folds it is imported (the part, or the module of its :class:`Fold`)."""
        return "evolve" in self.__dict__

    @property
    def part(self) -> Part:
        if self._part is None:
            from yarnlog.core.installed import import_object

            part = import_object(self.target)
            if not isinstance(part, Part) or part.name != self.name:
                raise RuntimeError(f"{self.target} is not the part {self.name!r}")
            self._part = part
            for attribute in ("initial", "evolve", "decide", "audit", "validators", "folds", "thaw", "reads"):
                # Read as plain attributes from now on: no lookup through __getattr__ per event.
                self.__dict__[attribute] = getattr(part, attribute)
        return self._part

    def import_fold(self) -> None:
        """Import what folds the part: the module of its :class:`Fold`, else the part."""
        if self.folding:
            return
        if self.fold is None:
            self.part  # noqa: B018 - imported by being read
            return
        import importlib

        module = importlib.import_module(self.fold.module)
        found = {"initial": getattr(module, self.fold.initial), "evolve": module.evolve, "folds": module.FOLDS,
                 "thaw": getattr(module, self.fold.thaw) if self.fold.thaw else None, "reads": self.fold.reads}
        self.__dict__.update(found)

    def may_decide(self, command: Any) -> bool:
        """Whether the part may decide ``command``: imported already, or a class of the command's
        (its own or a base) is defined where the part's commands are (:attr:`commands_within`)."""
        if self.loaded or self.commands_within is None:
            return True
        return any(self._within(cls.__module__, self.commands_within) for cls in type(command).__mro__)

    @staticmethod
    def _within(module: str, where: tuple[str, ...]) -> bool:
        return any(module == place or module.startswith(place + ".") for place in where)

    def may_hold(self, payload_type: type) -> bool:
        """Whether ``payload_type`` is defined where this part's payloads are (:attr:`events_within`)."""
        return self._within(payload_type.__module__, self.events_within)

    def __getattr__(self, attribute: str) -> Any:
        if attribute.startswith("_"):
            raise AttributeError(attribute)
        if attribute in _FOLD_ATTRIBUTES:
            self.import_fold()
            return self.__dict__[attribute]
        return getattr(self.part, attribute)


class _FoldsOf:
    """The :class:`Folds` of a :class:`LazyPart`, asked without importing it for a type it cannot handle."""

    __slots__ = ("lazy",)

    def __init__(self, lazy: LazyPart):
        self.lazy = lazy

    def handles(self, payload_type: type) -> bool:
        lazy = self.lazy
        return (lazy.folding or lazy.may_hold(payload_type)) and lazy.folds.handles(payload_type)


class ComposedValidators(Mapping[type, Validator]):
    """The validators of a composition's parts, by payload type (no type may have two): a lazy part
    not imported yet is asked only for a type it may hold (:meth:`LazyPart.may_hold`)."""

    def __init__(self, parts: tuple[Part | LazyPart, ...]):
        self.parts = parts

    @functools.cached_property
    def _all(self) -> dict[type, Validator]:
        return compose_validators(*(part.validators for part in self.parts))

    def __getitem__(self, payload_type: type) -> Validator:
        if "_all" in self.__dict__:
            return self._all[payload_type]
        for part in self.parts:
            if isinstance(part, LazyPart) and not part.loaded and not part.may_hold(payload_type):
                continue
            validate = part.validators.get(payload_type)
            if validate is not None:
                return validate
        raise KeyError(payload_type)

    def __iter__(self) -> Iterator[type]:
        return iter(self._all)

    def __len__(self) -> int:
        return len(self._all)


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

    parts: tuple[Part | LazyPart, ...]
    state_type: Callable[..., T]
    route: Router[Part] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "route", Router(
            (_FoldsOf(part) if isinstance(part, LazyPart) else part.folds, part) for part in self.parts))

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

    def load_event_types(self, event_type: str | None = None) -> None:
        """Import what folds the parts imported when first used (:class:`LazyPart`) that register
        ``event_type`` (by the beginnings of their :attr:`~LazyPart.event_types`); without one, or
        when none says it does, of every such part: with it, every payload type they record is registered."""
        lazy = [part for part in self.parts if isinstance(part, LazyPart)]
        named = [part for part in lazy if event_type is not None and event_type.startswith(part.event_types)]
        for part in named or lazy:
            part.import_fold()

    def thaw(self, state: T) -> ComposedBuilder[T]:
        """``state`` thawed for a replay: the parts that offer ``thaw`` fold in place (see :class:`ComposedBuilder`)."""
        return ComposedBuilder(self, state)

    def decide(self, command: Any, campaign: CampaignState[Any], referee: Referee) -> list[Payload] | None:
        for part in self.parts:
            if isinstance(part, LazyPart) and not part.may_decide(command):
                continue
            payloads = part.decide(command, campaign, referee)
            if payloads is not None:
                return payloads
        return None

    def audit(self, campaign: CampaignState[Any], recorded: Recorded) -> list[str]:
        return [problem for part in self.parts for problem in part.audit(campaign, recorded)]

    @functools.cached_property
    def validators(self) -> Mapping[type, Validator]:
        if any(isinstance(part, LazyPart) for part in self.parts):
            return ComposedValidators(self.parts)
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
        self._unthawed: set[str] = set()  # lazy parts not imported yet: folded with evolve until they are
        for part in composition.parts:
            current = getattr(state, part.name)
            if isinstance(part, LazyPart) and not part.folding:
                self.slices[part.name] = current
                self._unthawed.add(part.name)
            elif part.thaw is None:
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
        for part in route:  # a lazy part imported to fold this type is thawed from now on, as it would have been
            if part.name in self._unthawed and part.thaw is not None:
                self._unthawed.discard(part.name)
                self.builders[part.name] = part.thaw(self.slices.pop(part.name))
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
