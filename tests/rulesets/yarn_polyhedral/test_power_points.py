"""Power points (P58, line 569): "Your character has regular points for the usual qualities
(attributes, skills, advantages), and a separate set of power points. If this is the case, the game
may allow for exchange rate of one power point for two regular points when assigning ranks to your
other qualities"."""

from __future__ import annotations

import json

import pytest

from yarnlog.core.referee import Referee, RuleViolation
from yarnlog.rulesets.yarn_polyhedral.rules.options import power_budget
from yarnlog.rulesets.yarn_polyhedral.rules.points import Kind, Quality

ATTRS = [Quality(n, Kind.ATTRIBUTE, 5) for n in ("strength", "dexterity", "health", "intelligence", "will",
                                                   "charisma")]  # 15 points each (P1): 90


def test_powers_are_paid_from_the_power_points_alone():
    # Flight at rank 4 costs 1 + 2 + 3 + 4 = 10 (P1): ten power points, no regular point.
    made = power_budget(12, 90, [*ATTRS, Quality("flight", Kind.POWER, 4)], Referee())
    assert (made.powers, made.exchanged, made.regular_spent, made.power_points_left) == (10, 0, 90, 2)


def test_other_qualities_short_of_regular_points_take_power_points_at_one_for_two():
    # The attributes cost 90 and a skill at rank 2 costs 3: 93 against 90 regular points. The 3
    # short take two power points (4 regular points), so one regular point is left unspent.
    made = power_budget(5, 90, [*ATTRS, Quality("sword", Kind.SKILL, 2)], Referee())
    assert (made.exchanged, made.regular_spent, made.power_points_left) == (2, 89, 3)


def test_powers_past_the_power_points_are_refused_with_the_rule():
    with pytest.raises(RuleViolation, match=r"11 power points needed \(10 on powers\), 10 held") as refused:
        power_budget(10, 90, [*ATTRS, Quality("sword", Kind.SKILL, 1), Quality("flight", Kind.POWER, 4)],
                     Referee())
    assert refused.value.rule.chapter == "Power points" and "(line 569)" in refused.value.rule.text


def _table(cli, *options: str) -> None:
    for args in (("init", "supers", "--title", "Supers", "--gm", "Maya", "--ruleset", "yarn-polyhedral", *options),
                 ("join", "Ana")):
        code, _, err = cli(*args)
        assert code == 0, err


CREATE = ("character", "create", "Vega", "--player", "Ana", "--points", "90",
          "--attributes", "strength=5,dexterity=5,health=5,intelligence=5,will=5,charisma=5",
          "--skills", "sword=2", "--powers", "flight=4")


def test_a_character_with_power_points_through_the_command_line(cli):
    _table(cli, "--option", "power-points")
    code, out, err = cli(*CREATE, "--power-points", "14", "--json")
    assert code == 0, err
    assert json.loads(out)[-1]["payload"]["power_points"] == 14
    # Flight 4 costs 10 power points; the sword's 3 points past the 90 regular take 2 more (one for
    # two), so 14 - 10 - 2 = 2 power points are left and 1 regular point is saved.
    code, out, _ = cli("board", "--json")
    vega = json.loads(out)["characters"][0]
    assert (vega["power_points_left"], vega["unspent"]) == (2, 1)
    code, out, _ = cli("sheet", "Vega", "--format", "md")
    assert "2 power points left" in out


def test_powers_past_the_pool_are_refused_in_one_line_and_nothing_is_written(cli):
    _table(cli, "--option", "power-points")
    before = cli("log", "--json")[1]
    code, out, err = cli(*CREATE, "--power-points", "11")
    assert code == 3 and out == ""
    assert err.strip() == "Refused. 12 power points needed (10 on powers), 11 held (Power points)."
    assert cli("log", "--json")[1] == before


def test_power_points_without_the_option_are_refused(cli):
    _table(cli)
    code, _, err = cli(*CREATE, "--power-points", "14")
    assert code == 3
    assert err.strip() == "Refused. No power points without --option power-points (Power points)."
    assert len(err.strip()) <= 80
