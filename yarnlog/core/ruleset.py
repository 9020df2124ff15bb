"""The seam between the journal and a game system.

A campaign names its ruleset in its first event. A ruleset contributes event types (payload
classes registered under its own prefix, which is also its name), a decider for its commands,
an explicit map of the journal's own commands it takes over (a system may decide ``OpenScene`` as
its own scene call), an ``evolve`` fold for its state, a validator per event type
(:mod:`yarnlog.core.validation`) that its decider and ``verify`` both run, an ``audit`` for the
rules that span events, named projections and a folder of recap/sheet templates; the
command-line verbs it adds live beside it in its ``cli`` module, which the domain never imports. The
store knows none of this: it keeps envelopes and JSON payloads.

Rulesets are found through the ``yarnlog.rulesets`` entry-point group, so a third party can ship
one as a package, and are imported lazily, so the command line starts without loading them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from yarnlog.core.installed import DEFAULT_GROUP, RULESETS, import_object, installed_entry_points
from yarnlog.core.invites import IssueInvite, RevokeInvite
from yarnlog.core.referee import InvalidCommand, YarnlogError
from yarnlog.core.table import AddParticipant, ChangeOptions, RemoveParticipant, Table
from yarnlog.core.timeline import AddNote, CloseScene, EndEpisode, OpenScene, StartEpisode, Timeline

if TYPE_CHECKING:
    from yarnlog.core.events import Payload, Recorded
    from yarnlog.core.referee import Referee
    from yarnlog.core.seats import Seats
    from yarnlog.core.views import ViewPieces

#: ``validate(payload, campaign_state, referee) -> payload`` (see :mod:`yarnlog.core.validation`). Each
#: validator takes the one payload class it is registered for, hence ``Any`` for the payload.
Validator = Callable[[Any, "CampaignState[Any]", "Referee"], "Payload"]

#: ``handler(command, campaign_state, referee) -> payloads``: decides one command, or ``None`` when the
#: command is not its own. Commands are plain dataclasses of every kind, hence ``Any``.
Handler = Callable[[Any, "CampaignState[Any]", "Referee"], "list[Payload] | None"]

#: The journal's own commands, by exact type: a ruleset decides one of them only when its
#: ``Rules.takes_over`` says so (a subclass of one, such as a system's own scene call, is the ruleset's command).
CORE_COMMANDS = frozenset({AddParticipant, RemoveParticipant, ChangeOptions, StartEpisode, EndEpisode, OpenScene,
                           CloseScene, AddNote, IssueInvite, RevokeInvite})

#: The state a ruleset keeps for a campaign (its ``State`` dataclass, one slice per part).
S = TypeVar("S", covariant=True)


@dataclass(frozen=True)
class CampaignState(Generic[S]):
    """A campaign as replayed up to ``sequence``: the journal's own slices and the ruleset's ``rules``.

    Typed by the ruleset's state, so a system's decider sees ``CampaignState[ItsState]``. Before
    ``campaign.created`` has been folded there is no ruleset and ``rules`` is None.
    """

    table: Table
    timeline: Timeline
    rules: S
    ruleset: Ruleset | None
    sequence: int = 0


class RulesetError(YarnlogError):
    """An installed ruleset is broken (its name, prefix or takeovers do not add up): not the user's fault."""

    exit_code = 70


def no_audit(state: CampaignState[Any], recorded: Recorded) -> list[str]:
    """The audit of rules that never span events."""
    return []


def not_mine(command: Any, state: CampaignState[Any], referee: Referee) -> None:
    """The decider of rules with no commands of their own."""
    return None


def _unchanged(state: Any, recorded: Recorded) -> Any:
    return state


def _nothing_to_import(event_type: str | None = None) -> None:
    return None


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


class Composed(Protocol):
    """A ruleset's state, folds, deciders, validators and audits composed from its parts
    (:class:`yarnlog.core.composition.Composition`), as :meth:`Rules.composed` takes them."""

    def initial_state(self) -> Any: ...

    def evolve(self, state: Any, recorded: Recorded, /) -> Any: ...

    def decide(self, command: Any, campaign: CampaignState[Any], referee: Referee, /) -> list[Payload] | None: ...

    def audit(self, campaign: CampaignState[Any], recorded: Recorded, /) -> list[str]: ...

    @property
    def validators(self) -> Mapping[type, Validator]: ...

    def thaw(self, state: Any, /) -> SliceBuilder: ...

    def load_event_types(self, event_type: str | None = None, /) -> None: ...


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
    (characters, locations): a command's names are matched to them ignoring case (:mod:`yarnlog.core.names`);
    a :class:`~yarnlog.core.names.Registered` keeps the names that are not characters apart (``other``),
    so the shell completes and suggests characters where a character is asked for. ``load_event_types(event_type)``
    imports what registers ``event_type`` among the parts it imports only when first used (a
    :class:`~yarnlog.core.composition.LazyPart`'s fold; ``None``: every such part's), so that every
    event type it records is registered (:func:`yarnlog.core.events.payload_class`).
    """

    initial_state: Callable[[], Any] = dict
    evolve: Callable[[Any, Recorded], Any] = _unchanged
    decide: Handler = not_mine
    audit: Callable[[CampaignState[Any], Recorded], list[str]] = no_audit
    validators: Mapping[type, Validator] = field(default_factory=dict)
    takes_over: Mapping[type, Handler] = field(default_factory=dict)
    thaw: Callable[[Any], SliceBuilder] | None = None
    state_packages: tuple[str, ...] = ()
    names: Callable[[CampaignState[Any]], Iterable[str]] = _no_names
    load_event_types: Callable[[str | None], None] = _nothing_to_import

    @classmethod
    def composed(cls, composition: Composed, *, takes_over: Mapping[type, Handler] | None = None,
                 state_packages: tuple[str, ...] = (),
                 names: Callable[[CampaignState[Any]], Iterable[str]] = _no_names) -> Rules:
        """The rules of a system made of :class:`Part` s: its state, folds, deciders, validators and
        audits are the parts' own, composed."""
        return cls(initial_state=composition.initial_state, evolve=composition.evolve, decide=composition.decide,
                   audit=composition.audit, validators=composition.validators, takes_over=takes_over or {},
                   thaw=composition.thaw, state_packages=state_packages, names=names,
                   load_event_types=composition.load_event_types)


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
class Setting:
    """A number the book leaves open, chosen for a campaign at ``init`` and recorded in its first event.

    ``where`` says where the book is silent (its line, the reading); ``default`` is the book's own
    provisional figure, filled in when the GM chooses none (``None``: the book gives none, so the
    campaign has the setting only when chosen); ``low`` and ``high`` bound what may be chosen.
    """

    where: str
    default: int | None = None
    low: int = 1
    high: int = 1000

    def problem(self, name: str, value: object) -> str | None:
        """Why ``value`` cannot be this setting's (None when it can)."""
        if not isinstance(value, int) or isinstance(value, bool):
            return f"the setting {name} is a whole number, not {value!r}"
        if not self.low <= value <= self.high:
            return f"the setting {name} is {self.low} to {self.high}, not {value}"
        return None


def chosen_settings(ruleset: Ruleset, given: Mapping[str, int]) -> dict[str, int]:
    """The settings a campaign records at ``init``: those ``given``, and the book's default of the others."""
    defaults = {name: s.default for name, s in ruleset.settings.items() if s.default is not None}
    return {**defaults, **given}


@dataclass(frozen=True)
class Ruleset:
    """What a game system adds to a journal, registered under the ``yarnlog.rulesets`` entry point.

    ``name`` is also the prefix of its event types (``name.noun.verb``); ``book`` the rule book it
    quotes. It adds its events (:class:`Rules`), its read models (:class:`Views`), its sentences
    (:class:`Words`), its recap and sheet ``templates`` (``package/folder``, shadowed file by file by
    ``--templates DIR``), its optional rules (``options``: name -> where the book says so) and the
    numbers the book leaves open, chosen at ``init`` (``settings``: name -> :class:`Setting`). A
    ruleset may claim to be the ``default`` system, the one a campaign created without naming one
    plays (:func:`default_ruleset`). Its verbs are ``VERBS`` in the ``cli`` module beside its ruleset
    module, found by the shell (:func:`yarnlog.cli.verbs.verbs_of`), so the domain never imports the shell.
    """

    name: str
    title: str
    book: str
    rules: Rules = field(default_factory=Rules)
    views: Views = field(default_factory=Views)
    words: Words = field(default_factory=Words)
    templates: str | None = None
    options: Mapping[str, str] = field(default_factory=dict)
    settings: Mapping[str, Setting] = field(default_factory=dict)
    default: bool = False

    def owns(self, event_type: str) -> bool:
        return event_type.startswith(self.name + ".")


def ruleset_problems(name: str, ruleset: Any) -> list[str]:
    """Why the ruleset registered as ``name`` cannot be used (empty when it is sound).

    Its name (the prefix of its event types) must equal the registered name, so that reading an event of type
    ``name.x`` finds it, and it may take over only the journal's own commands.
    """
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


def default_ruleset() -> str:
    """The name of the system a campaign created without naming one plays: the only ruleset installed,
    else the one installed ruleset that claims to be the ``default``. A package that says so in its
    metadata too (:data:`~yarnlog.core.installed.DEFAULT_GROUP`) is taken without importing every
    other ruleset; otherwise each is imported to ask it."""
    names = sorted(RULESETS)
    if len(names) == 1:
        return names[0]
    declared = {name for name, _ in installed_entry_points(DEFAULT_GROUP)} & set(names)
    if len(declared) == 1 and get_ruleset(only := declared.pop()).default:
        return only
    claimed = [name for name in names if get_ruleset(name).default]
    if len(claimed) > 1:
        raise RulesetError(f"the installed rulesets {' and '.join(claimed)} each claim to be the default; "
                           "name one with --ruleset")
    if not claimed:
        listed = ", ".join(names) if names else "none is installed"
        raise InvalidCommand(f"no installed ruleset is the default: name one with --ruleset ({listed})")
    return claimed[0]
