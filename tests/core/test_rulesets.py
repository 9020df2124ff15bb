"""The ruleset seam: each of the five systems is a ruleset of the same journal."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.installed import RULESETS
from yarnlog.core.ruleset import DEFAULT_RULESET, get_ruleset
from yarnlog.core.timeline import AddNote, OpenScene, StartEpisode

SEEDS = ["000_548678c832322f1b.txt", "001_d92eeb8e25f80b6a.txt", "002_7af0b39949a564d4.txt",
         "003_e72cdbaaf570012c.txt", "004_6e81f54c2e20d842.txt"]


def test_yarn_is_the_default():
    assert DEFAULT_RULESET == "yarn"


def test_every_rule_book_has_a_ruleset():
    assert sorted(get_ruleset(name).book for name in RULESETS) == SEEDS


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_each_ruleset_keeps_a_campaign_in_the_same_store(journal, name):
    journal.create_campaign(f"c-{name}", title=name, gm="Maya", ruleset=name)
    journal.execute(f"c-{name}", StartEpisode(title="One"))
    journal.execute(f"c-{name}", OpenScene(caller="Maya"))
    journal.execute(f"c-{name}", AddNote(text="play"))
    assert journal.state(f"c-{name}").ruleset.name == name
    assert verify(journal.store.read(f"c-{name}"), f"c-{name}").ok


def test_an_event_of_another_ruleset_is_a_fault(store):
    import uuid

    from yarnlog.core.envelope import NewEvent

    created = {"campaign_id": "c", "title": "T", "ruleset": "will-descriptors", "gm": "Maya", "options": {}}
    store.append("c", 0, [NewEvent(str(uuid.uuid4()), "campaign.created", 1, "2026-11-21T20:00:00Z", "Maya",
                                   "everyone", created)])
    store.append("c", 1, [NewEvent(str(uuid.uuid4()), "yarn.bogus", 1, "2026-11-21T20:00:00Z", "Maya",
                                   "everyone", {})])
    faults = verify(store.read("c"), "c").faults
    assert faults and faults[0].sequence == 2


def test_a_rulesets_events_are_readable_before_the_ruleset_is_imported():
    """Rulesets load lazily; reading one of their events imports the ruleset named by its prefix."""
    import subprocess
    import sys

    code = (
        "import sys; from yarnlog.core.events import load_payload; "
        "assert 'yarnlog.rulesets.yarn.ruleset' not in sys.modules; "
        "p = load_payload('yarn.tokens.transferred', 1, {'reason': 'ruling', 'transfers': [{'amount': 1, "
        "'source': 'kitty', 'destination': 'Ana', 'chapter': 'Tokens', 'rule': 'As ruled by the GM.'}]}); "
        "print(type(p).__name__)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "TokensTransferred"
