"""The code digest that keys snapshots and views is cached by the files' stat, never served stale."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from yarnlog.app.code_digest import cached_digest, code_digest, source_digest, source_files, source_roots


@pytest.fixture
def package(tmp_path) -> Path:
    """A small package of source files, as the core or a ruleset's package is."""
    root = tmp_path / "src" / "pkg"
    (root / "sub").mkdir(parents=True)
    (root / "a.py").write_text("RULE = 1\n")
    (root / "sub" / "b.py").write_text("FOLD = 2\n")
    (root / "notes.txt").write_text("not source\n")
    return root


def test_the_digest_is_the_source_s_and_is_kept_for_the_next_process(package, tmp_path):
    cache = tmp_path / "cache" / "digest"
    fresh = source_digest(source_files([package]))
    assert cached_digest([package], cache, settle=0) == fresh
    kept = json.loads(cache.read_text())
    assert kept["digest"] == fresh
    # The next process reads it from the cache (a digest planted under the very same key is served).
    cache.write_text(json.dumps({**kept, "digest": "planted"}))
    assert cached_digest([package], cache, settle=0) == "planted"


def test_a_changed_file_is_hashed_again_even_with_its_size_and_mtime_restored(package, tmp_path):
    cache = tmp_path / "digest"
    before = cached_digest([package], cache, settle=0)
    source = package / "a.py"
    stat = source.stat()
    source.write_text("RULE = 7\n")  # same size
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # and the same modification time
    after = cached_digest([package], cache, settle=0)
    assert after != before and after == source_digest(source_files([package]))


def test_files_changed_just_now_are_hashed_but_not_cached(package, tmp_path):
    cache = tmp_path / "digest"
    assert cached_digest([package], cache, settle=3600) == source_digest(source_files([package]))
    assert not cache.exists()


def test_an_unreadable_cache_or_cache_folder_is_ignored(package, tmp_path):
    fresh = source_digest(source_files([package]))
    cache = tmp_path / "digest"
    cache.write_text("{not json")
    assert cached_digest([package], cache, settle=0) == fresh
    blocked = tmp_path / "a-file" / "digest"  # its folder is a file: nothing can be written there
    blocked.parent.write_text("")
    assert cached_digest([package], blocked, settle=0) == fresh


def test_yarn_s_digest_covers_the_core_the_shared_core_and_the_ruleset_package(monkeypatch, tmp_path):
    roots = source_roots("yarn")
    assert [r.name for r in roots] == ["core", "rulesets"] and all(r.is_dir() for r in roots)
    files = source_files(roots)
    assert any(f.endswith(os.path.join("yarn", "rules", "dice.py")) for f in files)
    assert any(f.endswith(os.path.join("scenes_and_tokens", "parts", "petitions.py")) for f in files)
    monkeypatch.setenv("YARNLOG_CACHE_DIR", str(tmp_path))
    code_digest.cache_clear()
    try:
        assert code_digest("yarn") == source_digest(files)
    finally:
        code_digest.cache_clear()


def test_a_ruleset_s_pages_are_not_part_of_the_digest(package, tmp_path):
    before = source_digest(source_files([package]))
    (package / "pages.py").write_text("BOARD = 'drawn from a state, never kept'\n")
    assert source_digest(source_files([package])) == before
    (package / "sub" / "b.py").write_text("FOLD = 3\n")  # a fold's change still changes it
    assert source_digest(source_files([package])) != before
