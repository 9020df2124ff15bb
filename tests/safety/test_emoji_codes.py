"""Rich turns ``:name:`` into a picture unless told not to, even without markup: text people type
is printed as typed, in tables and in sentences."""


def test_an_emoji_code_in_a_note_is_printed_as_typed(cli):
    assert cli("init", "harbor", "--title", "Lantern :lantern: Harbor", "--gm", "Maya")[0] == 0
    code, out, err = cli("note", "the :lantern: is lit :smile:")
    assert code == 0, err
    assert ":lantern:" in out and "\N{IZAKAYA LANTERN}" not in out
    code, out, _ = cli("log")
    assert ":lantern:" in out and ":smile:" in out and "\N{IZAKAYA LANTERN}" not in out
    code, out, _ = cli("campaigns")
    assert "\N{IZAKAYA LANTERN}" not in out
