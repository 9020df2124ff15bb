"""Campaign settings, the seam's generic piece: a ruleset declares the numbers its book leaves open
(:class:`yarnlog.core.ruleset.Setting`), ``init --setting NAME=N`` records them in ``campaign.created``
and the table holds them. A campaign without settings is stored byte for byte as before they existed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from yarnlog.core.envelope import canonical
from yarnlog.core.events import payload_class
from yarnlog.core.referee import InvalidCommand, Referee
from yarnlog.core.ruleset import Setting, chosen_settings, get_ruleset
from yarnlog.core.state import empty_state
from yarnlog.core.table import CampaignCreated, Table, evolve_table
from yarnlog.core.validation import validate_created

JOURNALS = Path(__file__).resolve().parents[2] / "journals"


@pytest.mark.parametrize("export", sorted(JOURNALS.glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_sample_campaigns_first_event_serializes_to_its_stored_bytes(export):
    """The samples' first events read and written again give the same canonical bytes: ``settings``
    appears only in a campaign that has some."""
    stored = json.loads(export.read_text(encoding="utf-8").splitlines()[0])
    payload = payload_class(stored["event_type"]).model_validate(stored["payload"])
    assert canonical(payload.to_data()) == canonical(stored["payload"])
    # a ruleset whose settings all lack a book default records none unless the GM chose some
    defaults = chosen_settings(get_ruleset(stored["payload"]["ruleset"]), {})
    assert ("settings" in stored["payload"]) == bool(defaults or stored["payload"].get("settings"))


def test_an_empty_settings_field_is_left_out_and_a_chosen_one_kept():
    plain = CampaignCreated(campaign_id="c", title="T", ruleset="yarn", gm="Maya")
    assert "settings" not in plain.to_data() and "settings" not in plain.model_dump()
    chosen = plain.model_copy(update={"settings": {"track": 4}})
    assert chosen.to_data()["settings"] == {"track": 4}
    assert evolve_table(Table(), chosen).settings == {"track": 4}


def test_a_setting_checks_its_bounds_and_kind():
    setting = Setting("nowhere", default=3, low=2, high=5)
    assert setting.problem("n", 2) is None and setting.problem("n", 5) is None
    assert setting.problem("n", 6) == "the setting n is 2 to 5, not 6"
    assert setting.problem("n", True) == "the setting n is a whole number, not True"


def test_the_defaults_fill_what_was_not_chosen_and_a_setting_without_one_stays_unset():
    ruleset = get_ruleset("will-descriptors")
    assert chosen_settings(ruleset, {}) == {"starting_will": 9, "sides": 10}
    assert chosen_settings(ruleset, {"starting_will": 7}) == {"starting_will": 7, "sides": 10}
    assert chosen_settings(get_ruleset("yarn"), {}) == {}


def test_the_validator_verify_runs_refuses_an_unknown_or_out_of_bounds_setting():
    """The same check decides ``init`` and re-checks a recorded first event (an edited export)."""
    with pytest.raises(InvalidCommand, match="unknown setting.*for yarn: track; it has none"):
        validate_created(CampaignCreated(campaign_id="c", title="T", ruleset="yarn", gm="Maya",
                                         settings={"track": 4}), empty_state(), Referee())
    with pytest.raises(InvalidCommand, match="track is 1 to 100, not 101"):
        validate_created(CampaignCreated(campaign_id="c", title="T", ruleset="will-descriptors", gm="Maya",
                                         settings={"track": 101}), empty_state(), Referee())


def test_init_refuses_a_setting_of_a_ruleset_that_has_none(cli):
    code, _, err = cli("init", "h", "--title", "H", "--gm", "Maya", "--setting", "track=4")
    assert code == 2 and "unknown setting(s) for yarn: track; it has none" in err
    assert cli("campaigns", "--json")[1].strip() == "[]"
    code, out, _ = cli("init", "h", "--title", "H", "--gm", "Maya", "--json")
    assert code == 0 and "settings" not in json.loads(out)[0]["payload"]
