"""``yarnlog init`` without ``--ruleset`` makes a campaign of the default system, which the ruleset
declares through the seam; ``init --help`` lists the installed systems, read at run time."""

from __future__ import annotations

import json

from yarnlog.core.installed import RULESETS
from yarnlog.core.ruleset import default_ruleset, get_ruleset


def test_init_without_a_ruleset_plays_the_default_system(cli):
    code, out, err = cli("init", "harbor", "--title", "Harbor", "--gm", "Maya", "--json")
    assert code == 0, err
    assert json.loads(out)[0]["payload"]["ruleset"] == default_ruleset() == "yarn"


def test_init_help_lists_every_installed_system_and_the_default(cli):
    code, out, _ = cli("init", "--help")
    text = " ".join(out.replace("│", " ").split())
    assert code == 0 and "Systems (--ruleset):" in text
    for name in RULESETS:
        title = " ".join(get_ruleset(name).title.split())
        assert f"{name} ({title}" in text, name
    default = default_ruleset()
    assert f"{default} ({get_ruleset(default).title}, the default)" in text
