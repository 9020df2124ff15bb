"""``yarnlog recap``: the sample campaign told back from its log, for the GM and for the players.

Facts are checked against the log itself (who called, the exchanges, the tokens projection, the
tally's arithmetic), never against the recap's own wording, except the committed sample recaps
in ``journals/``, which a test renders again and compares (the drift check).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from yarnlog.app.interchange import import_records, parse_lines
from yarnlog.app.journal import Journal
from yarnlog.core.state import replay
from yarnlog.core.timeline import AddNote, StartEpisode
from yarnlog.persistence.memory import MemoryStore
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferTokens
from yarnlog.rulesets.yarn.cli.recap import render_recap
from yarnlog.rulesets.yarn.parts.economy.ledger import token_report
from yarnlog.rulesets.yarn.recap import GM, PLAYERS, Scope, build_recap, player

JOURNALS = Path(__file__).resolve().parents[3] / "journals"
SAMPLE = JOURNALS / "lantern-harbor.jsonl"
CID = "lantern"


def load_sample() -> Journal:
    store = MemoryStore()
    import_records(store, parse_lines(SAMPLE.read_text(encoding="utf-8").splitlines()))
    return Journal(store)


@pytest.fixture(scope="module")
def harbor():
    journal = load_sample()
    history = journal.history(CID)
    return history, journal.state(CID).table


@pytest.fixture(scope="module")
def gm_recap(harbor):
    history, table = harbor
    return build_recap(history, table, GM, Scope())


def scenes_of(recap):
    return [scene for episode in recap.episodes for scene in episode.scenes]


def events(history, event_type):
    return [r for r in history if r.event_type == event_type]


def test_every_scene_is_told_in_order_with_its_caller_mode_and_setting(harbor, gm_recap):
    history, _ = harbor
    opened = [r.payload for r in events(history, "scene.opened")]
    told = scenes_of(gm_recap)
    assert [s.number for s in told] == [p.number for p in opened]
    assert [(s.caller, s.mode, s.setting, s.situation, s.time_break) for s in told] == \
        [(p.caller, p.mode, p.setting, p.situation, p.time_break) for p in opened]


def test_the_cast_is_the_cast_as_it_actually_was(harbor, gm_recap):
    history, _ = harbor
    scenes = {s.number: s for s in scenes_of(gm_recap)}
    for duck in events(history, "yarn.challenge.ducked"):
        assert duck.payload.character in scenes[duck.scene].cast_called
        assert duck.payload.character not in scenes[duck.scene].cast
    for rush in events(history, "yarn.challenge.rushed"):
        assert (rush.payload.character in scenes[rush.scene].cast) == rush.payload.joined


def test_each_petition_is_told_in_words_with_its_tokens(harbor, gm_recap):
    history, _ = harbor
    scenes = {s.number: s for s in scenes_of(gm_recap)}
    # The issue's own example, with the characters' full names and the want Iris declared.
    assert scenes[2].petitions[0].text == ("Iris Vane petitioned Jonah Crane for an apology for the night the Wren "
                                           "ran aground. Refused: Ana gains a token from the kitty (Gaining Tokens).")
    for rec in events(history, "yarn.petition.resolved"):
        [line] = [line for line in scenes[rec.scene].petitions if line.sequence == rec.sequence]
        p = rec.payload
        assert line.text.startswith(f"{p.petitioner} petitioned {p.granter}")
        assert f". {p.outcome.capitalize()}" in line.text
        assert line.text.endswith(f" ({'No Contest Scenes' if p.outcome == 'no contest' else 'Gaining Tokens'}).")
        for t in p.transfers:
            source = "the kitty" if t.source == "kitty" else t.source
            assert f"{t.destination} gains" in line.text and f"from {source}" in line.text


def test_forces_supports_and_blocks_are_told_and_retold_as_moments(harbor, gm_recap):
    history, _ = harbor
    scenes = {s.number: s for s in scenes_of(gm_recap)}
    moments = {m.sequence for e in gm_recap.episodes for m in e.moments}
    for rec in events(history, "yarn.petition.forced"):
        [line] = scenes[rec.scene].forces
        assert rec.sequence in moments
        for support in rec.payload.force_support + rec.payload.block_support:
            assert support.character in line.text and support.supporter in line.text
        assert ("blocked the force" in line.text) == rec.payload.blocked


def test_every_token_movement_of_a_scene_is_listed(harbor, gm_recap):
    history, _ = harbor
    scenes = {s.number: s for s in scenes_of(gm_recap)}
    for rec in history:
        transfers = getattr(rec.payload, "transfers", None)
        if transfers and rec.scene is not None:
            assert len([t for t in scenes[rec.scene].tokens if t.sequence == rec.sequence]) == len(transfers)


def test_balances_are_the_tokens_projection_at_the_end_of_each_episode(harbor, gm_recap):
    history, _ = harbor
    returned = {r.payload.episode: r.sequence for r in events(history, "yarn.tokens.returned")}
    ended = {r.payload.number: r.sequence for r in events(history, "episode.ended")}
    for episode in gm_recap.episodes:
        in_hand = token_report(replay([r for r in history if r.sequence < returned[episode.number]]))
        after = token_report(replay([r for r in history if r.sequence <= ended[episode.number]]))
        assert {b.name: b.drama_tokens for b in episode.balances} == \
            {p["name"]: p["drama_tokens"] for p in in_hand["participants"]}
        assert {b.name: b.bennies for b in episode.balances} == {p["name"]: p["bennies"] for p in after["participants"]}


def test_the_token_series_and_the_relationship_map_come_from_the_audiences_own_replay(harbor, gm_recap):
    from yarnlog.core.corrections import effective
    from yarnlog.rulesets.scenes_and_tokens.parts.economy import ledger_entries
    from yarnlog.rulesets.yarn.parts.characters.relationship_graph import relationship_graph
    from yarnlog.rulesets.yarn.parts.economy.token_series import token_series

    history, table = harbor
    everything, ledger = replay(history), ledger_entries(effective(history))
    numbers = [e.number for e in gm_recap.episodes]
    assert [e.token_series for e in gm_recap.episodes] == [token_series(everything, n, ledger) for n in numbers]
    assert gm_recap.relationships == relationship_graph(everything)
    seen = [r for r in history if r.visibility == "everyone"]
    public, public_ledger = replay(seen), ledger_entries(effective(seen))
    players = build_recap(history, table, PLAYERS, Scope())
    assert [e.token_series for e in players.episodes] == [token_series(public, e.number, public_ledger)
                                                          for e in players.episodes]


def test_the_bennie_tally_adds_up_and_names_the_winners(harbor, gm_recap):
    history, _ = harbor
    for episode in gm_recap.episodes:
        [tallied] = [r.payload for r in events(history, "yarn.bennie.vote_tallied")
                     if r.payload.episode == episode.number]
        held = {b.name: b.drama_tokens for b in episode.balances}
        ballots = [r.payload for r in history if r.event_type == "yarn.bennie.ballot_cast"
                   and r.payload.episode == episode.number]
        for line in episode.vote.tally:
            received = [int(rank.split("#")[1]) for rank in line.ranks]
            assert line.rank_total == sum(received)
            assert line.score == line.rank_total - line.tokens_in_hand
            assert line.tokens_in_hand == held[line.player]
            assert len(received) == len({b.voter for b in ballots if line.player in b.ranks})
        assert episode.vote.winners == [t.player for t in tallied.tallies if t.gains_bennie]


def test_episode_facts_theme_calling_order_and_experience(harbor, gm_recap):
    history, _ = harbor
    started = {r.payload.number: r.payload for r in events(history, "episode.started")}
    for episode in gm_recap.episodes:
        assert (episode.theme, episode.theme_chosen_by) == (started[episode.number].theme,
                                                            started[episode.number].theme_chosen_by)
        assert episode.experience_awarded
    # journals/README.md: episode 1's calling order, worked out by hand from "Calling Order".
    assert gm_recap.episodes[0].calling_order == ["Maya", "Ana", "Cy", "Fay", "Ben", "Eli", "Dee"]
    spent = [line.text for line in gm_recap.episodes[2].experience_spent]
    assert any("Lamp Mechanic" in text and "5 experience dice" in text for text in spent)


# -- audiences --------------------------------------------------------------------------------

MARK = "SECRET-ZQX"


@pytest.fixture(scope="module")
def with_secrets():
    """The sample, with a fourth episode holding hidden events of every kind, each marked."""
    journal = load_sample()
    journal.execute(CID, StartEpisode(title="Four", theme="salt", theme_chosen_by="Fay"))
    journal.execute(CID, AddNote(f"{MARK} the GM's own note"), visibility="gm")
    journal.execute(CID, AddNote(f"{MARK} for Ben only"), visibility="participant:Ben")
    journal.execute(CID, TransferTokens("kitty", "Cy", 5, reason=f"{MARK} a hidden ruling", currency="bennie"),
                    visibility="gm")
    return journal.history(CID), journal.state(CID).table


def outputs(history, table, audience, scope=Scope()):
    recap = build_recap(history, table, audience, scope)
    return recap, {"json": json.dumps(recap.to_data(), ensure_ascii=False),
                   "md": render_recap(recap, "md", None, "yarn"), "html": render_recap(recap, "html", None, "yarn")}


# Found only in GM-only events of the sample: the secret GMC roll (its roller and trait).
HIDDEN_IN_SAMPLE = ("lookout", "Alert")


@pytest.mark.parametrize("audience", [PLAYERS, player("Ana"), player("Cy")], ids=["players", "as-Ana", "as-Cy"])
def test_a_players_recap_leaks_nothing_hidden(with_secrets, audience):
    history, table = with_secrets
    for scope in (Scope(), Scope(episodes=(1, 1)), Scope(episodes=(4, 4)), Scope(scenes=(1, 3))):
        recap, rendered = outputs(history, table, audience, scope)
        for kind, text in rendered.items():
            for secret in (MARK, *HIDDEN_IN_SAMPLE):
                assert secret not in text, (kind, scope, secret)
        # The ballots are the GM's, and "Only the GM ever sees the low score": winners only.
        assert all(not e.vote or not e.vote.tally for e in recap.episodes)
        # No event numbers: their gaps (and the last one) would count the hidden events.
        data = json.loads(rendered["json"])
        assert data["as_of"] is None
        assert '"sequence": ' not in rendered["json"].replace('"sequence": null', "")
    scenes = {s.number: s for s in scenes_of(build_recap(history, table, audience, Scope()))}
    assert any("keeps to herself" in line.text for line in scenes[1].procedure)


def test_a_players_balances_count_only_what_the_players_may_see(with_secrets):
    history, table = with_secrets
    public = token_report(replay([r for r in history if r.visibility == "everyone"]))
    for audience in (PLAYERS, player("Ana")):
        [episode] = build_recap(history, table, audience, Scope(episodes=(4, 4))).episodes
        assert {b.name: b.bennies for b in episode.balances} == \
            {p["name"]: p["bennies"] for p in public["participants"]}
    [gm_episode] = build_recap(history, table, GM, Scope(episodes=(4, 4))).episodes
    assert {b.name: b.bennies for b in gm_episode.balances}["Cy"] == 5


def test_a_players_dice_statistics_count_only_the_rolls_the_players_may_see(harbor):
    from yarnlog.rulesets.yarn.parts.procedure.roll_statistics import dice_statistics

    history, table = harbor
    public = [r for r in history if r.visibility == "everyone"]
    expected = {line["episode"]: line for line in dice_statistics(replay(public), history=public)["by_episode"]}
    players = build_recap(history, table, PLAYERS, Scope())
    gm = build_recap(history, table, GM, Scope())
    for mine in players.episodes:
        line = expected.get(mine.number)
        assert mine.dice == (None if line is None else {k: v for k, v in line.items() if k != "episode"})
    # Episode 1 holds the GM's secret roll: one roll fewer for the players, and no odds for the roll against it.
    assert players.episodes[0].dice["rolls"] == gm.episodes[0].dice["rolls"] - 1
    assert players.episodes[0].dice["rolls_with_odds"] < gm.episodes[0].dice["rolls_with_odds"]


def test_a_player_sees_what_was_recorded_for_them_and_the_gm_everything(with_secrets):
    history, table = with_secrets
    assert MARK + " for Ben only" in outputs(history, table, player("Ben"), Scope(episodes=(4, 4)))[1]["json"]
    _, gm = outputs(history, table, GM)
    for kind, text in gm.items():
        assert MARK in text and "lookout" in text, kind


# -- the committed sample recaps --------------------------------------------------------------

SAMPLES = {"md": JOURNALS / "lantern-harbor-recap.md", "html": JOURNALS / "lantern-harbor-recap.html"}


@pytest.mark.parametrize("fmt", sorted(SAMPLES))
def test_the_committed_sample_recap_is_what_the_templates_render(harbor, fmt):
    """The GM's recap of the whole series. After a deliberate change, regenerate the files with
    ``YARNLOG_REGENERATE_SAMPLES=1 pytest tests/rulesets/yarn/test_recap.py`` and review the diff."""
    history, table = harbor
    rendered = render_recap(build_recap(history, table, GM, Scope()), fmt, None, "yarn")
    if os.environ.get("YARNLOG_REGENERATE_SAMPLES") == "1":
        SAMPLES[fmt].write_text(rendered, encoding="utf-8")
    assert SAMPLES[fmt].read_text(encoding="utf-8") == rendered, \
        f"{SAMPLES[fmt].name} drifted from the templates: regenerate it (see this test's docstring)"


# -- the command line -------------------------------------------------------------------------


@pytest.fixture
def sample_cli(cli, monkeypatch):
    """The sample imported into the process's in-memory journal, which every command then shares."""
    monkeypatch.setenv("YARNLOG_DB", "memory://")
    code, _, err = cli("import", str(SAMPLE))
    assert code == 0, err
    return cli


def test_recap_defaults_to_the_gms_recap_of_the_last_episode(sample_cli):
    code, out, err = sample_cli("recap")
    assert code == 0, err
    assert "## Episode 3" in out and "## Episode 2" not in out and "lookout" not in out
    code, out, _ = sample_cli("recap", "--episode", "1")
    assert code == 0 and "lookout" in out  # the GM sees her secret roll


def test_recap_as_data_and_as_a_page_written_to_a_file(sample_cli, tmp_path):
    code, out, err = sample_cli("recap", "--players", "--episodes", "1-2", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert [e["number"] for e in data["episodes"]] == [1, 2] and data["audience"] == "players"
    page = tmp_path / "recap.html"
    code, out, err = sample_cli("recap", "--as", "Ana", "--scenes", "2-3", "--format", "html", "-o", str(page))
    assert code == 0 and out == "" and str(page) in err
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "Scene 2" in html and "Scene 4" not in html
    assert "<script" not in html


def test_json_keeps_control_characters_escaped(sample_cli):
    code, _, err = sample_cli("episode", "start", "--title", "Four", "--theme", "salt", "--theme-by", "Fay")
    assert code == 0, err
    assert sample_cli("note", "bell\x9b2J\x7f rings")[0] == 0
    code, out, err = sample_cli("recap", "--players", "--json")
    assert code == 0, err
    assert not any(0x7f <= ord(c) <= 0x9f or (ord(c) < 0x20 and c != "\n") for c in out)
    notes = json.loads(out)["episodes"][0]["notes"]
    assert notes[0]["text"] == "bell\x9b2J\x7f rings"


@pytest.mark.parametrize("args", [["--episode", "9"], ["--scenes", "4-2"], ["--episodes", "x"],
                                  ["--as", "Nobody"], ["--as", "Ana", "--players"], ["--format", "pdf"],
                                  ["--episode", "1", "--series"], ["--templates", "/no/such/folder"]])
def test_bad_input_is_one_line_and_exit_code_2(sample_cli, args):
    code, out, err = sample_cli("recap", *args)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1


def test_a_users_template_shadows_the_default_file_by_file(sample_cli, tmp_path):
    (tmp_path / "recap.md.j2").write_text("{% for e in recap.episodes %}{{ e.number }}: {{ e.theme }}\n{% endfor %}")
    code, out, err = sample_cli("recap", "--series", "--templates", str(tmp_path))
    assert code == 0, err
    assert out == "1: trust\n2: debts\n3: loyalty\n"
    code, out, err = sample_cli("recap", "--format", "html", "--templates", str(tmp_path))
    assert code == 0 and out.startswith("<!DOCTYPE html>")  # recap.html.j2 not shadowed: the default
    (tmp_path / "recap.md.j2").write_text("{% for %}")
    code, out, err = sample_cli("recap", "--templates", str(tmp_path))
    assert code == 2 and err.startswith("error: template recap.md.j2") and err.count("\n") == 1


# -- user text is data ------------------------------------------------------------------------

HOSTILE = "<script>alert(1)</script> **loud** [click](javascript:alert(1)) <img src=x onerror=alert(1)>\x1b[2J"


def test_hostile_text_in_a_note_stays_text_in_every_format():
    from html.parser import HTMLParser

    from markdown_it import MarkdownIt

    journal = load_sample()
    journal.execute(CID, StartEpisode(title="Four", theme="salt", theme_chosen_by="Fay"))
    journal.execute(CID, AddNote(HOSTILE))
    _, rendered = outputs(journal.history(CID), journal.state(CID).table, PLAYERS, Scope(episodes=(4, 4)))

    class Tags(HTMLParser):
        def __init__(self):
            super().__init__()
            self.seen = []

        def handle_starttag(self, tag, attrs):
            self.seen.append((tag, dict(attrs)))

    # The Markdown as a CommonMark engine with raw HTML on renders it (GitHub, Obsidian, chats),
    # and the HTML page as it is: no script, image, event handler or javascript: link.
    for page in (MarkdownIt("commonmark").render(rendered["md"]), rendered["html"]):
        tags = Tags()
        tags.feed(page)
        assert not {"script", "img", "iframe"} & {tag for tag, _ in tags.seen}
        for _, attrs in tags.seen:
            assert not any(name.startswith("on") for name in attrs)
            assert not str(attrs.get("href", "")).startswith("javascript")
        assert "\x1b" not in page
    assert "\\*\\*loud\\*\\*" in rendered["md"] and "<strong>loud</strong>" in rendered["html"]


def test_a_hidden_roll_gives_away_no_total_through_the_rolls_that_refer_to_it():
    from yarnlog.rulesets.yarn.recap import roll_sentences

    seen = {39: {"character": "Iris Vane", "dice": {"faces": [1, 1, 4], "kept": [0, 1, 2], "total": 6}}}
    group = {"characters": ["Iris Vane", "the lookout"], "method": "simple addition", "total": 16, "margin": 3,
             "outcome": "beats", "against": {"number": 13, "label": ""}, "rolls": [39, 40], "odds": None}
    told = roll_sentences.group(group, seen)
    assert "16" not in told and "by 3" not in told and "beats" in told
    told_whole = roll_sentences.group(group, {**seen, 40: {}})
    assert "16" in told_whole and "by 3" in told_whole
    opposed = {"character": "Jonah Crane", "trait": None, "dice": {"faces": [6, 6, 2], "kept": [0, 1], "total": 12},
               "against": {"kind": "opponent", "roll": 36}, "outcome": "beats", "margin": 5}
    told = roll_sentences.roll(opposed, seen, secret=False)
    assert "by 5" not in told and "keeps to herself" in told
    assert "by 5" in roll_sentences.roll(opposed, {36: {"character": "the lookout", "dice": {"faces": [4, 3],
                                                                                        "total": 7}}}, secret=False)


def test_a_failed_roll_says_by_how_much_without_a_minus_sign():
    from yarnlog.rulesets.yarn.recap import roll_sentences

    failed = {"character": "Tomas", "trait": "Brawler", "dice": {"faces": [3, 2, 2, 1], "kept": [0, 1, 2, 3],
                                                                  "total": 8},
              "against": {"kind": "difficulty", "number": 16, "label": "Hard"}, "outcome": "fails", "margin": -8}
    told = roll_sentences.roll(failed, {}, secret=False)
    assert "fails by 8" in told and "-8" not in told
    assert " by " not in roll_sentences.roll({**failed, "outcome": "equals", "margin": 0}, {}, secret=False)


def test_experience_awarded_after_the_episode_ends_is_told_in_that_episode(journal, campaign):
    # "Awarding Experience Pool Dice": the GM awards them at the end of each session; the README
    # records `episode end` and then `xp award 1`.
    from yarnlog.core.referee import Override
    from yarnlog.core.timeline import EndEpisode
    from yarnlog.rulesets.yarn.parts.characters.experience_awards import AwardExperience

    from .drama_table import seat_characters

    seat_characters(journal, campaign)
    journal.execute(campaign, EndEpisode(), override=Override(by="Maya", reason="no vote in this test"))
    [awarded] = journal.execute(campaign, AwardExperience(dice=1, reason="for the session"))
    history = journal.history(campaign)
    told = build_recap(history, journal.state(campaign).table, GM, Scope())
    [episode] = told.episodes
    assert [line.sequence for line in episode.experience_awarded] == [awarded.sequence]
    assert "for the session" in render_recap(told, "md", None, "yarn")


# -- the recap as a story (issue 26) ----------------------------------------------------------

def _paragraphs(md: str) -> dict[int, str]:
    """Each scene's paragraph in the Markdown recap: the text between its heading and its notes."""
    told, number = {}, None
    for line in md.splitlines():
        if line.startswith("### Scene "):
            number = int(line.split()[2].rstrip(":"))
        elif number is not None and line and not line.startswith(">"):
            told[number] = line
            number = None
    return told


def test_each_scene_is_a_paragraph_of_plain_sentences_built_from_its_events(harbor, gm_recap):
    history, _ = harbor
    md = render_recap(gm_recap, "md", None, "yarn")
    told = _paragraphs(md)
    opened = {r.payload.number: r.payload for r in events(history, "scene.opened")}
    assert set(told) == set(opened)
    for number, p in opened.items():
        assert told[number].startswith(f"{p.caller} called "), told[number]
        if p.setting:
            assert p.setting in told[number]
    for rec in events(history, "yarn.petition.resolved"):
        p = rec.payload
        answers = {"granted": f"{p.granter} granted it", "refused": f"{p.granter} refused"}
        expected = answers.get(p.outcome, "no contest")
        assert f"{p.petitioner} petitioned {p.granter}" in told[rec.scene] and expected in told[rec.scene]
    for rec in events(history, "yarn.petition.forced"):
        p = rec.payload
        verb = "tried to force" if p.blocked else "forced"
        assert f"{p.petitioner} {verb} {p.granter}" in told[rec.scene]
        assert ("blocked it" in told[rec.scene]) == p.blocked
    for rec in events(history, "yarn.challenge.ducked") + events(history, "yarn.challenge.rushed"):
        assert rec.payload.character in told[rec.scene]
    for rec in events(history, "yarn.combat.attacked"):
        assert f"{rec.payload.declared.attacker} " in told[rec.scene]
    # No ledger lines, no book sections, no "Mode", no bennie spends under "Challenges".
    for text in told.values():
        assert " gains " not in text and " pays " not in text and "(Gaining Tokens)" not in text
    assert "**Mode:**" not in md and "None (montage)" not in md and "**Challenges**" not in md
    assert "**Tokens**" not in md


def test_the_economy_is_one_table_per_episode_that_adds_up(harbor, gm_recap):
    history, _ = harbor
    md = render_recap(gm_recap, "md", None, "yarn")
    assert md.count("### The economy\n") == len(gm_recap.episodes)
    for episode in gm_recap.episodes:
        for b in episode.balances:
            # Tokens start each episode at zero ("Gaining Tokens": unspent tokens revert to the kitty).
            assert b.tokens_gained - b.tokens_paid == b.drama_tokens, (episode.number, b)
        awarded = {c: n for r in events(history, "yarn.experience.awarded") if r.episode == episode.number
                   for c, n in r.payload.awards.items()}
        assert {b.character: b.experience for b in episode.balances if b.character} == \
            {c: awarded.get(c, 0) for c in (b.character for b in episode.balances if b.character)}


def test_highlights_are_the_forces_the_fight_the_long_odds_and_the_bennie_winners(harbor, gm_recap):
    history, _ = harbor
    moments = [m.text for e in gm_recap.episodes for m in e.moments]
    for episode in gm_recap.episodes:
        if episode.vote and episode.vote.winners:
            assert any(m.text.endswith("won the bennie vote.") for m in episode.moments)
    assert any("went down" in m for m in moments)
    assert any("chance)" in m for m in moments)
    assert not any("gains a token" in m or "(Spending Bennies)" in m for m in moments)


def test_a_correction_is_mentioned_in_the_scene_of_the_event_it_amends(harbor, gm_recap):
    history, _ = harbor
    scenes = {s.number: s for s in scenes_of(gm_recap)}
    scene_of = {r.sequence: r.scene for r in history}
    amended = [r for r in history if r.event_type in ("correction", "retraction")]
    assert amended
    for rec in amended:
        target = getattr(rec.payload, "corrects", None) or rec.payload.retracts
        if scene_of.get(target) is not None:
            assert any(rec.payload.reason in line.text for line in scenes[scene_of[target]].story)
