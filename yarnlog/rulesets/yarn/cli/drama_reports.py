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
    every: Annotated[bool, typer.Option("--all", help="Every line since session zero (the table shows "
                                        "the episode in play, or the last one, unless --episode or --scene).")]
    = False,
    campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Every token and bennie movement: its event, both sides of the exchange and what was sought, the rule,
    running drama-token and bennie balances, and movements an amendment removed, struck through with it.

    The table shows the lines since the episode in play (or the last one) began, after what each
    held before them (carried forward: the sum of every earlier line); --all shows every line.
    --json gives every line (or those of --episode, --scene), as a list."""
    from yarnlog.core.referee import invalid

    invalid(currency in (None, "drama", "bennie"), "--currency is drama or bennie")
    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    upto = resolve_as_of(journal, cid, as_of, end_of_scene)
    whole = every or as_json or episode is not None or scene is not None
    found = None if whole or upto is not None else _latest_episode_lines(journal, cid, participant)
    if found is None:
        found = _ledger_lines(journal, cid, upto, participant, episode, scene, latest=not whole)
    rows, participant, carried = found
    rows = [r for r in rows if (participant is None or participant in (r["source"], r["destination"]))
            and (currency is None or r["currency"] == currency)]
    emit(rows, as_json, lambda data: _render_ledger(data, participant, quotes, carried))


#: What each held before the lines shown: {"from": where the lines start (words), "drama": {name: n},
#: "bennie": {name: n}}; None when the lines start at the campaign's start.
Carried = Optional[dict]


def _ledger_lines(journal, cid: str, upto: int | None, participant: str | None, episode: int | None,
                  scene: int | None, *, latest: bool) -> tuple[list[dict], str | None, Carried]:
    """The ledger's lines from the whole history up to ``upto`` (of ``episode`` or ``scene``; with
    ``latest``, those since the last episode began), the participant named as registered, and what
    was carried forward to the first line shown."""
    from yarnlog.core.state import as_told
    from yarnlog.rulesets.yarn.parts.economy.ledger_trail import filtered, holdings_before, ledger_trail

    # Each line names its scene as the log does (an order drawn between scenes: the scene it was drawn for).
    history = journal.history(cid, upto=upto)
    participant = participant_named(journal.state(cid).table, participant)  # the table as it is now
    trail = ledger_trail(as_told(history))
    lines = filtered(trail, episode=episode, scene=scene)
    start, said = None, ""
    if latest:
        started = [r for r in history if r.event_type == "episode.started"]
        if started:
            start, said = started[-1].sequence, f"episode {started[-1].episode}"
            lines = [line for line in lines if line.sequence >= start]
    elif lines and (episode is not None or scene is not None):
        start, said = lines[0].sequence, f"episode {episode}" if episode is not None else f"scene {scene}"
    carried = None if start is None else {"from": said, **holdings_before(trail, start)}
    return [line.to_data() for line in lines], participant, carried


def _latest_episode_lines(journal, cid: str, participant: str | None) -> tuple[list[dict], str | None, Carried] | None:
    """The lines since the last episode began, read from that episode's events alone (and every
    amendment, and the characters' wants the exchanges name), at the campaign's head: what was held
    before them is what is held now less what they moved. None before any episode (every line is then
    shown) or if the campaign was written to meanwhile."""
    from types import SimpleNamespace

    from yarnlog.app.episodes import episode_span, episode_starts, events_of
    from yarnlog.core.state import as_told
    from yarnlog.rulesets.yarn.parts.economy.ledger_trail import CONTEXT_TYPES, ledger_trail

    held_now = journal.view(cid, "tokens")  # the stored view: a few rows, no replay
    roles = {p["name"]: p["role"] for p in held_now["participants"]}
    participant = participant_named(SimpleNamespace(roles=roles), participant)
    starts = episode_starts(journal.states, cid)
    if not starts:
        return None
    span = episode_span(journal.states, cid, max(starts), starts=starts)
    if span is None or span.head != held_now["as_of"]:
        return None
    earlier = events_of(journal.states, cid, CONTEXT_TYPES, upto=span.first - 1)
    history = sorted([*earlier, *(a for a in span.amendments if a.sequence < span.first)], key=lambda r: r.sequence)
    history += as_told(span.events) + [a for a in span.amendments if a.sequence > span.last]
    moved = ledger_trail(history, told_from=span.first)  # from nothing: what the stretch moved
    now = {"drama": {p["name"]: p["drama_tokens"] for p in held_now["participants"]},
           "bennie": {p["name"]: p["bennies"] for p in held_now["participants"]}}
    opening = {currency: {name: now[currency].get(name, 0) - moved_by.get(name, 0)
                          for name in set(now[currency]) | set(moved_by)}
               for currency, moved_by in (("drama", moved.drama), ("bennie", moved.bennies))}
    opening = {currency: {n: held for n, held in by_name.items() if held} for currency, by_name in opening.items()}
    trail = ledger_trail(history, opening=opening, told_from=span.first)
    carried = {"from": f"episode {span.number}", **opening}
    return [line.to_data() for line in trail.lines], participant, carried


def _render_ledger(rows: list[dict], participant: str | None, quotes: bool, carried: Carried = None) -> None:
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
    carried_line = "" if carried is None else "\n" + _carried_words(carried, participant)
    print_rows(f"Ledger{f' of {participant}' if participant else ''} (B: bennies; {after}; \u2717 struck: removed "
               f"by an amendment){carried_line}",
               ("#/sc", "move", "exchange", "tokens", "bennies", "rule"),
               [(f"{r['sequence']}/{r['scene']}" if r["scene"] else r["sequence"], move(r),
                 what(r) if first_of_event(i) or r["struck"] else "", held(r, "drama_after", "drama"),
                 held(r, "bennies_after", "bennie"), f"{r['chapter']}: {r['rule']}" if quotes else r["chapter"])
                for i, r in enumerate(rows)],
               struck=[r["struck"] for r in rows], no_wrap=("#/sc", "move"), narrow=("rule",) if not quotes else (),
               wide=("exchange",))


def _carried_words(carried: dict, participant: str | None) -> str:
    """What was held before the lines shown, in one sentence: "Carried forward to episode 3 (every
    earlier line; --all shows them): Ana 2 tokens, 1 bennie." (a participant's, or every holder's)."""
    names = [participant] if participant is not None else sorted(set(carried["drama"]) | set(carried["bennie"]))
    held = []
    for name in names:
        tokens, bennies = carried["drama"].get(name, 0), carried["bennie"].get(name, 0)
        if participant is None and not (tokens or bennies):
            continue
        held.append(f"{name} {tokens} token{'' if tokens == 1 else 's'}, {bennies} bennie{'' if bennies == 1 else 's'}")
    return (f"Carried forward to {carried['from']} (every earlier line; --all shows them): "
            f"{'; '.join(held) or 'nothing'}.")


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
