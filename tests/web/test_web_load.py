"""A bounded load test on localhost: 200 concurrent readers of a player's board on a generated
campaign are all served the board, none dropped, each the page a lone reader gets; the same from
``yarnlog serve --workers 2``, and after the journal moves. The times are printed, never judged
here: the figures, beside their floor, are in bench/RESULTS.md (``bench/players_page.py``).

Robust on a loaded machine: each read may take a minute, the server a minute to start; what is
checked is that every answer came and was right, not when."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from browser import record, serving

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import players_page  # noqa: E402

pytestmark = pytest.mark.slow  # 200 concurrent readers


def test_two_hundred_concurrent_readers_all_get_the_board(tmp_path):
    db, links = players_page.journal_of(2_000, tmp_path)
    with serving(db) as base:
        board = players_page.page(base + links["Ana"])  # the first read: the player's view worked out
        assert b"Tokens" in board
        load = players_page.load(base + links["Ana"], readers=200, rounds=2, must_hold="Tokens", timeout=60,
                                 same_as=board)
        gm = players_page.load(base + links["Maya"], readers=50, rounds=1, must_hold="Tokens", timeout=60,
                               same_as=players_page.page(base + links["Maya"]))
        record(db, "note", "the bell rings")  # the journal moves: readers get the board at the new head
        deadline = time.monotonic() + 60
        while players_page.page(base + links["Ana"]) == board and time.monotonic() < deadline:
            time.sleep(0.2)
        moved = players_page.page(base + links["Ana"])
        after = players_page.load(base + links["Ana"], readers=200, rounds=1, must_hold="Tokens", timeout=60,
                                  same_as=moved)
    print(f"\n200 readers of a player's board (2,000 events): {load.summary()}")
    assert moved != board  # drawn at the new head
    assert load.failures == [] and len(load.times) == 400
    assert gm.failures == [] and len(gm.times) == 50
    assert after.failures == [] and len(after.times) == 200


def test_several_processes_serve_the_same_board(tmp_path):
    db, links = players_page.journal_of(1_000, tmp_path)
    with serving(db, workers=2) as base:
        board = players_page.page(base + links["Ana"])
        load = players_page.load(base + links["Ana"], readers=100, rounds=2, must_hold="Tokens", timeout=60,
                                 same_as=board)
    assert load.failures == [] and len(load.times) == 200
