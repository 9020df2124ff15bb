"""Tab in ``yarnlog play`` completes a character argument with the campaign's characters, whatever its
ruleset: the completer asks the ruleset for its names through the seam (``Rules.names``), and offers
the locations it registers for a location, not for a character."""

from __future__ import annotations

from pathlib import Path

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from yarnlog.cli.completion import PlayCompleter, verb_tree, vocabulary
from yarnlog.cli.context import campaign_state

JOURNALS = Path(__file__).resolve().parents[2] / "journals"


def completer_for(cli, journal: str, campaign: str) -> PlayCompleter:
    assert cli("import", str(JOURNALS / journal))[0] == 0
    words = vocabulary(campaign_state(campaign, None, None))
    return PlayCompleter(verb_tree(None, campaign), lambda: words)


def offered(completer: PlayCompleter, text: str) -> set[str]:
    return {c.text for c in completer.get_completions(Document(text), CompleteEvent())}


@pytest.mark.parametrize(("journal", "campaign", "line", "characters"), [
    ("copper-reef.jsonl", "reef", "sheet ", {"Mara Quell", "Otto Brand", "Lio Fenn", "Sable Roux"}),  # DramaSystem
    ("brocken.jsonl", "brocken", "award ", {"Faust", "Bryn", "Hound", "Grete"}),  # Dramatis Personae
    ("knotted-sea.jsonl", "sea", "harm ", {"Christopher", "Bob", "Abigail", "Captain Rook"}),  # Will & descriptors
    ("ashen-library.jsonl", "ashen", "raise ", {"Wren", "Tor", "Sable"}),  # Yarn, polyhedral
])
def test_a_character_argument_completes_with_the_rulesets_characters(cli, journal, campaign, line, characters):
    completer = completer_for(cli, journal, campaign)
    got = offered(completer, line)
    assert characters <= {name.strip("'\"") for name in got}, got
    first = sorted(characters)[0]
    assert {name.strip("'\"") for name in offered(completer, line + first[:2])} >= {first}


def test_a_location_the_ruleset_registers_is_not_offered_as_a_character(cli):
    completer = completer_for(cli, "copper-reef.jsonl", "reef")  # DramaSystem registers locations too
    words = vocabulary(campaign_state("reef", None, None))
    assert "the Sister's wreck" in words.places and "the Sister's wreck" not in words.characters
    assert not any("wreck" in name for name in offered(completer, "sheet "))
