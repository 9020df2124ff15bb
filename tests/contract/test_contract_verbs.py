"""Every verb of every ruleset's campaign takes ``--json``, and answers in JSON with it."""

from __future__ import annotations

import json

from .playing import verbs


def test_every_verb_takes_json(played):
    found = verbs(played)
    assert len(found) > 10  # the journal's own verbs at least: the help was read
    assert [" ".join(path) for path, options in found.items() if "--json" not in options] == []


def test_every_line_of_the_session_answers_in_json(played):
    assert played.runs
    for done in played.runs:
        json.loads(done.out)


def test_every_read_a_player_may_ask_for_answers_in_json(played):
    """Each verb that takes ``--as`` (a read), as the ruleset's player and as the GM."""
    reads = [path for path, options in verbs(played).items() if "--as" in options]
    assert reads
    for path in reads:
        args = played.material.READ_ARGS.get(path, ())
        for viewer in (("--as", played.material.PLAYER), ()):
            done = played.run(*path, *args, *viewer, "--json")
            assert done.code == 0, done
            json.loads(done.out)
