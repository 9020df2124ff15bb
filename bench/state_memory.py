"""The state's memory per event: what a second streaming replay keeps, by ``tracemalloc``, and by owner.

Usage: ``python bench/state_memory.py URL CAMPAIGN EVENTS`` (URL: ``sqlite:///PATH`` or a PostgreSQL
URL holding the campaign, e.g. a generated one loaded by the benchmark's ``floor_import``). The
first replay loads the ruleset and fills the caches that outlive a state; the second is traced, and
what it allocated and still holds once the state is built is the state's. The owners are the
timeline and each slice of the ruleset's state (and, below a slice, each field worth 2 B an event
or more): a deep ``sys.getsizeof`` over what each one reaches, each object counted once, for the
first owner that reaches it. Prints JSON.
"""

from __future__ import annotations

import gc
import json
import sys
import tracemalloc
import types
from typing import Any

from yarnlog.app import replaying
from yarnlog.core.ruleset import get_ruleset
from yarnlog.persistence.factory import open_store

_SHARED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)


def deep_size(root: Any, seen: set[int]) -> int:
    """The bytes of what ``root`` reaches and ``seen`` does not hold yet (added to it)."""
    total, stack = 0, [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, _SHARED):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


def main(url: str, campaign: str, events: int) -> None:
    get_ruleset("yarn")
    replaying.replay_stored(open_store(url, create=False), campaign)
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    state = replaying.replay_stored(open_store(url, create=False), campaign)
    gc.collect()
    kept = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    seen: set[int] = set()
    owners = {"timeline": deep_size(state.timeline, seen)}
    for name in state.rules.__dataclass_fields__:
        part = getattr(state.rules, name)
        before = set(seen)
        owners[name] = deep_size(part, seen)
        for field in getattr(part, "__dataclass_fields__", ()):
            size = deep_size(getattr(part, field), set(before))
            if size / events >= 2:
                owners[f"{name}.{field}"] = size
    owners["rest"] = deep_size(state, seen)
    print(json.dumps({"events": events, "tracemalloc_bytes_per_event": round(kept / events, 1),
                      "by_owner_bytes_per_event": {k: round(v / events, 1) for k, v in owners.items()}}, indent=1))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
