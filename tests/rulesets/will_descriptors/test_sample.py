"""The Will & Descriptors sample campaign in ``journals/``: The Knotted Sea, recorded through the command
line by ``journals/record-knotted-sea.sh`` and exported to ``journals/knotted-sea.jsonl``.

The export is imported into a fresh journal, verified, and checked against figures worked out by hand
from the draft (``shared/seeds/004``; digest ``shared/rules/004-will-descriptors.md``, rules W1-W30 and
readings 1-15). Each expected figure is written out literally; nothing here recomputes a rule with
the tool's own code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from yarnlog.app.interchange import import_records, parse_lines
from yarnlog.app.journal import Journal
from yarnlog.app.verify import verify
from yarnlog.persistence.memory import MemoryStore

ROOT = Path(__file__).resolve().parents[3]
JOURNAL = ROOT / "journals" / "knotted-sea.jsonl"
CID = "sea"


@pytest.fixture(scope="module")
def sea():
    store = MemoryStore()
    records = parse_lines(JOURNAL.read_text(encoding="utf-8").splitlines())
    present, imported = import_records(store, records)
    assert present == 0 and imported == len(records)
    journal = Journal(store)
    return journal, journal.history(CID), journal.state(CID)


def rolls(history):
    return [r.payload for r in history if r.event_type == "will-descriptors.roll.made"]


def test_the_export_imports_whole_and_verifies(sea):
    journal, history, _ = sea
    assert len(history) == 49
    report = verify(journal.store.read(CID), CID)
    assert report.ok, report.faults[:3]


def test_every_move_is_used(sea):
    _, history, _ = sea
    used = {r.event_type.split(".", 1)[1] for r in history if r.event_type.startswith("will-descriptors.")}
    assert used == {"character.created", "roll.made", "scene-descriptor.created",
                    "scene-descriptor.stuck", "harm.taken", "injury.removed", "refreshment.had", "stalemate.shifted",
                    "xp.awarded", "advance.spent", "ruling.recorded"}


def test_each_roll_worked_by_hand(sea):
    """W7-W11, lines 5-7, worked by hand on the faces entered.

    1. 9,8,7,3,1 v 6,2: the 9 beats the 6; 9, 8 and 7 beat the TN 6: 3 successes.
    2. 7,4,2 v 7,4,1: the 7s and the 4s cancel (W9); 2 beats 1: 1 success.
    3. 8,5 v 5,8: the same size and the same roll: a real stalemate (W11).
    4. 10,6,3,3,2 v 9,7: 10 beats 9; only the 10 beats the TN 9: 1 success.
    5. 10,10,8,2,1 v 9,5,4,1: the 10s beat the TN 9: 2 successes.
    6. 9,9,8,8,2 v 7,3: four dice beat the TN 7: 4 successes.
    7. Recovery 9,6 v the Injury's 4,3: 9 and 6 beat 4: 2 successes (W20).
    """
    got = [(p.winner, p.successes, p.tn, p.cancelled) for p in rolls(sea[1])]
    assert got == [("a", 3, 6, 0), ("a", 1, 1, 2), (None, 0, None, 2), ("a", 1, 9, 0), ("a", 2, 9, 0),
                   ("a", 4, 7, 0), ("a", 2, 4, 0)]


def test_will_worked_by_hand(sea):
    """W5 (1 Will per descriptor), W6 (+1 when yours is used against you), W13 (invoking a Scene
    Descriptor costs 1), W14 (sticking costs 1), W23 (refreshment back up to 9).

    Christopher 9 -2 (Knots, Bob's Proud) -1 (Bob is tied up) -1 (Strong) -1 (Strong) = 4, refreshed to 9.
    Bob 9 -1 (Slippery) +1 (Proud used against him) -2 (Slippery, Lockpick) -1 (Slippery) = 6, refreshed to 9.
    Abigail 9 -1 (sticks) -1 (Medic) -2 (Persuasive, Rook's Cruel) -1 (Medic) = 4.
    Captain Rook 9 -2 (Cutlass, Cruel) +1 (Cruel used against him) -2 (Cutlass, the deck) -2 = 4.
    """
    state = sea[2].rules
    assert {n: c.will for n, c in state.characters.items()} == {
        "Christopher": 9, "Bob": 9, "Abigail": 4, "Captain Rook": 4}
    gains = [(e.character, e.amount) for e in state.ledger if e.currency == "will" and e.amount > 0]
    assert gains == [("Bob", 1), ("Captain Rook", 1), ("Bob", 3), ("Christopher", 5)]


def test_harm_worked_by_hand(sea):
    """W15 (box = successes), W17 (box 1 crossed: box 2 and an Injury 2D), W16 (an Injury instead),
    W18 (box 4 of 4: out). Bob's track is restored with Abigail (W22); Christopher's alone is not (reading 11)."""
    _, history, state = sea
    harms = [(r.payload.character, r.payload.box, r.payload.injury, r.payload.out) for r in history
             if r.event_type == "will-descriptors.harm.taken"]
    assert harms == [("Bob", 3, 0, False), ("Christopher", 1, 0, False), ("Christopher", 2, 2, False),
                     ("Captain Rook", None, 2, False), ("Bob", 4, 0, True)]
    characters = state.rules.characters
    assert characters["Bob"].crossed == frozenset() and characters["Christopher"].crossed == {1, 2}
    assert all(not c.injuries for c in characters.values())  # Cut arm recovered, Rook's shame healed
    assert not state.rules.scene_descriptors  # "Rook has the deck" vanished with scene 2 (W14)
    assert characters["Bob"].descriptors["Bob is tied up"].dice == 3  # stuck by Abigail (W14)


def test_xp_and_advances_worked_by_hand(sea):
    """W26: Christopher 3 + 1 + 1 + 3 + 10 = 18 XP, 3 Advances (W27), 2 spent (W29). W25: Bob 5 + 10 = 15,
    3 Advances: 1 to raise Lockpick 1D (W29), 2 to lower Proud 2D (W30). Abigail 10, 2 Advances: a Key and a
    descriptor. Every bought-off Key is gone (reading 12)."""
    c = sea[2].rules.characters
    assert [(n, c[n].xp, c[n].advances_spent, c[n].advances) for n in ("Christopher", "Bob", "Abigail")] == [
        ("Christopher", 18, 2, 1), ("Bob", 15, 3, 0), ("Abigail", 10, 2, 0)]
    assert {n: d.dice for n, d in c["Bob"].descriptors.items()} == {
        "Slippery": 2, "Proud": 1, "Lockpick": 2, "Bob is tied up": 3}
    assert c["Christopher"].background == ("Sailor",) and c["Christopher"].descriptors["Old navy friend"].dice == 1
    assert dict(c["Abigail"].keys) == {"Protect Bob": c["Abigail"].keys["Protect Bob"]}
    assert not c["Christopher"].keys and not c["Bob"].keys


def test_the_recap_shipped_is_the_recap_of_the_export(sea, tmp_path):
    """The recap in journals/ says the figures above in words."""
    text = (ROOT / "journals" / "knotted-sea-recap.md").read_text(encoding="utf-8")
    assert "Christopher wins with 3 successes over 6" in text
    assert "Bob crosses off box 4 and is out of the scene (W15, W18)." in text
    assert "| Abigail | 4/9 |" in text


def test_the_committed_recap_is_valid_and_drawn():
    """The HTML recap (and its picture, headless Chromium's) is valid, inert and not blank."""
    from htmlcheck import assert_inert, assert_not_blank, assert_valid_html

    html = (ROOT / "journals" / "knotted-sea-recap.html").read_text(encoding="utf-8")
    assert_valid_html(html)
    assert_inert(html)
    assert_not_blank(ROOT / "journals" / "knotted-sea-recap.png")


@pytest.mark.slow
def test_a_sheet_page_as_chromium_draws_it(cli, tmp_path):
    """A printable sheet in headless Chromium: the user's text shown as text, never as markup."""
    from htmlcheck import assert_inert, assert_valid_html, rendered_dom, visible_text

    for args in (("init", "t", "--title", "T", "--gm", "Maya", "--ruleset", "will-descriptors", "--setting",
                  "track=3"),
                 ("character", "create", "Eve <script>alert(1)</script>", "-d", "Sly & <i>quick</i>=2")):
        assert cli(*args)[0] == 0
    code, out, _ = cli("sheet", "Eve <script>alert(1)</script>", "--format", "html")
    assert code == 0
    assert_valid_html(out)
    assert_inert(out)
    page = tmp_path / "eve.html"
    page.write_text(out, encoding="utf-8")
    shown = visible_text(rendered_dom(page))
    assert "Eve <script>alert(1)</script>" in shown and "Sly & <i>quick</i>" in shown and "[1][2][3]" in shown


def test_the_script_run_again_records_the_same_events(cli, tmp_path):
    """journals/record-knotted-sea.sh, command by command: the export it makes is the one committed."""
    import json
    import shlex

    text = (ROOT / "journals" / "record-knotted-sea.sh").read_text(encoding="utf-8").replace("\\\n", " ")
    commands = [words[1:] for line in text.splitlines()
                if (words := shlex.split(line, comments=True)) and words[0] == "y"]
    assert commands[0][:2] == ["init", "sea"]
    for args in commands:
        code, _, err = cli(*args)
        assert code == 0, f"yarnlog {' '.join(args)} -> {code}: {err}"
    out = tmp_path / "again.jsonl"
    assert cli("export", "-o", str(out))[0] == 0

    def facts(line: str) -> tuple:
        record = json.loads(line)
        if "trailer" in record:
            return ("trailer", record["trailer"]["events"])
        return tuple(record[k] for k in ("sequence", "event_type", "payload", "recorded_by", "visibility"))

    assert [facts(line) for line in out.read_text(encoding="utf-8").splitlines()] == \
        [facts(line) for line in JOURNAL.read_text(encoding="utf-8").splitlines()]
