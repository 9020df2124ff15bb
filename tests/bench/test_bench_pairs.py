"""The side-by-side scripts set up what their commands need, and a one-shot command that runs too long
is stopped with what it had used (no timing asserted)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_child_past_its_time_is_stopped_and_says_so():
    benchmark = _module("benchmark")
    figures = benchmark._child([sys.executable, "-c", "import time; time.sleep(30)"], output=False, timeout=0.5)
    assert figures["stopped"] is True
    assert figures["wall"] < 20
    done = benchmark._child([sys.executable, "-c", "pass"], output=False, timeout=60)
    assert "stopped" not in done


@pytest.mark.slow
def test_a_petition_with_no_call_just_before_it_is_set_up_by_one():
    # The generated campaign's last scene has neither of the petition's characters: without the
    # untimed call first, the base revision's petition was refused ("... is not in scene N").
    run = subprocess.run([sys.executable, str(BENCH / "startup_pairs.py"), "1000", "--base", "HEAD", "--rounds", "1",
                          "--warmup", "0", "--commands", "petition,tokens"],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, (run.stdout + run.stderr)[-2000:]
    rows = {line.split()[0]: line for line in run.stdout.splitlines()[2:]}
    assert set(rows) == {"petition", "tokens"}, run.stdout


@pytest.mark.slow
def test_a_command_left_to_this_tree_alone_has_no_base_figure():
    run = subprocess.run([sys.executable, str(BENCH / "startup_pairs.py"), "1000", "--base", "HEAD", "--rounds", "1",
                          "--warmup", "0", "--commands", "note,tokens", "--no-base", "tokens"],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, (run.stdout + run.stderr)[-2000:]
    rows = {line.split()[0]: line.split() for line in run.stdout.splitlines()[2:]}
    assert rows["tokens"][3] == "-" and rows["note"][3] != "-", run.stdout
