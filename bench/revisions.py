"""Another revision's package beside this tree's, for the benchmarks that time both side by side."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: Variables that would make a child read another journal, another tree or skip the bytecode.
DROPPED = ("PYTHONDONTWRITEBYTECODE", "YARNLOG_DB", "PYTHONPATH", "YARNLOG_CAMPAIGN", "YARNLOG_VERBOSE")


def revision_envs(scratch: Path, revision: str, *paths: str) -> dict[str, dict[str, str]]:
    """The environments of a round's children: ``sqlmodel`` (the floor), ``base`` (``revision``'s
    ``paths``, taken out with ``git archive`` under ``scratch/base``, first on ``PYTHONPATH``) and
    ``this`` (this tree as installed)."""
    base = scratch / "base"
    base.mkdir()
    archive = subprocess.run(["git", "-C", str(HERE.parent), "archive", revision, *paths],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
    env = {k: v for k, v in os.environ.items() if k not in DROPPED}
    return {"sqlmodel": env, "base": {**env, "PYTHONPATH": str(base)}, "this": env}
