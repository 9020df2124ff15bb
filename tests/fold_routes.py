"""A check on Yarn's fold routing, installed for the whole test run by ``conftest.py``.

Yarn's ``evolve`` hands each event only to the parts (and the drama part's modules) whose
``folds`` declare its type. :func:`checking_evolve` folds every event as Yarn does, and also
asks every part and module the event was *not* routed to: each must leave its slice as it is.
So every event any test folds checks that no fold reacts to a type it does not declare.
:func:`checking_thaw` does the same for a replay that folds in place (``core.state.Replay``).
"""

from __future__ import annotations

from yarnlog.core.events import Recorded
from yarnlog.rulesets.yarn import ruleset as yarn
from yarnlog.rulesets.yarn.parts.drama import part as drama
from yarnlog.rulesets.yarn.state import YarnState

ROUTED = yarn.evolve
THAWED = yarn.COMPOSED.thaw


class Undeclared(AssertionError):
    """A fold changed its slice for an event type its ``folds`` do not declare."""


def unrouted_changes(state: YarnState, recorded: Recorded) -> list[str]:
    """The parts and drama modules that would change their slice for ``recorded`` but are not routed it."""
    kind = type(recorded.payload)
    routed = yarn.ROUTE(kind)
    problems = [f"part {part.name}" for part in yarn.PARTS if part not in routed
                and part.evolve(getattr(state, part.name), recorded, state) != getattr(state, part.name)]
    modules = drama.ROUTE(kind)
    problems += [f"drama module {module.__name__}" for module in drama.MODULES if module.evolve not in modules
                 and module.evolve(state.drama, recorded, state) != state.drama]
    return problems


def checking_evolve(state: YarnState, recorded: Recorded) -> YarnState:
    problems = unrouted_changes(state, recorded)
    if problems:
        raise Undeclared(f"{', '.join(problems)} fold {recorded.event_type} but do not declare it in their folds")
    return ROUTED(state, recorded)


class CheckingBuilder:
    """Yarn's state thawed for a replay, each event's routing checked on the state before it."""

    def __init__(self, state: YarnState):
        self.inner = THAWED(state)

    def fold(self, recorded: Recorded, before: object = None) -> None:
        problems = unrouted_changes(self.inner.freeze(), recorded)
        if problems:
            raise Undeclared(f"{', '.join(problems)} fold {recorded.event_type} but do not declare it in their folds")
        self.inner.fold(recorded)

    def freeze(self) -> YarnState:
        return self.inner.freeze()


def checking_thaw(state: YarnState) -> CheckingBuilder:
    return CheckingBuilder(state)
