"""What the fuzz tests share: their Hypothesis settings, hostile text, a fresh journal per example,
and the property every run of the command line must keep (``check_run``).

Two profiles: ``YARNLOG_FUZZ=ci`` (the default: the whole fuzz suite in about a minute, the same
examples every run) and ``YARNLOG_FUZZ=long`` (fifty times as many, drawn afresh: for a night);
``YARNLOG_FUZZ_EXAMPLES=N`` sets the number of examples of each fuzz test outright.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import shutil
import sqlite3
import sys
from itertools import count
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from yarnlog.cli.context import close_journal
from yarnlog.cli.main import main

PROFILE = os.environ.get("YARNLOG_FUZZ", "ci")
#: How many more examples the long profile runs than CI.
_LONG = 50


def fuzz(examples: int) -> settings:
    """The settings of a fuzz test that runs ``examples`` examples in CI (the counts add up to about
    a minute on a busy two-core machine), ``_LONG`` times as many in the long profile."""
    outright = int(os.environ.get("YARNLOG_FUZZ_EXAMPLES", 0))
    return settings(
        max_examples=outright or (examples * _LONG if PROFILE == "long" else examples),
        deadline=None,  # a command replays a journal: its time is not what is tested
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                               HealthCheck.data_too_large],
        derandomize=PROFILE != "long",  # the same examples on every CI run: a failure there is reproducible
        database=None,
    )


#: Characters a terminal acts on (see yarnlog.cli.output): they must never reach stdout or stderr raw.
TERMINAL_UNSAFE = frozenset(
    [chr(c) for c in range(0x20) if c not in (0x09, 0x0A)] + [chr(c) for c in range(0x7F, 0xA0)]
    + ["\u061c", "\u200e", "\u200f", "\u2028", "\u2029"] + [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
)
#: Allowed exit codes: 0 done, 2 bad input, 3 refused by a rule.
ALLOWED = {0, 2, 3}

#: Names and words the played campaign knows, so that many fuzzed commands get past the first check.
KNOWN = ("Ana", "Ben", "Maya", "Iris", "Tomas", "iris", "Iris,Tomas", "Brawler", "harbor", "1", "2", "6,5,4",
         "Tomas:6,5", "Smuggler=12", "Iris=Tough", "hard", "dramatic", "procedural", "gm", "everyone",
         "participant:Ana", "text=fog", "Iris:good=6", "green", "yellow", "red", "KC", "2S", "QH,3C", "Ben,Ana")
HOSTILE = ("[/oops]", "[link=http://evil.example]x[/link]", "[bold red]loud[/]", "\x1b[31mred\x1b[0m",
           "\x1b]8;;x\x1b\\", "over\rwritten", "bell\x07", "\u202egnirts", "nul\x00", "csi\x9b2J", "a\nb",
           "<script>", "{{ 7*7 }}", "-", "--", "", " ", "=", ":", ",", "A" * 81, "x" * 20_001,
           "\udcff", "é" * 30, "🎲")  # (U+DCFF: how Python reads the byte 0xFF of a non-UTF-8 argument)
NUMBERS = ("0", "-1", "1", "3", "6", "7", "100", "101", "31", "2147483648", "9223372036854775808",
           "99999999999999999999999", "1e9", "nan", "inf", "-inf", "0x10", "1_000", "½", "١")


def text_values() -> st.SearchStrategy[str]:
    """Text a user might type: known names, hostile strings, numbers, and anything Unicode allows."""
    return st.one_of(
        st.sampled_from(KNOWN), st.sampled_from(HOSTILE), st.sampled_from(NUMBERS),
        st.text(max_size=30),
        st.text(alphabet=st.characters(codec="utf-8", categories=("Cc", "Cf", "Zl", "Zp", "Sm", "Ps", "Pe")),
                max_size=12),
        st.builds(lambda a, b: f"{a},{b}", st.sampled_from(KNOWN), st.sampled_from(HOSTILE)),
    )


def number_values() -> st.SearchStrategy[str]:
    """What is typed where a number is expected: numbers of every size, and text that is not one."""
    return st.one_of(st.sampled_from(NUMBERS), st.integers(-(10 ** 30), 10 ** 30).map(str),
                     st.integers(-3, 12).map(str), st.sampled_from(HOSTILE[:8]))


def events_digest(db: Path) -> str:
    """A hash of every stored event: what a rejection must leave byte for byte as it was."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = conn.execute("SELECT * FROM events ORDER BY campaign_id, sequence").fetchall()
    return hashlib.sha256(repr(rows).encode()).hexdigest()


def run(db: Path, *args: str, stdin: bytes = b"") -> tuple[int, str, str]:
    """``yarnlog --db DB ARGS`` in this process, stdin holding ``stdin``: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    saved, cwd = (sys.argv, sys.stdin), os.getcwd()
    sys.argv = ["yarnlog", "--db", str(db), *args]
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    os.chdir(db.parent)  # a relative path typed (a key written to "-") lands beside the journal, never in the repo
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
                code = 0
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else 1
    finally:
        (sys.argv, sys.stdin), _ = saved, os.chdir(cwd)
    return code, out.getvalue(), err.getvalue()


class Journals:
    """Fresh copies of one template journal, one per example (a new path: the process opens it anew)."""

    def __init__(self, template: Path, workdir: Path) -> None:
        self.template, self.workdir, self._n = template, workdir, count()

    def fresh(self) -> Path:
        close_journal()
        db = self.workdir / f"example-{next(self._n)}.db"
        shutil.copyfile(self.template, db)
        return db


def check_run(db: Path, args: tuple[str, ...], stdin: bytes = b"", *, terminal_safe: bool = True) -> int:
    """Run ``args`` on ``db`` and check the property: exit 0, 2 or 3; no traceback; a failure is one
    line on stderr and leaves every event as it was; nothing a terminal would obey is printed."""
    before = events_digest(db)
    code, out, err = run(db, *args, stdin=stdin)
    shown = f"yarnlog {' '.join(map(repr, args))} -> {code}: {err!r}"
    assert code in ALLOWED, shown
    assert "Traceback" not in out + err and "internal error" not in err, shown
    if code:
        # A move the rules refuse says so ("Refused. ... (Section)."; with --json the rule whole, as an
        # "error: ..."), any other error "error: ...".
        assert err.startswith(("Refused. ", "error: ") if code == 3 else "error: "), shown
        assert err.endswith("\n") and err.count("\n") == 1, shown
        assert events_digest(db) == before, f"{shown}: a rejected command changed the journal"
    if terminal_safe:
        assert not set(out + err) & TERMINAL_UNSAFE, f"{shown}: raw control characters in the output"
    return code
