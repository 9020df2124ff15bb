"""What Tab offers in ``yarnlog play``: the verbs of the command table (the campaign's ruleset's
included) and the console's own, each verb's options, and for the options and arguments that name
people, characters, traits, places or events, the campaign's own values.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from yarnlog.core.names import Registered
from yarnlog.core.names import characters as names_of_characters

if TYPE_CHECKING:
    from typer._click import Command

    from yarnlog.core.state import CampaignState

#: The console's own verbs (everything else is the command line's): name -> what it does.
CONSOLE_VERBS = {
    "undo": "retract the last entry recorded in this console, after showing it (undo [REASON])",
    "dice?": "how many dice a move would use, recording nothing (dice? roll Tomas --trait Brawler)",
    "help": "the verbs, or help VERB",
    "exit": "leave the console (also quit, Ctrl-D); every entry is already saved",
    "quit": "leave the console",
}

#: Option and argument names whose values are people or characters, traits, or event numbers:
#: the completer offers the campaign's own values for them.
PEOPLE = {"by", "caller", "voter", "theme_by", "challenger", "participant", "viewer", "as_name", "player",
          "players", "spender", "objector", "withholder", "narrator", "introduced_by", "gm", "order", "for_caller",
          "for_challenger", "support", "members", "chooser", "for_detail"}
CHARACTERS = {"character", "cast", "petitioner", "granter", "combatant", "attacker", "defender", "target", "pc",
              "other", "name", "members", "among", "first", "chosen", "healer", "payer"}
EVENTS = {"sequence", "opposed", "event", "roll", "rolls", "roll_event"}
#: Parameters whose values are the locations introduced in play (a scene shifts to one).
PLACES = {"location"}


# -- what the campaign offers to complete ----------------------------------------------------


@dataclass(frozen=True)
class Vocabulary:
    """The campaign's values the completer offers: people at the table, characters, traits, events."""

    people: tuple[str, ...] = ()
    characters: tuple[str, ...] = ()
    traits: tuple[str, ...] = ()
    last_event: int = 0
    #: Each player character's traits (the completer offers the traits of the character on the line).
    traits_of: dict[str, tuple[str, ...]] = field(default_factory=dict)
    places: tuple[str, ...] = ()  # the locations introduced in play

    def names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.people + self.characters))


def vocabulary(state: CampaignState[Any]) -> Vocabulary:
    """The names, traits and event count of ``state``: the characters and the other names (locations)
    its ruleset registers, asked through the seam (``Rules.names``); and, where a character's sheet
    in its state lists ``traits``, their traits."""
    table = state.table
    people = tuple(dict.fromkeys([*table.players, table.gm]))
    registered = state.ruleset.rules.names(state) if state.ruleset is not None else Registered()
    characters = tuple(dict.fromkeys(names_of_characters(registered)))
    places = tuple(registered.other) if isinstance(registered, Registered) else ()
    traits_of: dict[str, tuple[str, ...]] = {}
    sheets = getattr(getattr(state.rules, "characters", None), "pcs", None)  # a sheet's traits, where kept
    if isinstance(sheets, Mapping):
        traits_of = {name: tuple(getattr(sheet, "traits", ())) for name, sheet in sheets.items()}
    traits = tuple(sorted({trait for held in traits_of.values() for trait in held}))
    return Vocabulary(people, characters, traits, state.sequence, traits_of, places)


def verb_tree(db: str | None, campaign_id: str) -> dict[str, Command]:
    """The campaign's top-level verbs (core and its ruleset's) as click commands, ``play`` left out."""
    from yarnlog.cli.commands import root_command

    group = root_command()
    ctx = group.make_context("yarnlog", ["--db", db or "", "-c", campaign_id] if db else ["-c", campaign_id],
                             resilient_parsing=True)
    with ctx:
        verbs = {}
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            if command is not None and name not in ("play", "serve"):  # both run until stopped
                verbs[name] = command
    return verbs


def _option_param(command: Command, word: str) -> Any:
    for param in command.params:
        if word in getattr(param, "opts", ()) or word in getattr(param, "secondary_opts", ()):
            return param
    return None


class PlayCompleter(Completer):
    """Tab completion from the command table: verbs and sub-verbs, each verb's options, and for
    options and arguments that name people, characters, traits or events, the campaign's values.

    ``vocabulary`` is called at each completion: the console hands it the vocabulary of the
    state it remembers, so a name introduced a moment ago is offered at once.
    """

    def __init__(self, verbs: dict[str, Command], vocabulary: Callable[[], Vocabulary]):
        self.verbs = verbs
        self.vocabulary = vocabulary

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        text = document.text_before_cursor
        words, current, start = split_typed(text)
        opening = text[start:start + 1] if text[start:start + 1] in ("'", '"') else ""
        for candidate in self.candidates(words, current):
            if candidate.startswith(current) and (candidate != current or opening):
                yield Completion(quoted(candidate, opening), start_position=start - len(text), display=candidate)

    def candidates(self, words: Sequence[str], current: str) -> list[str]:
        """What may be typed after ``words`` (the word being typed is ``current``)."""
        if words and words[0] == "dice?":
            words = words[1:]
        if not words:
            return sorted([*self.verbs, *CONSOLE_VERBS])
        command: Any = self.verbs.get(words[0])
        rest = list(words[1:])
        while command is not None and hasattr(command, "commands"):
            if not rest:
                return sorted(command.commands)
            command = command.commands.get(rest.pop(0))
        if command is None:
            return []
        if current.startswith("-"):
            names = (o for p in command.params for o in (*getattr(p, "opts", ()), *getattr(p, "secondary_opts", ())))
            return sorted(o for o in names if o.startswith("--"))
        if rest:
            param = _option_param(command, rest[-1])
            if param is not None:
                return [] if getattr(param, "is_flag", False) else self.values(param.name, rest)
        positional = [p for p in command.params if type(p).__name__.endswith("Argument")]
        taken = _positionals(command, rest)
        if taken < len(positional):
            return self.values(positional[taken].name, rest)
        if positional and getattr(positional[-1], "nargs", 1) == -1:
            return self.values(positional[-1].name, rest)
        return []

    def values(self, name: str | None, words: Sequence[str] = ()) -> list[str]:
        """The campaign's values for the parameter ``name``; ``words`` are the line's words after the verb."""
        vocabulary = self.vocabulary()
        if name is None:
            return []
        if "trait" in name:
            named = [vocabulary.traits_of[w] for w in words if w in vocabulary.traits_of]
            return sorted(named[0]) if named else list(vocabulary.traits)
        if name in EVENTS:
            return [str(n) for n in range(vocabulary.last_event, max(0, vocabulary.last_event - 20), -1)]
        if name in PLACES:
            return list(vocabulary.places)
        if name in PEOPLE and name in CHARACTERS:
            return list(vocabulary.names())
        if name in PEOPLE:
            return list(vocabulary.people)
        if name in CHARACTERS:
            return list(vocabulary.names())  # a character, or its player (ducks, rushes take either)
        return []


def split_typed(text: str) -> tuple[list[str], str, int]:
    """The line typed so far read as :func:`shlex.split` reads it, an unclosed quote allowed: the words
    before the one being typed, that word (unquoted), and where it starts in ``text``."""
    words: list[str] = []
    value: str | None = None
    start, quote, escaped = len(text), "", False
    for i, char in enumerate(text):
        if escaped:
            value, escaped = (value or "") + char, False
        elif quote:
            if char == quote:
                quote = ""
            elif char == "\\" and quote == '"':
                escaped = True
            else:
                value = (value or "") + char
        elif char.isspace():
            if value is not None:
                words.append(value)
            value, start = None, len(text)
        else:
            if value is None:
                value, start = "", i
            if char in ("'", '"'):
                quote = char
            elif char == "\\":
                escaped = True
            else:
                value += char
    return words, value or "", start


def quoted(candidate: str, opening: str = "") -> str:
    """``candidate`` as it must be typed to reach the command as one word: in the quote the user opened,
    else quoted only when it holds a space or another character the shell splitting reads."""
    if opening == '"':
        return '"' + candidate.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if opening == "'" and "'" not in candidate:
        return f"'{candidate}'"
    try:
        if not opening and shlex.split(candidate) == [candidate]:
            return candidate
    except ValueError:  # an unbalanced quote in it
        pass
    return shlex.quote(candidate)


def _positionals(command: Command, words: Sequence[str]) -> int:
    """How many positional arguments ``words`` (after the verb) already give."""
    count, skip = 0, False
    for word in words:
        if skip:
            skip = False
            continue
        if word.startswith("-"):
            param = _option_param(command, word.split("=", 1)[0])
            skip = param is not None and not getattr(param, "is_flag", False) and "=" not in word
            continue
        count += 1
    return count
