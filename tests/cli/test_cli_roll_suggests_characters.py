"""A roll is a character's: a refusal that names an unknown roller suggests a character, never a player
(``harbor_scene``: Ana plays Iris, Ben plays Tomas, Maya is the GM)."""

from __future__ import annotations

from yarnlog.cli.main import EXIT_CODES


def test_an_unknown_roller_near_a_players_name_is_not_offered_the_player(harbor_scene):
    code, out, err = harbor_scene("roll", "Ama", "--trait", "Brawler", "--faces", "3,4")
    assert code == EXIT_CODES["invalid"] and out == "" and err.count("\n") == 1
    assert "Ama" in err and "did you mean" not in err and "Ana" not in err
    code, _, err = harbor_scene("roll", "Mya", "--trait", "Brawler", "--faces", "3,4")  # nor the GM
    assert code == EXIT_CODES["invalid"] and "Maya" not in err


def test_an_unknown_roller_near_a_characters_name_is_offered_the_character(harbor_scene):
    code, out, err = harbor_scene("roll", "Tomass", "--trait", "Brawler", "--faces", "3,4")
    assert code == EXIT_CODES["invalid"] and out == "" and err.count("\n") == 1
    assert err.rstrip().endswith("did you mean Tomas?")


def test_a_participant_named_where_a_participant_goes_is_still_offered_the_participant(harbor_scene):
    code, _, err = harbor_scene("note", "hi", "--by", "Mya")
    assert code == EXIT_CODES["invalid"] and "did you mean Maya?" in err
