"""The options shared by the command line's verbs, and parsing what is typed at the table.

Kept free of heavy imports: the storage stack is imported inside the functions that need it.
"""

from typing import Annotated, Optional

import typer

JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON on stdout.")]
CampaignOpt = Annotated[
    Optional[str],
    typer.Option("--campaign", "-c", envvar="YARNLOG_CAMPAIGN",
                 help="Campaign id (default: the only campaign in the journal)."),
]
ByOpt = Annotated[Optional[str], typer.Option("--by", help="Who records this (default: the campaign's GM).")]
Many = Optional[list[str]]
VisibilityOpt = Annotated[
    str, typer.Option("--visibility", help="Who may read it: everyone, gm, or participant:NAME.")
]


class Settings:
    db: str | None = None
    campaign: str | None = None  # the root's --campaign/-c, for verbs not given their own
    verbose: bool = False  # the root's --verbose: a write shows the payloads it recorded, not sentences


SETTINGS = Settings()


def parse_faces(text: str | None, what: str = "dice faces") -> tuple[int, ...] | None:
    """Dice faces as typed at the table, ``6,3,2`` (commas or spaces); ``None`` when none were given."""
    from yarnlog.core.referee import InvalidCommand

    if text is None:
        return None
    try:
        return tuple(int(x) for x in text.replace(",", " ").split())
    except ValueError:
        raise InvalidCommand(f"{what} are whole numbers like 6,3,2, not {text!r}") from None


OverrideOpt = Annotated[
    Optional[str],
    typer.Option("--override", help="GM only: record the move although a rule forbids it, with this reason."),
]


AsOfOpt = Annotated[Optional[int], typer.Option("--as-of", help="Replay up to event N only.")]
EndOfSceneOpt = Annotated[Optional[int], typer.Option("--end-of-scene", help="Replay up to the end of scene N.")]


