"""Every refusal of a ruleset's session is one line within 80 columns that names its rule, changes
nothing, and is quoted whole with ``--json`` and ``--verbose``."""

from __future__ import annotations

import importlib.util
import re

from .playing import REFUSED, ROOT, WIDTH, play

#: ``Refused. What the rule says of this move (where the book says it).``
ONE_LINE = re.compile(r"Refused\. (?P<said>.+) \((?P<cite>[^()]+)\)\.")


def names(cite: str, quoted: str) -> bool:
    """Whether ``cite`` names the rule ``quoted`` whole: its section or number, as quoted, or its
    book by a short name and a line of it (``Yarn 965`` for ``Yarn 0.1, "Personal Consequences ..."``)."""
    if cite in quoted:
        return True
    book_and_line = re.fullmatch(r"(\w+) (\d+)", cite)
    book = quoted.partition("(rule: ")[2].split(",", 1)[0]
    return book_and_line is not None and book_and_line.group(1) in book.split()


def test_the_session_has_refusals(played):
    assert played.refusals, "a session script marks at least one refused line with '!'"


def test_a_refusal_is_one_line_within_80_columns_that_names_its_rule(played):
    for refusal in played.refusals:
        plain = refusal.plain
        assert plain.code == REFUSED and plain.out == "", plain
        assert plain.err.endswith("\n") and plain.err.count("\n") == 1, plain
        line = plain.err.rstrip("\n")
        assert len(line) <= WIDTH, f"{len(line)} columns: {line}"
        named = ONE_LINE.fullmatch(line)
        assert named, line
        # The rule named in short is the rule quoted whole with --json and --verbose.
        for whole in (refusal.as_json, refusal.verbose):
            assert whole.code == REFUSED, whole
            quoted = whole.err.splitlines()[-1]
            assert quoted.startswith("error: ") and "(rule: " in quoted, whole
            assert len(quoted) > len(line) and names(named.group("cite"), quoted), (line, quoted)
            said = named.group("said")
            assert quoted.lower().startswith(f"error: {said[:1].lower()}{said[1:]}".lower()), (line, quoted)


def test_a_refusal_changes_nothing(played):
    assert all(refusal.unchanged for refusal in played.refusals)


def _bench():
    path = ROOT / "bench" / "refusal_widths.py"
    spec = importlib.util.spec_from_file_location("refusal_widths_bench", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bench_counts_no_refusal_of_the_session_over_80_columns(ruleset, tmp_path, monkeypatch):
    """``bench/refusal_widths.py`` notes every refusal built while the session plays and tells it as
    stderr does: none is wider than 80 columns, and each is the very line the command printed."""
    from yarnlog.core.referee import RuleViolation

    bench = _bench()
    noted = tmp_path / "noted"
    noted.mkdir()
    monkeypatch.setenv(bench.OUT, str(noted))
    monkeypatch.setattr(RuleViolation, "__init__", RuleViolation.__init__)  # put back after the test
    bench.pytest_configure(None)
    played = play(ruleset, tmp_path)
    bench.pytest_unconfigure(None)
    lines = bench.refusal_lines(noted)
    assert {refusal.plain.err.rstrip("\n") for refusal in played.refusals} <= set(lines)
    assert [line for line in lines if len(line) > bench.WIDTH] == []
