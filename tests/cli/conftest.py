"""The Yarn table the command-line tests play at."""

from __future__ import annotations

from pathlib import Path

import pytest

SHEETS = Path(__file__).resolve().parents[2] / "journals" / "sheets"


@pytest.fixture
def harbor_scene(cli):
    """A Yarn campaign "harbor" in its second scene: Ben's procedural scene with Tomas (Ana plays Iris,
    Ben plays Tomas, Maya is the GM); the CLI runner."""
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--from-file", str(SHEETS / "iris.json")),
                 ("character", "create", "Tomas", "--from-file", str(SHEETS / "tomas.json")),
                 ("episode", "start", "--title", "Fog"), ("call", "Ana", "--cast", "Iris,Tomas"),
                 ("call", "Ben", "--cast", "Tomas", "--mode", "procedural")):
        assert cli(*args)[0] == 0, args
    return cli
