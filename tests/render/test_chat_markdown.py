"""Issue 26: ``recap --format chat`` shows no Mermaid and no tables, in messages within 2,000
characters: a ruleset without a chat template of its own (Dramatis Personae) posts its Markdown recap
with the diagrams left out and each table told one line per row."""

from __future__ import annotations

from pathlib import Path

from yarnlog.render.chat import SEPARATOR, chat_markdown

JOURNALS = Path(__file__).resolve().parents[2] / "journals"

MARKDOWN = """# A recap

```mermaid
graph LR
  A --> B
```

Scene 1: Bryn rolls.

| Character | Level | Pool |
| --- | --- | --- |
| Bryn | 2 | 2 of 4 |
| Faust | 2 |  |

<svg><text>map</text></svg>
The end.
"""


def test_diagrams_are_left_out_and_tables_told_row_by_row():
    chat = chat_markdown(MARKDOWN)
    assert "mermaid" not in chat and "-->" not in chat and "|" not in chat and "<svg" not in chat
    assert "Bryn: Level 2, Pool 2 of 4\nFaust: Level 2\n" in chat
    assert chat.startswith("# A recap") and "Scene 1: Bryn rolls." in chat and chat.rstrip().endswith("The end.")


def test_the_dramatis_personae_sample_posts_to_a_chat(cli):
    code, _, err = cli("import", str(JOURNALS / "brocken.jsonl"))
    assert code == 0, err
    for audience in ([], ["--players"], ["--as", "Ana"]):
        code, text, err = cli("recap", "--series", "--format", "chat", *audience)
        assert code == 0, err
        parts = text.rstrip("\n").split(SEPARATOR)
        assert all(0 < len(part) <= 2000 for part in parts), [len(p) for p in parts]
        assert "mermaid" not in text and "| --- |" not in text and "\n|" not in text and "<svg" not in text
        assert "Bryn rolls" in text
    code, md, _ = cli("recap", "--series", "--format", "md")
    assert code == 0 and "| --- |" in md  # the Markdown recap keeps its table
