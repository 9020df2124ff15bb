"""Command line of the audit trail: ``explain`` (an event or a scene, and why the table holds what it
holds) and ``dice-stats`` (rolls, breaks, botches and luck against the prior odds).

Everything a user typed is data here: it is printed as :class:`rich.text.Text` (never read as Rich
markup) with control characters shown, not obeyed (:func:`clean`). Only typer and the shared :mod:`yarnlog.cli`
modules are imported at start-up; the projections are imported inside the commands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Optional

import typer

from yarnlog.cli.context import open_journal, participant_named, pick_campaign, resolve_as_of
from yarnlog.cli.options import AsOfOpt, CampaignOpt, EndOfSceneOpt, JsonOpt
from yarnlog.cli.output import console, emit, terminal_text

_BLANKS = str.maketrans("\t\n\r", "   ")

AsOpt = Annotated[Optional[str], typer.Option("--as", help="Show only what player NAME may see.")]


def clean(value: object) -> str:
    """``value`` as one printable line: line breaks and tabs made spaces, and every other character
    a terminal would act on shown, not obeyed (:func:`yarnlog.cli.output.terminal_text`)."""
    text = "" if value is None else str(value)
    return terminal_text(text.replace("\r\n", " ").translate(_BLANKS))


def text(value: object, style: str = "") -> Any:
    """User text for a table cell or a line: never parsed as markup."""
    from rich.text import Text

    return Text(clean(value), style=style)


def print_rows(title: str, columns: Sequence[str], rows: Sequence[Sequence[object]], *,
               struck: Sequence[bool] = (), no_wrap: Sequence[str] = (), narrow: Sequence[str] = (),
               wide: Sequence[str] = ()) -> None:
    """A table of plain cells (each printed as text, never as markup); a struck row is drawn struck through.

    ``no_wrap`` columns keep their cells on one line; ``narrow`` ones give their width to the others, ``wide``
    ones (the text that explains a row) take it.
    """
    from rich import box
    from rich.table import Table
    from rich.text import Text

    # Light rules and no outer edge: 80 columns go to the cells, not to the frame. Each line of the
    # title is cleaned alone (a line break the caller puts there stays; one inside user text does not).
    lines = Text("\n").join(text(line) for line in title.split("\n"))
    table = Table(title=lines, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                  padding=(0, 1, 0, 0))
    for index, column in enumerate(columns):
        # Wide enough for its longest word (up to 24 characters), so a word is never split: only a
        # longer one is folded onto the next line, never cut short with an ellipsis.
        words = [w for cell in (column, *(row[index] for row in rows)) for w in str(cell).split()]
        longest = min(max((len(w) for w in words), default=1), 24)
        # A no_wrap column holds short cells (a move, an event number): one a long name makes wider
        # than 24 columns wraps, or the row would run past 80 and the terminal cut it.
        widest = max((len(str(cell)) for cell in (column, *(row[index] for row in rows))), default=0)
        table.add_column(column, no_wrap=column in no_wrap and widest <= 24,
                         max_width=max(14, longest) if column in narrow else None,
                         min_width=max(22, longest) if column in wide else longest, overflow="fold")
    for index, row in enumerate(rows):
        style = "strike" if index < len(struck) and struck[index] else ""
        table.add_row(*(cell if isinstance(cell, Text) else text(cell, style) for cell in row))
    console().print(table)


def say(*parts: object) -> None:
    """One line of plain text."""
    console().print(text(" ".join(clean(p) for p in parts)))


def _history_and_state(campaign: str | None, as_of: int | None, end_of_scene: int | None):
    from yarnlog.core.state import as_told

    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    upto = resolve_as_of(journal, cid, as_of, end_of_scene)
    # Scene by scene as people read it: an order drawn between scenes is in the scene it was drawn for.
    return as_told(journal.history(cid, upto=upto)), journal.state(cid, upto=upto)


# -- explain ----------------------------------------------------------------------------------


def explain(
    event: Annotated[Optional[int], typer.Argument(help="The event number (the first column of the log).")] = None,
    scene: Annotated[Optional[int], typer.Option("--scene", help="Explain every event of scene N.")] = None,
    viewer: AsOpt = None,
    campaign: CampaignOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """What an event recorded, what everyone held before and after, the rule quoted, every movement, and
    any correction, retraction or override that points at it."""
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.yarn.parts.economy.explanations import explain_event, explain_scene

    invalid((event is None) != (scene is None), "give an EVENT number or --scene N (one of them)")
    history, state = _history_and_state(campaign, None, None)
    viewer = participant_named(state.table, viewer)
    if scene is not None:
        data = explain_scene(history, state.table, scene, viewer=viewer)
        emit(data, as_json, _render_scene)
    else:
        assert event is not None
        data = explain_event(history, state.table, event, viewer=viewer)
        emit(data, as_json, _render_event)


def _holdings_rows(before: list[dict], after: list[dict]) -> list[tuple]:
    """Name, tokens and bennies before and after, for everyone who held or holds anything."""
    later = {h["name"]: h for h in after}
    rows = []
    for h in before:
        a = later.get(h["name"], {"drama_tokens": 0, "bennies": 0})
        if h["drama_tokens"] or h["bennies"] or a["drama_tokens"] or a["bennies"]:
            rows.append((h["name"], h["drama_tokens"], a["drama_tokens"], h["bennies"], a["bennies"]))
    return rows


HOLDINGS = ("who", "tokens before", "tokens after", "bennies before", "bennies after")


def _render_event(d: dict, *, heading: bool = True) -> None:
    from yarnlog.cli.output import summarize

    e = d["event"]
    where = ", ".join(f"{k} {v}" for k, v in (("episode", e["episode"]), ("scene", e["scene"])) if v)
    say(f"Event {e['sequence']}: {e['event_type']}", f"({where})" if where else "",
        f"recorded by {e['recorded_by']} for {e['visibility']}")
    say("  recorded:", summarize(e["payload"]))
    if d["standing"] != "as recorded":
        say(f"  {d['standing'].upper()}:", "; ".join(a["marker"] for a in d["amendments"]))
    elif d["amendments"]:
        say("  amended:", "; ".join(a["marker"] for a in d["amendments"]))
    if d["effective_payload"] is not None:
        say("  now reads:", summarize(d["effective_payload"]))
    if d["exchange"]:
        x = d["exchange"]
        say("  exchange:", x["kind"] + (": " + ", ".join(f"{r} {w}" for r, w in x["sides"].items())
                                        if x["sides"] else ""))
        if x["sought"]:
            say("  sought:", x["sought"])
        if x["note"]:
            say("  why:", x["note"])
    if d["override"]:
        o = d["override"]
        say(f"  recorded under the GM's override #{o['sequence']} by {o['by']}: {o['reason']}")
        for r in o["rules"]:
            say(f"    set aside {r['chapter']}: \"{r['text']}\" ({r['broken']})")
    if d["points_at"]:
        pointed = d["points_at"]
        say("  points at:", summarize({k: v for k, v in pointed.items() if k != "rules"}))
        for r in pointed.get("rules", ()):
            say(f"    sets aside {r['chapter']}: \"{r['text']}\" ({r['broken']})")
    for r in d["rules"]:
        say(f"  rule, {r['book']} \"{r['chapter']}\": \"{r['text']}\"")
    if d["movements"]:
        print_rows("Movements", ("currency", "from", "to", "amount", "struck by"),
                   [(m["currency"], m["from"], m["to"], m["amount"],
                     m["struck_by"]["marker"] if m["struck_by"] else
                     f"replaces the original ({m['replaces']['marker']})" if m["replaces"] else "")
                    for m in d["movements"]],
                   struck=[m["struck"] for m in d["movements"]])
    rows = _holdings_rows(d["balances_before"], d["balances_after"])
    if rows:
        print_rows("Held before and after", HOLDINGS, rows)


def _render_scene(d: dict) -> None:
    say(f"Scene {d['scene']} (episode {d['episode'] or '-'}), events {d['first']} to {d['last']}")
    for event in d["events"]:
        _render_event(event)
    rows = _holdings_rows(d["balances_before"], d["balances_after"])
    if rows:
        print_rows(f"Held before and after scene {d['scene']}", HOLDINGS, rows)


# -- dice statistics --------------------------------------------------------------------------


def dice_stats(
    episode: Annotated[Optional[int], typer.Option("--episode", help="Only episode N.")] = None,
    participant: Annotated[Optional[str], typer.Option("--participant", help="Only NAME's rolls.")] = None,
    rolls: Annotated[bool, typer.Option("--rolls", help="List every roll with its odds.")] = False,
    viewer: AsOpt = None,
    campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Rolls (procedural rolls, attacks and defenses), breaks and botches per participant and per episode, and
    how the results compared with their prior odds."""
    from yarnlog.rulesets.yarn.parts.procedure.roll_statistics import dice_statistics

    history, state = _history_and_state(campaign, as_of, end_of_scene)
    viewer = participant_named(state.table, viewer)
    data = dice_statistics(state, viewer=viewer, episode=episode, participant=participant, history=history)

    def row(label: object, t: dict) -> tuple:
        o = t["outcomes"]
        return (label, t["rolls"], t["good_breaks"], t["bad_breaks"], t["botches"],
                f"{o['beats']}/{o['equals']}/{o['fails']}",
                f"{t['beats_with_odds']} vs {t['expected_beats']['value']:.2f}" if t["rolls_with_odds"] else "")

    def render(d: dict) -> None:
        columns = ("rolls", "good brk", "bad brk", "botch", "beat/eq/fail", "beats vs expected")
        seen = f" as {d['viewer']} sees them" if d["viewer"] else ""
        print_rows(f"Dice by participant{seen}", ("who", *columns),
                   [row(p["participant"], p) for p in d["by_participant"]] + [row("all", d["total"])])
        print_rows(f"Dice by episode{seen}", ("episode", *columns),
                   [row(e["episode"] or "-", e) for e in d["by_episode"]])
        if rolls:
            print_rows("Rolls", ("#", "who", "dice", "result", "odds of it"),
                       [(r["sequence"], r["character"], r["dice"],
                         " ".join(x for x in (r["outcome"] or "", clean(r["against"] or ""),
                                             "" if r["against_number"] is None else str(r["against_number"]),
                                             "botch" * r["botch"], "good break" * r["good_break"],
                                             "bad break" * r["bad_break"]) if x),
                         r["chance_of_outcome"] or "")
                        for r in d["rolls"]])

    emit(data, as_json, render)


def register(app: typer.Typer) -> None:
    """Add ``explain`` and ``dice-stats`` to the ``yarnlog`` application."""
    app.command("explain")(explain)
    app.command("dice-stats")(dice_stats)
