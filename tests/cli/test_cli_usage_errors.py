"""Every verb, called with its required arguments and options left out, answers in one line naming what
is missing: never a traceback, never Python's own words (``__init__() missing 1 required positional
argument``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer

from yarnlog.cli.main import EXIT_CODES, app
from yarnlog.cli.verbs import commands_of

SHEETS = Path(__file__).resolve().parents[2] / "journals" / "sheets"
INTERNALS = ("Traceback", "__init__", "positional argument", "internal error", "Error:")
#: Verbs that wait for someone at the keyboard: nothing to call without input.
INTERACTIVE = {"play", "serve"}  # they run until stopped


def leaves(command, path=()):
    """(words, command) for every verb under ``command`` (groups' subcommands, depth first)."""
    subcommands = getattr(command, "commands", None)
    if subcommands is None:
        yield path, command
        return
    for name, sub in sorted(subcommands.items()):
        if name not in INTERACTIVE:
            yield from leaves(sub, (*path, name))


def every_verb() -> list[tuple[str, ...]]:
    core = dict(typer.main.get_command(app).commands)
    verbs = [path for name, command in sorted({**commands_of("yarn"), **core}.items()) if name not in INTERACTIVE
             for path, _ in leaves(command, (name,))]
    return [path for path in verbs if path != ("scene", "open")]  # Yarn's 'call' replaces it


@pytest.fixture
def played(cli):
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--from-file", str(SHEETS / "iris.json")),
                 ("character", "create", "Tomas", "--from-file", str(SHEETS / "tomas.json")),
                 ("episode", "start", "--title", "Fog"), ("call", "Ana", "--cast", "Iris,Tomas")):
        assert cli(*args)[0] == 0, args
    return cli


def test_there_are_verbs_to_walk():
    verbs = every_verb()
    assert ("init",) in verbs and ("character", "create") in verbs and ("roll",) in verbs and len(verbs) > 40


@pytest.mark.slow
def test_every_verb_without_its_options_says_what_is_missing_in_one_line(played):
    for path in every_verb():
        code, out, err = played(*path, "--help")
        assert code == 0 and "Usage" in out, (path, err)
        code, _, err = played(*path)
        assert code != EXIT_CODES["internal"], (path, err)
        assert not any(word in err for word in INTERNALS), (path, err)
        if code:
            # A move the rules refuse says so ("Refused. ... (Section)."), any other error "error: ...".
            assert err.startswith("Refused. " if code == 3 else "error: ") and err.count("\n") == 1, (path, err)


def test_a_missing_option_is_named_as_the_option(played):
    code, out, err = played("init")
    assert code == EXIT_CODES["invalid"] and out == ""
    assert err == "error: yarnlog init: missing argument 'campaign_id' (see 'yarnlog init --help')\n"
    code, _, err = played("init", "other", "--gm", "Maya")
    assert code == EXIT_CODES["invalid"] and "missing option '--title'" in err
    code, _, err = played("character", "create", "Zed", "--player", "Ben", "--role", "pilot", "--desire", "home",
                          "--central", "Flying", "--hp-descriptor", "guts")
    assert code == EXIT_CODES["invalid"]
    assert err == "error: the sheet is incomplete: missing option --story\n"


def test_optional_rules_are_listed_and_read_with_dashes_underscores_and_commas(cli):
    code, out, _ = cli("init", "--help")
    assert code == 0 and "blowing-the-top-off" in out and "serious-wounds" in out
    code, out, err = cli("init", "harbor", "--title", "H", "--gm", "Maya", "--option", "Botch,blowing-the-top-off",
                         "--option", "serious_wounds", "--json")
    assert code == 0, err
    assert json.loads(out)[0]["payload"]["options"] == {"botch": True, "blowing_the_top_off": True,
                                                         "serious_wounds": True}
    code, _, err = cli("init", "other", "--title", "H", "--gm", "Maya", "--option", "botchh")
    assert code == EXIT_CODES["invalid"] and "did you mean botch?" in err and err.count("\n") == 1


def test_a_bare_group_shows_its_help_as_before(played):
    for words in ((), ("episode",), ("character",)):
        code, out, err = played(*words)
        assert code == EXIT_CODES["invalid"] and "Usage" in out and err == "", words


def test_a_usage_error_prints_what_was_typed_as_text(played):
    code, _, err = played("fr\x1b[31mob")
    assert code == EXIT_CODES["invalid"] and "\x1b" not in err and err.count("\n") == 1
