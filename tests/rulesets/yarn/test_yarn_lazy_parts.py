"""Yarn's parts imported when first used say truly where their events are: every registered event type
one of them folds or validates is defined in the modules it names (``events_within``), so an event
of any other type may pass it by unimported. And a one-shot note on a long campaign (its state read
from a snapshot, no fight, roll or power in the tail) imports none of them: see
``tests/cli/test_cli_startup_imports.py``."""

from __future__ import annotations

import pytest

from yarnlog.core.composition import LazyPart
from yarnlog.core.events import known_event_types, payload_class
from yarnlog.rulesets.yarn.ruleset import PARTS, RULESET


def test_each_lazy_part_folds_and_validates_only_events_defined_where_it_says():
    RULESET.rules.load_event_types()
    lazy = [part for part in PARTS if isinstance(part, LazyPart)]
    assert {part.name for part in lazy} == {"combat", "procedure", "powers"}
    classes = [payload_class(t) for t in known_event_types()]
    for part in lazy:
        held = [cls for cls in classes if part.part.folds.handles(cls) or cls in part.part.validators]
        assert held, part.name
        assert [cls.event_type for cls in held if not part.may_hold(cls)] == [], part.name


def test_each_lazy_part_names_the_event_types_its_fold_registers():
    RULESET.rules.load_event_types()
    for part in (part for part in PARTS if isinstance(part, LazyPart)):
        mine = [t for t in known_event_types() if payload_class(t).__module__ == part.fold.module]
        assert mine and [t for t in mine if not t.startswith(part.event_types)] == [], part.name
        others = [t for t in known_event_types() if t.startswith(part.event_types) and t not in mine
                  and not part.may_hold(payload_class(t))]
        assert others == [], part.name


def test_each_lazy_part_folds_with_its_own_fold():
    for part in (part for part in PARTS if isinstance(part, LazyPart)):
        fresh = LazyPart(part.name, part.target, events_within=part.events_within, fold=part.fold)
        fresh.import_fold()
        assert not fresh.loaded  # its fold alone, not its deciders
        whole = part.part
        assert (fresh.initial, fresh.evolve, fresh.folds, fresh.thaw, fresh.reads) == \
            (whole.initial, whole.evolve, whole.folds, whole.thaw, whole.reads), part.name


def test_the_composed_validators_are_every_parts_own():
    RULESET.rules.load_event_types()
    every = {cls: validate for part in PARTS for cls, validate in part.validators.items()}
    assert dict(RULESET.rules.validators) == every
    assert all(RULESET.rules.validators.get(cls) is validate for cls, validate in every.items())


#: In a fresh process: the event types named, each loaded by its beginning alone (no fallback), are
#: registered, and the folds of the parts named after ``--`` are not imported.
_LOAD = """
import json, sys
from yarnlog.core.events import current_payload_class
from yarnlog.core.ruleset import get_ruleset
types, others = json.loads(sys.argv[1]), json.loads(sys.argv[2])
rules = get_ruleset("yarn").rules
for event_type in types:
    rules.load_event_types(event_type)
print(json.dumps([[t for t in types if current_payload_class(t) is None], [m for m in others if m in sys.modules]]))
"""


@pytest.mark.slow
def test_an_event_type_read_imports_its_parts_fold_alone():
    import json
    import subprocess
    import sys

    RULESET.rules.load_event_types()
    lazy = [part for part in PARTS if isinstance(part, LazyPart)]
    for part in lazy:
        types = [t for t in known_event_types() if t.startswith(part.event_types)]
        others = [other.fold.module for other in lazy if other is not part and other.fold.module not in
                  part.events_within]
        done = subprocess.run([sys.executable, "-c", _LOAD, json.dumps(types), json.dumps(others)], check=True,
                              capture_output=True, text=True)
        assert json.loads(done.stdout) == [[], []], part.name


def test_a_lazy_part_that_names_where_its_commands_are_decides_no_other():
    """Its deciders test a command only with ``isinstance`` against classes defined where it says
    (read from their source), so any other command is none of its own."""
    import ast
    import importlib
    import pkgutil
    from pathlib import Path

    named = [part for part in PARTS if isinstance(part, LazyPart) and part.commands_within is not None]
    assert [part.name for part in named] == ["combat"]
    for part in named:
        part.part  # noqa: B018
        for package in part.commands_within:
            modules = [importlib.import_module(package)]
            modules += [importlib.import_module(info.name) for info in
                        pkgutil.walk_packages(modules[0].__path__, prefix=package + ".")]
            for module in modules:
                for node in ast.walk(ast.parse(Path(module.__file__).read_text(encoding="utf-8"))):
                    if isinstance(node, ast.FunctionDef) and node.name == "decide":
                        tested = [call.args[1] for call in ast.walk(node) if isinstance(call, ast.Call)
                                  and getattr(call.func, "id", None) == "isinstance"
                                  and getattr(call.args[0], "id", None) == "command"]
                        assert tested, module.__name__
                        for name in tested:
                            cls = getattr(module, ast.unparse(name))
                            assert part._within(cls.__module__, part.commands_within), (module.__name__, cls)
