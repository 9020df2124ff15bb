"""What a personal consequence turned out to be, against Yarn 0.1 "Resulting Personal Consequences":

"If you have a good consequence introduce an advantage your character can benefit from in an upcoming
scene. [...] If you had a bad consequence, introduce an additional obstacle your character must resolve
in an upcoming scene." and "Resolving Consequences": "Players should then attempt to work their
consequences into an upcoming scene. If they don't, the GM will."."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.audience import Audience
from yarnlog.rulesets.yarn.parts.procedure.consequence_rolls import WORKED_IN, IntroduceConsequence
from yarnlog.rulesets.yarn.parts.procedure.roll_records import ConsequenceFace, RollConsequences
from yarnlog.rulesets.yarn.recap.build import Scope, build_recap

from .refusals import refused, rejected
from .test_procedure import roll, start


@pytest.fixture
def rolled(journal):
    """Iris (Ana) broke both ways in the procedural scene; her good die came up 6, her bad one 3."""
    cid = start(journal)
    roll(journal, cid, "Iris", "Military Background", faces=(6, 6, 2))
    roll(journal, cid, "Iris", "Military Background", faces=(1, 1, 2))
    good, bad, _closed = journal.execute(cid, RollConsequences(faces=(ConsequenceFace("Iris", "good", 6),
                                                                      ConsequenceFace("Iris", "bad", 3))))
    return cid, good.sequence, bad.sequence


def test_a_good_consequence_turns_out_to_be_an_advantage(journal, rolled):
    cid, good, _ = rolled
    said = journal.execute(cid, IntroduceConsequence(good, "the quartermaster owes her a favour"))[0].payload
    assert (said.character, said.kind, said.scene, said.introduced_by) == ("Iris", "good", 1, "Ana")
    introduced = journal.state(cid).rules.procedure.introduced[good]
    assert journal.history(cid)[introduced - 1].payload.text == "the quartermaster owes her a favour"
    rejected(journal, cid, IntroduceConsequence(good, "another"), "already introduced")
    told = build_recap(journal.history(cid), journal.state(cid).table, Audience("gm", None), Scope())
    assert told.episodes[0].scenes[0].consequences[-1].text == (
        "Iris's good consequence turned out to be an advantage for an upcoming scene: "
        "the quartermaster owes her a favour.")
    assert verify(journal.store.read(cid), cid).ok


def test_no_consequence_no_introduction_and_only_its_player_or_the_gm(journal, rolled):
    cid, good, bad = rolled
    rejected(journal, cid, IntroduceConsequence(bad, "a broken oar"), "no bad consequence")
    rejected(journal, cid, IntroduceConsequence(good - 1, "x"), "not a consequence roll")
    refused(journal, cid, IntroduceConsequence(good, "a favour", "Ben"), WORKED_IN)
    # "If they don't, the GM will."
    assert journal.execute(cid, IntroduceConsequence(good, "a favour", "Maya"))[0].payload.introduced_by == "Maya"
