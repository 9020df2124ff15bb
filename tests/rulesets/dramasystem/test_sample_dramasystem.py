"""The DramaSystem sample campaign in ``journals/``: The Copper Reef, two episodes recorded through
the command line by ``journals/record-copper-reef.sh`` and exported to ``journals/copper-reef.jsonl``,
and a third episode that plays the dramatic moves the first two leave out.

The export is imported into a fresh journal, verified, and checked against figures worked out by
hand from the SRD (``../shared/seeds/001_d92eeb8e25f80b6a.txt``; the digest
``../shared/rules/001-dramasystem.md`` numbers its rules DS1-DS77 and its readings 1-18): every
match and knock-out, each result and consequence, each clincher, each contest's winner and every
procedural token spent and refreshed. Each expected figure is written out literally with the
sentence of the book that gives it; nothing here recomputes a rule with the tool's own code.
The recap the README's command writes of it is checked the same way, against these figures.

Who plays whom: Ana plays Mara Quell, Ben Otto Brand, Cy Lio Fenn, Dee Sable Roux and Eli Hask
Morrow; Maya is the GM. A pile is written as its unspent colours, G, Y and R.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from htmlcheck import assert_inert, assert_not_blank, assert_valid_html

from yarnlog.app.interchange import export_lines, import_records, parse_lines
from yarnlog.app.journal import Journal
from yarnlog.app.verify import verify
from yarnlog.core.state import replay
from yarnlog.persistence.memory import MemoryStore

ROOT = Path(__file__).resolve().parents[3]
JOURNAL = ROOT / "journals" / "copper-reef.jsonl"
SCRIPT = ROOT / "journals" / "record-copper-reef.sh"
CID = "reef"
GM = "Maya"
PLAYERS = ["Ana", "Ben", "Cy", "Dee", "Eli"]
PLAYED_BY = {"Mara Quell": "Ana", "Otto Brand": "Ben", "Lio Fenn": "Cy", "Sable Roux": "Dee", "Hask Morrow": "Eli"}
LETTER = {"green": "G", "yellow": "Y", "red": "R"}


def data(recorded) -> dict:
    return recorded.payload.to_data()


class Reef:
    """The imported campaign, and its state as of any event (replayed once per event asked for)."""

    def __init__(self, store: MemoryStore, records: list, imported: int):
        self.store = store
        self.records = records
        self.imported = imported
        self.history = Journal(store).history(CID)
        self._states: dict[int, object] = {}

    def events(self, event_type: str, **fields) -> list:
        return [r for r in self.history
                if r.event_type == event_type and all(data(r).get(k) == v for k, v in fields.items())]

    def one(self, event_type: str, **fields):
        [found] = self.events(event_type, **fields)
        return found

    def state(self, sequence: int):
        if sequence not in self._states:
            self._states[sequence] = replay([r for r in self.history if r.sequence <= sequence])
        return self._states[sequence]

    def piles(self, sequence: int) -> dict[str, str]:
        """Every participant's unspent tokens as of ``sequence``, as letters in G, Y, R order."""
        piles = self.state(sequence).rules.piles
        return {name: "".join(LETTER[c.value] for c in sorted(pile.unspent, key=lambda c: "gyr".index(c.value[0])))
                for name, pile in piles.piles.items()}

    def plays(self, scene: int) -> list[tuple]:
        """Each turn of a simple resolution: (player, token, cards, matches, knocked out, waiting)."""
        return [(d["player"], d["token"], d["cards"], d["matches"], d["knocked_out"], d["waiting_knock_outs"])
                for d in map(data, self.events("dramasystem.procedure.played", scene=scene))]


@pytest.fixture(scope="module")
def reef() -> Reef:
    store = MemoryStore()
    records = parse_lines(JOURNAL.read_text(encoding="utf-8").splitlines())
    present, imported = import_records(store, records)
    assert present == 0
    return Reef(store, records, imported)


# -- the journal as a whole -------------------------------------------------------------------


def test_the_export_imports_whole_and_verifies(reef):
    assert reef.imported == len(reef.records) == len(reef.history)
    report = verify(reef.store.read(CID), CID)
    assert report.ok, report.faults[:3]


def test_the_export_comes_back_byte_for_byte(reef):
    assert "".join(export_lines(reef.store, CID)) == JOURNAL.read_text(encoding="utf-8")


def test_every_card_and_order_was_entered_at_the_table(reef):
    # Cards are "recorded as drawn": the script types every card and every fresh precedence.
    flags = ("drawn_by_tool", "card_drawn_by_tool", "order_drawn_by_tool", "consequence_drawn_by_tool")
    drawn_by_tool = [(r.sequence, f) for r in reef.history for f in flags if data(r).get(f)]
    assert drawn_by_tool == []
    assert len(reef.events("dramasystem.procedure.target_drawn")) == 3


def test_the_gms_token_is_recorded_for_her_eyes_only(reef):
    # "The GM secretly spends one of her available tokens" (SRD 445): hidden until the reveal.
    opposed = reef.events("dramasystem.procedure.opposed")
    assert [(r.scene, data(r)["token"], r.visibility) for r in opposed] == [
        (1, "yellow", "gm"), (2, "green", "gm"), (3, "red", "gm")]


def test_the_table_a_gm_and_five_players(reef):
    # "5-8 participants" (SRD 5): the GM and five players.
    created = data(reef.one("campaign.created"))
    assert (created["title"], created["ruleset"], created["gm"]) == ("The Copper Reef", "dramasystem", GM)
    assert [data(r)["name"] for r in reef.events("participant.joined")] == PLAYERS
    assert [data(r)["number"] for r in reef.events("episode.started")] == [1, 2, 3]
    assert [data(r)["number"] for r in reef.events("episode.ended")] == [1, 2, 3]
    assert [data(r)["number"] for r in reef.events("scene.opened")] == list(range(1, 34))


def test_every_pc_is_wanted_by_two_others_before_the_first_episode(reef):
    # DS9, line 51: "Repeat steps 9-12 until all characters are named as objects of at least two other
    # characters' wants." Mara is wanted by Lio and Sable, Otto by Sable and Hask, Lio by Hask and
    # Otto, Sable by Mara and Otto, Hask by Mara and Lio (journals/README.md).
    first_episode = reef.one("episode.started", number=1).sequence
    wants = [data(r) for r in reef.events("dramasystem.character.want_declared") if r.sequence < first_episode]
    wanted_by: dict[str, set[str]] = {}
    for want in wants:
        wanted_by.setdefault(want["withholder"], set()).add(want["character"])
    assert wanted_by == {"Mara Quell": {"Lio Fenn", "Sable Roux"}, "Otto Brand": {"Sable Roux", "Hask Morrow"},
                         "Lio Fenn": {"Hask Morrow", "Otto Brand"}, "Sable Roux": {"Mara Quell", "Otto Brand"},
                         "Hask Morrow": {"Mara Quell", "Lio Fenn"}}
    # ... and play began without the GM setting DS9 aside: no override just before the episode.
    assert all(r.sequence != first_episode - 1 for r in reef.events("override.recorded"))


def test_five_characters_with_their_action_types(reef):
    sheets = {d["name"]: d for d in map(data, reef.events("dramasystem.character.created"))}
    assert {name: sheet["player"] for name, sheet in sheets.items()} == PLAYED_BY

    def graded(name, grade):
        return sorted(t for t, g in sheets[name]["grades"].items() if g == grade)

    # "you designate two of them as your Strong types and two as Weak. The rest are Middling." (121)
    assert graded("Mara Quell", "strong") == ["Moving", "Talking"]
    assert graded("Mara Quell", "weak") == ["Knowing", "Making"]
    assert graded("Mara Quell", "middling") == ["Enduring", "Fighting", "Sneaking"]
    # A custom type, "make it one of your Strong types" and "three of the standard action types
    # are treated as Weak types" (141, 145): Engines and Making Strong, three Weak, three Middling.
    assert sheets["Lio Fenn"]["custom_type"] == "Engines"
    assert graded("Lio Fenn", "strong") == ["Engines", "Making"]
    assert graded("Lio Fenn", "weak") == ["Fighting", "Moving", "Talking"]
    assert graded("Lio Fenn", "middling") == ["Enduring", "Knowing", "Sneaking"]


# -- simple resolution, worked out by hand ----------------------------------------------------


def test_scene_1_a_waiting_knock_out_and_a_value_match_against_yellow(reef):
    # Target 9♥. Ben spends red and draws J♠: black against red, no match. "If there is no match
    # ... the GM knocks out the next card that does" (476): one knock-out waits. Dee (absent) may
    # spend "a yellow or green token" (480): 2♥, the same suit, is the next match and goes at once.
    # Ana's green draws two: Q♥ (suit), 7♣ (none). Eli (absent) passes. Cy's yellow: 9♦, the value.
    assert data(reef.one("dramasystem.procedure.target_drawn", scene=1))["target"] == "9H"
    assert reef.plays(1) == [
        ("Ben", "red", ["JS"], ["none"], [], 1),
        ("Dee", "yellow", ["2H"], ["suit"], ["2H"], 0),
        ("Ana", "green", ["QH", "7C"], ["suit", "none"], [], 0),
        ("Eli", None, [], [], [], 0),
        ("Cy", "yellow", ["9D"], ["value"], [], 0),
    ]
    # Yellow: "Middling ... same suit" (505); "A card matching the target's value always wins" (517):
    # the 9♦ succeeds. A face card "drawn with a green token" is an advantage, "with a red token"
    # an obstacle (521-529): Ana's Q♥ and Ben's J♠.
    resolved = data(reef.one("dramasystem.procedure.resolved", scene=1))
    assert (resolved["gm_token"], resolved["needed"], resolved["best"], resolved["success"]) == (
        "yellow", "suit", "value", True)
    assert [(c["player"], c["card"], c["kind"]) for c in resolved["consequences"]] == [
        ("Ben", "JS", "obstacle"), ("Ana", "QH", "advantage")]


def test_scene_2_the_value_match_knocked_out_fails_against_green(reef):
    # Target 6♠. Eli's green: 10♠ (suit), 3♣ (colour). Ana (absent) yellow: K♥, no match. Dee's red
    # draws 6♣, the value; "the GM always removes from play the best available match, prioritizing
    # ... cards with the same number" (484-488): the 6♣ itself. Cy (absent) passes. Ben (absent)
    # green: A♠ (suit) and 8♦ (none).
    assert data(reef.one("dramasystem.procedure.target_drawn", scene=2))["target"] == "6S"
    assert reef.plays(2) == [
        ("Eli", "green", ["10S", "3C"], ["suit", "colour"], [], 0),
        ("Ana", "yellow", ["KH"], ["none"], [], 0),
        ("Dee", "red", ["6C"], ["value"], ["6C"], 0),
        ("Cy", None, [], [], [], 0),
        ("Ben", "green", ["AS", "8D"], ["suit", "none"], [], 0),
    ]
    # Green: "Strong ... same value" (501): the best held is a suit match; they fail. "Aces are
    # face cards" (531): Ben's A♠ drawn with green is an advantage.
    resolved = data(reef.one("dramasystem.procedure.resolved", scene=2))
    assert (resolved["gm_token"], resolved["needed"], resolved["best"], resolved["success"]) == (
        "green", "value", "suit", False)
    assert [(c["player"], c["card"], c["kind"]) for c in resolved["consequences"]] == [("Ben", "AS", "advantage")]


def test_scene_3_the_only_match_knocked_out_fails_against_red(reef):
    # Target 10♦. Ana (absent) holds only red, which an absent player may not spend (480): she
    # passes. Ben's yellow: 3♥, the same colour. Cy and Dee pass. Eli's red: K♠, no match, and the
    # GM knocks out the best match on the table, Ben's 3♥.
    assert reef.plays(3) == [
        ("Ana", None, [], [], [], 0),
        ("Ben", "yellow", ["3H"], ["colour"], [], 0),
        ("Cy", None, [], [], [], 0),
        ("Dee", None, [], [], [], 0),
        ("Eli", "red", ["KS"], ["none"], ["3H"], 0),
    ]
    # Red: "Weak ... same color" (509): nothing held matches; they fail. The K♠ with red: an obstacle.
    resolved = data(reef.one("dramasystem.procedure.resolved", scene=3))
    assert (resolved["gm_token"], resolved["needed"], resolved["best"], resolved["success"]) == (
        "red", "colour", "none", False)
    assert [(c["player"], c["card"], c["kind"]) for c in resolved["consequences"]] == [("Eli", "KS", "obstacle")]


# -- advanced resolution, worked out by hand --------------------------------------------------


def _advanced(reef: Reef, scene: int) -> tuple[dict, dict, list[dict], dict]:
    return (data(reef.one("dramasystem.advanced.opened", scene=scene)),
            data(reef.one("dramasystem.advanced.primary_drew", scene=scene)),
            [data(r) for r in reef.events("dramasystem.advanced.redrawn", scene=scene)],
            data(reef.one("dramasystem.advanced.clinched", scene=scene)))


def test_scene_4_every_kind_of_redraw_and_an_up_face_clincher(reef):
    opened, primary, redraws, clinched = _advanced(reef, 4)
    # Yellow: "Up suits: spades, hearts. Down suits: diamonds, clubs." (810-816). "The GM ... keeps
    # drawing until a down card comes up" (835): 3♠, K♥ up, 5♦ down.
    assert (opened["gm_token"], opened["opening"], opened["grade"]) == ("yellow", ["3S", "KH", "5D"], "strong")
    # Mara's Talking is Strong: "the GM draws two cards, discarding the worst" (847). 2♣ is a down
    # number, Q♦ a down face card; "down number cards" rank above "down face cards" (861-863).
    assert (primary["cards"], primary["kept"]) == (["2C", "QD"], "2C")
    # Ben (present) spends red: 9♣; "On a red token, the player draws a consequence card. If it's a
    # down card, something bad happens" (877): 4♦ is down. Cy (present) spends green: 6♦, and "On a
    # green token ... an up card, something good" (881): A♥ is up. Ana cashes in the advantage of
    # her Q♥ from scene 1 (893): J♣. Dee (absent) forces one with green (885): K♠.
    scene_1 = reef.one("dramasystem.procedure.resolved", scene=1).sequence
    assert [(r["player"], r["means"], r["token"], r["card"], r["consequence_card"], r["consequence"], r["cashes_in"])
            for r in redraws] == [
        ("Ben", "token", "red", "9C", "4D", "bad", None),
        ("Cy", "token", "green", "6D", "AH", "good", None),
        ("Ana", "cash-in", None, "JC", None, None, scene_1),
        ("Dee", "absent", "green", "KS", None, None, None),
    ]
    # "An up face card ... an especially impressive success" (905); the primary's player narrates.
    assert (clinched["clincher"], clinched["success"], clinched["outcome"], clinched["narrator"]) == (
        "KS", True, "an especially impressive success", "Ana")


def test_scene_4_the_advantage_cashed_in_is_used_up_and_the_good_consequence_kept(reef):
    # "only possible if the character has yet to gain from that consequence" (893): after scene 4
    # Ana's Q♥ is spent; Ben's A♠ (scene 2) and Cy's good consequence card (scene 4) are still owed.
    end = reef.history[-1].sequence
    advantages = reef.state(end).rules.advanced.advantages
    scene_2 = reef.one("dramasystem.procedure.resolved", scene=2).sequence
    cy_card = reef.events("dramasystem.advanced.redrawn", scene=4)[1].sequence
    assert {who: list(seqs) for who, seqs in advantages.items() if seqs} == {"Ben": [scene_2], "Cy": [cy_card]}


def test_scene_5_a_weak_primary_and_a_down_number_clincher(reef):
    opened, primary, redraws, clinched = _advanced(reef, 5)
    # Red: "Up suits: spades, hearts, diamonds. Down suit: clubs." (804-808): the first card, 4♣, is down.
    assert (opened["gm_token"], opened["opening"], opened["grade"]) == ("red", ["4C"], "weak")
    # Hask's Moving is Weak: "two cards, discarding the best" (851): 5♠ (up) goes, 9♣ (down) stays.
    assert (primary["cards"], primary["kept"]) == (["5S", "9C"], "9C")
    # Dee (present) spends yellow: "On a yellow token, the player does not draw a consequence card" (879).
    assert [(r["player"], r["token"], r["card"], r["consequence_card"]) for r in redraws] == [
        ("Dee", "yellow", "8C", None)]
    # "A down number card ... a heart-breaking near miss" (911); the GM narrates a failure.
    assert (clinched["clincher"], clinched["outcome"], clinched["narrator"]) == (
        "8C", "a heart-breaking near miss", "the GM")


def test_scene_14_an_absent_green_and_an_up_number_clincher(reef):
    opened, primary, redraws, clinched = _advanced(reef, 14)
    # Green: "Up suit: spades. Down suits: hearts, diamonds, clubs." (818-822): 7♥ is down at once.
    # Lio's custom Engines is Strong: of 2♦ (down number) and K♦ (down face) he keeps the 2♦.
    assert (opened["gm_token"], opened["opening"], opened["action_type"], opened["grade"]) == (
        "green", ["7H"], "Engines", "strong")
    assert (primary["cards"], primary["kept"]) == (["2D", "KD"], "2D")
    # Ben (absent) spends green (885): 9♠, an up number, and no consequence card for him.
    assert [(r["player"], r["means"], r["card"], r["consequence_card"]) for r in redraws] == [
        ("Ben", "absent", "9S", None)]
    # "An up number card ... a thrilling squeaker victory" (907).
    assert (clinched["clincher"], clinched["outcome"], clinched["narrator"]) == (
        "9S", "a thrilling squeaker victory", "Cy")


def test_scene_15_a_down_face_clincher_and_a_bad_consequence(reef):
    opened, primary, redraws, clinched = _advanced(reef, 15)
    # Yellow again: Q♣ is down at once. Mara's Knowing is Weak: of 8♠ (up number) and K♦ (down
    # face) she keeps the worse, K♦.
    assert (opened["gm_token"], opened["opening"], opened["grade"]) == ("yellow", ["QC"], "weak")
    assert (primary["cards"], primary["kept"]) == (["8S", "KD"], "KD")
    # Dee (present) spends red: J♣, and the consequence card 3♣ is down: something bad (877).
    assert [(r["player"], r["token"], r["card"], r["consequence_card"], r["consequence"]) for r in redraws] == [
        ("Dee", "red", "JC", "3C", "bad")]
    # "A down face card ... a disastrous setback" (909).
    assert (clinched["clincher"], clinched["outcome"], clinched["success"]) == ("JC", "a disastrous setback", False)


def test_scene_33_the_gms_how_i_do_it_card_and_her_refresh(reef):
    opened, primary, redraws, clinched = _advanced(reef, 33)
    # Red: "Up suits: spades, hearts, diamonds. Down suit: clubs." (804-808): 5♥ up, Q♣ down. The
    # red is the GM's last token (G in 12, Y in 15): "When you've spent all three of them, they
    # immediately refresh." (423)
    assert (opened["gm_token"], opened["opening"], opened["grade"]) == ("red", ["5H", "QC"], "strong")
    assert opened["procedural_spends"] == [{"participant": GM, "colour": "red", "refreshed": True}]
    # Otto's Enduring is Strong: of J♣ (down face) and 2♣ (down number) the better, 2♣ (847, 861-863).
    assert (primary["cards"], primary["kept"]) == (["JC", "2C"], "2C")
    assert redraws == []
    # How I Do It: "you gain an additional advantage" (149); the GM rules it an additional card
    # (reading 7), in an advanced resolution a redraw (reading 5), with no bennie spent: 9♠, an up
    # number, and "An up number card ... a thrilling squeaker victory" (907).
    extra = data(reef.one("dramasystem.procedure.extra_card", scene=33))
    assert (extra["player"], extra["card"], extra["bennie_spends"], bool(extra["ruling"])) == ("Ben", "9S", [], True)
    assert (clinched["clincher"], clinched["outcome"], clinched["narrator"]) == (
        "9S", "a thrilling squeaker victory", "Ben")


# -- contests, worked out by hand -------------------------------------------------------------


def test_scene_10_a_simple_contest_strong_against_middling_with_an_assistant(reef):
    started = data(reef.one("dramasystem.contest.started", scene=10))
    # Mara's Talking is Strong, Sable's Middling: red gives "1 for red", and "A player using a strong
    # ability may draw an additional card if his opponent is using a middling ability" (587-589):
    # 1 + 1 = 2. Sable's green: 3.
    assert (started["grades"], started["allowance"], started["outright_winner"]) == (
        ["strong", "middling"], [2, 3], None)
    # Cy assists Mara with red: 1 more draw; no bonus, since Sable is not Weak (629).
    assert data(reef.one("dramasystem.contest.assisted", scene=10))["extra"] == 1
    drew = [(d["side"], d["card"], d["drawn_by"], d["token"])
            for d in map(data, reef.events("dramasystem.contest.drew", scene=10))]
    assert drew == [("Mara Quell", "7S", "Ana", "red"), ("Sable Roux", "9H", "Dee", "green"),
                    ("Mara Quell", "JD", "Ana", "red"), ("Sable Roux", "KC", "Dee", "green"),
                    ("Mara Quell", "AS", "Cy", "red"), ("Sable Roux", "10C", "Dee", "green")]
    # "The player with the highest card overcomes the other" (603), the best in hand (reading 1),
    # the ace high (reading 2): A♠ beats K♣. Face cards: Ana's J♦ with red (obstacle), Dee's K♣
    # with green (advantage), Cy's A♠ with his red (obstacle) (607-609).
    ended = data(reef.one("dramasystem.contest.ended", scene=10))
    assert (ended["winner"], ended["winning_card"], ended["losing_card"], ended["by_suit"]) == (
        "Mara Quell", "AS", "KC", False)
    assert [(c["player"], c["card"], c["kind"]) for c in ended["consequences"]] == [
        ("Ana", "JD", "obstacle"), ("Dee", "KC", "advantage"), ("Cy", "AS", "obstacle")]


def test_scene_11_an_advanced_contest_settled_by_the_suit_order(reef):
    started = data(reef.one("dramasystem.contest.started", scene=11))
    # Otto's Enduring is Strong, Lio's Middling: "A green token buys three redraws, yellow, two,
    # red, one" (939), and the better grade one more (931): Otto 2 + 1 = 3, Lio 1.
    assert (started["advanced"], started["allowance"]) == (True, [3, 1])
    redrew = [(d["actor"], d["target"], d["card"])
              for d in map(data, reef.events("dramasystem.contest.redrew", scene=11))]
    # Otto 6♥, Lio 9♠; Otto redraws (Q♣), Lio forces Otto (5♥), Otto redraws (10♦) and passes; "The
    # GM may then require one contestant to redraw, once" (953): Otto, 4♠; Ana (Mara present)
    # spends green to make Lio redraw (957): J♥; Otto uses his last redraw (959): J♠.
    assert redrew == [("Otto Brand", "Otto Brand", "QC"), ("Lio Fenn", "Otto Brand", "5H"),
                      ("Otto Brand", "Otto Brand", "10D"), ("GM", "Otto Brand", "4S"),
                      ("Ana", "Lio Fenn", "JH"), ("Otto Brand", "Otto Brand", "JS")]
    # J♠ against J♥: equal values, "spades, hearts, diamonds, clubs" (965-975): Otto wins.
    ended = data(reef.one("dramasystem.contest.ended", scene=11))
    assert (ended["winner"], ended["winning_card"], ended["losing_card"], ended["by_suit"]) == (
        "Otto Brand", "JS", "JH", True)


def test_scene_12_a_solo_action_against_the_gm(reef):
    started = data(reef.one("dramasystem.contest.started", scene=12))
    # "the GM opposes ... 3 / 2 / 1" by her token (613; reading 15): green, not formidable, 3
    # draws; Sable's red, 1.
    assert (started["second"], started["second_token"], started["allowance"]) == ("GM", "green", [1, 3])
    # Sable's A♦ against the GM's 3♣, K♠, 7♥: the ace is high (reading 2). Her ace is a face card
    # drawn with red: an obstacle for Dee.
    ended = data(reef.one("dramasystem.contest.ended", scene=12))
    assert (ended["winner"], ended["winning_card"], ended["losing_card"]) == ("Sable Roux", "AD", "KS")
    assert [(c["player"], c["card"], c["kind"]) for c in ended["consequences"]] == [("Dee", "AD", "obstacle")]


def test_scene_13_strong_against_weak_wins_outright_and_spends_nothing(reef):
    # "If one primary is using a Strong ability and another a Weak ability, the Strong character
    # automatically wins, no resolution system required." (581)
    started = data(reef.one("dramasystem.contest.started", scene=13))
    assert (started["outright_winner"], started["procedural_spends"]) == ("Otto Brand", [])
    assert data(reef.one("dramasystem.contest.ended", scene=13))["winner"] == "Otto Brand"
    assert reef.events("dramasystem.contest.drew", scene=13) == []


# -- drama tokens, worked out by hand ---------------------------------------------------------


EXCHANGES = ("dramasystem.petition.resolved", "dramasystem.petition.forced", "dramasystem.petition.two_way",
             "dramasystem.petition.quizzed")


def held_after(reef: Reef, scene: int) -> dict[str, int]:
    """Drama tokens held (non-zero) once the exchange that ends a dramatic scene is settled."""
    [exchange] = [r for r in reef.history if r.event_type in EXCHANGES and data(r)["scene"] == scene]
    tokens = reef.state(exchange.sequence).rules.economy.tokens
    return {name: n for name, n in tokens.items() if n}


def moves(reef: Reef, scene: int) -> list[tuple[str, str, int]]:
    [exchange] = [r for r in reef.history if r.event_type in EXCHANGES and data(r)["scene"] == scene]
    return [(t["source"], t["destination"], t["amount"]) for t in data(exchange)["transfers"]]


def test_episode_1_drama_tokens_scene_by_scene(reef):
    # "Everyone, including the GM, starts each episode with zero drama tokens" (273); scenes 1-5
    # are procedural and move none.
    assert held_after(reef, 6) == {"Ana": 1}
    # Scene 6, Mara asks Otto, refused: "the petitioner gains the token—from the granter if she has
    # one, or from the kitty if not" (323). Ben holds none: kitty -> Ana.
    assert moves(reef, 6) == [("kitty", "Ana", 1)]
    # Scene 7, Sable asks Mara, granted: "the granter earns a drama token--from the petitioner if he
    # has one, or from the kitty if not" (319). Dee holds none: kitty -> Ana, 1 + 1 = 2.
    assert moves(reef, 7) == [("kitty", "Ana", 1)]
    assert held_after(reef, 7) == {"Ana": 2}
    # Scene 8, two-way, both denied: each gets one, "the missing token(s) come from the kitty" (357):
    # Cy and Eli hold none.
    assert sorted(moves(reef, 8)) == [("kitty", "Cy", 1), ("kitty", "Eli", 1)]
    assert held_after(reef, 8) == {"Ana": 2, "Cy": 1, "Eli": 1}
    # Scene 9, Mara forces Hask: "the forced granter receives the two drama tokens from the
    # petitioner" (329): Ana 2 - 2 = 0, Eli 1 + 2 = 3.
    assert moves(reef, 9) == [("Ana", "Eli", 2)]
    assert held_after(reef, 9) == {"Cy": 1, "Eli": 3}
    # "Drama tokens left unspent at the end of a session [...] revert to the kitty" (275): 1 + 3 back.
    ended = reef.one("episode.ended", number=1).sequence
    assert not any(reef.state(ended).rules.economy.tokens.values())


def test_episode_2_drama_tokens_scene_by_scene(reef):
    # Scenes 16 and 17, Hask refused by Lio, then by Otto; neither holds a token: kitty -> Eli twice.
    assert held_after(reef, 16) == {"Eli": 1}
    assert held_after(reef, 17) == {"Eli": 2}
    # Scenes 18 and 19, Mara refused by Sable, then by Lio: kitty -> Ana twice.
    assert held_after(reef, 19) == {"Ana": 2, "Eli": 2}
    # Scene 20, two-way, both granted, Ben and Dee at 0: each gets one from the kitty (357).
    assert sorted(moves(reef, 20)) == [("kitty", "Ben", 1), ("kitty", "Dee", 1)]
    assert held_after(reef, 20) == {"Ana": 2, "Ben": 1, "Dee": 1, "Eli": 2}
    # Scene 21, Hask forces Mara (Eli commits 2), Sable supports him with 1; Mara blocks with
    # Otto's 1 and her 2. "the granter must give him three tokens [...] the petitioner keeps the 2"
    # (331) and "Players who supported a blocked force get their tokens back" (339):
    # Dee -> Eli 1, Ben -> Ana 1, Ana -> Eli 3, Eli -> Dee 1: Eli 2 + 1 + 3 - 1 = 5, Dee 1.
    assert sorted(moves(reef, 21)) == sorted([("Dee", "Eli", 1), ("Ben", "Ana", 1), ("Ana", "Eli", 3),
                                              ("Eli", "Dee", 1)])
    assert held_after(reef, 21) == {"Dee": 1, "Eli": 5}
    # Scene 22, no contest (349-351): nothing moves.
    assert moves(reef, 22) == []
    assert held_after(reef, 22) == {"Dee": 1, "Eli": 5}
    # Scene 23: Eli casts Otto and Sable without Hask: "To cast a scene your player character is not
    # in costs you a drama token" (181; reading 14: to the kitty): Eli 5 - 1 = 4.
    called = reef.one("dramasystem.scene.called", scene=23)
    assert [(t["source"], t["destination"], t["amount"]) for t in data(called)["transfers"]] == [("Eli", "kitty", 1)]
    assert {n: k for n, k in reef.state(called.sequence).rules.economy.tokens.items() if k} == {"Dee": 1, "Eli": 4}
    # Ben challenges the time jump: "a show of hands" of the players (205), 3 to 2 for the caller.
    vote = data(reef.one("dramasystem.challenge.voted", scene=23))
    assert (vote["kind"], vote["challenger"], vote["winner"], vote["gm_tie_break"]) == (
        "time jump", "Ben", "caller", None)
    assert (sorted(vote["for_caller"]), sorted(vote["for_challenger"])) == (["Ana", "Dee", "Eli"], ["Ben", "Cy"])
    rush = data(reef.one("dramasystem.challenge.rushed", scene=23))
    assert (rush["caller_consents"], rush["payment"]) == (True, None)
    # Mara rushes in with the caller's consent: "free if the caller agrees" (DS15), nothing moves.
    # Otto asks Sable, granted: Ben holds none, kitty -> Dee: 1 + 1 = 2.
    assert moves(reef, 23) == [("kitty", "Dee", 1)]
    assert held_after(reef, 23) == {"Dee": 2, "Eli": 4}
    ended = reef.one("episode.ended", number=2).sequence
    assert not any(reef.state(ended).rules.economy.tokens.values())


def test_a_procedural_scene_called_without_the_callers_character_costs_a_green_token(reef):
    # "To call a procedural scene your character is not in, spend a green token." (441): Cy calls
    # scene 24 with Mara and Otto, not Lio; his pile green, yellow loses the green (no refresh).
    called = data(reef.one("dramasystem.scene.called", scene=24))
    assert (called["transfers"], called["procedural_spends"]) == (
        [], [{"participant": "Cy", "colour": "green", "refreshed": False}])
    # Every other scene's caller is in it: no other call costs a token (scene 31's queue jump costs
    # Cy a bennie, not a token: see the third episode).
    costly = [d["scene"] for d in map(data, reef.events("dramasystem.scene.called"))
              if [t for t in d["transfers"] if t["currency"] == "drama"] or d["procedural_spends"]]
    assert costly == [23, 24]


# -- bennies, worked out by hand --------------------------------------------------------------


def tally(reef: Reef, episode: int) -> dict[str, tuple[int, int, int, bool]]:
    """Each player's rank total, tokens in hand, score and bennie in an episode's vote."""
    tallied = data(reef.one("dramasystem.bennie.vote_tallied", episode=episode))
    return {line["player"]: (line["rank_total"], line["tokens_in_hand"], line["score"], line["gains_bennie"])
            for line in tallied["tallies"]}


def test_episode_1_bennie_vote(reef):
    # "Each player ranks the other players [...] #1 the best"; "The GM ranks all of the players"
    # (705); "Each player adds up the total of her rankings, then subtracts the number of drama
    # tokens she has in hand"; "The two players with the lowest scores gain bennies" (707-709).
    # Ballots: Ana Ben Dee Cy Eli; Ben Ana Cy Dee Eli; Cy Ana Ben Eli Dee; Dee Ana Eli Ben Cy;
    # Eli Cy Ana Ben Dee; Maya Ana Ben Cy Dee Eli. Ranks received:
    # Ana 1+1+1+2+1 = 6; Ben 1+2+3+3+2 = 11; Cy 3+2+4+1+3 = 13, 1 token: 12;
    # Dee 2+3+4+4+4 = 17; Eli 4+4+3+2+5 = 18, 3 tokens: 15. Lowest: Ana 6 and Ben 11.
    assert tally(reef, 1) == {"Ana": (6, 0, 6, True), "Ben": (11, 0, 11, True), "Cy": (13, 1, 12, False),
                              "Dee": (17, 0, 17, False), "Eli": (18, 3, 15, False)}
    assert [r.visibility for r in reef.events("dramasystem.bennie.ballot_cast")] == ["gm"] * 18  # three votes
    ended = reef.one("episode.ended", number=1).sequence
    assert {n: k for n, k in reef.state(ended).rules.economy.bennies.items() if k} == {"Ana": 1, "Ben": 1}


def test_episode_2_bennies_spent_and_the_vote_with_a_tie(reef):
    # Scene 23: Ben burns Eli's yellow procedural token (740); scene 24: Ana's bennie returns her
    # spent green (730; reading 5). "Bennies do not refresh" (742): both are gone.
    spent = [(data(r)["scene"], line["spender"], line["option"], line["burn_target"])
             for r in reef.events("dramasystem.bennie.spent") for line in data(r)["bennie_spends"]]
    assert spent == [(23, "Ben", "burn_token", "Eli"), (24, "Ana", "procedural_token", None)]
    burn, back = (data(r) for r in reef.events("dramasystem.bennie.spent"))
    assert burn["procedural_spends"] == [{"participant": "Eli", "colour": "yellow", "refreshed": True}]
    assert back["procedural_restores"] == [{"participant": "Ana", "colour": "green"}]
    # Ballots: Ana Eli Ben Cy Dee; Ben Cy Dee Ana Eli; Cy Dee Ana Ben Eli; Dee Cy Ben Eli Ana;
    # Eli Dee Cy Ana Ben; Maya Cy Dee Eli Ana Ben. Ranks received: Ana 3+2+4+3+4 = 16;
    # Ben 2+3+2+4+5 = 16; Cy 3+1+1+2+1 = 8; Dee 4+2+1+1+2 = 10, 2 tokens: 8; Eli 1+4+4+3+3 = 15,
    # 4 tokens: 11. "If two players tie for lowest, they both gain bennies and no one else
    # does" (716): Cy and Dee, not Eli.
    assert tally(reef, 2) == {"Ana": (16, 0, 16, False), "Ben": (16, 0, 16, False), "Cy": (8, 0, 8, True),
                              "Dee": (10, 2, 8, True), "Eli": (15, 4, 11, False)}
    end_2 = reef.one("episode.ended", number=2).sequence
    assert {n: k for n, k in reef.state(end_2).rules.economy.bennies.items() if k} == {"Cy": 1, "Dee": 1}


# -- procedural tokens, worked out by hand ----------------------------------------------------


def test_every_refresh_is_a_third_token_spent(reef):
    # "When you've spent all three of them, they immediately refresh." (423). By hand:
    # Ben R (1), G (2), Y (3); Maya Y (1), G (2), R revealed (3); Dee Y (1), R (2), G absent (4);
    # Ana G (1), Y (2), R (10); Cy Y (1), G (4), R assisting (10); Dee Y (5), G (10), R (12);
    # Maya Y (4), R (5), G (12); Ben R (4), Y (11), G absent (14). The dramatic scenes 6-9 and
    # 16-22 spend no procedural token.
    refreshed = [(r.scene, s["participant"], s["colour"]) for r in reef.history
                 for s in data(r).get("procedural_spends", []) if s["refreshed"]]
    # The other path: in scene 23 Ben's bennie burns Eli's yellow, "treated as spent" (740; reading
    # 6), and it is Eli's last (G in 2, R in 3): his pile refreshes.
    # In scene 33 the GM spends her red, her last (G in 12, Y in 15): her pile refreshes.
    assert refreshed == [(3, "Ben", "yellow"), (3, GM, "red"), (4, "Dee", "green"), (10, "Ana", "red"),
                         (10, "Cy", "red"), (12, "Dee", "red"), (12, GM, "green"), (14, "Ben", "green"),
                         (23, "Eli", "yellow"), (33, GM, "red")]


def test_the_piles_at_each_step(reef):
    # "Each player, and the GM, starts the first session with three procedural tokens" (423).
    first_scene = reef.one("scene.opened", number=1).sequence
    assert reef.piles(first_scene) == {name: "GYR" for name in [GM, *PLAYERS]}
    # After scene 2, before Ben's third spend: Ben spent R and G; Maya has revealed Y and G.
    assert reef.piles(reef.one("scene.closed", number=2).sequence) == {
        GM: "R", "Ana": "R", "Ben": "Y", "Cy": "GR", "Dee": "G", "Eli": "YR"}
    # After scene 3: Ben and Maya refreshed; Eli spent R.
    assert reef.piles(reef.one("scene.closed", number=3).sequence) == {
        GM: "GYR", "Ana": "R", "Ben": "GYR", "Cy": "GR", "Dee": "G", "Eli": "Y"}
    # "Your pile of available tokens carries over ... It does not refresh between sessions." (425)
    end_1 = {GM: "G", "Ana": "R", "Ben": "GY", "Cy": "R", "Dee": "GR", "Eli": "Y"}
    assert reef.piles(reef.one("episode.ended", number=1).sequence) == end_1
    assert reef.piles(reef.one("episode.started", number=2).sequence) == end_1
    # After scene 10: Ana and Cy refreshed on their reds; Dee spent G.
    assert reef.piles(reef.one("scene.closed", number=10).sequence) == {
        GM: "G", "Ana": "GYR", "Ben": "GY", "Cy": "GYR", "Dee": "R", "Eli": "Y"}
    # The end of episode 2: Ana spent G interfering and her bennie brought it back in scene 24 ("a procedural
    # token", 730; reading 5), Ben Y then refreshed, Cy R in scene 11 and G to call scene 24, Dee
    # refreshed then R, Eli refreshed by the burn, Maya refreshed then G and Y.
    end_2 = {GM: "R", "Ana": "GYR", "Ben": "GYR", "Cy": "Y", "Dee": "GY", "Eli": "GYR"}
    assert reef.piles(reef.one("episode.ended", number=2).sequence) == end_2
    # Episode 3 spends one token, the GM's red in scene 33, and it refreshes her pile.
    assert reef.piles(reef.history[-1].sequence) == {**end_2, GM: "GYR"}


# -- session zero: precedence, relationships and wants, worked out by hand ---------------------


def orders(reef: Reef, purpose: str) -> list[list[str]]:
    return [data(r)["order"] for r in reef.events("dramasystem.precedence.drawn", purpose=purpose)]


def test_session_zero_precedence_relationships_and_wants(reef):
    # "GM determines precedence" (step 2, line 27); "Whenever you need a precedence order, shuffle
    # them and note the result" (65): the creation order, the wants order (step 9, line 41) and the
    # order play begins in (step 18, line 59), each typed as the cards fell.
    assert orders(reef, "creation") == [["Ana", "Ben", "Cy", "Dee", "Eli"]]
    assert orders(reef, "wants") == [["Dee", "Eli", "Ben", "Ana", "Cy"]]
    assert orders(reef, "play-begins") == [["Cy", "Ana", "Eli", "Dee", "Ben"]]
    # "Third player proclaims [...] relationship to all other proclaimed characters" (step 5, line
    # 31): each character relates to every one proclaimed before it, 1 + 2 + 3 + 4 = 10 lines.
    lines = [(d["character"], d["other"]) for d in map(data, reef.events("dramasystem.character.relationship_defined"))]
    proclaimed = ["Mara Quell", "Otto Brand", "Lio Fenn", "Sable Roux", "Hask Morrow"]
    assert lines == [(later, earlier) for i, later in enumerate(proclaimed) for earlier in proclaimed[:i]]


def test_every_pc_is_the_object_of_two_other_pcs_wants(reef):
    wants = [(d["character"], d["withholder"]) for d in map(data, reef.events("dramasystem.character.want_declared"))]
    # Two rounds in the wants order Dee, Eli, Ben, Ana, Cy: "Repeat steps 9-12 until all characters
    # are named as objects of at least two other characters' wants" (step 14, line 51; DS9).
    assert [PLAYED_BY[c] for c, _ in wants] == ["Dee", "Eli", "Ben", "Ana", "Cy"] * 2
    assert {name: sorted(c for c, w in wants if w == name) for name in PLAYED_BY} == {
        "Mara Quell": ["Lio Fenn", "Sable Roux"], "Otto Brand": ["Hask Morrow", "Sable Roux"],
        "Lio Fenn": ["Hask Morrow", "Otto Brand"], "Sable Roux": ["Mara Quell", "Otto Brand"],
        "Hask Morrow": ["Lio Fenn", "Mara Quell"]}
    # "The first and second PCs you name [...] are your fraught relationships" (115; DS8): each
    # character's two wants, in the order named.
    assert {c: [w for c2, w in wants if c2 == c] for c in PLAYED_BY} == {
        "Mara Quell": ["Hask Morrow", "Sable Roux"], "Otto Brand": ["Sable Roux", "Lio Fenn"],
        "Lio Fenn": ["Mara Quell", "Hask Morrow"], "Sable Roux": ["Mara Quell", "Otto Brand"],
        "Hask Morrow": ["Lio Fenn", "Otto Brand"]}


# -- supporting characters and locations ------------------------------------------------------


def test_supporting_characters_introduced_promoted_and_played(reef):
    # "Characters are introduced for the first time either by the caller, at the top of a scene,
    # or by any participant, while a scene is already in progress" (661): Ben introduces Quint in
    # the scene he calls, Dee Vargas in Eli's, Ben Nan Pell in Ana's.
    introduced = [(r.scene, d["name"], d["introduced_by"], d["kind"])
                  for r in reef.events("dramasystem.supporting.introduced") for d in [data(r)]]
    assert introduced == [(3, "Harbour Master Quint", "Ben", "minor"), (5, "Vargas", "Dee", "minor"),
                          (6, "Nan Pell", "Ben", "minor")]
    # "A player can promote a minor character to recurring status by making him or her the object
    # of his character's emotional needs." (667): Otto, before scene 27.
    promoted = data(reef.one("dramasystem.supporting.promoted"))
    assert (promoted["name"], promoted["by_character"]) == ("Nan Pell", "Otto Brand")
    # Nan Pell grants Otto's petition in scene 27: "The GM plays all recurring characters drawing
    # on a single pool of drama tokens" (403), so the GM earns the token; Ben holds the one Cy paid
    # him for the rush: Ben -> Maya.
    assert moves(reef, 27) == [("Ben", GM, 1)]
    assert [d["name"] for d in map(data, reef.events("dramasystem.supporting.described"))] == [
        "Harbour Master Quint", "Vargas"]


def test_locations_introduced_elaborated_and_a_detail_struck(reef):
    # "Any participant can introduce a new location" (679), by the caller at the top of a scene.
    introduced = [(r.scene, d["name"], d["introduced_by"])
                  for r in reef.events("dramasystem.location.introduced") for d in [data(r)]]
    assert introduced == [(1, "the Sister's wreck", "Ana"), (5, "the cartel's warehouse", "Eli"),
                          (25, "the Gannet's mess", "Cy")]
    # Scene 29 returns to the warehouse, where Dee's detail (a seaplane inside) is challenged on
    # "Believability: The description defies common sense" (691); "If the GM agrees [...] she allows
    # a challenge, as per the standard rules" (693): a show of hands, 3 to 2 for Eli: struck.
    challenged = data(reef.one("dramasystem.location.challenged"))
    assert (challenged["name"], challenged["detail"], challenged["ground"], challenged["gm_allows"]) == (
        "the cartel's warehouse", 1, "believability", True)
    assert (sorted(challenged["for_challenger"]), sorted(challenged["for_detail"]), challenged["upheld"]) == (
        ["Ana", "Ben", "Eli"], ["Cy", "Dee"], True)
    end = reef.history[-1].sequence
    assert reef.state(end).rules.sheets.cast.locations["the cartel's warehouse"].struck == (1,)


# -- the theme rota and the calling order, worked out by hand ---------------------------------


def test_the_theme_rota_across_the_episodes(reef):
    # "At the end of the first session, the GM chooses the next precedence ranking. [...] The first
    # player in the precedence order chooses the theme for the second session, the second choose for
    # the third session, and so on." (165; DS10). Drawn after episode 1 ends: Dee, Cy, Ana, Eli, Ben.
    [rota] = reef.events("dramasystem.precedence.drawn", purpose="theme-rota")
    assert data(rota)["order"] == ["Dee", "Cy", "Ana", "Eli", "Ben"]
    assert reef.one("episode.ended", number=1).sequence < rota.sequence < reef.one("episode.started", number=2).sequence
    chosen = [(d["episode"], d["theme"], d["chosen_by"]) for d in map(data, reef.events("dramasystem.theme.chosen"))]
    assert chosen == [(2, "loyalty", "Dee"), (3, "home", "Cy"), (4, "debts", "Ana")]
    # The first episode's theme is the GM's (reading 9); the next two the rota's.
    started = [(d["theme"], d["theme_chosen_by"]) for d in map(data, reef.events("episode.started"))]
    assert started == [("greed", GM), ("loyalty", "Dee"), ("home", "Cy")]


def test_episode_3_the_calling_order_and_who_may_call_next(reef):
    from yarnlog.rulesets.dramasystem.parts.drama import calling_view

    # "Before the episode's first scene, the GM picks the next precedence order" (195): Ben, Ana,
    # Cy, Eli, Dee. "The player choosing the episode's theme always calls first [...] The GM inserts
    # herself into the order, replacing the player who chose the theme." (197): Cy, then Ben, Ana,
    # Maya (in Cy's place), Eli, Dee.
    assert orders(reef, "calling-order") == [["Ben", "Ana", "Cy", "Eli", "Dee"]]
    before = calling_view(reef.state(reef.one("scene.opened", number=25).sequence - 1))
    assert (before["calling_order"], before["may_call_next"]) == (["Cy", "Ben", "Ana", GM, "Eli", "Dee"], ["Cy"])
    # The callers by hand: Cy (25), Ben (26); Sable ducks that scene of two, so "the caller starts
    # over, calling a new scene that does not include your character" (217): Ben again (27), which
    # takes no turn; Ana (28), Maya (29), Eli (30). Dee is next, but Cy spends his bennie on "the
    # right to jump the queue and call a scene immediately after any other scene" (734): Cy (31),
    # then Dee (32).
    callers = [(d["number"], d["caller"]) for d in map(data, reef.events("scene.opened")) if d["number"] >= 25]
    assert callers == [(25, "Cy"), (26, "Ben"), (27, "Ben"), (28, "Ana"), (29, GM), (30, "Eli"), (31, "Cy"),
                       (32, "Dee"), (33, "Ben")]
    after_26 = calling_view(reef.state(reef.one("dramasystem.challenge.ducked", scene=26).sequence))
    assert after_26["may_call_next"] == ["Ana", "Ben"]  # Ben's new scene, or Ana's turn
    after_30 = calling_view(reef.state(reef.one("scene.closed", number=30).sequence))
    assert after_30["may_call_next"] == ["Dee"]
    # After Dee the order rolls over (199) to its top, Cy, but "The queue-jumper's next scene is
    # skipped" (734): Ben calls next.
    after_32 = calling_view(reef.state(reef.one("scene.closed", number=32).sequence))
    assert after_32["may_call_next"] == ["Ben"]
    after_33 = calling_view(reef.state(reef.one("scene.closed", number=33).sequence))
    assert after_33["may_call_next"] == ["Ana"]


# -- the third episode's drama tokens, worked out by hand -------------------------------------


def test_scene_25_the_quiz_of_several_petitioners(reef):
    # "If multiple players feel they sought emotional reward [...] The GM quizzes each participating
    # player, in a newly drawn precedence order" (379-381): Ana, Ben, Eli, drawn in the scene.
    [drawn] = reef.events("dramasystem.precedence.drawn", purpose="petitioners")
    assert (drawn.scene, data(drawn)["order"]) == (25, ["Ana", "Ben", "Eli"])
    quiz = data(reef.one("dramasystem.petition.quizzed", scene=25))
    assert quiz["precedence"] == ["Ana", "Ben", "Eli"]
    assert sorted((a["petitioner"], a["wanted_from"], a["got_it"]) for a in quiz["answers"]) == [
        ("Hask Morrow", "Mara Quell", False), ("Mara Quell", "Otto Brand", False), ("Otto Brand", "Lio Fenn", True)]
    # Everyone starts the episode at 0 (273). In that order: Mara did not get it from Otto: "The
    # petitioner earns a drama token—from the refuser of the grant if he or she has one, or from
    # the kitty if not" (391): Ben holds none, kitty -> Ana. Otto got it from Lio: "the specified
    # player granted their petition and earns a drama token—from the petitioning player if he or
    # she has one, or from the kitty if not" (389): kitty -> Cy. Hask did not get it from Mara, and
    # Ana now holds one: Ana -> Eli.
    assert moves(reef, 25) == [("kitty", "Ana", 1), ("kitty", "Cy", 1), ("Ana", "Eli", 1)]
    assert held_after(reef, 25) == {"Cy": 1, "Eli": 1}


def tokens_at(reef: Reef, sequence: int) -> dict[str, int]:
    return {name: n for name, n in reef.state(sequence).rules.economy.tokens.items() if n}


def test_episode_3_drama_tokens_scene_by_scene(reef):
    # Scene 26: Sable ducks and Ben acquiesces (213): no token moves.
    duck = data(reef.one("dramasystem.challenge.ducked", scene=26))
    assert (duck["caller_compels"], duck["caller_starts_over"], duck["transfers"]) == (False, True, [])
    # Scene 27: Lio rushes in: "spend a drama token [...] The caller receives the token" (221):
    # Cy -> Ben. Then Nan Pell grants, for the GM's pool: Ben -> Maya (see above).
    rush = data(reef.one("dramasystem.challenge.rushed", scene=27))
    assert [(t["source"], t["destination"], t["amount"]) for t in rush["transfers"]] == [("Cy", "Ben", 1)]
    assert held_after(reef, 27) == {"Eli": 1, GM: 1}
    # Scene 28: Eli's plot-jump challenge carries 3 to 2, so the caller "must then revise her
    # situation" (237). Hask says no; Ana, Ben and Dee see a shift of power, Cy, Eli and the GM do
    # not: 3 to 3, and the caller's tie-breaking vote (DS20, 309-315) makes it a grant: Ana holds
    # none, kitty -> Eli.
    jump = data(reef.one("dramasystem.challenge.voted", scene=28))
    assert (jump["kind"], jump["winner"], bool(jump["revised_situation"])) == ("plot jump", "challenger", True)
    petition = data(reef.one("dramasystem.petition.resolved", scene=28))
    assert (petition["answer"], petition["outcome"]) == ("refused", "granted")
    assert moves(reef, 28) == [("kitty", "Eli", 1)]
    assert held_after(reef, 28) == {"Eli": 2, GM: 1}
    # Scene 29 is procedural: Ben demands a procedural resolution of Dee's narration ("it takes
    # only one objector", 251) and Dee adjusts it instead; no token moves.
    demanded = data(reef.one("dramasystem.challenge.procedural_demanded", scene=29))
    assert (demanded["objectors"], demanded["reply"]) == (["Ben"], "adjust")
    # Scene 30: Cy's novelty challenge (241): the GM finds it too similar to scene 16, and Eli
    # points to "an intervening scene that changed the situation" (245): the call stands. Lio grants:
    # Eli holds two, Eli -> Cy.
    novelty = data(reef.one("dramasystem.challenge.novelty_ruled", scene=30))
    assert (novelty["too_similar"], novelty["earlier_scene"], novelty["ruling"]) == (True, 16, "call_stands")
    assert moves(reef, 30) == [("Eli", "Cy", 1)]
    assert held_after(reef, 30) == {"Cy": 1, "Eli": 1, GM: 1}
    # Scene 31: Ana's challenge to Cy's narration loses 2 to 3. Mara refuses Lio; Ana holds none:
    # kitty -> Cy.
    narration = data(reef.one("dramasystem.challenge.voted", scene=31))
    assert (narration["kind"], narration["challenger"], narration["winner"]) == ("narration", "Ana", "caller")
    assert moves(reef, 31) == [("kitty", "Cy", 1)]
    assert held_after(reef, 31) == {"Cy": 2, "Eli": 1, GM: 1}
    # Scene 32: Dee blocks Hask's rush with her bennie: "Blocked players keep the bennies they would
    # have spent" (738), and Eli his token. Mara grants Sable; Dee holds none: kitty -> Ana.
    blocked = data(reef.one("dramasystem.challenge.rushed", scene=32))
    assert (blocked["caller_blocks"], blocked["joined"]) == (True, False)
    assert [(t["source"], t["currency"]) for t in blocked["transfers"]] == [("Dee", "bennie")]
    assert moves(reef, 32) == [("kitty", "Ana", 1)]
    assert held_after(reef, 32) == {"Ana": 1, "Cy": 2, "Eli": 1, GM: 1}
    # Then the GM rules that Dee's speech earns her a token from the kitty (a GM ruling, digest move 25).
    [ruling] = [r for r in reef.events("dramasystem.tokens.transferred") if r.scene == 32]
    assert [(t["source"], t["destination"], t["amount"]) for t in data(ruling)["transfers"]] == [("kitty", "Dee", 1)]
    assert tokens_at(reef, ruling.sequence) == {"Ana": 1, "Cy": 2, "Dee": 1, "Eli": 1, GM: 1}
    # The GM's pool reverts with everyone else's (275).
    ended = reef.one("episode.ended", number=3).sequence
    assert not any(reef.state(ended).rules.economy.tokens.values())


def test_episode_3_bennies_spent_and_the_vote(reef):
    # Cy's bennie jumps the queue (734), Dee's blocks a rush (738): one each, in their own scenes.
    jumped = data(reef.one("dramasystem.scene.called", scene=31))["bennie_spends"]
    assert [(b["spender"], b["option"]) for b in jumped] == [("Cy", "jump_the_queue")]
    assert [(b["spender"], b["option"]) for b in data(reef.one("dramasystem.challenge.rushed", scene=32))[
        "bennie_spends"]] == [("Dee", "block_jump_in")]
    # Ballots: Ana Dee Cy Ben Eli; Ben Dee Ana Cy Eli; Cy Ana Dee Eli Ben; Dee Ana Ben Cy Eli;
    # Eli Cy Ana Dee Ben; Maya Dee Ana Cy Ben Eli. Ranks received: Ana 2+1+1+2+2 = 8, 1 token: 7;
    # Ben 3+4+2+4+4 = 17; Cy 2+3+3+1+3 = 12, 2 tokens: 10; Dee 1+1+2+3+1 = 8, 1 token (the GM's
    # ruling): 7; Eli 4+4+3+4+5 = 20, 1 token: 19. "If two players are tied for the lowest score,
    # each gets a bennie. The second place finisher(s) does not." (716): Ana and Dee, not Cy.
    assert tally(reef, 3) == {"Ana": (8, 1, 7, True), "Ben": (17, 0, 17, False), "Cy": (12, 2, 10, False),
                              "Dee": (8, 1, 7, True), "Eli": (20, 1, 19, False)}
    end = reef.history[-1].sequence
    assert {n: k for n, k in reef.state(end).rules.economy.bennies.items() if k} == {"Ana": 1, "Dee": 1}


# -- the recap, regenerated by the README's command -------------------------------------------

RECAP = ROOT / "journals" / "copper-reef-recap"
GIVES = re.compile(r"(\w+) gives (\w+) (\d+) drama tokens?")


def _scores(sentence: str) -> dict[str, int]:
    """'The bennie vote: Ana 7, Dee 8, ... A bennie each to ...' as {player: score}."""
    listed = sentence.removeprefix("The bennie vote: ").split(".")[0]
    return {name: int(score) for name, score in (item.split() for item in listed.split(", "))}


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory) -> dict:
    """The GM's recap of the whole series, written again from the export by the README's commands
    (`yarnlog recap --series`, as Markdown, HTML and data), each run as its own process."""
    where = tmp_path_factory.mktemp("recap")
    db = str(where / "reef.db")

    def yarnlog(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "yarnlog", "--db", db, *args], capture_output=True,
                              text=True, env={**os.environ, "COLUMNS": "80"}, check=False)
        assert done.returncode == 0, (args, done.stderr)
        return done.stdout

    yarnlog("import", str(JOURNAL))
    yarnlog("recap", "--series", "-o", str(where / "recap.md"))
    yarnlog("recap", "--series", "--format", "html", "-o", str(where / "recap.html"))
    return {"md": (where / "recap.md").read_text(encoding="utf-8"),
            "html": (where / "recap.html").read_text(encoding="utf-8"),
            "data": json.loads(yarnlog("recap", "--series", "--json"))}


@pytest.mark.slow
def test_the_regenerated_recap_is_valid_inert_html_and_markdown(regenerated):
    assert_valid_html(regenerated["html"])
    assert_inert(regenerated["html"])
    md = regenerated["md"]
    assert md.startswith("# The Copper Reef: recap of the whole series\n")
    assert [line for line in md.splitlines() if line.startswith("## ")] == [
        "## Relationship map", "## Before play", "## Episode 1: The Wreck of the Gannet's Sister",
        "## Episode 2: Salvage Rights", "## Episode 3: Home Port"]
    assert [int(line.split()[2]) for line in md.splitlines() if line.startswith("### Scene ")] == list(range(1, 34))


@pytest.mark.slow
def test_the_regenerated_recap_tells_the_hand_checked_figures(regenerated):
    recap = regenerated["data"]
    episodes = {e["number"]: e for e in recap["episodes"]}
    # The theme rota and its choices (165), the third episode's calling order (197).
    assert "Precedence for theme-rota: Dee, Cy, Ana, Eli, Ben." in episodes[1]["after"]
    assert [(e["theme"], e["theme_chosen_by"]) for e in episodes.values()] == [
        ("greed", GM), ("loyalty", "Dee"), ("home", "Cy")]
    assert episodes[3]["calling_order"] == ["Cy", "Ben", "Ana", GM, "Eli", "Dee"]
    assert episodes[1]["calling_order"] == episodes[2]["calling_order"] == []  # none drawn
    # The quiz's token flows, in the order the precedence set (389-391).
    [scene_25] = [s for s in episodes[3]["scenes"] if s["number"] == 25]
    [quiz] = [m for m in scene_25["moves"] if m.startswith("The GM quizzed")]
    assert GIVES.findall(quiz) == [("kitty", "Ana", "1"), ("kitty", "Cy", "1"), ("Ana", "Eli", "1")]
    # The three bennie votes: the scores worked out by hand above (707-720).
    votes = {n: _scores(next(m for m in e["moves"] if m.startswith("The bennie vote: "))) for n, e in episodes.items()}
    assert votes == {1: {"Ana": 6, "Ben": 11, "Cy": 12, "Dee": 17, "Eli": 15},
                     2: {"Ana": 16, "Ben": 16, "Cy": 8, "Dee": 8, "Eli": 11},
                     3: {"Ana": 7, "Ben": 17, "Cy": 10, "Dee": 7, "Eli": 19}}
    # The piles and bennies at each episode's end, as worked out by hand (423-425).
    letters = {n: {p["name"]: "".join(LETTER[c] for c in p["unspent"]) for p in e["piles"]}
               for n, e in episodes.items()}
    assert letters[1] == {GM: "G", "Ana": "R", "Ben": "GY", "Cy": "R", "Dee": "GR", "Eli": "Y"}
    assert letters[2] == {GM: "R", "Ana": "GYR", "Ben": "GYR", "Cy": "Y", "Dee": "GY", "Eli": "GYR"}
    assert letters[3] == {**letters[2], GM: "GYR"}
    bennies = {n: {p["name"]: p["bennies"] for p in e["piles"] if p["bennies"]} for n, e in episodes.items()}
    assert bennies == {1: {"Ana": 1, "Ben": 1}, 2: {"Cy": 1, "Dee": 1}, 3: {"Ana": 1, "Dee": 1}}
    # Every PC the object of two wants (51), told before play.
    wants = [m for m in recap["before_play"] if " wants " in m]
    assert len(wants) == 10 and all(sum(f" from {pc};" in m for m in wants) == 2 for pc in PLAYED_BY)


def test_the_committed_recap_is_valid_and_drawn():
    # journals/copper-reef-recap.md and .html were written by the README's command; the picture
    # is headless Chromium's (`python tests/htmlcheck.py journals/copper-reef-recap.html`).
    html = RECAP.with_suffix(".html").read_text(encoding="utf-8")
    assert_valid_html(html)
    assert_inert(html)
    assert RECAP.with_suffix(".md").read_text(encoding="utf-8").startswith("# The Copper Reef: recap")
    assert_not_blank(RECAP.with_suffix(".png"))


# -- the script, run again --------------------------------------------------------------------


def script_commands() -> list[list[str]]:
    """The ``y ...`` commands of the recording script, each as its words after ``yarnlog``."""
    text = SCRIPT.read_text(encoding="utf-8").replace("\\\n", " ")
    return [words[1:] for line in text.splitlines()
            if (words := shlex.split(line, comments=True)) and words[0] == "y"]


def _facts(line: str) -> tuple:
    """What an exported event says, without what differs on every run (ids, times, hashes)."""
    record = json.loads(line)
    if "trailer" in record:
        return ("trailer", record["trailer"]["events"])
    kept = ("sequence", "event_type", "payload", "recorded_by", "visibility", "schema_version")
    return tuple(record[k] for k in kept)


@pytest.mark.slow
def test_the_script_run_again_records_the_same_events(cli, tmp_path):
    commands = script_commands()
    assert commands[0][:2] == ["init", "reef"] and len(commands) > 100
    for args in commands:
        code, _, err = cli(*args)
        assert code == 0, f"yarnlog {' '.join(args)} -> {code}: {err}"
    out = tmp_path / "again.jsonl"
    assert cli("export", "-o", str(out))[0] == 0
    again = out.read_text(encoding="utf-8").splitlines()
    committed = JOURNAL.read_text(encoding="utf-8").splitlines()
    assert [_facts(line) for line in again] == [_facts(line) for line in committed]
