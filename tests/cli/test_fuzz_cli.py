"""Property-based fuzzing of every verb of the command line (issue 11): any options, any text, any
number, on a fresh copy of a campaign in play. No traceback ever; exit 0, 2 or 3; a rejection is
one line on stderr and leaves the journal's events byte for byte as they were; nothing printed is
obeyed by a terminal. (Settings and profiles: ``tests/fuzzing.py``.)"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import typer
from fuzzing import KNOWN, Journals, check_run, fuzz, number_values, run, text_values
from hypothesis import given
from hypothesis import strategies as st
from test_cli_usage_errors import INTERACTIVE, every_verb, leaves

from yarnlog.cli.context import close_journal
from yarnlog.cli.main import app
from yarnlog.cli.verbs import commands_of, verbs_of

SHEETS = Path(__file__).resolve().parents[2] / "journals" / "sheets"
#: Commands that print a campaign's data verbatim, as data, to be redirected to a file: the bytes are
#: the export's (checked by the import, not by a terminal).
VERBATIM = {("export",)}


def _commands(ruleset: str) -> dict[tuple[str, ...], object]:
    """Every verb a campaign of ``ruleset`` offers, by its words: the core's and the ruleset's own."""
    core = dict(typer.main.get_command(app).commands)
    tree = {**core, **commands_of(ruleset)}
    replaced = set(verbs_of(ruleset).replaces)
    found = {}
    for name, command in sorted(tree.items()):
        if name in INTERACTIVE:
            continue
        for path, leaf in leaves(command, (name,)):
            if " ".join(path) not in replaced:
                found[path] = leaf
    return found


COMMANDS = _commands("yarn")
DRAMASYSTEM_COMMANDS = _commands("dramasystem")


@pytest.fixture(scope="module")
def journals(tmp_path_factory) -> Journals:
    """A campaign in play (players, two PCs, an episode, a scene, a fight, a roll), as a template."""
    workdir = tmp_path_factory.mktemp("fuzz-cli")
    template = workdir / "template.db"
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--from-file", str(SHEETS / "iris.json")),
                 ("character", "create", "Tomas", "--from-file", str(SHEETS / "tomas.json")),
                 ("episode", "start", "--title", "Fog", "--theme", "trust", "--theme-by", "Ana"),
                 ("call", "Ana", "--cast", "Iris,Tomas", "--mode", "procedural"),
                 ("roll", "Tomas", "--trait", "Brawler", "--difficulty", "hard", "--faces", "6,4,3,1"),
                 ("note", "the fog rolls in"), ("combatant", "Smuggler", "--hit-points", "18"),
                 ("fight", "start", "--detailed", "--combatant", "Tomas", "--combatant", "Smuggler")):
        code, _, err = run(template, *args)
        assert code == 0, (args, err)
    close_journal()
    return Journals(template, workdir)


def _value(draw, param, paths: list[str]) -> str:
    kind = param.bare_type()
    if kind in (int, list[int]):
        return draw(number_values())
    if kind in (float,):
        return draw(st.one_of(number_values(), st.floats(allow_nan=True).map(repr)))
    if kind is Path or "Path" in str(kind):
        return draw(st.sampled_from(paths))
    if param.name == "campaign":  # mostly the campaign in play: the verb itself is what is fuzzed here
        return draw(st.one_of(st.just("harbor"), text_values()))
    return draw(st.one_of(st.sampled_from(KNOWN), text_values()))


@st.composite
def command_lines(draw, paths: list[str], commands: dict | None = None) -> tuple[str, ...]:
    """One verb with a random selection of its options and arguments, each given a fuzzed value."""
    commands = COMMANDS if commands is None else commands
    path = draw(st.sampled_from(sorted(commands)))
    command = commands[path]
    words: list[str] = list(path)
    for param in command.params:
        if param.name in ("as_json",):
            continue
        is_argument = type(param).__name__ == "TyperArgument"
        if not is_argument and not draw(st.booleans()):
            continue
        if getattr(param, "is_flag", False):
            words.append(param.opts[0])
            continue
        repeats = draw(st.integers(1, 3)) if (param.multiple or param.nargs == -1) else 1
        for _ in range(repeats):
            value = _value(draw, param, paths)
            words.extend([value] if is_argument else [draw(st.sampled_from(param.opts)), value])
    if draw(st.booleans()):
        words.append("--json")
    return tuple(words)


def test_there_is_a_verb_of_every_kind_to_fuzz():
    assert set(every_verb()) == set(COMMANDS)
    assert {("roll",), ("note",), ("import",), ("character", "create"), ("xp", "award")} <= set(COMMANDS)
    assert {("draw",), ("oppose",), ("scene", "open")} <= set(DRAMASYSTEM_COMMANDS)


@pytest.mark.slow
@fuzz(200)
@given(data=st.data())
def test_no_command_line_breaks_it(journals, tmp_path_factory, data):
    db = journals.fresh()
    folder = journals.workdir
    sheet = folder / "iris.json"  # a copy: a fuzzed --output may write over it, never over the repository's
    shutil.copyfile(SHEETS / "iris.json", sheet)
    paths = [str(sheet), str(folder / "out.md"), str(folder / "missing" / "x"), str(folder),
             "/dev/null", str(folder / "bad\x1b[2J.md"), "-"]
    args = data.draw(command_lines(paths), label="args")
    stdin = data.draw(st.sampled_from([b"", b"not json\n", b"\xff\xfe\n"]), label="stdin")
    check_run(db, args, stdin, terminal_safe=args[:1] not in VERBATIM)


@fuzz(100)
@given(data=st.data())
def test_root_options_and_campaign_ids_never_break_it(journals, data):
    db = journals.fresh()
    campaign = data.draw(st.one_of(text_values(), st.from_regex(r"[a-z0-9][a-z0-9._-]{0,70}", fullmatch=True)))
    verb = data.draw(st.sampled_from([("status",), ("verify",), ("tokens",), ("note", "hi"), ("log",),
                                      ("sheet", "Iris"), ("roll", "Iris", "--no-trait", "--faces", "3,4")]))
    where = data.draw(st.sampled_from(["before", "after"]))
    args = ("-c", campaign, *verb) if where == "before" else (*verb, "-c", campaign)
    check_run(db, args)


@pytest.mark.slow
@fuzz(50)
@given(data=st.data())
def test_what_a_write_records_reads_back_as_text(journals, data):
    """A text that a write accepts (a name, a note, a setting) is then shown by every reader as text."""
    db = journals.fresh()
    text = data.draw(text_values(), label="text")
    write = data.draw(st.sampled_from([("join", text), ("note", text), ("combatant", text, "--hit-points", "9"),
                                       ("call", "Maya", "--cast", "Tomas", "--setting", text, "--title", text),
                                       ("supporting", "add", text, "--description", text)]), label="write")
    if check_run(db, write) != 0:
        return
    for read in (("status",), ("log",), ("-v", "log"), ("campaigns",), ("tokens",), ("log", "--grep", text),
                 ("fight", "status"), ("cast",), ("explain", "--scene", "1")):
        check_run(db, read)


@pytest.fixture(scope="module")
def storm(tmp_path_factory) -> Journals:
    """A DramaSystem campaign in a procedural scene (the README's), as a template."""
    workdir = tmp_path_factory.mktemp("fuzz-dramasystem")
    template = workdir / "template.db"
    for args in (("init", "storm", "--title", "Storm", "--gm", "Maya", "--ruleset", "dramasystem"), ("join", "Ana"),
                 ("join", "Ben"),
                 ("character", "create", "Iris", "--player", "Ana", "--strong", "Fighting,Talking",
                  "--weak", "Knowing,Making"),
                 ("character", "create", "Tomas", "--player", "Ben", "--strong", "Moving,Sneaking",
                  "--weak", "Talking,Enduring"),
                 # DS9: play begins once each PC is the object of the other's want.
                 ("character", "want", "Iris", "--from", "Tomas", "--want", "respect", "--why-not", "pride"),
                 ("character", "want", "Tomas", "--from", "Iris", "--want", "trust", "--why-not", "fear"),
                 ("episode", "start", "--title", "Fog"),
                 ("scene", "open", "--caller", "Ana", "--cast", "Iris,Tomas", "--mode", "procedural"),
                 ("oppose", "yellow")):
        code, _, err = run(template, *args)
        assert code == 0, (args, err)
    close_journal()
    return Journals(template, workdir)


@fuzz(50)
@given(data=st.data())
def test_no_command_line_breaks_a_dramasystem_campaign(storm, data):
    db = storm.fresh()
    paths = [str(storm.workdir / "out.md"), str(storm.workdir / "missing" / "x"), "/dev/null", "-"]
    args = data.draw(command_lines(paths, DRAMASYSTEM_COMMANDS), label="args")
    check_run(db, args, terminal_safe=args[:1] not in VERBATIM)
