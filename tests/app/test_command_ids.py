"""Writes that happen once: a command sent again with its id records nothing and gets back what it
recorded the first time (a crash right after the commit, a lost connection); the same id with
another command is refused."""

from __future__ import annotations

import json
import uuid

import pytest
from conftest import seat_lantern
from sqlalchemy import text

from yarnlog.app.command_ids import command_digest, command_key
from yarnlog.app.journal import Journal
from yarnlog.cli.main import EXIT_CODES
from yarnlog.core.envelope import NewEvent
from yarnlog.core.referee import InvalidCommand
from yarnlog.core.table import AddParticipant
from yarnlog.core.timeline import AddNote
from yarnlog.persistence.factory import open_store
from yarnlog.persistence.protocol import CommandKey, ConcurrencyConflict, StoreError


def note(text_: str) -> NewEvent:
    return NewEvent(str(uuid.uuid4()), "note", 1, "2026-11-21T20:00:00.000000Z", "Maya", "everyone", {"text": text_})


# -- the store keeps the id beside the events ---------------------------------------------------


def test_the_store_returns_the_events_a_command_id_recorded_and_nothing_else(any_store):
    any_store.append("c", 0, [note("before")])
    written = any_store.append("c", 1, [note("a"), note("b"), note("c")], command=CommandKey("k1", "d1"))
    any_store.append("c", 4, [note("after, no id")])
    any_store.append("c", 5, [note("another command")], command=CommandKey("k2", "d2"))
    found = any_store.recorded_command("c", "k1")
    assert found is not None and (found.digest, found.events) == ("d1", written)
    assert any_store.recorded_command("c", "k2").events == any_store.read("c", after=5)
    assert any_store.recorded_command("c", "unknown") is None
    assert any_store.recorded_command("other", "k1") is None  # an id is a campaign's own


def test_the_store_refuses_a_second_append_with_the_same_command_id(any_store):
    any_store.append("c", 0, [note("a")], command=CommandKey("k1", "d1"))
    with pytest.raises(ConcurrencyConflict):  # the caller re-reads, and finds the id recorded
        any_store.append("c", 1, [note("again")], command=CommandKey("k1", "d1"))
    any_store.append("d", 0, [note("same id, another campaign")], command=CommandKey("k1", "d1"))
    assert [len(any_store.read(c)) for c in ("c", "d")] == [1, 1]


def test_a_journal_made_before_command_ids_gets_them_at_its_first_append(db_url):
    store = open_store(db_url)
    store.append("c", 0, [note("old")])
    with store.engine.begin() as conn:  # the events table as an earlier version made it
        conn.execute(text("DROP INDEX events_command"))
        conn.execute(text("ALTER TABLE events DROP COLUMN command_digest"))
        conn.execute(text("ALTER TABLE events DROP COLUMN command_id"))
    store.close()
    old = open_store(db_url, create=False)  # as the command line opens an existing journal
    try:
        assert old.recorded_command("c", "k1") is None
        old.append("c", 1, [note("new")], command=CommandKey("k1", "d1"))
        assert old.recorded_command("c", "k1").events == old.read("c", after=1)
        with pytest.raises(ConcurrencyConflict):
            old.append("c", 2, [note("again")], command=CommandKey("k1", "d1"))
        assert [r.payload for r in old.read("c")] == ['{"text":"old"}', '{"text":"new"}']
    finally:
        old.close()


# -- the journal: sent again, recorded once ------------------------------------------------------


def test_a_command_sent_again_with_its_id_returns_what_it_recorded_and_writes_nothing(journal, campaign):
    key = command_key("table-7", AddNote(text="The fog rolls in."))
    first = journal.execute(campaign, AddNote(text="The fog rolls in."), command_key=key)
    assert not first.already_recorded
    head = journal.store.last_sequence(campaign)
    again = journal.execute(campaign, AddNote(text="The fog rolls in."), command_key=key)
    assert again.already_recorded and again == first
    assert journal.store.last_sequence(campaign) == head


def test_the_same_id_with_another_command_is_refused_and_writes_nothing(journal, campaign):
    fog = AddNote(text="The fog rolls in.")
    journal.execute(campaign, fog, command_key=command_key("k", fog))
    head = journal.store.last_sequence(campaign)
    with pytest.raises(InvalidCommand, match="command id 'k' already recorded another command") as refused:
        journal.execute(campaign, AddNote(text="Ana lies."), command_key=command_key("k", AddNote(text="Ana lies.")))
    assert refused.value.exit_code == EXIT_CODES["invalid"]
    assert journal.store.last_sequence(campaign) == head


def test_who_records_a_command_and_its_override_are_part_of_what_the_id_names():
    move = AddNote(text="x")
    assert command_digest(move) == command_digest(AddNote(text="x"))
    assert len({command_digest(move), command_digest(move, by="Ana"), command_digest(move, visibility="gm"),
                command_digest(AddNote(text="y"))}) == 4


@pytest.mark.parametrize("bad", ["", "a b", "x" * 65, "-lead", "semi;colon", "new\nline"])
def test_a_command_id_is_refused_unless_it_is_a_plain_token(bad):
    with pytest.raises(InvalidCommand, match="a command id is 1 to 64"):
        command_key(bad, AddNote(text="x"))


class CrashAfterCommit:
    """A store whose append commits and then loses the connection before the answer comes back."""

    def __init__(self, store):
        self.store = store

    def __getattr__(self, name):
        return getattr(self.store, name)

    def append(self, *args, **kwargs):
        self.store.append(*args, **kwargs)
        raise StoreError("the journal database failed: server closed the connection unexpectedly")


def test_a_command_re_run_after_a_crash_right_after_its_commit_is_recorded_once(db_url):
    setup = Journal(open_store(db_url))
    cid = seat_lantern(setup)
    setup.close()
    move = AddParticipant(name="Dee")
    key = command_key("after-the-crash", move)
    crashing = Journal(CrashAfterCommit(open_store(db_url, create=False)))
    with pytest.raises(StoreError):
        crashing.execute(cid, move, command_key=key)  # the user saw an error: was it recorded?
    crashing.close()
    rerun = Journal(open_store(db_url, create=False))  # the command run again, in a new process
    try:
        again = rerun.execute(cid, move, command_key=key)
        assert again.already_recorded
        assert [(r.event_type, r.payload.name) for r in again] == [("participant.joined", "Dee")]
        joined = [r for r in rerun.history(cid) if r.event_type == "participant.joined" and r.payload.name == "Dee"]
        assert joined == list(again)
        assert rerun.verify(cid).ok
    finally:
        rerun.close()


# -- the command line ----------------------------------------------------------------------------


@pytest.fixture
def harbor(cli):
    assert cli("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya")[0] == 0
    return cli


def test_a_write_run_again_with_its_command_id_says_already_recorded_and_writes_nothing(harbor):
    code, out, err = harbor("join", "Ana", "--command-id", "join-ana", "--json")
    assert (code, err) == (0, "")
    [joined] = json.loads(out)
    assert (joined["command_id"], joined["already_recorded"]) == ("join-ana", False)
    code, out, err = harbor("join", "Ana", "--command-id", "join-ana")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "Already recorded by command join-ana: nothing written."
    code, out, _ = harbor("join", "Ana", "--command-id", "join-ana", "--json")
    assert [(e["sequence"], e["already_recorded"]) for e in json.loads(out)] == [(joined["sequence"], True)]
    code, out, err = harbor("join", "Ben", "--command-id", "join-ana")
    assert code == EXIT_CODES["invalid"] and err.count("\n") == 1 and "another command" in err
    assert [e["payload"]["name"] for e in json.loads(harbor("log", "--json")[1])[1:]] == ["Ana"]


def test_a_write_without_an_id_gets_a_new_one_shown_with_json_and_verbose(harbor):
    code, out, _ = harbor("join", "Ana", "--json")
    minted = json.loads(out)[0]["command_id"]
    assert code == 0 and minted
    code, out, err = harbor("--verbose", "join", "Ben")
    assert code == 0 and err.startswith("command id ") and err.split()[2] != minted
    rerun = err.split()[2]
    assert harbor("join", "Ben", "--command-id", rerun)[1].startswith("Already recorded")


def test_init_run_again_with_its_command_id_is_already_recorded(cli):
    args = ("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya", "--command-id", "start")
    assert cli(*args)[0] == 0
    code, out, err = cli(*args)
    assert (code, err) == (0, "") and out.startswith("Already recorded by command start")
    code, _, err = cli("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya")
    assert code == EXIT_CODES["rule"] and "already exists" in err


def test_every_write_offers_a_command_id_and_no_read_does():
    import typer

    from yarnlog.cli.main import app
    from yarnlog.cli.verbs import commands_of

    def leaves(command, path):
        subcommands = getattr(command, "commands", None)
        if not subcommands:
            yield " ".join(path), command
            return
        for name, sub in subcommands.items():
            yield from leaves(sub, [*path, name])

    commands = dict(leaves(typer.main.get_command(app), []))
    commands.update(leaf for verb, command in commands_of("yarn").items() for leaf in leaves(command, [verb]))

    def offers(command) -> bool:
        return "--command-id" in {opt for param in command.params for opt in getattr(param, "opts", [])}

    writes = {"init", "join", "note", "correct", "episode start", "roll", "call", "petition", "xp award"}
    reads = {"verify", "export", "log", "status", "tokens", "ledger", "sheet", "recap", "import"}
    assert writes <= {name for name, command in commands.items() if offers(command)}
    assert reads.isdisjoint({name for name, command in commands.items() if offers(command)})
