"""Moved to :mod:`yarnlog.rulesets.scenes_and_tokens.rules.challenges`: Yarn's dramatic side is the core it shares
with DramaSystem. This name stays so that code written against it keeps working."""

from typing import Any

from yarnlog.rulesets.scenes_and_tokens.rules import challenges as _moved


def __getattr__(name: str) -> Any:
    return getattr(_moved, name)
