"""The printable character sheet: as of any point, its values are the projections' (wounds, experience,
tokens), it prints no empty lines, and it renders to Markdown and a standalone HTML page through
templates the user may shadow. Expectations are derived from the log, not copied from output."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from yarnlog.app.interchange import import_records, parse_lines
from yarnlog.app.journal import Journal
from yarnlog.persistence.memory import MemoryStore
from yarnlog.rulesets.yarn.parts.characters.experience_awards import experience_data
from yarnlog.rulesets.yarn.parts.characters.printable_sheet import printable_sheet
from yarnlog.rulesets.yarn.parts.combat.wound_reports import wounds_report
from yarnlog.rulesets.yarn.parts.economy.ledger import token_report

SAMPLE = Path(__file__).resolve().parents[3] / "journals" / "lantern-harbor.jsonl"


@pytest.fixture(scope="module")
def harbor() -> Journal:
    store = MemoryStore()
    import_records(store, parse_lines(SAMPLE.read_text(encoding="utf-8").splitlines()))
    return Journal(store)


def _pc_wounded(journal: Journal):
    """The first attack of the sample that hurt a player character, and that character's creation."""
    history = journal.history("lantern")
    created = {r.payload.name: r.payload for r in history if r.event_type == "yarn.character.created"}
    attack = next(r for r in history if r.event_type == "yarn.combat.attacked"
                  and r.payload.declared.defender in created and r.payload.damage > 0)
    return attack, created[attack.payload.declared.defender]


def test_the_sheet_as_of_a_wound_shows_current_and_normal_hit_points(harbor):
    attack, created = _pc_wounded(harbor)
    name = created.name
    then = harbor.state("lantern", upto=attack.sequence)
    sheet = printable_sheet(then, name)
    hp = sheet["hit_points"]
    # Unhurt before this attack: the attack's damage is all the character has lost.
    before = printable_sheet(harbor.state("lantern", upto=attack.sequence - 1), name)["hit_points"]
    assert before["current"] == before["normal"] == created.hit_points
    assert (hp["normal"], hp["current"]) == (created.hit_points, created.hit_points - attack.payload.damage)
    assert hp["current"] < hp["normal"] and hp["descriptor"] == created.hit_point_descriptor
    [row] = wounds_report(then, name)
    assert (hp["wound_state"], hp["penalty_dice"]) == (row.status, row.penalty_dice)
    assert sheet["as_of"] == attack.sequence


def test_the_sheet_agrees_with_the_other_projections_at_every_scene_end(harbor):
    history = harbor.history("lantern")
    created = [r.payload for r in history if r.event_type == "yarn.character.created"]
    for closed in (r for r in history if r.event_type == "scene.closed"):
        state = harbor.state("lantern", upto=closed.sequence)
        tokens = {p["name"]: p for p in token_report(state)["participants"]}
        experience = {x["character"]: x for x in experience_data(state.rules.characters, state.table)}
        for pc in created:
            if pc.name not in state.rules.characters.pcs:
                continue
            sheet = printable_sheet(state, pc.name)
            assert sheet["player_holds"] == {"drama_tokens": tokens[pc.player]["drama_tokens"],
                                             "bennies": tokens[pc.player]["bennies"]}
            xp = experience[pc.name]
            assert (sheet["experience"]["pool"], sheet["experience"]["used_this_session"],
                    sheet["experience"]["left_this_session"]) == (xp["pool"], xp["used"], xp["available"])
            assert {t["name"]: t["dice"] for t in sheet["traits"]} == {
                n: t.dice for n, t in state.rules.characters.pcs[pc.name].traits.items()}


# -- the command line --------------------------------------------------------------------------

EMPTY_LABEL = re.compile(r"^\W*\**\s*[A-Za-z][A-Za-z ]*:\**\s*[;,]?\s*$")


def _no_empty_lines(text: str) -> None:
    for line in text.splitlines():
        assert not EMPTY_LABEL.match(line), f"an empty entry: {line!r}"
        assert ": ;" not in line and not line.rstrip().endswith(":"), line


def test_the_sheet_at_the_command_line_in_three_formats(cli):
    assert cli("import", str(SAMPLE))[0] == 0
    journal_lines = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()][:-1]  # (trailer)
    created = {e["payload"]["name"]: e["payload"] for e in journal_lines if e["event_type"] == "yarn.character.created"}
    attack = next(e for e in journal_lines if e["event_type"] == "yarn.combat.attacked"
                  and e["payload"]["declared"]["defender"] in created and e["payload"]["damage"] > 0)
    name = attack["payload"]["declared"]["defender"]
    normal = created[name]["hit_points"]
    current = normal - attack["payload"]["damage"]
    point = str(attack["sequence"])
    data = json.loads(cli("sheet", name, "--as-of", point, "--json")[1])
    assert (data["hit_points"]["current"], data["hit_points"]["normal"]) == (current, normal)
    code, out, _ = cli("sheet", name, "--as-of", point)
    assert code == 0 and f"{current} of {normal}" in out and created[name]["hit_point_descriptor"] in out
    _no_empty_lines(out)
    code, md, _ = cli("sheet", name, "--as-of", point, "--format", "md")
    assert code == 0 and md.startswith(f"# {name}") and f"**{current} of {normal}**" in md
    assert "| Trait | Dice |" in md
    _no_empty_lines(md)
    code, html, _ = cli("sheet", name, "--as-of", point, "--format", "html")
    assert code == 0 and html.startswith("<!DOCTYPE html>") and f"<strong>{current} of {normal}</strong>" in html
    code, _, err = cli("sheet", name, "--format", "pdf")
    assert code == 2 and err.count("\n") == 1 and "--format" in err


@pytest.fixture
def table(cli):
    assert cli("init", "lantern", "--title", "Lantern Harbor", "--gm", "Maya")[0] == 0
    assert cli("join", "Ana")[0] == 0
    code, _, err = cli(
        "character", "create", "Iris", "--player", "Ana", "--role", "pilot", "--desire", "respect",
        "--pole", "loyal", "--pole", "free", "--central", "Piloting:standard", "--side", "Tough:standard",
        "--side", "Swimmer:standard", "--superior", "Tough", "--flaw", "Reckless",
        "--sign", "Piloting=tide tables", "--sign", "Tough=scars", "--sign", "Swimmer=damp hair",
        "--sign", "Reckless=bruises", "--hp-from", "Tough", "--hp-descriptor", "salt",
        "--story", "My story is of a woman who wants respect.", "--approved",
        "--equipment", "<script>alert(1)</script> **bold** [x](javascript:alert(1))")
    assert code == 0, err
    return cli


def test_a_sheet_without_finances_prints_no_empty_entry_and_user_text_stays_text(table):
    code, out, _ = table("sheet", "Iris")
    assert code == 0 and "Finances" not in out
    _no_empty_lines(out)
    code, md, _ = table("sheet", "Iris", "--format", "md")
    assert "**Finances:**" not in md and "&lt;script&gt;" in md and r"\*\*bold\*\*" in md
    code, html, _ = table("sheet", "Iris", "--format", "html")
    assert "<script>" not in html and "&lt;script&gt;" in html and 'href="javascript' not in html


def test_a_user_template_shadows_the_default_and_a_missing_folder_is_one_line(table, tmp_path):
    (tmp_path / "sheet.md.j2").write_text("{{ sheet.name }} holds {{ sheet.hit_points.current }}\n", encoding="utf-8")
    code, out, _ = table("sheet", "Iris", "--format", "md", "--templates", str(tmp_path))
    assert code == 0 and out == "Iris holds 28\n"
    code, html, _ = table("sheet", "Iris", "--format", "html", "--templates", str(tmp_path))
    assert code == 0 and html.startswith("<!DOCTYPE html>")  # not shadowed: the default
    code, _, err = table("sheet", "Iris", "--format", "md", "--templates", str(tmp_path / "nowhere"))
    assert code == 2 and err.count("\n") == 1 and "nowhere" in err
    (tmp_path / "sheet.md.j2").write_text("{{ sheet.nothing_here }}\n", encoding="utf-8")
    code, _, err = table("sheet", "Iris", "--format", "md", "--templates", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and "template" in err


def test_the_sheet_carries_the_psychic_pool_its_fringe_powers_and_the_armor_worn(journal):
    """ "Upon learning his first fringe power, the character gains a psychic pool"; "Armor". """
    from yarnlog.core.table import AddParticipant
    from yarnlog.core.timeline import OpenScene, StartEpisode
    from yarnlog.rulesets.yarn.parts.characters.sheet_files import creation_command
    from yarnlog.rulesets.yarn.parts.combat.part import WearArmor
    from yarnlog.rulesets.yarn.parts.powers.part import GainPsychicPool, psychic_data

    journal.create_campaign("lantern", title="Lantern Harbor", gm="Maya")
    journal.execute("lantern", AddParticipant(name="Ana"))
    journal.execute("lantern", creation_command({
        "name": "Nell", "player": "Ana", "role": "seer", "desire": "respect", "poles": ["loyal", "free"],
        "central": "Dreamhaunting:technical", "sides": ["Telepathy:technical", "Strong:standard"],
        "superior": "Dreamhaunting", "flaw": "Reckless",
        "signs": {"Dreamhaunting": "far eyes", "Telepathy": "a hum", "Strong": "big hands", "Reckless": "scars"},
        "hit_point_basis": ["Strong"], "hit_point_descriptor": "guts", "story": "My story is of a seer.",
        "gm_approved": True}))
    journal.execute("lantern", StartEpisode(title="Fog"))
    journal.execute("lantern", OpenScene(caller="Maya", cast=("Nell",), mode="procedural"))
    journal.execute("lantern", GainPsychicPool("Nell", ("Dreamhaunting", "Telepathy"), faces=(2, 5)))
    [worn] = journal.execute("lantern", WearArmor("Nell", ("plate mail",)))
    state = journal.state("lantern")
    sheet = printable_sheet(state, "Nell")
    [pool] = psychic_data(state, "Nell", gm_view=False)
    assert sheet["psychic"]["shots"] == pool["shots"] and sheet["psychic"]["capacity"] == pool["capacity"]
    assert {p["name"]: p["dice"] for p in sheet["psychic"]["fringe_powers"]} == pool["powers"]
    assert [a["name"].casefold() for a in sheet["armor"]] == [a.casefold() for a in worn.payload.armor]
    assert sheet["armor"][0]["penalty"] is True  # plate mail: "Penalty? Yes"

