"""The polyhedral Yarn table of the command-line tests: Maya narrates, Ana plays Iris, Ben the Orc."""

from __future__ import annotations

import json

import pytest

ATTRS = "strength=6,dexterity=7,health=6,intelligence=5,will=5,charisma=4"


@pytest.fixture
def table(cli):
    for args in (("init", "poly", "--title", "Poly", "--gm", "Maya", "--ruleset", "yarn-polyhedral"),
                 ("join", "Ana"), ("join", "Ben"),
                 # 190 base points: 90 for six attributes, 100 more is level 4 (P4, line 37).
                 ("character", "create", "Iris", "--player", "Ana", "--points", "190", "--attributes", ATTRS,
                  "--skills", "sword=3", "--drawbacks", "colour blind=2"),
                 ("character", "create", "Orc", "--player", "Ben", "--points", "100", "--attributes",
                  "strength=7,dexterity=5,health=6,intelligence=3,will=4,charisma=2"),
                 ("episode", "start", "--title", "One")):
        code, out, err = cli(*args)
        assert code == 0, (args, err)
    return cli


def last(table, *args):
    code, out, err = table(*args, "--json")
    assert code == 0, err
    return json.loads(out)[-1]["payload"]


