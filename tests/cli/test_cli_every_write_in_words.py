"""Every write command answers in words (issue 10): a session that walks every verb of a Yarn campaign
records every event type there is, and each write prints one sentence per event it recorded and the
line on what follows, within 80 columns, never the payload table (that is ``--verbose``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli_usage_errors import INTERACTIVE, every_verb

from yarnlog.core.events import known_event_types, payload_class
from yarnlog.core.ruleset import get_ruleset

pytestmark = pytest.mark.slow  # a session through every write verb

SHEETS = Path(__file__).resolve().parents[2] / "journals" / "sheets"

#: Verbs that record no event: they read, write files (exports, keys, proofs) or grant database rights.
READS = {("keygen",), ("serve",), ("check-proof",), ("db", "grant"), ("digest",),
         ("bennies",), ("calling-order",), ("campaigns",), ("cast",), ("dice-stats",), ("explain",), ("export",),
         ("fight", "status"), ("group", "list"), ("import",), ("ledger",), ("log",),
         ("precedence", "show"), ("psychic", "show"), ("recap",), ("relationships",), ("rolls",), ("sheet",),
         ("status",), ("tokens",), ("verify",), ("wounds",), ("xp", "status")}

#: A session that uses every write verb, in an order the rules allow: (verb words, arguments).
SESSION: list[tuple[str, ...]] = [
    ("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"),
    ("options", "--on", "botch", "--reason", "the table likes a disaster"),
    ("join", "Ana"), ("join", "Ben"),
    ("invite", "Ben"), ("invite", "Ben", "--revoke"), ("invite", "Ana"),
    ("precedence", "draw", "--purpose", "creation", "--order", "Ana,Ben"),
    ("character", "create", "Iris", "--from-file", "{iris-sheet}"),
    ("character", "create", "Tomas", "--from-file", str(SHEETS / "tomas.json")),
    ("character", "relate", "Iris", "Tomas", "--nature", "old rivals on the quay"),
    ("character", "want", "Iris", "--from", "Tomas", "--want", "an apology", "--why-not", "his pride"),
    ("character", "want", "Tomas", "--from", "Iris", "--want", "her trust", "--why-not", "the wreck"),
    ("psychic", "pool", "Iris", "--power", "Hunches", "--three"),
    ("episode", "start", "--title", "Fog", "--theme", "trust", "--theme-by", "Ana"),
    ("precedence", "draw", "--purpose", "calling-order", "--order", "Ana,Ben"),
    # Scene 1 (Ana): a dramatic scene and the challenges to its call.
    ("call", "Ana", "--cast", "Iris,Tomas", "--mode", "dramatic", "--setting", "the docks",
     "--time-break", "a week later"),
    ("challenge", "time-jump", "Ben", "--for-challenger", "Ben", "--tie", "caller"),
    ("supporting", "add", "Old Tom", "--description", "a one-handed fisherman"),
    ("supporting", "detail", "Old Tom", "he watches the harbour from Pier Nine"),
    ("supporting", "promote", "Old Tom", "--pc", "Iris", "--need", "his blessing"),
    ("location", "add", "Pier Nine", "--description", "the rotten pier"),
    ("location", "detail", "Pier Nine", "the night boats tie up here"),
    ("scene-role", "opener"),
    ("shift", "Pier Nine", "--time", "at dusk"),
    ("challenge", "location", "Ben", "Pier Nine", "--ground", "tone", "--allowed", "--for-challenger", "Ben",
     "--tie", "detail"),
    ("challenge", "narration", "Ben", "--for-caller", "Ana", "--tie", "caller"),
    ("note", "Iris waits on the quay"),
    ("challenge", "novelty", "Ben", "--too-similar", "--change", "the harbour master died"),
    ("challenge", "procedural", "Ben", "--objector", "Ana", "--reply", "adjust", "--narration", "I swim the bay"),
    ("petition", "refused", "-p", "Iris", "-g", "Tomas"),
    # Scene 2 (Maya): a plot jump lost, a two-way exchange.
    ("call", "Maya", "--cast", "Tomas,Iris", "--mode", "dramatic", "--setting", "The Lantern"),
    ("challenge", "plot-jump", "Ana", "--for-challenger", "Ana", "--tie", "challenger",
     "--revised", "the boat is still afloat"),
    ("two-way", "--granted", "Tomas", "--denied", "Iris"),
    # Scene 3 (Ben): a duck the caller compels, multiple petitioners.
    ("call", "Ben", "--cast", "Iris,Tomas", "--mode", "dramatic"),
    ("challenge", "duck", "Iris", "--compel"),
    ("quiz", "--got", "Tomas:Iris", "--missed", "Iris:Tomas", "--order", "Ana,Ben"),
    # Scene 4 (Ana): a force, and a vote on a scene that would reverse it.
    ("call", "Ana", "--cast", "Iris,Tomas", "--mode", "dramatic"),
    ("force", "-p", "Iris", "-g", "Tomas"),
    ("challenge", "reversal", "Ben", "--for-caller", "Ana", "--tie", "caller", "--override", "a test of the vote"),
    # Scenes 5 and 6 (Maya): shopping off stage, then procedure and combat.
    ("call", "Maya", "--cast", "Tomas", "--mode", "procedural", "--kind", "shopping"),
    ("offstage",),
    ("call", "Maya", "--cast", "Tomas", "--mode", "procedural", "--setting", "Pier Nine"),
    ("challenge", "rush", "Iris", "--consent"),
    ("roll", "Tomas", "--trait", "Brawler", "--difficulty", "hard", "--faces", "6,4,3,1,2", "--bonus", "1"),
    ("roll", "Iris", "--trait", "Tough", "--faces", "6,6,4,1", "--for", "to climb the crane"),
    ("read", "{roll}", "she reaches the top, shaking"),
    ("roll", "Tomas", "--faces", "3,5"),
    ("group", "add", "{roll-1}", "{roll}", "--against", "13"),
    ("group", "combine", "Iris=Tough", "Tomas=Brawler", "--faces", "1,5,2,6,3,4,2,4", "--against", "11"),
    ("roll", "Iris", "--faces", "4,2"),
    ("roll", "Tomas", "--faces", "5,1"),
    ("group", "either", "{roll-1}", "{roll}", "--counting", "{roll}", "--against", "7"),
    ("roll", "Iris", "--faces", "3,3"),
    ("roll", "Tomas", "--faces", "6,2"),
    ("group", "worst", "{roll-1}", "{roll}", "--against", "5"),
    ("combatant", "Smuggler", "--hp", "18", "--description", "a deckhand with a gutting knife"),
    ("armor", "Tomas", "leathers"),
    ("fight", "start", "--detailed", "--combatant", "Tomas", "--combatant", "Smuggler"),
    ("initiative", "Tomas@Brawler:5,4,1,1", "GMCs=3:6,5,3"),
    ("attack", "Smuggler", "Tomas", "--weapon", "knife", "--attack-dice", "3", "--attack-faces", "6,5,6",
     "--defense-trait", "Brawler", "--defense-faces", "2,1,1,3"),
    ("fight", "round"),
    ("fight", "join", "--combatant", "Iris"),
    ("fight", "leave", "Smuggler", "--reason", "dives off the pier"),
    ("fight", "end", "--summary", "the smuggler got away"),
    ("recover", "Tomas", "--reason", "a long sit on the bollard"),
    ("heal", "Tomas", "--days", "2", "--activity", "rest"),
    ("fight", "start", "--combatant", "Iris"),
    ("gestalt", "Iris@Tough:6,5,4,1", "--by", "Ana"),
    ("fight", "end"),
    ("consequences", "--roll", "--face", "Iris:good=6"),
    ("consequence", "{consequence-roll}", "the harbour master owes her a favour"),
    # Scene 7 (Ben): fringe powers and magic.
    ("call", "Ben", "--cast", "Tomas", "--mode", "procedural"),
    ("psychic", "learn", "Tomas", "Sending", "--dice", "1", "--faces", "6", "--override", "study montage"),
    ("psychic", "use", "Tomas", "Sending", "--faces", "4"),
    ("psychic", "recover", "Tomas", "--hours", "8"),
    ("psychic", "resist", "Tomas", "-t", "Brawler", "--faces", "4,4,4,2,1", "--override", "a last reserve"),
    ("psychic", "buy", "Tomas", "--override", "the GM allows it"),
    ("spell", "study", "Tomas", "Lurking Chains", "--faces", "4", "--override", "the old books"),
    ("spell", "cast", "Wizard", "Grip of Stone", "--level", "12", "--secret"),
    ("spell", "resist", "Tomas", "--cast", "{last}", "-t", "Brawler", "--faces", "4,4,4,4"),
    # Scene 8 (Ana, without her character: a drama token): a bennie, and a death.
    ("call", "Ana", "--cast", "Tomas", "--mode", "procedural"),
    ("bennie", "spend", "Ana", "drama-token", "--override", "a bennie from the last campaign"),
    ("damage", "Iris", "--points", "44", "--reason", "a fall from the crane"),
    ("death", "face", "Iris"),
    ("death", "spend", "Iris", "last-words", "--by", "Ana"),
    # Scenes 9 (Maya) and 10 (Ben): a montage, each player's action in it.
    ("call", "Maya", "--cast", "Tomas", "--mode", "procedural"),
    ("call", "Ben", "--kind", "montage", "--duration", "a week", "--cast", "Tomas"),
    ("montage-action", "Ben", "drills with the watch", "--activity", "training"),
    ("scene", "close", "--summary", "the lamp is lit"),
    ("ballot", "--voter", "Ana", "Ben"), ("ballot", "--voter", "Ben", "Ana"),
    ("ballot", "--voter", "Maya", "Ana", "Ben"),
    ("precedence", "draw", "--purpose", "theme-rota", "--order", "Ben,Ana"),
    ("theme", "choose", "debts"),
    ("episode", "end"),
    ("xp", "award", "3"),
    ("xp", "develop", "Tomas", "Swimming", "--sign", "webbed toes", "--approved", "--override", "a month at sea"),
    ("xp", "raise", "Tomas", "Crafty", "--approved", "--override", "a month at sea"),
    ("ruling", "tokens", "--from", "kitty", "--to", "Ana", "--amount", "1", "--currency", "bennie",
     "--reason", "the table voted her speech the best of the night"),
    ("ruling", "note", "a montage week counts as training time", "--rule", "Montage Scenes"),
    ("correct", "{first-roll}", "--faces", "6,4,3,2,2", "--reason", "misread a die", "--yes"),
    ("retract", "{last-note}", "--reason", "said in jest", "--yes"),
    ("character", "retire", "Tomas", "--reason", "he leaves on the last ferry"),
    ("join", "Cy"),
    ("leave", "Cy", "--reason", "moved away"),
]


def _iris_sheet(folder: Path) -> str:
    """The sample's Iris, with a fringe power for a side trait ("Hunches"), as a sheet file in ``folder``."""
    iris = json.loads((SHEETS / "iris.json").read_text(encoding="utf-8"))
    iris["signs"]["Hunches"] = iris["signs"].pop(iris["sides"][1])
    iris["sides"] = [iris["sides"][0], "Hunches:technical"]
    path = folder / "iris.json"
    path.write_text(json.dumps(iris), encoding="utf-8")
    return str(path)


def _arguments(args: tuple[str, ...], recorded: list[dict]) -> list[str]:
    """``args`` with ``{last}`` (the last event recorded), ``{roll}`` and ``{roll-1}`` (the last two rolls),
    ``{first-roll}``, ``{last-note}`` and ``{consequence-roll}`` filled in."""
    rolls = [e["sequence"] for e in recorded if e["event_type"] == "yarn.roll.made"]
    consequences = [e["sequence"] for e in recorded if e["event_type"] == "yarn.consequence.rolled"]
    notes = [e["sequence"] for e in recorded if e["event_type"] == "note"]
    marks = {"{last}": recorded[-1]["sequence"] if recorded else 0,
             "{roll}": rolls[-1] if rolls else 0, "{roll-1}": rolls[-2] if len(rolls) > 1 else 0,
             "{first-roll}": rolls[0] if rolls else 0, "{last-note}": notes[-1] if notes else 0,
             "{consequence-roll}": consequences[-1] if consequences else 0}
    return [str(marks.get(a, a)) for a in args]


def _verb(args: tuple[str, ...]) -> tuple[str, ...]:
    words = [a for a in args if not a.startswith("-")]
    known = set(every_verb())
    return next(tuple(words[:n]) for n in (2, 1) if tuple(words[:n]) in known)


#: The recap of the session's episode, by audience (filled in by :func:`walked`).
RECAPS: dict[tuple[str, ...], str] = {}


@pytest.fixture(scope="module")
def walked(tmp_path_factory):
    """Run :data:`SESSION` once: for each write, what it printed in words and the events it recorded."""
    import sys

    from yarnlog.cli.context import close_journal
    from yarnlog.cli.main import main

    folder = tmp_path_factory.mktemp("walk")
    db, sheet = folder / "journal.db", _iris_sheet(folder)
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setenv("YARNLOG_DB", str(db))
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("YARNLOG_CAMPAIGN", raising=False)

    def run(*args: str) -> tuple[int, str, str]:
        import contextlib
        import io

        out, err = io.StringIO(), io.StringIO()
        monkeypatch.setattr(sys, "argv", ["yarnlog", *args])
        code = 0
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
            except SystemExit as exit_:
                code = exit_.code or 0
        return int(code), out.getvalue(), err.getvalue()

    said = []
    recorded: list[dict] = []
    try:
        for args in SESSION:
            typed = [sheet if a == "{iris-sheet}" else a for a in _arguments(args, recorded)]
            code, out, err = run(*typed)
            assert code == 0, (typed, err)
            _, log, _ = run("log", "--json")
            events = json.loads(log)
            new, recorded = events[len(recorded):], events
            said.append((_verb(args), typed, out, new))
        # The recap tells the moves in the same sentences, as the GM and as the players may see them.
        for audience in ((), ("--players",)):
            code, out, err = run("recap", "--episode", "1", *audience)
            assert code == 0, err
            RECAPS[audience] = out
    finally:
        close_journal()
        monkeypatch.undo()
    return said


def test_the_session_uses_every_write_verb(walked):
    writes = {verb for verb in every_verb() if verb not in READS and verb[0] not in INTERACTIVE}
    assert writes - {verb for verb, *_ in walked} == set()
    assert all(events for verb, _, _, events in walked), [typed for _, typed, _, events in walked if not events]


#: Event types no verb records (a GM's transfer of tokens has one now: ``ruling tokens``).
NO_VERB: set[str] = set()


def test_the_session_records_every_registered_event_type(walked):
    yarn = get_ruleset("yarn")
    yarn.rules.load_event_types()  # the parts imported when first used too: every event type registered
    registered = {t for t in known_event_types() if payload_class(t).__module__.startswith("yarnlog.")
                  and (yarn.owns(t) or not t.startswith(("yarn", "dramasystem", "dramatis", "will", "polyhedral")))}
    seen = {e["event_type"] for *_, events in walked for e in events}
    assert registered - seen == NO_VERB


def test_every_write_answers_in_words_within_80_columns(walked):
    for verb, typed, out, events in walked:
        lines = out.splitlines()
        assert lines, typed
        assert all(len(line) <= 80 for line in lines), (typed, out)
        assert "┃" not in out and "│" not in out and "payload" not in out, (typed, out)  # no payload table
        assert lines[-1].startswith("Tokens: "), (typed, out)  # what follows: the drama tokens at the table


def test_every_event_type_has_its_own_sentence(walked):
    """Each event recorded is told in a sentence that names what the payload says (a name it carries)."""
    from yarnlog.rulesets.yarn.recap import sentences

    for verb, typed, out, events in walked:
        for e in events:
            kind, p = e["event_type"], e["payload"]
            if kind.startswith("yarn.") and kind not in ("yarn.roll.made", "yarn.group.resolved"):
                told = sentences.sentence(kind, p, {}, {})
                assert told or kind == "yarn.scene.called", (kind, p)
                # Said in words: no Python value printed as such.
                assert not any(raw in (told or "") for raw in ("{'", "None", "[]", "True", "False")), told


def test_the_recap_tells_the_moves_in_the_same_sentences(walked):
    from yarnlog.rulesets.yarn.recap import sentences
    from yarnlog.rulesets.yarn.recap.build import uncited

    # The scene's story tells them in the same words, without the book's section (issue 26).
    told = {kind: uncited(sentences.sentence(kind, e["payload"], {}, {}) or "") for *_, events in walked
            for e in events
            if (kind := e["event_type"]) in ("yarn.challenge.novelty_ruled", "yarn.spell.studied",
                                             "yarn.combat.armor_worn", "yarn.wounds.death_option_spent")}
    gm, players = RECAPS[()], RECAPS[("--players",)]
    for kind, sentence in told.items():
        assert sentence and sentence in " ".join(gm.split()), kind
    # The GM's secret side of a gestalt fight and a secret spell stay out of the players' recap.
    assert "Wizard cast" in gm and "Wizard cast" not in players


def test_a_replay_in_place_of_every_event_type_equals_the_fold_of_one_event_at_a_time(walked):
    """The parts' builders (a replay folding in place: ``core.state.Replay``) against their ``evolve``,
    on a session that records every event type, psychic pools, spells and wounds included."""
    from dataclasses import replace

    from yarnlog.core.corrections import effective
    from yarnlog.core.events import Recorded, load_payload
    from yarnlog.core.state import empty_state, evolve, replay

    history = [Recorded(campaign_id="walk", **{k: v for k, v in e.items() if k != "payload"},
                        payload=load_payload(e["event_type"], e["schema_version"], e["payload"]))
               for *_, events in walked for e in events]
    expected = empty_state()
    for recorded in effective(history):
        expected = evolve(expected, recorded)
    assert replay(history) == replace(expected, sequence=history[-1].sequence)
