"""A bounded load test on localhost: 200 concurrent readers of a player's board on a generated
campaign are all served the board, none dropped. The times are printed, never judged here: the
figures, beside their floor, are in bench/RESULTS.md (``bench/players_page.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from browser import serving

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import players_page  # noqa: E402

pytestmark = pytest.mark.slow  # 200 concurrent readers


def test_two_hundred_concurrent_readers_all_get_the_board(tmp_path):
    db, links = players_page.journal_of(2_000, tmp_path)
    with serving(db) as base:
        players_page.load(base + links["Ana"], readers=1, rounds=1, must_hold="Tokens", timeout=120)  # first read
        board = players_page.load(base + links["Ana"], readers=200, rounds=2, must_hold="Tokens", timeout=60)
        gm = players_page.load(base + links["Maya"], readers=50, rounds=1, must_hold="Tokens", timeout=60)
    print(f"\n200 readers of a player's board (2,000 events): {board.summary()}")
    assert board.failures == [] and len(board.times) == 400
    assert gm.failures == [] and len(gm.times) == 50
