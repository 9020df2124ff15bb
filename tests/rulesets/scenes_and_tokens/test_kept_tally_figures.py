"""What the state keeps of a bennie vote's tally is the recorded lines' own data, field for field."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote import BennieVoteTallied, RankReceived, TallyLine, tally_data
from yarnlog.rulesets.scenes_and_tokens.parts.economy import BENNIE, KITTY_NAME, TransferLine

names = st.text(min_size=1, max_size=8)
lines = st.builds(TallyLine, player=names, ranks_received=st.lists(st.builds(RankReceived, voter=names,
                                                                              rank=st.integers(1, 9)), max_size=4),
                  rank_total=st.integers(0, 40), tokens_in_hand=st.integers(0, 9), score=st.integers(0, 50),
                  placement=st.integers(1, 8), gains_bennie=st.booleans())


@given(st.integers(1, 300), st.lists(lines, max_size=6), st.lists(names, max_size=3),
       st.lists(names.filter(lambda n: n != KITTY_NAME), max_size=3))
def test_the_tally_kept_is_each_lines_dump_and_who_gained_a_bennie(episode, tallies, missing, gainers):
    transfers = [TransferLine(amount=1, source=KITTY_NAME, destination=g, chapter="Bennies", rule="r", currency=BENNIE)
                 for g in gainers]
    tally = BennieVoteTallied(episode=episode, tallies=tallies, missing=missing, transfers=transfers)
    assert tally_data(tally) == {"episode": episode, "tallies": [line.model_dump() for line in tallies],
                                 "missing": missing, "bennies_to": gainers}
