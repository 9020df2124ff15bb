"""A GM's ruling that moves nothing: what the book leaves to her, recorded with the rule it settles.

Both books leave things to the GM: DramaSystem's How I Do It gives "an additional advantage" with no
number (DS5, line 149; digest reading 7), the custom type counts as Strong only for actions that
"directly relate" to it (line 143, reading 8), who picks the first session's theme is not said (line
165, reading 9); Yarn's "as ruled by the GM" (the digest's move 25, "GM ruling (generic)"). A ruling
that moves tokens is the economy's (:class:`~yarnlog.rulesets.scenes_and_tokens.parts.economy.TransferTokens`);
this one is a note tied to a rule: which rule (``rule``, as the table names it: "DS5", "How I Do
It", "reading 7") and what the GM ruled. Each ruleset registers :class:`RulingRecorded` under its
own prefix and composes :class:`Rulings`; nothing folds it (it changes no standing), the recap and
``log`` tell it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from yarnlog.core.events import Payload
from yarnlog.core.limits import Name, Text
from yarnlog.core.referee import Referee, invalid
from yarnlog.rulesets.scenes_and_tokens.parts.drama_state import Campaign


@dataclass(frozen=True)
class RecordRuling:
    """The GM rules on ``rule`` (the rule or reading it settles): ``ruling``."""

    rule: str
    ruling: str


class RulingRecorded(Payload):
    """A GM's ruling on a rule the book leaves to her, moving nothing."""

    gm_records: ClassVar[str] = "a ruling"

    rule: Name
    ruling: Text


@dataclass(frozen=True)
class Rulings:
    """The rulings of one ruleset, recorded as its ``recorded`` payload."""

    recorded: type[RulingRecorded]

    def validate(self, p: RulingRecorded, campaign: Campaign, referee: Referee) -> RulingRecorded:
        """A ruling names the rule it settles and says what the GM ruled."""
        invalid(bool(p.rule.strip()), "name the rule the ruling settles (--rule DS5, --rule 'How I Do It')")
        invalid(bool(p.ruling.strip()), "say what the GM rules")
        return p.model_copy(update={"rule": p.rule.strip(), "ruling": p.ruling.strip()})

    def decide(self, command: Any, campaign: Campaign, referee: Referee) -> list[Payload] | None:
        if not isinstance(command, RecordRuling):
            return None
        invalid(bool(command.rule.strip()), "name the rule the ruling settles (--rule DS5, --rule 'How I Do It')")
        return [self.validate(self.recorded(rule=command.rule.strip(), ruling=command.ruling), campaign, referee)]

    @property
    def VALIDATORS(self) -> Mapping[type, Callable[[Any, Campaign, Referee], Payload]]:  # noqa: N802 (a module's name)
        return {self.recorded: self.validate}
