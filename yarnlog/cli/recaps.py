"""The shell every ruleset's ``yarnlog recap`` shares: its options, who the recap is for, which part
of the story it tells, and where it is written (as a sheet is, with ``-o FILE``). What a recap says
is the ruleset's own projection.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from yarnlog.cli.options import number_range

if TYPE_CHECKING:
    from yarnlog.core.events import Recorded
    from yarnlog.core.ruleset import CampaignState

#: The template each format renders with.
TEMPLATES = {"md": "recap.md.j2", "html": "recap.html.j2", "chat": "recap.chat.j2"}

EpisodeOpt = Annotated[Optional[int], typer.Option("--episode", help="Episode N (default: the last one).")]
EpisodesOpt = Annotated[Optional[str], typer.Option("--episodes", help="A range of episodes, like 1-2.")]
ScenesOpt = Annotated[Optional[str], typer.Option("--scenes", help="A range of scenes, like 4-9.")]
SeriesOpt = Annotated[bool, typer.Option("--series", help="The whole series.")]
AudienceOpt = Annotated[Optional[str], typer.Option("--as", help="What player NAME may see.")]
PlayersOpt = Annotated[bool, typer.Option("--players", help="What every player may see (to post to the group).")]
PreviouslyOpt = Annotated[bool, typer.Option("--previously", help="A short \"previously on\" to read aloud "
                                             "at the next session.")]
FormatOpt = Annotated[str, typer.Option("--format", help="md (Markdown), html (one standalone page) or chat "
                                                 "(messages of at most 2,000 characters).")]
OutputOpt = Annotated[Optional[Path], typer.Option("--output", "-o", help="Write to FILE instead of stdout.")]
#: A sheet is written to a file as a page (``sheet -o FILE``), never as the terminal's text.
SHEET_FILE_FORMATS = "-o FILE writes the sheet as md or html: give --format md or html"
TemplatesOpt = Annotated[Optional[Path], typer.Option(
    "--templates", envvar="YARNLOG_TEMPLATES",
    help="A folder of templates that shadow the defaults file by file (recap.md.j2, recap.html.j2...).")]


@dataclass(frozen=True)
class RecapAsked:
    """What a ``recap`` command asked for, checked: the history up to ``--as-of``, the state there,
    the audience (``player`` names one, else ``players`` or the GM) and the span told, as the
    fields of the ruleset's ``Scope`` (``scenes``, ``episodes``, ``label``; none for the series)."""

    history: list[Recorded]
    state: CampaignState[Any]
    player: str | None
    players: bool
    scope: dict[str, Any]


def recap_asked(*, episode: int | None, episodes: str | None, scenes: str | None, series: bool,
                as_name: str | None, players: bool, fmt: str, as_json: bool, campaign: str | None,
                as_of: int | None) -> RecapAsked:
    """The recap's options checked against the journal, or :class:`InvalidCommand` naming the mistake."""
    from yarnlog.cli.context import open_journal, participant_named, pick_campaign, resolve_as_of
    from yarnlog.core.referee import InvalidCommand

    if sum(x is not None for x in (episode, episodes, scenes)) + series > 1:
        raise InvalidCommand("give one of --episode, --episodes, --scenes or --series")
    if as_name is not None and players:
        raise InvalidCommand("give --as NAME or --players, not both")
    if fmt not in TEMPLATES:
        raise InvalidCommand(f"--format is md, html or chat, not {fmt!r}")
    if as_json and fmt != "md":
        raise InvalidCommand("--json prints the recap as data; it takes no --format")
    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    history = journal.history(cid, upto=resolve_as_of(journal, cid, as_of, None))
    state = journal.state(cid, upto=history[-1].sequence if history else None)
    table = state.table
    as_name = participant_named(table, as_name)
    if as_name is not None and table.is_gm(as_name):
        as_name = None  # the GM's own view is the GM's recap

    def asked(**scope: Any) -> RecapAsked:
        return RecapAsked(history, state, as_name, players, scope)

    for text, what in ((scenes, "scenes"), (episodes, "episodes")):
        if text is not None:
            first, last = number_range(text, what)
            return asked(**{what: (first, last)},
                         label=f"{what} {first}-{last}" if first != last else f"{what[:-1]} {first}")
    if series:
        return asked()
    numbers = sorted({r.episode for r in history if r.event_type == "episode.started" and r.episode is not None})
    if not numbers:
        raise InvalidCommand("no episode has started yet: nothing to recap ('yarnlog episode start')")
    n = numbers[-1] if episode is None else episode
    if n not in numbers:
        raise InvalidCommand(f"there is no episode {n} (episodes: {', '.join(map(str, numbers))})")
    return asked(episodes=(n, n), label=f"episode {n}")


@dataclass(frozen=True)
class EpisodeAsked:
    """The GM's recap of one episode at the campaign's head, to be told from that episode's events
    alone (:func:`yarnlog.app.episodes.episode_span`): ``span``, the campaign just before it
    (``before``: a :class:`~yarnlog.app.state_snapshots.Remembered`) and at the head (``head``)."""

    journal: Any
    campaign_id: str
    span: Any
    before: Any
    head: CampaignState[Any]


def episode_asked(*, episode: int | None, episodes: str | None, scenes: str | None, series: bool,
                  as_name: str | None, players: bool, fmt: str, as_json: bool, campaign: str | None,
                  as_of: int | None) -> EpisodeAsked | None:
    """A recap of one episode for the GM, at the campaign's head, checked as :func:`recap_asked` checks it
    (the same refusals); None when it is another recap, or when an amendment recorded since the
    episode began reaches back before it (then :func:`recap_asked` reads the whole history)."""
    from yarnlog.app.episodes import episode_span, episode_starts
    from yarnlog.cli.context import open_journal, pick_campaign
    from yarnlog.core.referee import InvalidCommand

    if episodes is not None or scenes is not None or series or as_name is not None or players or as_of is not None:
        return None
    if fmt not in TEMPLATES or (as_json and fmt != "md"):
        return None  # refused by recap_asked, in its words
    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    starts = episode_starts(journal.states, cid)
    if not starts:
        raise InvalidCommand("no episode has started yet: nothing to recap ('yarnlog episode start')")
    n = max(starts) if episode is None else episode
    if n not in starts:
        raise InvalidCommand(f"there is no episode {n} (episodes: {', '.join(map(str, sorted(starts)))})")
    before = journal.states.before(cid, starts[n])
    if before is None:
        return None
    span = episode_span(journal.states, cid, n, base=before, starts=starts)
    if span is None or journal.states.amended_since(cid, span.first - 1, span.head):
        return None
    head = journal.state(cid)
    if head.sequence != span.head:
        return None  # written to meanwhile
    return EpisodeAsked(journal, cid, span, before, head)


def write_document(text: str, output: Path | None, wrote: str) -> None:
    """A rendered recap or sheet on stdout, or in ``output`` with one line on stderr saying what was written
    (``wrote``: "The players' recap of episode 1", "Iris's sheet")."""
    from yarnlog.core.referee import InvalidCommand

    if output is None:
        typer.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InvalidCommand(f"cannot write {output}: {exc.strerror or exc}") from None
    from yarnlog.cli.output import one_line

    # ``wrote`` is said mid-sentence: a recap's label opens with "The" ("The players' recap"), a name does not.
    said = f"t{wrote[1:]}" if wrote.startswith("The ") else wrote
    typer.echo(one_line(f"Wrote {said} to {output}"), err=True)
