"""Property-based fuzzing of ``yarnlog import`` (issue 11): an export of a campaign in play, mutated
byte by byte, value by value (and then given a sound hash chain again, so the mutation reaches the
checks behind the chain's), or with hostile lines put in, imported into an empty journal and into
the journal that holds the campaign. No traceback ever; exit 0, 2 or 3; a rejection is one line on
stderr and leaves the journal's events byte for byte as they were."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fuzzing import NUMBERS, Journals, check_run, fuzz, run, text_values
from hypothesis import given
from hypothesis import strategies as st

from yarnlog.cli.context import close_journal
from yarnlog.core.chain import GENESIS, event_hash
from yarnlog.persistence.factory import open_store

SHEETS = Path(__file__).resolve().parents[2] / "journals" / "sheets"
#: Whole lines that are no event: hostile in their bytes, their JSON or their size.
HOSTILE_LINES = (b"[" * 50_000 + b"]" * 50_000, b'{"a": NaN}', b"\xff\xfe\x00\x01", b"\xef\xbb\xbf{}", b"{}" * 3,
                 b'"' + b"x" * (1 << 20) + b'"', b"1" * 5000, b'{"sequence": 1e999}', b"\r", b"\x00" * 10, b"null")


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Journals, Journals, list[dict]]:
    """(copies of the journal holding the campaign, copies of an empty journal, the campaign's export)."""
    workdir = tmp_path_factory.mktemp("fuzz-import")
    template = workdir / "template.db"
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("join", "Ana"), ("join", "Ben"),
                 ("character", "create", "Iris", "--from-file", str(SHEETS / "iris.json")),
                 ("episode", "start", "--title", "Fog"), ("call", "Ana", "--cast", "Iris", "--mode", "procedural"),
                 ("roll", "Iris", "--no-trait", "--faces", "3,4"), ("note", "the fog"), ("xp", "award", "1")):
        code, _, err = run(template, *args)
        assert code == 0, (args, err)
    code, out, _ = run(template, "export")
    close_journal()
    empty = workdir / "empty.db"
    open_store(empty).close()  # a journal with its tables and no campaign
    return Journals(template, workdir), Journals(empty, workdir), [json.loads(line) for line in out.splitlines()
                                                                   if not line.startswith('{"trailer"')]


def resealed(lines: list[dict]) -> list[dict]:
    """``lines`` with every prev_hash and hash worked out again: a chain no longer tells the change."""
    prev, sealed = GENESIS, []
    for line in lines:
        try:
            line = {**line, "prev_hash": prev}
            line["hash"] = prev = event_hash(line, line["payload"], prev)
        except Exception:  # a line the mutation made unhashable stays as it is
            pass
        sealed.append(line)
    return sealed


def hostile_values() -> st.SearchStrategy:
    leaf = st.one_of(text_values(), st.sampled_from(NUMBERS).map(lambda n: int(n) if n.lstrip("-").isdigit() else n),
                     st.integers(-(10 ** 40), 10 ** 40), st.floats(allow_nan=False), st.booleans(), st.none())
    return st.recursive(leaf, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                      st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                        max_leaves=8)


@st.composite
def mutated_value(draw, lines: list[dict]) -> list[dict]:
    """One field of one line, at any depth, given a hostile value (or removed); the chain resealed or not."""
    lines = json.loads(json.dumps(lines))
    target = draw(st.integers(0, len(lines) - 1))
    node = lines[target]
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, (dict, list)) and child and draw(st.booleans()):
            node = child
            continue
        if isinstance(node, dict) and draw(st.integers(0, 9)) == 0:
            del node[key]
        else:
            node[key] = draw(hostile_values())
        break
    return resealed(lines) if draw(st.booleans()) else lines


def _text(lines: list) -> bytes:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode("utf-8", "surrogatepass")


@st.composite
def mutated_files(draw, lines: list[dict]) -> bytes:
    how = draw(st.sampled_from(["value", "bytes", "line", "cut"]))
    if how == "value":
        return _text(draw(mutated_value(lines)))
    data = bytearray(_text(lines))
    if how == "bytes":
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(data) - 1))
            data[at:at + 1] = draw(st.binary(min_size=0, max_size=3))
    elif how == "line":
        at = draw(st.integers(0, len(lines)))
        text = _text(lines).split(b"\n")
        text.insert(at, draw(st.sampled_from(HOSTILE_LINES)))
        data = bytearray(b"\n".join(text))
    else:
        data = data[:draw(st.integers(0, len(data)))]
    return bytes(data)


@pytest.mark.slow
@fuzz(125)
@given(data=st.data())
def test_no_import_file_breaks_it(played, data):
    holding, empty, lines = played
    journals = data.draw(st.sampled_from([holding, empty]), label="into")
    content = data.draw(mutated_files(lines), label="file")
    without = data.draw(st.sampled_from([(), ("--without-trailer",)]), label="trailer")
    db = journals.fresh()
    path = journals.workdir / "fuzzed.jsonl"
    path.write_bytes(content)
    check_run(db, ("import", *without, str(path)))


@pytest.mark.slow
@fuzz(125)
@given(data=st.data())
def test_no_import_from_stdin_breaks_it(played, data):
    holding, empty, lines = played
    content = data.draw(mutated_files(lines), label="stdin")
    check_run(empty.fresh(), ("import", "--without-trailer", "-"), stdin=content)
