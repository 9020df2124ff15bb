"""Command line reports of the Yarn drama part: tokens, the ledger, bennies, the calling order.

Every report replays the journal, so each can be read at any point (``--as-of N``,
``--end-of-scene N``). At the campaign's end, the tokens, bennies and calling-order boards are the
ruleset's stored views (read in a few rows, without importing the rules). Only typer and the shared
:mod:`yarnlog.cli` modules are imported at start-up.
"""

from typing import Annotated, Optional

import typer

from yarnlog.cli.context import campaign_view, open_journal, participant_named, pick_campaign, resolve_as_of
from yarnlog.cli.options import AsOfOpt, CampaignOpt, EndOfSceneOpt, JsonOpt
from yarnlog.cli.output import console, emit, print_table


def tokens(campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
           as_json: JsonOpt = False) -> None:
    """Drama tokens and bennies held by each participant, the GM's pool and the kitty's flows."""
    data = campaign_view(campaign, "tokens", as_of, end_of_scene)

    def render(d):
        print_table(f"Tokens as of event {d['as_of']} (episode {d['episode'] or '-'})",
               ("participant", "role", "character", "drama tokens", "bennies"),
               [(p["name"], p["role"], p["character"], p["drama_tokens"], p["bennies"]) for p in d["participants"]])
        pool, kitty = d["gm_pool"], d["kitty"]
        out = console()
        out.print(f"GM's pool ({pool['gm']}, for {', '.join(pool['recurring']) or 'no recurring character yet'}): "
                  f"{pool['drama_tokens']} drama token(s)", markup=False)
        out.print(f"Kitty this episode: paid out {kitty['paid_out']}, took back {kitty['taken_in']}", markup=False)

    emit(data, as_json, render)


def ledger(
    episode: Annotated[Optional[int], typer.Option("--episode", help="Only episode N.")] = None,
    scene: Annotated[Optional[int], typer.Option("--scene", help="Only scene N.")] = None,
    participant: Annotated[Optional[str], typer.Option("--participant", help="Only moves to or from NAME, "
                                                       "with NAME's running balances.")] = None,
    currency: Annotated[Optional[str], typer.Option("--currency", help="drama or bennie")] = None,
    quotes: Annotated[bool, typer.Option("--quotes", help="Quote each rule's words.")] = False,
    campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Every token and bennie movement: its event, both sides of the exchange and what was sought, the rule,
    running drama-token and bennie balances, and movements an amendment removed, struck through with it."""
    from yarnlog.core.referee import invalid
    from yarnlog.core.state import as_told
    from yarnlog.rulesets.yarn.parts.economy.ledger_trail import filtered, ledger_trail

    invalid(currency in (None, "drama", "bennie"), "--currency is drama or bennie")
    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    # Each line names its scene as the log does (an order drawn between scenes: the scene it was drawn for).
    history = journal.history(cid, upto=resolve_as_of(journal, cid, as_of, end_of_scene))
    participant = participant_named(journal.state(cid).table, participant)  # the table as it is now
    trail = ledger_trail(as_told(history))
    rows = [line.to_data() for line in filtered(trail, episode=episode, scene=scene, participant=participant,
                                                currency=currency)]
    emit(rows, as_json, lambda data: _render_ledger(data, participant, quotes))


def _render_ledger(rows: list[dict], participant: str | None, quotes: bool) -> None:
    from yarnlog.rulesets.yarn.cli.audit_trail import print_rows

    def held(row: dict, column: str, currency: str) -> str:
        balances = row[column]
        if participant is not None:
            if row["currency"] != currency:
                return str(balances.get(participant, ""))
            sign = "-" if row["source"] == participant else "+"
            return f"{sign}{row['amount']} = {balances[participant]}"
        # Both parties' holdings, in the order the move names them (the kitty holds no balance).
        return ", ".join(str(n) for n in balances.values())

    def what(row: dict) -> str:
        x = row["exchange"]
        told = x["kind"] + (": " + ", ".join(f"{r} {w}" for r, w in x["sides"].items()) if x["sides"] else "")
        if x["sought"]:
            told += f"; sought: {x['sought']}"
        if x["note"]:
            told += f"; {x['note']}"
        if row["struck_by"]:  # struck in words too: a pipe or a file shows no strike-through
            told = f"\u2717 STRUCK: {told}; {row['struck_by']['marker']}"
        elif row["replaces"]:
            told += f" [as {row['replaces']['marker']}]"
        return told

    def move(row: dict) -> str:
        moved = f"{row['source']}>{row['destination']} {row['amount']}{'' if row['currency'] == 'drama' else 'B'}"
        return f"\u2717 {moved}" if row["struck"] else moved

    def first_of_event(index: int) -> bool:
        # An event's exchange is told once, on its first line: the next lines of the same event move for it too.
        return index == 0 or rows[index - 1]["sequence"] != rows[index]["sequence"]

    after = "after: the move's parties, in its order" if participant is None else f"after: {participant}'s"
    print_rows(f"Ledger{f' of {participant}' if participant else ''} (B: bennies; {after}; \u2717 struck: removed "
               "by an amendment)",
               ("#/sc", "move", "exchange", "tokens", "bennies", "rule"),
               [(f"{r['sequence']}/{r['scene']}" if r["scene"] else r["sequence"], move(r),
                 what(r) if first_of_event(i) or r["struck"] else "", held(r, "drama_after", "drama"),
                 held(r, "bennies_after", "bennie"), f"{r['chapter']}: {r['rule']}" if quotes else r["chapter"])
                for i, r in enumerate(rows)],
               struck=[r["struck"] for r in rows], no_wrap=("#/sc", "move"), narrow=("rule",) if not quotes else (),
               wide=("exchange",))


def bennies(
    tally: Annotated[bool, typer.Option("--tally", help="Recompute every recorded vote from its ballots, and "
                                        "show the vote so far in the episode in play.")] = False,
    campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Bennies held and spent, and each episode's vote with its arithmetic."""
    if not tally:
        emit(campaign_view(campaign, "bennies", as_of, end_of_scene), as_json, _render_bennies)
        return
    from yarnlog.rulesets.yarn.parts.economy.ledger import bennie_report, provisional_tally, recount, tallied_votes

    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    upto = resolve_as_of(journal, cid, as_of, end_of_scene)
    state = journal.state(cid, upto=upto)
    data = bennie_report(state)
    data["recounts"] = [recount(journal.state(cid, upto=r.sequence - 1), r.payload)
                        for r in tallied_votes(journal.history(cid, upto=upto))]
    data["provisional"] = provisional_tally(state)
    emit(data, as_json, _render_bennies)


def _render_bennies(d):
    print_table("Bennies held", ("player", "bennies"), list(d["held"].items()))
    if d["spent"]:
        print_table("Bennies spent", ("scene", "spender", "for"), [(s["scene"], s["spender"], s["option"])
                                                               for s in d["spent"]])
    for result in d.get("recounts", d["results"]):
        verdict = "" if "agrees" not in result else " - recount agrees" if result["agrees"] else \
            " - RECOUNT DIFFERS, recomputed: " + ", ".join(result["recomputed"]["bennies_to"] if
                                                         result["recomputed"] else ["nothing"])
        _tally(f"Bennie vote, episode {result['episode']}{verdict}", result["tallies"])
    if d.get("provisional"):
        _tally(f"Vote so far, episode {d['provisional']['episode']}", d["provisional"]["tallies"])
        for note in d["provisional"]["not_yet"]:
            console().print(f"  not yet: {note}", markup=False)


def _tally(title: str, tallies: list[dict]) -> None:
    print_table(title, ("player", "ranks received", "total", "- tokens", "= score", "place", "bennie"),
           [(t["player"], " ".join(f"{r['voter']}:#{r['rank']}" for r in t["ranks_received"]), t["rank_total"],
             t["tokens_in_hand"], t["score"], t["placement"], "yes" if t["gains_bennie"] else "")
            for t in tallies])


def register(app: typer.Typer) -> None:
    app.command("tokens")(tokens)
    app.command("ledger")(ledger)
    app.command("bennies")(bennies)
    from yarnlog.rulesets.scenes_and_tokens.cli.cast import calling_order

    app.command("calling-order")(calling_order)
