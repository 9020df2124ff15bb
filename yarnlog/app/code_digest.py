"""The digest of the code that makes a snapshot: the source of the core and of the rulesets.

Snapshots and views are keyed by it (:mod:`yarnlog.app.snapshots`), so that one written by other
code is never read. Hashing every source file would be most of reading a stored view in a fresh
process, so the digest is kept in a small cache file, keyed by every file's path,
size, modification and change times (nanoseconds) and inode. Writing a file in any way sets its
change time, which no program can set back, so a stale digest is never served. As git does for
its index, a digest is not cached while a file changed in the last :data:`SETTLE` seconds: two
writes that close together might leave a coarse file system clock unchanged. The cache is only
ever a shortcut: one that cannot be read or written is ignored and the digest computed.

The cache lives in the user's cache directory (:func:`cache_dir`).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import time
from pathlib import Path

#: Files changed this recently (seconds) make a digest that is computed but not cached.
SETTLE = 2.0


def cache_dir() -> Path:
    """Where yarnlog keeps its caches: ``YARNLOG_CACHE_DIR``, else ``yarnlog`` in the XDG cache
    directory (``XDG_CACHE_HOME``, by default ``~/.cache``). Not platformdirs: importing it costs
    more start-up (it imports tempfile) than the cache saves."""
    named = os.environ.get("YARNLOG_CACHE_DIR")
    if named:
        return Path(named)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "yarnlog"


def source_roots(ruleset_name: str) -> list[Path]:
    """The folders whose source makes a campaign's state: the core's, every package under
    ``yarnlog/rulesets/`` (a ruleset may compose the shared ones), and the ruleset's own package,
    found from its entry point without importing it (``pkg.ruleset:RULESET`` names ``pkg/``)."""
    from yarnlog.core.installed import RULESETS

    package = Path(__file__).resolve().parent.parent
    roots = [package / "core", package / "rulesets"]
    try:
        spec = importlib.util.find_spec(RULESETS[ruleset_name].split(":")[0])
        if spec is not None and spec.origin:
            own = Path(spec.origin).resolve().parent
            if not own.is_relative_to(package / "rulesets"):
                roots.append(own)
    except (KeyError, ImportError, ValueError):
        pass
    return roots


#: Source that makes nothing kept beside the events: a ruleset's web pages draw from a state and
#: are never stored, so editing one must not make a server replay its campaigns at the next start.
NOT_KEPT = frozenset({"pages.py"})


def source_files(roots: list[Path]) -> list[str]:
    """Every ``*.py`` under ``roots`` but :data:`NOT_KEPT`, sorted (``os.walk`` and plain strings: a
    tenth of the time of ``Path.rglob``, and this runs in every process that reads a view)."""
    return sorted(os.path.join(folder, name) for root in roots for folder, _, names in os.walk(root)
                  for name in names if name.endswith(".py") and name not in NOT_KEPT)


def source_digest(files: list[str]) -> str | None:
    """SHA-256 of ``files``' names (their folder and file name) and contents; ``None`` when one
    cannot be read."""
    digest = hashlib.sha256()
    try:
        for path in files:
            folder, name = os.path.split(path)
            with open(path, "rb") as source:
                digest.update(f"{os.path.basename(folder)}/{name}".encode() + b"\0" + source.read() + b"\0")
    except OSError:
        return None
    return digest.hexdigest()


def stat_key(files: list[str], settle: float = SETTLE) -> str | None:
    """What the cache is keyed by: a hash of every file's path, size, times and inode; ``None``
    when a file cannot be read or changed less than ``settle`` seconds ago (not cacheable yet)."""
    recent = time.time_ns() - int(settle * 1e9)
    key = hashlib.sha256()
    for path in files:
        try:
            st = os.stat(path)
        except OSError:
            return None
        if max(st.st_mtime_ns, st.st_ctime_ns) > recent:
            return None
        key.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}\0{st.st_ino}\n".encode())
    return key.hexdigest()


def cached_digest(roots: list[Path], cache_file: Path | None, settle: float = SETTLE) -> str | None:
    """The digest of every ``*.py`` under ``roots`` (``None`` if none can be read), from
    ``cache_file`` when it was taken of these very files, else computed and kept there."""
    files = source_files(roots)
    if not files:
        return None
    key = stat_key(files, settle)
    if key is not None and cache_file is not None:
        try:
            kept = json.loads(cache_file.read_text(encoding="utf-8"))
            if isinstance(kept, dict) and kept.get("key") == key and isinstance(kept.get("digest"), str):
                return str(kept["digest"])
        except (OSError, ValueError):
            pass
    digest = source_digest(files)
    if digest is not None and key is not None and cache_file is not None:
        try:
            cache_file.parent.mkdir(parents=True, exist_ok=True)
            partial = cache_file.with_name(f"{cache_file.name}.{os.getpid()}")
            partial.write_text(json.dumps({"key": key, "digest": digest}), encoding="utf-8")
            os.replace(partial, cache_file)  # whole or not at all, whoever else writes it
        except OSError:
            pass
    return digest


@functools.cache
def code_digest(ruleset_name: str) -> str:
    """A digest of the source of the core and of the ruleset's package, without importing the ruleset.

    When no source can be read (a frozen install), the installed version of yarnlog stands in.
    """
    roots = source_roots(ruleset_name)
    try:  # one file per set of folders: two installs (or work trees) on one machine keep their own
        cache_file: Path | None = cache_dir() / f"code-digest-{hashlib.sha256(str(roots).encode()).hexdigest()[:16]}"
    except Exception:  # no cache directory to be had (no home, say): compute the digest every time
        cache_file = None
    digest = cached_digest(roots, cache_file)
    if digest is not None:
        return digest
    from importlib.metadata import PackageNotFoundError, version

    try:
        return "version:" + version("yarnlog")
    except PackageNotFoundError:
        return "unknown"
