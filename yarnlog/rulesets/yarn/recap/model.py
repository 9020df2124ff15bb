"""What a recap says, as plain data: the templates read it, ``--json`` prints it.

Every line is a sentence already worded in the book's terms (``text``) with the event it comes
from (``sequence``), so the Markdown, the HTML page and the JSON say the same thing.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from yarnlog.core.charts import TokenSeries
from yarnlog.rulesets.scenes_and_tokens.parts.relationship_map import RelationshipGraph


@dataclass(frozen=True)
class Line:
    """One thing that happened, in words, and the event number it was recorded as.

    ``sequence`` is ``None`` in a player's recap: the gaps between event numbers would tell how
    many hidden events lie between two visible ones.
    """

    sequence: int | None
    text: str


@dataclass(frozen=True)
class Note:
    """A note of the table: who wrote it, and whether it is the GM's (``sequence`` as in :class:`Line`)."""

    sequence: int | None
    by: str
    gm: bool
    text: str


@dataclass
class SceneRecap:
    """One scene, in the order its parts are told (see ``Recaps`` in the README)."""

    number: int
    title: str
    caller: str
    mode: str
    kind: str | None
    setting: str
    time_break: str
    situation: str
    cast_called: list[str]
    cast: list[str] = field(default_factory=list)
    summary: str = ""
    role: str | None = None  # the episode's opener, a development scene or its closer, once named
    calling: list[Line] = field(default_factory=list)      # how it was called: costs, queue jumps, overrides
    unfolded: list[Line] = field(default_factory=list)     # moves of place, montage actions
    introduced: list[Line] = field(default_factory=list)   # supporting characters, locations
    notes: list[Note] = field(default_factory=list)
    challenges: list[Line] = field(default_factory=list)   # ducks, rushes, challenge votes
    petitions: list[Line] = field(default_factory=list)    # petitions, two-way exchanges, quizzes
    forces: list[Line] = field(default_factory=list)       # forces, their supports and blocks
    procedure: list[Line] = field(default_factory=list)    # rolls, group efforts
    combat: list[Line] = field(default_factory=list)       # attacks, damage and hit points, recovery
    consequences: list[Line] = field(default_factory=list)
    tokens: list[Line] = field(default_factory=list)       # every drama token and bennie moved
    bennies: list[Line] = field(default_factory=list)      # bennies spent (a token, a queue jump...)
    story: list[Line] = field(default_factory=list)        # the scene in plain sentences (:mod:`.story`)


@dataclass
class Balance:
    """What a participant held at the end of an episode (tokens before they went back to the kitty)."""

    name: str
    role: str
    character: str | None
    drama_tokens: int
    bennies: int
    tokens_gained: int = 0   # over the episode, the return to the kitty at its end left out
    tokens_paid: int = 0
    bennies_gained: int = 0
    bennies_spent: int = 0
    experience: int = 0      # experience dice awarded to the participant's character


@dataclass
class VoteLine:
    """One player's line of the bennie tally: ranks received, their total, minus tokens in hand."""

    player: str
    ranks: list[str]
    rank_total: int
    tokens_in_hand: int
    score: int
    placement: int
    gains_bennie: bool


@dataclass
class BennieVote:
    """The episode's bennie vote. ``tally`` is empty when the audience may see only the winners."""

    winners: list[str]
    tally: list[VoteLine] = field(default_factory=list)


@dataclass
class EpisodeRecap:
    number: int
    title: str
    theme: str
    theme_chosen_by: str | None
    calling_order: list[str]
    complete: bool  # the whole episode is in the recap (not only some of its scenes)
    ended: bool
    calling_order_drawn_by_tool: bool = False  # its precedence order was shuffled by the tool, not at the table
    next_theme: list[Line] = field(default_factory=list)  # the next episode's theme, chosen at its end
    scenes: list[SceneRecap] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)  # notes of the episode outside any scene
    balances: list[Balance] = field(default_factory=list)
    vote: BennieVote | None = None
    experience_awarded: list[Line] = field(default_factory=list)
    experience_spent: list[Line] = field(default_factory=list)
    moments: list[Line] = field(default_factory=list)
    token_series: TokenSeries | None = None  # drama tokens at the start and after each scene (diagrams)
    dice: dict[str, Any] | None = None  # the episode's dice statistics (roll_statistics.tally), rolls seen only


@dataclass
class Recap:
    campaign: str
    title: str
    gm: str
    audience: str          # "gm", "players" or "player"
    audience_name: str | None
    audience_label: str
    scope: str
    whole_series: bool     # the recap tells the whole series (it then opens with the relationship map)
    as_of: int | None      # the last event the recap reads (None in a player's recap: it counts hidden events)
    episodes: list[EpisodeRecap] = field(default_factory=list)
    series_notes: list[Note] = field(default_factory=list)
    relationships: RelationshipGraph | None = None  # as of the recap's last event (the relationship map)

    def to_data(self) -> dict[str, Any]:
        return asdict(self)
