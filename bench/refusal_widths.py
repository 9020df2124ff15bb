"""How wide the refusals the tests raise are, as a person reads them on stderr.

Runs pytest (the arguments given, else the whole suite) with this file as a plugin: every
:class:`~yarnlog.core.referee.RuleViolation` built in the test processes is noted (its rule and
message), whether or not a test looks at it. Then each distinct refusal is told as the command line
tells it (:func:`yarnlog.cli.output.error_line`, the one line on stderr) and the lines wider than 80
columns are counted and shown, widest first::

    python bench/refusal_widths.py                       # the whole suite (a few minutes)
    python bench/refusal_widths.py tests/rulesets/yarn -n 2       # any pytest arguments
    python bench/refusal_widths.py --report DIR          # only tell again what a run noted in DIR

A line is over 80 columns for one of two causes, said beside it: a name typed by a user that is
long by itself (``name``: a name is never cut), or the words (``words``). Refusals raised in a
child process (the console in tmux, ``yarnlog`` run as a program) are not seen.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

#: Where each test process writes the refusals it saw (set by the script for the plugin).
OUT = "YARNLOG_REFUSALS_OUT"
WIDTH = 80
#: A run of letters this long in a refusal is a name typed to test the limits (the book's words are shorter).
LONG_NAME = re.compile(r"\w{20,}")
#: What a name is counted as when the line is judged without it: a name of ordinary length.
NAME = 10


# -- the plugin ---------------------------------------------------------------------------------

_seen: set[tuple[str, str, str, str]] = set()


def pytest_configure(config) -> None:
    """Note every refusal built from now on in this process."""
    if not os.environ.get(OUT):
        return
    from yarnlog.core.referee import RuleViolation

    built = RuleViolation.__init__

    def noting(self, rule, message, *args, **kwargs) -> None:
        _seen.add((rule.book, rule.chapter, rule.text, message))
        built(self, rule, message, *args, **kwargs)

    RuleViolation.__init__ = noting  # type: ignore[method-assign]


def pytest_unconfigure(config) -> None:
    out = os.environ.get(OUT)
    if out and _seen:
        path = Path(out) / f"{os.getpid()}.jsonl"
        with path.open("a", encoding="utf-8") as file:
            for book, chapter, text, message in sorted(_seen):
                file.write(json.dumps({"book": book, "chapter": chapter, "text": text, "message": message}) + "\n")


# -- the report ---------------------------------------------------------------------------------

def refusal_lines(folder: Path) -> list[str]:
    """Each distinct refusal noted in ``folder``, told as the command line tells it."""
    from yarnlog.cli.output import error_line
    from yarnlog.core.installed import RULESETS
    from yarnlog.core.referee import Rule, RuleViolation
    from yarnlog.core.ruleset import get_ruleset

    for name in RULESETS:  # each ruleset's rules say where its book's sections stand (Rule.where)
        get_ruleset(name)
    lines = set()
    for path in folder.glob("*.jsonl"):
        for row in path.read_text(encoding="utf-8").splitlines():
            seen = json.loads(row)
            rule = Rule(seen["book"], seen["chapter"], seen["text"])
            lines.add(error_line(RuleViolation(rule, seen["message"])))
    return sorted(lines)


def cause(line: str) -> str:
    """Why ``line`` is wider than :data:`WIDTH`: a long name in it (the line would fit were every
    name of ordinary length), or its words."""
    ordinary = LONG_NAME.sub("x" * NAME, line)
    return "name" if len(ordinary) <= WIDTH else "words"


def kind(line: str) -> str:
    """``line`` with its numbers as ``#``: the refusals that differ only by the numbers a property
    test drew are one kind of refusal."""
    return re.sub(r"\d+", "#", line)


def report(folder: Path) -> int:
    lines = refusal_lines(folder)
    wide = sorted((line for line in lines if len(line) > WIDTH), key=len, reverse=True)
    by_words = [line for line in wide if cause(line) == "words"]
    kinds = {kind(line) for line in lines}
    wide_kinds = {kind(line) for line in wide}
    word_kinds = {kind(line) for line in by_words}
    print(f"{len(wide)} of the {len(lines)} refusal lines the tests raise are over {WIDTH} columns "
          f"({len(by_words)} for their words, {len(wide) - len(by_words)} for a long name).")
    print(f"As kinds (numbers aside): {len(wide_kinds)} of {len(kinds)} ({len(word_kinds)} for their words).")
    shown = set()
    for line in wide:
        if kind(line) not in shown:
            shown.add(kind(line))
            print(f"{len(line):4} {cause(line):5} {line}")
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--report"]:
        return report(Path(argv[1]))
    folder = Path(tempfile.mkdtemp(prefix="refusals-"))
    here = Path(__file__).resolve().parent
    env = {**os.environ, OUT: str(folder), "PYTHONPATH": os.pathsep.join(filter(None, [str(here),
                                                                                     os.environ.get("PYTHONPATH")]))}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "refusal_widths",
                          *(argv or ["tests"])], env=env, cwd=here.parent)
    print(f"(pytest exit {run.returncode}; the refusals noted are in {folder})")
    return report(folder)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
