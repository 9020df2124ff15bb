"""No player's output of either system shows a bennie vote's scores (Yarn "Bennie Vote"; DramaSystem
DS74, line 709: "Only the GM ever sees the low score"). Both committed samples hold votes whose
scores are planted in the log; every recap a player can ask for, in every format, is searched.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

JOURNALS = Path(__file__).resolve().parents[3] / "journals"
SAMPLES = {"lantern-harbor.jsonl": ("yarn.bennie.vote_tallied", ["Ana", "Ben", "Cy", "Dee", "Eli", "Fay"]),
           "copper-reef.jsonl": ("dramasystem.bennie.vote_tallied", ["Ana", "Ben", "Cy", "Dee", "Eli"])}


def _tallies(sample: str, event_type: str) -> list[dict]:
    lines = [json.loads(line) for line in (JOURNALS / sample).read_text(encoding="utf-8").splitlines()]
    return [t for line in lines if line.get("type", line.get("event_type")) == event_type
            for t in line["payload"]["tallies"]]


def _leaks(text: str, tallies: list[dict]) -> list[str]:
    found = []
    for t in tallies:
        for pattern in (rf"\b{t['player']}\b[ :|]{{1,3}}{t['score']}(?![\w♠♥♦♣])",
                        rf"{t['rank_total']} - {t['tokens_in_hand']} = {t['score']}\b"):
            found += re.findall(pattern, text)
    return found


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_no_player_output_shows_a_vote_score(cli, sample):
    event_type, players = SAMPLES[sample]
    tallies = _tallies(sample, event_type)
    assert tallies and len({t["score"] for t in tallies}) > 1  # the scores are there to leak
    code, _, err = cli("import", str(JOURNALS / sample))
    assert code == 0, err
    # The GM's recap does show them: the search would find a leak.
    code, gm_text, _ = cli("recap", "--series")
    assert code == 0 and _leaks(gm_text, tallies)
    for audience in [["--players"], *(["--as", p] for p in players)]:
        for fmt in (["--format", "md"], ["--format", "html"], ["--json"]):
            code, out, err = cli("recap", "--series", *audience, *fmt)
            assert code == 0, err
            assert not _leaks(out, tallies), (audience, fmt)
            if fmt == ["--json"]:
                assert '"score"' not in out and '"rank_total"' not in out
