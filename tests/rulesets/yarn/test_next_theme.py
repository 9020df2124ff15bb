"""The next episode's theme, chosen at the end of the session, against Yarn 0.1 "Themes":

"At the end of the first session, the GM chooses the next precedence ranking. It sets out the order in
which players choose the themes for the following episodes. The first player in the precedence order
chooses the theme for the second session [...]" and "The Player choosing the theme for the next
episode should make their selection at the end of the previous session."."""

from __future__ import annotations

import pytest

from yarnlog.app.verify import verify
from yarnlog.core.timeline import EndEpisode, StartEpisode
from yarnlog.rulesets.scenes_and_tokens.parts.bennie_vote import CastBallot
from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import THEMES, ChooseTheme, DrawPrecedence
from yarnlog.rulesets.scenes_and_tokens.parts.supporting_cast import NEXT_THEME, Purpose, precedence_data

from .refusals import refused, rejected


@pytest.fixture
def first_session(journal, campaign):
    """Episode 1 played (no scenes: no bennie vote to hold), the theme rota drawn at its end: Cy, Ana, Ben."""
    journal.execute(campaign, StartEpisode(title="Fog", theme="trust"))
    journal.execute(campaign, DrawPrecedence(Purpose.THEME_ROTA, ("Cy", "Ana", "Ben")))
    return campaign


def test_the_rota_names_who_chooses_the_next_theme(journal, first_session):
    chosen = journal.execute(first_session, ChooseTheme("debts"))[0].payload
    assert (chosen.episode, chosen.theme, chosen.chosen_by) == (2, "debts", "Cy")
    refused(journal, first_session, ChooseTheme("pride", "Ana"), THEMES)


def end_episode(journal, cid):
    """The bennie vote ("All participants then vote"), then the episode's end."""
    for voter, ranking in (("Ana", ("Ben", "Cy")), ("Ben", ("Cy", "Ana")), ("Cy", ("Ana", "Ben")),
                           ("Maya", ("Ana", "Ben", "Cy"))):
        journal.execute(cid, CastBallot(voter, ranking))
    journal.execute(cid, EndEpisode())


def test_the_next_episode_starts_with_the_theme_chosen(journal, first_session):
    journal.execute(first_session, ChooseTheme("debts"))
    end_episode(journal, first_session)
    refused(journal, first_session, StartEpisode(title="Salt", theme="pride"), NEXT_THEME)
    started = journal.execute(first_session, StartEpisode(title="Salt"))[0].payload
    assert (started.number, started.theme, started.theme_chosen_by) == (2, "debts", "Cy")
    rota = precedence_data(journal.state(first_session).rules.characters.cast)["theme_rota"]
    assert rota[0] == {"episode": 2, "chooser": "Cy", "theme": "debts", "chosen_by": "Cy"}
    # At the end of episode 2, Ana chooses for the third.
    assert journal.execute(first_session, ChooseTheme("pride"))[0].payload.chosen_by == "Ana"
    assert verify(journal.store.read(first_session), first_session).ok


def test_no_theme_before_the_first_episode_and_none_without_a_chooser(journal, campaign):
    rejected(journal, campaign, ChooseTheme("trust", "Ana"), "first episode's theme is chosen as it starts")
    journal.execute(campaign, StartEpisode(title="Fog", theme="trust"))
    rejected(journal, campaign, ChooseTheme("debts"), "no theme rota is drawn")
    rejected(journal, campaign, ChooseTheme("debts", "Zed"), "not at the table")
    # Without a rota, whoever the table says chooses, as the episode start already allows.
    assert journal.execute(campaign, ChooseTheme("debts", "Ben"))[0].payload.chosen_by == "Ben"
