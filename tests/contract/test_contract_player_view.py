"""A player's view of any read never shows a GM-only event planted in the campaign (a GM-only note,
a secret roll, the GM's hidden token...): neither its event nor the words it hides, in words or in
JSON. The GM's own view shows them, so the check can fail."""

from __future__ import annotations

from .playing import verbs


def _reads(played) -> list[tuple[str, ...]]:
    return [path for path, options in verbs(played).items() if "--as" in options]


def _outputs(played, path, viewer: tuple[str, ...]) -> str:
    args = played.material.READ_ARGS.get(path, ())
    shown = []
    for as_json in ((), ("--json",)):
        done = played.run(*path, *args, *viewer, *as_json)
        assert done.code == 0, done
        shown.append(done.out + done.err)
    return "\n".join(shown)


def test_the_session_plants_gm_only_events(played):
    assert played.planted, "a ruleset's PLANTED lines record at least one GM-only event"
    assert any(secret for _, secret in played.planted), "at least one planted event hides words"


def test_the_gm_reads_what_was_planted(played):
    log = played.run("log", "--json")
    assert log.code == 0, log
    for event_id, secret in played.planted:
        assert event_id in log.out
        assert secret is None or secret in log.out


def test_no_read_shows_a_player_what_was_planted_for_the_gm(played):
    for path in _reads(played):
        shown = _outputs(played, path, ("--as", played.material.PLAYER))
        for event_id, secret in played.planted:
            assert event_id not in shown, f"'{' '.join(path)} --as' shows the GM-only event {event_id}"
            assert secret is None or secret.lower() not in shown.lower(), \
                f"'{' '.join(path)} --as' shows the GM's secret {secret!r}"


def test_a_players_recap_and_sheet_in_every_format_keep_the_secrets(played):
    player, secrets = played.material.PLAYER, [secret for _, secret in played.planted if secret]
    for args in (("recap",), ("sheet", played.material.SHEET)):
        for form in ("md", "html"):
            done = played.run(*args, "--format", form, "--as", player)
            if done.code == 2 and "--as" in done.err:  # a sheet without a player's view shows no GM event
                done = played.run(*args, "--format", form)
            assert done.code == 0, done
            assert not [secret for secret in secrets if secret.lower() in done.out.lower()], done.args
