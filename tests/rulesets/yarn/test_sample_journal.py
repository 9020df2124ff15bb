"""The sample campaign in ``journals/``: Lantern Harbor, three episodes of Yarn 0.1 recorded through
the command line by ``journals/record-lantern-harbor.sh`` and exported to
``journals/lantern-harbor.jsonl``.

The export is imported into a fresh journal (in memory; on every backend for the byte-for-byte
round trip), verified, and then checked against figures worked out by hand from the book: every
token and bennie movement, the bennie votes, the rolls and the fight. Each expected figure below
is written out literally with its arithmetic and the sentence of the book that gives it; nothing
here recomputes a rule with the tool's own code.

Who plays whom: Ana plays Iris Vane, Ben Jonah Crane, Cy Kit Marlowe, Dee Rosa Quill, Eli Tobias
Wren and Fay Nell Harrow; Maya is the GM, and Old Tom's and Saul Brenner's tokens are her pool.
Balances are written as the non-zero holdings, ``{}`` when nobody holds a token.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from yarnlog.app.interchange import export_lines, import_records, parse_lines
from yarnlog.app.journal import Journal
from yarnlog.app.verify import verify
from yarnlog.core.corrections import effective
from yarnlog.core.referee import RuleViolation
from yarnlog.core.state import replay
from yarnlog.core.timeline import OpenScene
from yarnlog.persistence.memory import MemoryStore
from yarnlog.persistence.protocol import EventStore
from yarnlog.rulesets.scenes_and_tokens.parts.economy import ledger_entries
from yarnlog.rulesets.yarn.parts.combat.wound_reports import wounds_report
from yarnlog.rulesets.yarn.parts.economy.ledger import token_report
from yarnlog.rulesets.yarn.parts.procedure.roll_reports import roll_data

JOURNAL = Path(__file__).resolve().parents[3] / "journals" / "lantern-harbor.jsonl"
CID = "lantern"
GM = "Maya"
PLAYERS = ["Ana", "Ben", "Cy", "Dee", "Eli", "Fay"]
PLAYED_BY = {"Iris Vane": "Ana", "Jonah Crane": "Ben", "Kit Marlowe": "Cy", "Rosa Quill": "Dee",
             "Tobias Wren": "Eli", "Nell Harrow": "Fay"}
EXCHANGES = ("yarn.petition.resolved", "yarn.petition.forced", "yarn.petition.two_way", "yarn.petition.quizzed")


def data(recorded) -> dict:
    return recorded.payload.to_data()


class Harbor:
    """The imported campaign, and its state as of any event (replayed once per event asked for)."""

    def __init__(self, store: EventStore, records: list, imported: int):
        self.store = store
        self.records = records
        self.imported = imported
        self.journal = Journal(store)
        self.history = self.journal.history(CID)
        self._states: dict[int, object] = {}

    def events(self, event_type: str, **fields) -> list:
        return [r for r in self.history
                if r.event_type == event_type and all(data(r).get(k) == v for k, v in fields.items())]

    def one(self, event_type: str, **fields):
        [found] = self.events(event_type, **fields)
        return found

    def state(self, sequence: int):
        if sequence not in self._states:
            self._states[sequence] = replay([r for r in self.history if r.sequence <= sequence])
        return self._states[sequence]

    def exchange(self, scene: int):
        """The exchange of drama tokens that ended a dramatic scene."""
        [found] = [r for r in self.history if r.event_type in EXCHANGES and data(r)["scene"] == scene]
        return found

    def tokens(self, sequence: int) -> dict[str, int]:
        return dict(self.state(sequence).rules.economy.tokens)

    def bennies(self, sequence: int) -> dict[str, int]:
        return dict(self.state(sequence).rules.economy.bennies)

    def after_scene(self, scene: int) -> dict[str, int]:
        """Drama tokens held once the scene's exchange is settled."""
        return self.tokens(self.exchange(scene).sequence)

    def tally(self, episode: int):
        return self.one("yarn.bennie.vote_tallied", episode=episode)

    def before_tally(self, episode: int) -> int:
        return self.tally(episode).sequence - 1

    def report(self, sequence: int) -> dict:
        return token_report(self.state(sequence))


@pytest.fixture(scope="module")
def harbor() -> Harbor:
    store = MemoryStore()
    records = parse_lines(JOURNAL.read_text(encoding="utf-8").splitlines())
    present, imported = import_records(store, records)
    assert present == 0
    return Harbor(store, records, imported)


# -- the journal as a whole -------------------------------------------------------------------


def test_the_export_imports_whole_and_verifies(harbor):
    assert harbor.imported == len(harbor.records) == len(harbor.history)
    report = verify(harbor.store.read(CID), CID)
    assert report.ok, report.faults[:3]


def test_the_export_comes_back_byte_for_byte_from_every_backend(harbor, any_store):
    present, imported = import_records(any_store, harbor.records)
    assert (present, imported) == (0, len(harbor.records))
    assert "".join(export_lines(any_store, CID)) == JOURNAL.read_text(encoding="utf-8")


def _sources(value) -> list[str]:
    if isinstance(value, dict):
        return [*([value["source"]] if isinstance(value.get("source"), str) else []),
                *(s for v in value.values() for s in _sources(v))]
    if isinstance(value, list):
        return [s for v in value for s in _sources(v)]
    return []


def test_every_die_and_card_was_entered_at_the_table(harbor):
    # The script passes --faces (and --order, --face...) everywhere: the tool rolled and shuffled nothing.
    sources = {s for r in harbor.history for s in _sources(data(r))}
    assert "rolled" not in sources and "shuffled" not in sources
    assert "entered" in sources


def test_the_table_gm_and_six_players(harbor):
    # "5 – 8 participants": a GM and six players.
    created = data(harbor.one("campaign.created"))
    assert (created["title"], created["ruleset"], created["gm"]) == ("Lantern Harbor", "yarn", GM)
    assert [data(r)["name"] for r in harbor.events("participant.joined")] == PLAYERS
    table = harbor.state(harbor.history[-1].sequence).table
    assert table.players == PLAYERS and table.gms == [GM]


# -- characters -------------------------------------------------------------------------------


def test_six_player_characters_with_relationships_wants_and_hit_points(harbor):
    sheets = {data(r)["name"]: data(r) for r in harbor.events("yarn.character.created")}
    assert {name: sheet["player"] for name, sheet in sheets.items()} == PLAYED_BY
    # "Third player proclaims [...] relationship to all other proclaimed characters", in the
    # creation precedence Ben, Ana, Fay, Cy, Eli, Dee: 0, 1, 2, 3, 4 and 5 relationships.
    assert data(harbor.one("yarn.precedence.drawn", purpose="creation"))["order"] == [
        "Ben", "Ana", "Fay", "Cy", "Eli", "Dee"]
    in_order = ("Jonah Crane", "Iris Vane", "Nell Harrow", "Kit Marlowe", "Tobias Wren", "Rosa Quill")
    assert [len(sheets[n]["relationships"]) for n in in_order] == [0, 1, 2, 3, 4, 5]
    # "Repeat steps 9-12 until all characters are named as objects of at least two other
    # characters' wants": twelve wants, two by each PC, two naming each PC.
    wants = [data(r) for r in harbor.events("yarn.character.want_declared")]
    assert len(wants) == 12
    assert all(sum(w["character"] == pc for w in wants) == 2 for pc in PLAYED_BY)
    assert all(sum(w["withholder"] == pc for w in wants) == 2 for pc in PLAYED_BY)
    # Hit points, "7 points per die", or "roll double the number of appropriate dice":
    # Jonah: Strong 3 dice listed = 21; Dockside Brawler 4 dice, eight dice rolled
    #   6+5+5+4+3+3+2+2 = 30 > 21, "using the result only if you actually roll over the average
    #   score for the first trait": 30.
    # Iris: Tough, superior standard trait, 4 dice x 7 = 28.
    # Nell: Knife Fighter 3 dice, six dice rolled 6+5+4+4+3+2 = 24.
    # Kit and Rosa: no such trait, "Lacking such a trait, your hit points are 14."
    # Tobias: Customs Officer (fighting) 3 dice x 7 = 21.
    assert {name: sheet["hit_points"] for name, sheet in sheets.items()} == {
        "Jonah Crane": 30, "Iris Vane": 28, "Nell Harrow": 24, "Kit Marlowe": 14, "Tobias Wren": 21,
        "Rosa Quill": 14}
    # Scores: superior standard 4, good standard 3, superior technical 2, good technical 1.
    assert sheets["Kit Marlowe"]["scores"] == {"Doctor": 2, "Calm Under Pressure": 3, "Gossip": 3}
    assert sheets["Jonah Crane"]["scores"] == {"Dockside Brawler": 4, "Strong": 3, "Lamp Mechanic": 1}
    # "As a beginning character, you have one die in your experience pool."
    assert {sheet["experience_pool"] for sheet in sheets.values()} == {1}


def test_supporting_characters_minor_recurring_and_a_promotion_and_locations(harbor):
    end = harbor.history[-1].sequence
    characters = harbor.state(end).rules.characters
    # Old Tom starts minor (scene 1) and Iris promotes him: "A player can promote a minor character
    # to recurring status by making him or her the object of his character's emotional needs."
    tom = data(harbor.one("yarn.supporting.introduced", name="Old Tom"))
    assert (tom["kind"], harbor.one("yarn.supporting.introduced", name="Old Tom").scene) == ("minor", 1)
    assert data(harbor.one("yarn.supporting.promoted", name="Old Tom"))["by_character"] == "Iris Vane"
    # Saul Brenner starts recurring: "when their first appearance is a dramatic scene in which they
    # are called upon to grant a PCs' petition" (Tobias's, scene 21).
    saul = harbor.one("yarn.supporting.introduced", name="Saul Brenner")
    assert (data(saul)["kind"], data(saul)["petitioner"], saul.scene) == ("recurring", "Tobias Wren", 21)
    # Red Callan stays minor: "Minor characters provide obstacles during procedural scenes."
    assert {n: s.kind for n, s in characters.supporting.items()} == {
        "Old Tom": "recurring", "Saul Brenner": "recurring", "Red Callan": "minor"}
    # "Players may establish relationships to recurring characters promoted by other players. Do
    # this during any scene featuring both": Kit, in scene 9 with Old Tom.
    relate = harbor.one("yarn.character.relationship_defined", character="Kit Marlowe", other="Old Tom")
    assert relate.scene == 9 and "Old Tom" in data(harbor.one("scene.opened", number=9))["cast"]
    assert sorted(characters.locations) == ["Breakwater Light", "Customs Shed", "Harbour Office", "Pier Nine",
                                            "The Lantern"]


# -- episodes, themes, calling orders ---------------------------------------------------------


def test_three_episodes_their_themes_and_the_theme_rota(harbor):
    started = [(d["number"], d["theme"], d["theme_chosen_by"]) for d in map(data, harbor.events("episode.started"))]
    assert started == [(1, "trust", GM), (2, "debts", "Dee"), (3, "loyalty", "Ben")]
    assert [data(r)["number"] for r in harbor.events("episode.ended")] == [1, 2, 3]
    # "At the end of the first session, the GM chooses the next precedence ranking. [...] The first
    # player in the precedence order chooses the theme for the second session, the second choose
    # for the third session": the rota Dee, Ben, ... gives Dee episode 2 and Ben episode 3.
    rota = harbor.one("yarn.precedence.drawn", purpose="theme-rota")
    assert data(rota)["order"][:2] == ["Dee", "Ben"]
    assert rota.sequence > harbor.one("episode.ended", number=1).sequence


def test_each_episodes_calling_order_and_who_called(harbor):
    # "The player choosing the episode's theme always calls first. Then comes the player who
    # actually appeared first, in your precedence order. The GM inserts herself into the order,
    # usually replacing the player who chose the theme."
    drawn = [data(r)["order"] for r in harbor.events("yarn.precedence.drawn", purpose="calling-order")]
    assert drawn == [["Ana", "Cy", "Fay", "Ben", "Eli", "Dee"],  # episode 1: the GM chose the theme
                     ["Fay", "Eli", "Dee", "Ana", "Cy", "Ben"],  # episode 2: Dee chose; Maya takes her place
                     ["Ana", "Fay", "Cy", "Dee", "Ben", "Eli"]]  # episode 3: Ben chose; Maya takes his place
    # Episode 1: Maya, Ana, Cy, Fay, Ben, Eli, Dee. Eli calls scenes 6 and 7: scene 6 was no contest,
    # "The caller may then call a new scene". Scene 10 is the order rolled over to Ana.
    # Episode 2: Dee, Fay, Eli, Maya, Ana, Cy, Ben. Ben calls before Cy by the GM's override.
    # Episode 3: Ben, Ana, Fay, Cy, Dee, Maya, Eli. Eli jumps the queue (a bennie) after Dee; "The
    # queue-jumper's next scene is skipped", and Maya, next in order, calls the closer.
    callers = {e: [data(r)["caller"] for r in harbor.events("scene.opened") if r.episode == e] for e in (1, 2, 3)}
    assert callers == {1: [GM, "Ana", "Cy", "Fay", "Ben", "Eli", "Eli", "Dee", GM, "Ana"],
                       2: ["Dee", "Fay", "Eli", GM, "Ana", "Ben"],
                       3: ["Ben", "Ana", "Fay", "Cy", "Dee", "Eli", GM]}
    assert [data(r)["number"] for r in harbor.events("scene.opened")] == list(range(1, 24))


def test_the_gm_override_and_the_retraction(harbor):
    override = data(harbor.one("override.recorded"))
    assert override["by"] == GM and "last ferry" in override["reason"]
    assert [rule["chapter"] for rule in override["rules"]] == ["Calling Order"]
    assert [rule["message"] for rule in override["rules"]] == ["Cy calls the next scene, not Ben"]
    # A wrong ballot is retracted, not edited: it stays in the log, and Cy votes again.
    retraction = data(harbor.one("retraction"))
    wrong = next(r for r in harbor.history if r.sequence == retraction["retracts"])
    assert (wrong.event_type, data(wrong)["voter"], data(wrong)["ranks"]["Ana"]) == ("yarn.bennie.ballot_cast", "Cy", 1)
    assert len(harbor.events("yarn.bennie.ballot_cast", voter="Cy", episode=3)) == 2


def test_the_refused_call_in_the_scripts_comment_is_refused_by_the_rules(harbor):
    # The script shows, as a comment before scene 3, Cy's call of Iris and Old Tom without Kit.
    # "To cast a scene your player character is not in costs you a drama token": Cy holds none.
    upto = harbor.one("scene.opened", number=3).sequence - 2  # before scene 2 closes for scene 3
    store = MemoryStore()
    try:
        import_records(store, harbor.records[:upto])
        journal = Journal(store)
        assert journal.state(CID).rules.economy.tokens == {"Ana": 1}
        with pytest.raises(RuleViolation) as refused:
            journal.execute(CID, OpenScene(caller="Cy", cast=("Iris Vane", "Old Tom"), mode="dramatic"))
        assert "costs you a drama token" in refused.value.rule.text
        assert store.last_sequence(CID) == upto
    finally:
        store.close()


# -- every token case, by event type and payload ----------------------------------------------


def test_every_token_case_appears(harbor):
    resolved = {data(r)["outcome"] for r in harbor.events("yarn.petition.resolved")}
    assert resolved == {"granted", "refused", "no contest"}
    unblocked = data(harbor.one("yarn.petition.forced", blocked=False))
    assert unblocked["force_support"] == [{"character": "Kit Marlowe", "supporter": "Cy", "tokens": 1}]
    blocked = data(harbor.one("yarn.petition.forced", blocked=True))
    assert blocked["force_support"] == [{"character": "Rosa Quill", "supporter": "Dee", "tokens": 1}]
    assert blocked["block_support"] == [{"character": "Jonah Crane", "supporter": "Ben", "tokens": 2}]
    assert {"chapter": "Supporting or Blocking a Force", "source": "Eli", "destination": "Dee", "amount": 1} in [
        {k: t[k] for k in ("chapter", "source", "destination", "amount")} for t in blocked["transfers"]]
    two_ways = {(d["first_granted"], d["second_granted"]): d for d in map(data, harbor.events("yarn.petition.two_way"))}
    assert set(two_ways) >= {(True, True), (False, False), (True, False)}
    assert any(t["source"] == "kitty" for t in two_ways[(True, False)]["transfers"])
    assert len(harbor.events("yarn.petition.quizzed")) == 2
    casting = [d for d in map(data, harbor.events("yarn.scene.called")) if d["transfers"]
               and d["transfers"][0]["chapter"] == "Calling Scenes"]
    assert [(d["scene"], d["caller"]) for d in casting] == [(10, "Ana")]
    duck = data(harbor.one("yarn.challenge.ducked"))
    assert (duck["caller_compels"], duck["spends_token"], duck["in_scene"]) == (True, True, False)
    rushes = [(d["payment"], d["caller_consents"], d["caller_blocks"], d["joined"])
              for d in map(data, harbor.events("yarn.challenge.rushed"))]
    assert rushes == [("token", False, False, True), ("bennie", False, False, True), ("token", False, True, False),
                      (None, True, False, True)]
    vote = data(harbor.one("yarn.challenge.voted"))
    assert (len(vote["for_caller"]), len(vote["for_challenger"]), vote["gm_tie_break"], vote["winner"]) == (
        3, 3, "caller", "caller")
    assert len(harbor.events("yarn.bennie.vote_tallied")) == 3
    spends = [s["option"] for r in harbor.history for s in data(r).get("bennie_spends", [])]
    assert spends == ["jump_into_scene", "drama_token", "block_jump_in", "drama_token", "jump_the_queue"]
    assert len(harbor.events("yarn.experience.awarded")) == 3
    assert len(harbor.events("yarn.experience.trait_raised")) == 1


# -- drama tokens, worked out by hand ---------------------------------------------------------


def test_episode_1_token_balances_scene_by_scene(harbor):
    # "Everyone starts each episode with zero tokens." Scene 1 is procedural: no exchange.
    assert harbor.tokens(harbor.one("scene.opened", number=2).sequence) == {}
    # Scene 2, Iris asks Jonah, refused: "If the granter refuses, the petitioner gains the token—from
    # the granter if she has one, or from the kitty if not." Jonah (Ben) has none: kitty -> Ana.
    assert harbor.after_scene(2) == {"Ana": 1}
    # Scene 3, Kit asks Iris, granted: "the granter earns a drama token--from the petitioner if he
    # has one, or from the kitty if not." Kit (Cy) has none: kitty -> Ana, 1 + 1 = 2.
    assert harbor.after_scene(3) == {"Ana": 2}
    # Scene 4, two-way, both denied: "each receives a drama token [...] If one or more have zero
    # drama tokens, however, the missing token(s) come from the kitty." Fay 0 and Ben 0: both from the kitty.
    assert harbor.after_scene(4) == {"Ana": 2, "Ben": 1, "Fay": 1}
    # Scene 5, Jonah asks Rosa, granted: Jonah has one, so Ben pays it to Dee: Ben 1 - 1 = 0, Dee 1.
    assert harbor.after_scene(5) == {"Ana": 2, "Dee": 1, "Fay": 1}
    # Scene 6: Rosa ducks the compulsion: "You can duck this compulsion by spending a drama token,
    # which goes to the caller." Dee 1 - 1 = 0, Eli (the caller) 1. Then no contest: no exchange.
    duck = harbor.one("yarn.challenge.ducked")
    assert harbor.tokens(duck.sequence) == {"Ana": 2, "Eli": 1, "Fay": 1}
    assert harbor.after_scene(6) == {"Ana": 2, "Eli": 1, "Fay": 1}
    # Scene 7: Nell rushes in: "spend a drama token or a bennie. The caller receives the token":
    # Fay 1 - 1 = 0, Eli 1 + 1 = 2. Then Tobias asks Iris, refused; Iris holds 2, so the token comes
    # from her: Ana 2 - 1 = 1, Eli 2 + 1 = 3.
    rush = harbor.one("yarn.challenge.rushed", scene=7)
    assert harbor.tokens(rush.sequence) == {"Ana": 2, "Eli": 2}
    assert harbor.after_scene(7) == {"Ana": 1, "Eli": 3}
    # Scene 8, two petitioners quizzed in the drawn order Ben, Dee. Jonah did not get forgiveness
    # from Nell: "The petitioner earns a drama token—from the refuser of the grant if he or she has
    # one, or from the kitty if not": Fay has none, kitty -> Ben. Rosa got her place from Nell: "earns
    # a drama token—from the petitioning player if he or she has one, or from the kitty": Dee has
    # none, kitty -> Fay.
    assert data(harbor.exchange(8))["precedence"] == ["Ben", "Dee"]
    assert harbor.after_scene(8) == {"Ana": 1, "Ben": 1, "Eli": 3, "Fay": 1}
    # Scene 9, Old Tom (the GM's pool) asks Kit, refused: Kit holds none, kitty -> Maya.
    assert harbor.after_scene(9) == {"Ana": 1, "Ben": 1, "Eli": 3, "Fay": 1, GM: 1}
    # Scene 10, Ana casts Jonah and Old Tom without Iris: "To cast a scene your player character is
    # not in costs you a drama token": Ana 1 - 1 = 0 (to the kitty). Jonah asks Old Tom, granted:
    # Ben pays his token to the GM's pool: Ben 0, Maya 1 + 1 = 2.
    called = harbor.one("yarn.scene.called", scene=10)
    assert harbor.tokens(called.sequence) == {"Ben": 1, "Eli": 3, "Fay": 1, GM: 1}
    assert harbor.after_scene(10) == {"Eli": 3, "Fay": 1, GM: 2}


def test_episode_1_gm_pool_and_kitty(harbor):
    before = harbor.report(harbor.before_tally(1))
    # "The GM keeps a single pool of drama tokens which represents all of the recurring characters":
    # Old Tom refused in scene 9 (+1) and granted in scene 10 (+1): 2.
    assert before["gm_pool"] == {"gm": GM, "drama_tokens": 2, "recurring": ["Old Tom"]}
    # The kitty paid 1 (scene 2) + 1 (3) + 2 (4) + 2 (8) + 1 (9) = 7 and took 1 (Ana's casting
    # cost): 7 - 1 = 6 on the table = Eli 3 + Fay 1 + Maya 2.
    assert before["kitty"] == {"episode": 1, "paid_out": 7, "taken_in": 1, "net_paid_out": 6}
    # "Drama tokens left unspent at the end of a session [...] then revert to the kitty": 1 + 6 = 7 back.
    after = harbor.report(harbor.one("episode.ended", number=1).sequence)
    assert after["kitty"] == {"episode": 1, "paid_out": 7, "taken_in": 7, "net_paid_out": 0}
    assert all(p["drama_tokens"] == 0 for p in after["participants"])


def test_the_kitty_kept_by_episode_is_the_ledger_counted_over(harbor):
    # The economy keeps each episode's kitty flows as tokens move (the board reads one entry): at
    # every episode's end they are what a count over that episode's ledger lines gives.
    for ended in harbor.events("episode.ended"):
        economy = harbor.state(ended.sequence).rules.economy
        ledger = ledger_entries(effective([r for r in harbor.history if r.sequence <= ended.sequence]))
        for episode in {e.episode for e in ledger}:
            moves = [e for e in ledger if e.currency == "drama" and e.episode == episode]
            counted = (sum(e.amount for e in moves if e.source == "kitty"),
                       sum(e.amount for e in moves if e.destination == "kitty"))
            flow = economy.kitty.get(episode)
            assert ((flow.paid_out, flow.taken_in) if flow else (0, 0)) == counted, episode

def test_episode_2_token_balances_scene_by_scene(harbor):
    # Scene 11, Rosa asks Kit, refused; Kit holds none: kitty -> Dee.
    assert harbor.after_scene(11) == {"Dee": 1}
    # Scene 12, two-way: Rosa's petition granted by Nell, Nell's denied by Rosa. "If one petition
    # was granted and the other denied, the denying player pays the granting player two tokens. If
    # the denier has less than 2 tokens, the deficit is made up from the kitty." Rosa (Dee) denied
    # with 1 token: Dee pays 1, the kitty the 2 - 1 = 1 deficit; Fay 0 + 2 = 2.
    moves = [(t["source"], t["destination"], t["amount"]) for t in data(harbor.exchange(12))["transfers"]]
    assert moves == [("Dee", "Fay", 1), ("kitty", "Fay", 1)]
    assert harbor.after_scene(12) == {"Fay": 2}
    # Scene 13: Nell rushes in with a bennie (bennies below); Eli cashes a bennie in for "a dramatic
    # token": kitty -> Eli. Then a two-way, both granted, Eli 1 and Fay 2: "If both players have a
    # drama token already, this cancels out—you needn't actually trade tokens."
    assert data(harbor.exchange(13))["transfers"] == []
    assert harbor.after_scene(13) == {"Eli": 1, "Fay": 2}
    # Scene 14 is the fight (procedural): no tokens move.
    assert harbor.tokens(harbor.one("scene.opened", number=15).sequence) == {"Eli": 1, "Fay": 2}
    # Scene 15: Nell's rush is blocked by Ana's bennie: "(Blocked players keep the bennies they would
    # have spent.)" and Fay keeps the token she offered. Iris's petition to Jonah is granted; Iris
    # holds none: kitty -> Ben.
    assert harbor.tokens(harbor.one("yarn.challenge.rushed", scene=15).sequence) == {"Eli": 1, "Fay": 2}
    assert harbor.after_scene(15) == {"Ben": 1, "Eli": 1, "Fay": 2}
    # Scene 16, Jonah asks Nell, refused; Nell holds 2, so the token is hers: Fay 1, Ben 2.
    assert harbor.after_scene(16) == {"Ben": 2, "Eli": 1, "Fay": 1}
    # The kitty paid 1 (11) + 1 (12) + 1 (Eli's bennie) + 1 (15) = 4, all back at the end.
    assert harbor.report(harbor.before_tally(2))["kitty"] == {"episode": 2, "paid_out": 4, "taken_in": 0,
                                                              "net_paid_out": 4}
    assert harbor.report(harbor.one("episode.ended", number=2).sequence)["kitty"]["taken_in"] == 4


def test_episode_3_token_balances_scene_by_scene(harbor):
    # Scene 17, Jonah asks Rosa, refused; Rosa holds none: kitty -> Ben.
    assert harbor.after_scene(17) == {"Ben": 1}
    # Scene 18, two-way, both denied, Ana 0 and Cy 0: both tokens from the kitty.
    assert harbor.after_scene(18) == {"Ana": 1, "Ben": 1, "Cy": 1}
    # Scene 19, Nell asks Tobias, refused; Tobias holds none: kitty -> Fay.
    assert harbor.after_scene(19) == {"Ana": 1, "Ben": 1, "Cy": 1, "Fay": 1}
    # Scene 20, Nell forces Jonah, Kit supporting. Support: "giving their drama tokens to the current
    # petitioner": Cy 1 - 1 = 0, Fay 1 + 1 = 2. Force: "the forced granter receives the two drama
    # tokens from the petitioner": Fay 2 - 2 = 0, Ben 1 + 2 = 3.
    assert harbor.after_scene(20) == {"Ana": 1, "Ben": 3}
    # Scene 21: Eli cashes in a bennie: kitty -> Eli 1. The quiz, in the drawn order Dee, Eli: Rosa
    # did not get the truth from Tobias, who holds 1 now: Eli -> Dee. Then Tobias did not get a
    # bigger cut from Brenner; the GM's pool holds none this episode: kitty -> Eli.
    spend = harbor.one("yarn.bennie.spent", scene=21)
    assert harbor.tokens(spend.sequence) == {"Ana": 1, "Ben": 3, "Eli": 1}
    moves = [(t["source"], t["destination"]) for t in data(harbor.exchange(21))["transfers"]]
    assert moves == [("Eli", "Dee"), ("kitty", "Eli")]
    assert harbor.after_scene(21) == {"Ana": 1, "Ben": 3, "Dee": 1, "Eli": 1}
    # Scene 22, the council: Tobias forces Iris with Rosa's support (Dee 1 -> Eli: Eli 2, Dee 0), Iris
    # blocks with Jonah's support (Ben 2 -> Ana: Ana 3, Ben 1). "The granter's player may block a
    # force by spending three drama tokens. These are paid to the petitioner [...] The petitioner
    # does not spend the 2 tokens that would have been spent on the force, for a net gain of 3":
    # Ana 3 - 3 = 0, Eli 2 + 3 = 5. "If you support a force which the granter then blocks, you get
    # your tokens back": Eli 5 - 1 = 4, Dee 0 + 1 = 1. Tobias: 1 -> 4, a net gain of 3.
    moves = [(t["source"], t["destination"], t["amount"]) for t in data(harbor.exchange(22))["transfers"]]
    assert moves == [("Dee", "Eli", 1), ("Ben", "Ana", 2), ("Ana", "Eli", 3), ("Eli", "Dee", 1)]
    assert harbor.after_scene(22) == {"Ben": 1, "Dee": 1, "Eli": 4}
    # Scene 23, Iris asks Old Tom, granted; Iris holds none: kitty -> Maya (the GM's pool).
    assert harbor.after_scene(23) == {"Ben": 1, "Dee": 1, "Eli": 4, GM: 1}
    before = harbor.report(harbor.before_tally(3))
    assert before["gm_pool"] == {"gm": GM, "drama_tokens": 1, "recurring": ["Old Tom", "Saul Brenner"]}
    # The kitty paid 1 (17) + 2 (18) + 1 (19) + 1 (the bennie) + 1 (the quiz) + 1 (23) = 7; on the
    # table Ben 1 + Dee 1 + Eli 4 + Maya 1 = 7.
    assert before["kitty"] == {"episode": 3, "paid_out": 7, "taken_in": 0, "net_paid_out": 7}


# -- the bennie votes, worked out by hand -----------------------------------------------------

# Each ballot as cast, best (#1) first. "All participants then vote, ranking the other players in
# order, with #1 the best score [...] Players do not rank themselves. [...] The GM votes, too,
# ranking all of the players."
BALLOTS = {
    1: {"Ana": ["Eli", "Fay", "Ben", "Cy", "Dee"], "Ben": ["Fay", "Ana", "Eli", "Cy", "Dee"],
        "Cy": ["Ben", "Eli", "Ana", "Fay", "Dee"], "Dee": ["Eli", "Cy", "Fay", "Ana", "Ben"],
        "Eli": ["Ana", "Fay", "Dee", "Cy", "Ben"], "Fay": ["Dee", "Ben", "Ana", "Cy", "Eli"],
        GM: ["Ana", "Eli", "Fay", "Ben", "Cy", "Dee"]},
    2: {"Ana": ["Ben", "Fay", "Dee", "Cy", "Eli"], "Ben": ["Eli", "Cy", "Fay", "Ana", "Dee"],
        "Cy": ["Eli", "Ana", "Dee", "Fay", "Ben"], "Dee": ["Ben", "Eli", "Cy", "Ana", "Fay"],
        "Eli": ["Dee", "Cy", "Ben", "Ana", "Fay"], "Fay": ["Cy", "Ana", "Eli", "Ben", "Dee"],
        GM: ["Ben", "Eli", "Ana", "Cy", "Dee", "Fay"]},
    3: {"Ana": ["Fay", "Ben", "Dee", "Eli", "Cy"], "Ben": ["Eli", "Ana", "Dee", "Fay", "Cy"],
        "Cy": ["Fay", "Ana", "Eli", "Dee", "Ben"], "Dee": ["Eli", "Ana", "Cy", "Ben", "Fay"],
        "Eli": ["Cy", "Ben", "Ana", "Dee", "Fay"], "Fay": ["Dee", "Cy", "Ben", "Ana", "Eli"],
        GM: ["Ana", "Eli", "Ben", "Cy", "Dee", "Fay"]},
}

# "The GM then totals each player's vote tally. The number of drama tokens a player has in hand is
# then subtracted from this number. The two players with the lowest scores gain one bennie each."
# player: (rank total, tokens in hand, score, gains a bennie)
TALLIES = {
    1: {
        "Ana": (14, 0, 14, True),   # Ben 2 + Cy 3 + Dee 4 + Eli 1 + Fay 3 + Maya 1 = 14; 14 - 0 = 14
        "Ben": (20, 0, 20, False),  # Ana 3 + Cy 1 + Dee 5 + Eli 5 + Fay 2 + Maya 4 = 20; 20 - 0 = 20
        "Cy": (23, 0, 23, False),   # Ana 4 + Ben 4 + Dee 2 + Eli 4 + Fay 4 + Maya 5 = 23; 23 - 0 = 23
        "Dee": (25, 0, 25, False),  # Ana 5 + Ben 5 + Cy 5 + Eli 3 + Fay 1 + Maya 6 = 25; 25 - 0 = 25
        "Eli": (14, 3, 11, True),   # Ana 1 + Ben 3 + Cy 2 + Dee 1 + Fay 5 + Maya 2 = 14; 14 - 3 = 11
        "Fay": (15, 1, 14, True),   # Ana 2 + Ben 1 + Cy 4 + Dee 3 + Eli 2 + Maya 3 = 15; 15 - 1 = 14
        # Eli is lowest (11); Ana and Fay tie for second (14): "If two players tie for second place,
        # both of them gain bennies, as does the player in first."
    },
    2: {
        "Ana": (19, 0, 19, False),  # Ben 4 + Cy 2 + Dee 4 + Eli 4 + Fay 2 + Maya 3 = 19
        "Ben": (15, 2, 13, True),   # Ana 1 + Cy 5 + Dee 1 + Eli 3 + Fay 4 + Maya 1 = 15; 15 - 2 = 13
        "Cy": (16, 0, 16, False),   # Ana 4 + Ben 2 + Dee 3 + Eli 2 + Fay 1 + Maya 4 = 16
        "Dee": (22, 0, 22, False),  # Ana 3 + Ben 5 + Cy 3 + Eli 1 + Fay 5 + Maya 5 = 22
        "Eli": (14, 1, 13, True),   # Ana 5 + Ben 1 + Cy 1 + Dee 2 + Fay 3 + Maya 2 = 14; 14 - 1 = 13
        "Fay": (25, 1, 24, False),  # Ana 2 + Ben 3 + Cy 4 + Dee 5 + Eli 5 + Maya 6 = 25; 25 - 1 = 24
        # Ben and Eli tie for the lowest (13): "If two players are tied for the lowest score, each
        # gets a bennie. The second place finisher(s) does not." Cy (16) does not.
    },
    3: {
        "Ana": (14, 0, 14, True),   # Ben 2 + Cy 2 + Dee 2 + Eli 3 + Fay 4 + Maya 1 = 14
        "Ben": (19, 1, 18, False),  # Ana 2 + Cy 5 + Dee 4 + Eli 2 + Fay 3 + Maya 3 = 19; 19 - 1 = 18
        "Cy": (20, 0, 20, False),   # Ana 5 + Ben 5 + Dee 3 + Eli 1 + Fay 2 + Maya 4 = 20
        "Dee": (20, 1, 19, False),  # Ana 3 + Ben 3 + Cy 4 + Eli 4 + Fay 1 + Maya 5 = 20; 20 - 1 = 19
        "Eli": (16, 4, 12, True),   # Ana 4 + Ben 1 + Cy 3 + Dee 1 + Fay 5 + Maya 2 = 16; 16 - 4 = 12
        "Fay": (22, 0, 22, False),  # Ana 1 + Ben 4 + Cy 1 + Dee 5 + Eli 5 + Maya 6 = 22
        # Eli (12) and Ana (14): no ties; the two lowest scores gain.
    },
}

# Drama tokens in hand when each vote was tallied (from the balances worked out above).
IN_HAND = {1: {"Eli": 3, "Fay": 1, GM: 2}, 2: {"Ben": 2, "Eli": 1, "Fay": 1}, 3: {"Ben": 1, "Dee": 1, "Eli": 4, GM: 1}}


@pytest.mark.parametrize("episode", [1, 2, 3])
def test_the_bennie_vote(harbor, episode):
    cast = {}
    for r in harbor.events("yarn.bennie.ballot_cast", episode=episode):
        cast[data(r)["voter"]] = data(r)["ranks"]  # Cy's second ballot replaces his retracted one
    assert cast == {voter: {p: i for i, p in enumerate(order, 1)} for voter, order in BALLOTS[episode].items()}
    assert harbor.tokens(harbor.before_tally(episode)) == IN_HAND[episode]
    tally = data(harbor.tally(episode))
    got = {t["player"]: (t["rank_total"], t["tokens_in_hand"], t["score"], t["gains_bennie"]) for t in tally["tallies"]}
    assert got == TALLIES[episode]
    # "the kitty" pays each new bennie; the vote is recorded with nothing missing.
    assert tally["missing"] == []
    assert sorted(t["destination"] for t in tally["transfers"]) == sorted(
        p for p, (*_, gains) in TALLIES[episode].items() if gains)


def test_the_retracted_ballot_is_not_counted(harbor):
    # Cy's retracted card gave Ana #1 and Fay #2; the counted one Fay #1, Ana #2.
    ana = next(t for t in data(harbor.tally(3))["tallies"] if t["player"] == "Ana")
    assert {"voter": "Cy", "rank": 2} in ana["ranks_received"]


def test_bennies_held_and_spent(harbor):
    # After episode 1's vote: Eli, Ana, Fay one each.
    assert harbor.bennies(harbor.tally(1).sequence) == {"Ana": 1, "Eli": 1, "Fay": 1}
    # Scene 13: Fay rushes with a bennie, "The caller receives the token or bennie": Eli 1 + 1 = 2.
    assert harbor.bennies(harbor.one("yarn.challenge.rushed", scene=13).sequence) == {"Ana": 1, "Eli": 2}
    # Eli cashes one in for a drama token: 2 - 1 = 1.
    assert harbor.bennies(harbor.one("yarn.bennie.spent", scene=13).sequence) == {"Ana": 1, "Eli": 1}
    # Scene 15: "A caller may block your unwanted entrance into a scene by spending a bennie": Ana 0.
    assert harbor.bennies(harbor.one("yarn.challenge.rushed", scene=15).sequence) == {"Eli": 1}
    # Episode 2's vote: Ben and Eli gain: Ben 1, Eli 1 + 1 = 2.
    assert harbor.bennies(harbor.tally(2).sequence) == {"Ben": 1, "Eli": 2}
    # Scene 21: Eli cashes one in (1 left); scene 22: he spends the other to jump the queue.
    assert harbor.bennies(harbor.one("yarn.bennie.spent", scene=21).sequence) == {"Ben": 1, "Eli": 1}
    assert harbor.bennies(harbor.one("yarn.scene.called", scene=22).sequence) == {"Ben": 1}
    # Episode 3's vote: Eli and Ana gain. "They don't refresh": Ben keeps his unspent one.
    assert harbor.bennies(harbor.history[-1].sequence) == {"Ana": 1, "Ben": 1, "Eli": 1}


# -- experience -------------------------------------------------------------------------------


def test_experience_awards_and_the_raised_trait(harbor):
    # "In general, one die should be awarded for each session of worthy play, plus dice for any
    # exceptional accomplishments"; "All PCs active in a session should receive the same number".
    assert [set(data(r)["awards"].values()) for r in harbor.events("yarn.experience.awarded")] == [{2}, {2}, {2}]
    # "For a trait listed as 1 or 2 dice, you can increase the score by 1 for every 5 experience
    # dice you spend." Jonah's pool before: 1 + 2 + 2 = 5; Lamp Mechanic 1 -> 2, pool 5 - 5 = 0.
    raised = data(harbor.one("yarn.experience.trait_raised"))
    assert (raised["character"], raised["trait"], raised["score"], raised["experience_spent"]) == (
        "Jonah Crane", "Lamp Mechanic", 2, 5)
    pcs = harbor.state(harbor.history[-1].sequence).rules.characters.pcs
    # After episode 3's award: Jonah 0 + 2 = 2; everyone else 1 + 2 + 2 + 2 = 7.
    assert {name: sheet.experience_pool for name, sheet in pcs.items()} == {
        "Jonah Crane": 2, "Iris Vane": 7, "Nell Harrow": 7, "Kit Marlowe": 7, "Tobias Wren": 7, "Rosa Quill": 7}
    assert pcs["Jonah Crane"].traits["Lamp Mechanic"].dice == 2


# -- procedural rolls, worked out by hand -----------------------------------------------------


def test_the_procedural_rolls_of_scene_1(harbor):
    rolls = {r.sequence: data(r) for r in harbor.events("yarn.roll.made") if r.scene == 1}
    iris, lookout, jonah, swim, haul = rolls.values()
    # "You can use an experience die to cancel a penalty die": the fog's penalty and Iris's
    # experience die cancel, three dice: 5 + 4 + 3 = 12 against Hard 11, beats by 12 - 11 = 1.
    assert (iris["penalty"], iris["experience_dice"]) == (1, 1)
    assert (iris["dice"]["faces"], iris["dice"]["total"]) == ([5, 4, 3], 12)
    assert (iris["against"]["number"], iris["outcome"], iris["margin"]) == (11, "beats", 1)
    # Its odds: 3d6 above 11, sums 12..18 in 25 + 21 + 15 + 10 + 6 + 3 + 1 = 81 of 216 ways = 3/8.
    assert iris["odds"]["beats"]["exact"] == "3/8"
    # The lookout's hidden roll, 4 + 3 = 7: "the GM need not tell you what she rolls for a GMC".
    assert (lookout["dice"]["total"], lookout["gmc"]) == (7, True)
    assert next(r for r in harbor.events("yarn.roll.made") if r.sequence == list(rolls)[1]).visibility == "gm"
    # Jonah, no trait (two dice) plus a bonus die: "drop out the lowest die": 6, 6, (2) = 12 against
    # the lookout's 7, beats by 12 - 7 = 5; two 6's: "When you roll 2 or more 6's [...] you've had a
    # break." The margin over a secret roll is the GM's to see: the public payload leaves it out.
    assert (jonah["dice"]["total"], jonah["outcome"], jonah["margin"]) == (12, "beats", None)
    assert jonah["breaks"] == {"good": True, "bad": False}
    seen_by_gm = roll_data(harbor.state(harbor.history[-1].sequence), harbor.events("yarn.roll.made")[2])
    assert (seen_by_gm["against"]["number"], seen_by_gm["margin"]) == (7, 5)
    # Simple addition: "add the dice of both characters together": Iris 1 + 1 + 4 = 6 (a bad break,
    # two 1's), Jonah 3 + 5 + 2 = 10; 6 + 10 = 16 against 13, beats by 3.
    assert (swim["dice"]["total"], swim["breaks"]["bad"], haul["dice"]["total"]) == (6, True, 10)
    group = data(harbor.one("yarn.group.resolved"))
    assert (group["method"], group["total"], group["against"]["number"], group["outcome"], group["margin"]) == (
        "simple addition", 16, 13, "beats", 3)
    # Its odds, six dice added against 13 (46656 ways). Sums up to 12: 6 + k extra pips, k <= 6, over
    # six dice of 0..5 extra, C(12,6) - 6 = 918 ways; exactly 13 (7 extra): C(12,5) - 6 x C(6,5) = 756.
    # Fails 918/46656 = 17/864; equals 756/46656 = 7/432; beats 1 - 1674/46656 = 833/864.
    assert {k: v["exact"] for k, v in group["odds"].items()} == {"beats": "833/864", "equals": "7/432",
                                                                  "fails": "17/864"}
    # "on a 6 you have a good consequence"; "on a 1 you have a bad consequence".
    consequences = {(d["character"], d["kind"], d["face"], d["consequence"])
                    for d in map(data, harbor.events("yarn.consequence.rolled"))}
    assert consequences == {("Jonah Crane", "good", 6, True), ("Iris Vane", "bad", 1, True)}


# -- the fight, worked out by hand ------------------------------------------------------------


def test_the_fight_at_pier_nine(harbor):
    initiative = data(harbor.one("yarn.combat.initiative_set"))
    # Initiative: Jonah 6+4+3+2 = 15, Tobias 5+5+2+1 = 13, the GMCs 4+3 = 7, "highest roll to lowest".
    assert initiative["order"] == ["Jonah Crane", "Tobias Wren", "GMCs"]
    attacks = [data(r) for r in harbor.events("yarn.combat.attacked")]
    # "Subtract the defender's (lower) roll from your (higher) roll. Multiply this result by the
    # damage factor [...] Only the points in excess of the armor's rating can do damage."
    # (attacker, defender, damage, hit points before -> after)
    assert [(a["declared"]["attacker"], a["declared"]["defender"], a["damage"], a["hit_points_before"],
             a["hit_points_after"]) for a in attacks] == [
        # Jonah, Dockside Brawler 6+6+5+4 = 21, vs Red 2+2+1 = 5: (21 - 5) x 1 (unarmed) = 16, armored
        # jacket rolls 3 ("subtract full roll"): 13. Red 21 - 13 = 8, at or below half (10.5): messed up.
        ("Jonah Crane", "Red Callan", 13, 21, 8),
        # Tobias's truncheon (lead pipe, X2), 5+4+2 = 11 vs Gus 4+3 = 7: (11 - 7) x 2 = 8. Gus 14 -> 6.
        ("Tobias Wren", "Gus", 8, 14, 6),
        # Red is messed up: "a penalty die on all actions": 6,6,6,5 drop a 6 = 17, vs Jonah 3+2+2+1 = 8:
        # (17 - 8) x 2 = 18. Jonah 30 - 18 = 12, at or below 15: messed up.
        ("Red Callan", "Jonah Crane", 18, 30, 12),
        # Gus is messed up too: 6,2,1 drop the 6 = 3, vs Tobias 4+3+3 = 10: a miss.
        ("Gus", "Tobias Wren", 0, 21, 21),
        # Round 2, both messed up: Jonah 6,5,5,4,2 drop a 6 = 16; Red 6,3,2,1 drop the 6 = 6;
        # (16 - 6) x 1 = 10, the jacket rolls 2: 8. Red 8 - 8 = 0: "at 0 hit points or below, they are
        # out of the fight."
        ("Jonah Crane", "Red Callan", 8, 8, 0),
    ]
    assert [a["steps"][-1]["value"] for a in attacks if a["outcome"] == "beats"] == [13, 8, 18, 8]
    # "Hit point level after recovery is halfway between the wounded level and the last level after
    # recovery", "Round hit points up": Jonah (12 + 30) / 2 = 21; Red (0 + 21) / 2 = 10.5 -> 11.
    recovered = {d["character"]: (d["before"], d["after"]) for d in map(data, harbor.events("yarn.wounds.recovered"))}
    assert recovered == {"Jonah Crane": (12, 21), "Red Callan": (0, 11)}
    # Two days later, in Kit's care and mobile: "Medical Care [...] Mobile 2" a day: 21 -> 23 -> 25.
    healed = data(harbor.one("yarn.wounds.healed"))
    assert (healed["days"], healed["before"], healed["levels"]) == (2, 21, [23, 25])
    [jonah] = wounds_report(harbor.state(harbor.history[-1].sequence), "Jonah Crane")
    # 25 > 30 / 2: no longer messed up, no penalty die.
    assert (jonah.current, jonah.maximum, jonah.penalty_dice) == (25, 30, 0)
    [red] = wounds_report(harbor.state(harbor.history[-1].sequence), "Red Callan")
    assert (red.current, red.maximum) == (11, 21)


def test_the_gms_override_belongs_to_the_scene_it_let_her_call(harbor):
    # The override recorded with the call of scene 16 is filed under scene 16, not the scene before.
    [override] = harbor.events("override.recorded")
    assert (override.episode, override.scene) == (2, 16)
