"""The board shows what is in play, not the campaign's past: on a generated campaign (the sample's
episodes played lap after lap, each lap's fight with extras of its own), the board in the middle of
lap 2N's fight is the board in the middle of lap N's, but for its numbers and names: the fight in
play's extras are on it, no earlier fight's, and the bennies spent this episode, no earlier
episode's (Yarn 0.1, "Bennies": won at the end of a session, "You may spend only one bennie per
scene"; "Combat › Initiative": "the order in which they will act each round")."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from yarnlog.app.interchange import parse_lines
from yarnlog.core.envelope import canonical, to_recorded
from yarnlog.core.state import replay
from yarnlog.web.pages import Report, pages_for
from yarnlog.web.seen import seen_by

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import generate  # noqa: E402

LAPS = 2


@pytest.fixture(scope="module")
def records():
    # Enough laps for lap 2 * LAPS to be played through its fight.
    return [to_recorded(s) for s in parse_lines([canonical(line) for line in generate.events(LAPS * 2 * 190 + 400)])]


def in_fight(records, lap: int) -> list:
    """The campaign cut in the middle of lap ``lap``'s fight (just after its second round starts)."""
    rounds = [i for i, r in enumerate(records) if r.event_type == "yarn.combat.round_started"]
    return records[:rounds[lap - 1] + 1]


def registered(history) -> list[str]:
    return [r.payload.name for r in history if r.event_type == "yarn.combat.combatant_registered"]


def grid(report: Report, caption: str) -> list:
    found = [g for g in report.grids if g.caption.startswith(caption)]
    return list(found[0].rows) if found else []


def size(report: Report) -> int:
    """The board's text: its facts and every cell (what its page grows with)."""
    cells = [str(v) for _, v in report.facts] + [str(c) for g in report.grids for row in g.rows for c in row]
    return sum(map(len, cells))


def boards(history):
    state = replay(history)
    players = sorted(state.table.players)
    cid = history[0].campaign_id
    return {name: pages_for("yarn").board(seen_by(cid, name, history, state)) for name in [state.table.gm, *players]}


def test_the_board_in_a_later_fight_is_no_larger_than_in_an_earlier_one(records):
    early, late = in_fight(records, LAPS), in_fight(records, 2 * LAPS)
    assert len(late) > 1.8 * len(early)
    old_extras, new_extras = registered(late[:len(early)]), registered(late[len(early):])
    assert len(set(old_extras)) >= 2 * LAPS and new_extras  # each lap registers extras of its own
    fight_now = [r for r in late if r.event_type == "yarn.combat.started"][-1].payload.combatants
    for name, board in boards(late).items():
        before = boards(early)[name]
        wounded = [row[0] for row in grid(board, "Wounds")]
        # The fight in play's combatants (one left it: out of the fight), no earlier fight's extras.
        assert set(wounded) & set(fight_now) and not set(wounded) & set(old_extras), (name, wounded)
        assert len(wounded) == len(grid(before, "Wounds"))
        facts = dict(board.facts)
        assert facts["Fight"].endswith("round 2") and facts["Order of action"]
        # The bennies spent this episode only: as many as the same episode of the earlier lap.
        assert len(grid(board, "Bennies spent")) == len(grid(before, "Bennies spent")) > 0
        assert len(board.grids) == len(before.grids)
        # Only numbers and names differ (a few characters each): the board does not grow with the laps.
        assert abs(size(board) - size(before)) < 0.05 * size(before), (name, size(before), size(board))


def test_after_the_fight_only_the_pcs_wounds_stay_on_the_board(records):
    ended = [i for i, r in enumerate(records) if r.event_type == "yarn.combat.ended"][LAPS]
    history = records[:ended + 1]
    state = replay(history)
    board = boards(history)[state.table.gm]
    assert {row[0] for row in grid(board, "Wounds")} == set(state.rules.characters.pcs)
    assert dict(board.facts)["Fight"].startswith("none in play")


def test_the_board_links_to_the_ledger_and_to_the_episode_in_plays_recap(tmp_path):
    import re

    from tables import client, yarn_table

    links = yarn_table(tmp_path / "journal.db")
    with client(tmp_path / "journal.db") as c:
        for link in links.values():
            board = c.get(link).text
            targets = re.findall(r'<dd><a href="([^"]+)">([^<]+)</a></dd>', board)
            assert [(t.replace("&amp;", "&"), text) for t, text in targets] == [
                (link + "ledger", "the ledger"), (link + "recap?episode=2", "episode 2")]
            for target, _ in targets:
                page = c.get(target.replace("&amp;", "&"))
                assert page.status_code == 200 and "Lantern Harbor" in page.text


@pytest.mark.parametrize("mode, heading", [("--gestalt", "1 (gestalt)"), ("--detailed", "1 (detailed), round 1")])
def test_a_fight_started_at_the_table_is_on_the_board_with_its_combatants(tmp_path, mode, heading):
    from tables import YARN, run

    from yarnlog.app.bootstrap import bootstrap
    from yarnlog.web.reading import Reader

    db = tmp_path / "journal.db"
    for args in YARN:
        run(db, *args)
    run(db, "fight", "start", mode, "--combatant", "Tomas", "--combatant", "Dockhand=12")
    board = pages_for("yarn").board(Reader(bootstrap(str(db))).seen("harbor", "Ana"))
    assert dict(board.facts)["Fight"] == heading  # "Each round is long enough...": detailed combat only
    assert [row[0] for row in grid(board, "Wounds (the PCs and fight 1)")] == ["Iris", "Tomas", "Dockhand"]


def test_a_players_view_once_read_is_left_out_of_the_collectors_walks(tmp_path):
    import gc

    from tables import yarn_table

    from yarnlog.app.bootstrap import bootstrap
    from yarnlog.web.reading import Reader

    yarn_table(tmp_path / "journal.db")
    reader = Reader(bootstrap(str(tmp_path / "journal.db")))
    state = reader.seen("harbor", "Ana").state
    walked = {id(o) for o in gc.get_objects()}
    assert id(state.rules) not in walked and id(state.table) not in walked  # frozen: never walked again
