"""``verify`` names any event of a ruleset that no command could have produced (property-based).

The forgeries are drawn from the ruleset's own session: one of its events, recorded after the table
and its characters were registered, is made to name someone no one registered (a participant, the
GM or a character by a name never seen), in a value or a key at any depth. No command can produce
it: every command matches names to the registered ones. The forged event is sealed into the chain
as a writer with the database file would seal it (the insert guards dropped, its hash computed), so
only the payload tells. ``verify`` must name it; ``import`` of the same lines must refuse it.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yarnlog.persistence.factory import open_store

from .playing import Played, run

#: A name no session registers: nothing the journal holds starts with "Qz".
UNKNOWN = st.from_regex(r"\AQz[a-z]{2,8}\Z")


def _lines(played: Played) -> list[dict]:
    return [json.loads(line) for line in played.export.splitlines() if not line.startswith('{"trailer"')]


def _registered(lines: list[dict]) -> list[set[str]]:
    """The names registered before each line: the GM, and the top-level ``name`` of any event (the
    participants, the characters and whatever else a ruleset registers by name)."""
    found, before = set(), []
    for line in lines:
        before.append(set(found))
        payload = line["payload"]
        if line["event_type"] == "campaign.created":
            found.add(payload["gm"])
        elif isinstance(payload.get("name"), str):
            found.add(payload["name"])
    return before


def _references(value, names: set[str], path=()):
    """Every place in ``value`` (a value or a mapping's key) that holds one of ``names``, by its path."""
    if isinstance(value, str) and value in names:
        yield path
    elif isinstance(value, dict):
        for key, inner in value.items():
            if key in names:
                yield (*path, ("key", key))
            yield from _references(inner, names, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _references(inner, names, (*path, index))


def _renamed(value, path, name: str):
    if not path:
        return name
    step, rest = path[0], path[1:]
    if isinstance(step, tuple):  # the key itself
        return {(name if key == step[1] else key): inner for key, inner in value.items()}
    if isinstance(value, dict):
        return {**value, step: _renamed(value[step], rest, name)}
    return [_renamed(inner, rest, name) if index == step else inner for index, inner in enumerate(value)]


def forgeable(played: Played) -> list[tuple[int, tuple]]:
    """(line, path) of every reference to a registered name in an event of the ruleset."""
    lines = _lines(played)
    registered = _registered(lines)
    return [(index, path) for index, line in enumerate(lines) if line["event_type"].startswith(f"{played.name}.")
            for path in _references(line["payload"], registered[index])]


def _write(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return path


def sealed(line: dict) -> dict:
    """``line`` with the hash the journal computes for it (the chain's own function)."""
    from yarnlog.core.chain import event_hash

    return {**line, "hash": event_hash(line, line["payload"], line["prev_hash"])}


def _insert_forged(db: Path, line: dict) -> None:
    """What a writer with the database file can do: lift the insert guards and append a row sealed
    with the journal's own hash."""
    from yarnlog.core.chain import canonical

    with sqlite3.connect(db) as conn:
        conn.execute("DROP TRIGGER events_chain_on_insert")
        conn.execute("DROP TRIGGER events_hash_on_insert")
        conn.execute(
            "INSERT INTO events (position, campaign_id, sequence, event_id, event_type, schema_version, recorded_at, "
            "recorded_by, visibility, payload, prev_hash, hash) "
            "VALUES ((SELECT COALESCE(MAX(position), 0) + 1 FROM events), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (line["campaign_id"], line["sequence"], line["event_id"], line["event_type"], line["schema_version"],
             line["recorded_at"], line["recorded_by"], line["visibility"], canonical(line["payload"]),
             line["prev_hash"], line["hash"]))
    conn.close()
    # The forger puts the guards back (the owner's next open would), so verify judges the row alone.
    open_store(db).close()


def test_the_session_has_events_of_the_ruleset_to_forge(played):
    assert len(forgeable(played)) >= 3


@settings(max_examples=20, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_verify_names_an_event_of_the_ruleset_no_command_could_produce(played, data):
    lines = _lines(played)
    index, path = data.draw(st.sampled_from(forgeable(played)), label="reference")
    name = data.draw(UNKNOWN, label="name")
    forged = sealed({**lines[index], "payload": _renamed(lines[index]["payload"], path, name)})
    shown = f"event {forged['sequence']} ({forged['event_type']}) naming {name} at {path}"

    # The journal before it, as an export of it imports; then the forged row behind the code.
    workdir = played.fresh_db().with_suffix("")
    workdir.mkdir()
    db = workdir / "forged.db"
    prefix = _write(workdir / "prefix.jsonl", lines[:index])
    done = run(db, "import", "--without-trailer", str(prefix))
    assert done.code == 0, done
    _insert_forged(db, forged)

    verified = run(db, "verify", "--json")
    assert verified.code == 1, f"verify passes {shown}"
    faults = json.loads(verified.out)["faults"]
    assert any(fault["sequence"] == forged["sequence"] for fault in faults), (shown, faults)

    refused = run(workdir / "imported.db", "import", "--without-trailer",
                  str(_write(workdir / "forged.jsonl", [*lines[:index], forged])))
    assert refused.code in (2, 3), f"import takes {shown}: {refused}"


def test_a_row_sealed_the_same_way_but_as_recorded_verifies(played):
    """The control: the forgery's path with the event as the session recorded it is no fault, so
    what ``verify`` names above is the name, not the way the row was written."""
    lines = _lines(played)
    index, _ = forgeable(played)[-1]
    workdir = played.fresh_db().with_suffix("")
    workdir.mkdir()
    db = workdir / "control.db"
    assert run(db, "import", "--without-trailer", str(_write(workdir / "prefix.jsonl", lines[:index]))).code == 0
    _insert_forged(db, sealed(lines[index]))
    verified = run(db, "verify", "--json")
    assert verified.code == 0, verified.out
