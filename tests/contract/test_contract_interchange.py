"""A ruleset's campaign exported and imported into an empty journal exports byte for byte the same."""

from __future__ import annotations

from .playing import run


def test_export_then_import_is_byte_identical(played, tmp_path):
    path = tmp_path / "session.jsonl"
    path.write_text(played.export, encoding="utf-8")
    fresh = played.fresh_db()
    done = run(fresh, "import", str(path))
    assert done.code == 0, done
    again = run(fresh, "export")
    assert again.code == 0, again
    assert again.out.encode("utf-8") == played.export.encode("utf-8")
    verified = run(fresh, "verify")
    assert verified.code == 0, verified
