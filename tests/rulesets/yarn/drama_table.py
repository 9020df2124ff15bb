"""A table for the drama part's tests: three players with their PCs, and the GM's supporting cast.

Maya is the GM; Ana plays Iris, Ben plays Jon, Cy plays Kit. Old Tom and Mags are recurring
characters (the GM's pool), the Fisher a minor one. All are created through the characters
part's own commands, so the drama part is tested against the real thing.
"""

from __future__ import annotations

import functools

from yarnlog.app.journal import Journal
from yarnlog.core.table import AddParticipant
from yarnlog.core.timeline import OpenScene, StartEpisode
from yarnlog.persistence.memory import MemoryStore
from yarnlog.rulesets.scenes_and_tokens.parts.cast_moves import IntroduceSupporting, PromoteSupporting
from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferTokens
from yarnlog.rulesets.yarn.parts.characters.sheet_files import creation_command

GM = "Maya"
PLAYERS = ("Ana", "Ben", "Cy")
PCS = {"Iris": "Ana", "Jon": "Ben", "Kit": "Cy"}


def sheet(name: str, player: str, relationships: dict[str, str]) -> dict:
    return {
        "name": name, "player": player, "role": "crew of the Lantern", "desire": "respect",
        "poles": ["loyal", "free"],
        "central": "Sailing:standard", "sides": ["Tough:standard", "Charm:standard"], "superior": "Tough",
        "flaw": "Reckless",
        "signs": {"Sailing": "tarred hands", "Tough": "big-boned", "Charm": "a ready smile", "Reckless": "scars"},
        "hit_point_basis": ["Tough"], "hit_point_descriptor": "brawn",
        "story": "My story is of someone who wants respect but cannot stay ashore.",
        "relationships": relationships, "gm_approved": True,
    }


def seat_characters(journal, cid: str) -> None:
    """Iris, Jon and Kit created; episode 1 started; the GM's opening scene introduces the supporting cast.

    The events are the ones the characters part decided for these commands on the conftest's
    table (built once per session, in :func:`_seated`), appended here in one batch to keep tests fast.
    """
    state = journal.state(cid)
    assert (state.table.gm, state.table.players, state.sequence) == (GM, list(PLAYERS), len(PLAYERS) + 1)
    journal.commands.append(cid, state.sequence, _seated(), by=GM, visibility="everyone")


@functools.cache
def _seated() -> tuple:
    journal = Journal(MemoryStore())
    journal.create_campaign("seed", title="Lantern Harbor", gm=GM)
    for player in PLAYERS:
        journal.execute("seed", AddParticipant(player))
    start = journal.store.last_sequence("seed")
    _seat(journal, "seed")
    return tuple(r.payload for r in journal.history("seed")[start:])


def _seat(journal, cid: str) -> None:
    made: dict[str, str] = {}
    for name, player in PCS.items():
        journal.execute(cid, creation_command(sheet(name, player, {other: "crewmate" for other in made})))
        made[name] = player
    journal.execute(cid, StartEpisode(title="Fog", theme="trust", theme_chosen_by="Ana"))
    journal.execute(cid, OpenScene(caller=GM, title="The harbour"))
    for name, promoter in (("Old Tom", "Iris"), ("Mags", "Jon")):
        journal.execute(cid, IntroduceSupporting(name, "a harbour regular", GM))
        journal.execute(cid, PromoteSupporting(name, promoter, "a blessing"))
    journal.execute(cid, IntroduceSupporting("Fisher", "sells eels", GM))


def give(journal, cid: str, name: str, amount: int, currency: str = "drama") -> None:
    """A GM ruling that hands out tokens (or bennies), to set a scene up."""
    journal.execute(cid, TransferTokens("kitty", name, amount, reason="test setup", currency=currency))


def tokens(journal, cid: str, upto: int | None = None) -> dict[str, int]:
    return dict(journal.state(cid, upto=upto).rules.economy.tokens)


def bennies(journal, cid: str) -> dict[str, int]:
    return dict(journal.state(cid).rules.economy.bennies)






def types(recorded) -> list[str]:
    return [r.event_type for r in recorded]
