"""The README's polyhedral Yarn session runs as written, and what its comments say holds."""

from __future__ import annotations

import json
from pathlib import Path

from test_readme_examples import blocks, run_all

ROOT = Path(__file__).resolve().parents[3]


def test_the_polyhedral_session_runs_as_written(cli):
    commands = blocks("## A polyhedral Yarn session")
    run_all(cli, commands)
    code, out, _ = cli("board", "--json")
    board = json.loads(out)
    rows = {c["name"]: c for c in board["characters"]}
    # P7: the fortune is the level (Wren 3, Tor 4), less what was used: Wren kept a third die, Tor
    # exploded twice; the narrator's trouble is the three fortunes used (P26).
    assert (rows["Wren"]["fortune"], rows["Tor"]["fortune"], board["trouble"]) == (2, 2, 3)
    code, out, _ = cli("rolls", "--json")
    punch = [f for f in json.loads(out) if f["attack"]][0]
    # Wren's defense is her dexterity 6 (P37); a punch is strength 8 + 0 + margin (P41).
    assert punch["challenge"] == 6 and punch["attack"]["location"] == "arm"
    code, out, err = cli("verify")
    assert code == 0, err
