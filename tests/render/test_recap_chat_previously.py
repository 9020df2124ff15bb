"""``recap --format chat`` (messages for a group chat: no Mermaid, no tables, each within 2,000
characters) and ``recap --previously`` (a few sentences to read aloud), for both systems' samples."""

from __future__ import annotations

from pathlib import Path

import pytest

from yarnlog.render.chat import SEPARATOR, messages

JOURNALS = Path(__file__).resolve().parents[2] / "journals"
SAMPLES = {"lantern-harbor.jsonl": "Ana", "copper-reef.jsonl": "Ana"}


def _ok(cli, *args: str) -> str:
    code, out, err = cli(*args)
    assert code == 0, err
    return out


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_the_chat_recap_is_messages_without_diagrams_or_tables(cli, sample):
    _ok(cli, "import", str(JOURNALS / sample))
    for audience in ([], ["--players"], ["--as", SAMPLES[sample]]):
        text = _ok(cli, "recap", "--series", "--format", "chat", *audience)
        parts = text.rstrip("\n").split(SEPARATOR)
        assert len(parts) > 1
        assert all(0 < len(part) <= 2000 for part in parts), [len(p) for p in parts]
        assert "mermaid" not in text and "| --- |" not in text and "<svg" not in text
        assert "called a" in text  # the scenes' stories are there
    md = _ok(cli, "recap", "--series")
    assert "```mermaid" in md  # the Markdown recap does draw them


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_previously_is_short_enough_to_read_aloud(cli, sample):
    _ok(cli, "import", str(JOURNALS / sample))
    for audience in ([], ["--as", SAMPLES[sample]]):
        text = _ok(cli, "recap", "--previously", *audience)
        assert text.startswith("Previously, on ")
        assert len(text.split()) <= 160 and "\n" not in text.rstrip("\n")
        assert "token" not in text  # the story, not the ledger


def test_a_long_paragraph_is_cut_between_sentences_never_inside_a_word():
    paragraph = " ".join(f"Sentence number {n} tells what happened." for n in range(200))
    parts = messages(f"Title\n\n{paragraph}\n\nLast.", limit=300)
    assert all(len(p) <= 300 for p in parts)
    assert " ".join(" ".join(parts).split()) == " ".join(f"Title {paragraph} Last.".split())
    assert all(p.rstrip().endswith(".") or p == "Title" for p in parts)
