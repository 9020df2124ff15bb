"""Verbs per ruleset: the command line offers a ruleset's verbs only in that ruleset's campaigns.

The core verbs (``init``, ``note``, ``scene close``...) are always there. A ruleset's own are the
:class:`Verbs` ``VERBS`` of the ``cli`` module beside its ruleset module (:func:`verbs_of`); they are looked up
lazily, only when a verb that is not a core one, or the help, is asked for: the campaign comes
from ``--campaign/-c`` (before or after the verb), ``YARNLOG_CAMPAIGN`` or the journal's only
campaign, and its ruleset from the campaign's first event. A core verb that a ruleset replaces
(one that calls scenes with ``call``, not ``scene open``) is not offered in its campaigns.

Kept light: typer only; the journal and the rulesets are imported when needed. Typer (0.26 on)
carries its own copy of click: its groups, commands and contexts are ``typer._click``'s, not the
``click`` package's (which need not be installed at all).
"""

from __future__ import annotations

import copy
import functools
import os
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperCommand, TyperGroup

from yarnlog.cli.options import add_command_id
from yarnlog.core.referee import InvalidCommand, YarnlogError

if TYPE_CHECKING:
    from typer._click import Command, Context, HelpFormatter

_CAMPAIGN = "yarnlog.campaign"  # root context meta: (campaign id, ruleset name), or the error met finding it
_ARGS = "yarnlog.args"  # root context meta: every word typed after the program's name


@dataclass(frozen=True)
class Verbs:
    """What a ruleset adds to the command line.

    ``register(app)`` adds its Typer commands and groups to ``app``; ``replaces`` maps a core verb
    (``"scene open"``) to the ruleset's verb that does the same in its campaigns (``"call"``).
    """

    register: Callable[[typer.Typer], None]
    replaces: Mapping[str, str] = field(default_factory=dict)
    #: The help panel's heading; the same as the ruleset's title (a test checks it).
    title: str = ""


@functools.cache
def verbs_of(ruleset_name: str) -> Verbs:
    """The :class:`Verbs` of an installed ruleset: ``VERBS`` in the ``cli`` module or package beside
    the module its entry point names (``pkg.ruleset:RULESET`` -> ``pkg.cli:VERBS``), found without
    importing the rules; none for a ruleset without one."""
    from yarnlog.core.installed import import_object, module_beside

    try:
        module = module_beside(ruleset_name, "cli")
    except KeyError:
        from yarnlog.core.ruleset import get_ruleset

        get_ruleset(ruleset_name)  # says which rulesets are installed
        raise
    if module is None:
        from yarnlog.core.ruleset import get_ruleset  # the title is the ruleset's: no verbs to take it from

        return Verbs(register=lambda app: None, title=get_ruleset(ruleset_name).title)
    verbs: Verbs = import_object(f"{module}:VERBS")
    return verbs


def _commands(register: Callable[[typer.Typer], None], title: str,
              only: str | None = None) -> dict[str, TyperCommand | TyperGroup]:
    """The top-level verbs ``register`` adds, as click commands in the help panel of ``title``; with
    ``only``, that verb alone is built (building a command reads its signature: the costly part)."""
    app = typer.Typer(pretty_exceptions_enable=False, add_completion=False)
    app.callback()(lambda: None)  # a callback makes typer build a group even for a single verb
    register(app)
    if only is not None:
        app.registered_commands = [info for info in app.registered_commands if _typer_name(info) == only]
        app.registered_groups = [info for info in app.registered_groups if info.name == only]
    group = typer.main.get_command(app)
    add_command_id(group)  # every write verb of a ruleset takes --command-id
    panel = f"{title} verbs"
    commands: dict[str, TyperCommand | TyperGroup] = dict(getattr(group, "commands", {}))
    for command in commands.values():
        command.rich_help_panel = panel
    return commands


@functools.cache
def commands_of(ruleset_name: str) -> dict[str, TyperCommand | TyperGroup]:
    """A ruleset's top-level verbs as click commands, in the help panel of its title."""
    verbs = verbs_of(ruleset_name)
    return _commands(verbs.register, verbs.title)


@functools.cache
def command_of(ruleset_name: str, verb: str) -> TyperCommand | TyperGroup | None:
    """A ruleset's top-level verb as a click command (``None`` if it has no such verb): every verb is
    registered (its modules import typer and the shell only), and only this one built."""
    verbs = verbs_of(ruleset_name)
    return _commands(verbs.register, verbs.title, only=verb).get(verb)


def verb_names(ruleset_name: str) -> list[str]:
    """A ruleset's top-level verbs, by name, in the order the help lists them."""
    return list(commands_of(ruleset_name))


def installed_verbs() -> dict[str, list[str]]:
    """Every installed ruleset that adds verbs -> the names of its top-level verbs."""
    from yarnlog.core.installed import RULESETS

    found = {}
    for name in sorted(RULESETS):
        verbs = verb_names(name)
        if verbs:
            found[name] = verbs
    return found


def _default_first(owners: list[str]) -> str:
    """Of the rulesets that have a verb, the default system if it is one of them, else the first."""
    from yarnlog.core.referee import YarnlogError
    from yarnlog.core.ruleset import default_ruleset

    if len(owners) == 1:
        return owners[0]
    try:
        default = default_ruleset()
    except YarnlogError:
        return owners[0]
    return default if default in owners else owners[0]


class _Deferred(MutableMapping[str, "Command"]):
    """A group's commands, each built from its typer declaration when first asked for: a one-shot
    command builds its own verb, not every verb of the table (building one reads its signature
    and types). Names are listed, in order, and looked up without building anything."""

    def __init__(self, built: Mapping[str, Command], unbuilt: Mapping[str, Callable[[], Command]]):
        self._commands: dict[str, Command | None] = {**dict.fromkeys(unbuilt), **built}
        self._builders = dict(unbuilt)

    def __getitem__(self, name: str) -> Command:
        command = self._commands[name]
        if command is None:
            command = self._commands[name] = self._builders.pop(name)()
        return command

    def __setitem__(self, name: str, command: Command) -> None:
        self._commands[name] = command
        self._builders.pop(name, None)

    def __delitem__(self, name: str) -> None:
        del self._commands[name]
        self._builders.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self._commands

    def __iter__(self) -> Iterator[str]:
        return iter(self._commands)

    def __len__(self) -> int:
        return len(self._commands)


def command_tree(app: typer.Typer) -> Command:
    """``typer.main.get_command(app)``, except that the verbs declared with ``app.command`` are built
    when first used (:class:`_Deferred`); the groups of verbs (``episode``, ``scene``) are built at once."""

    def builder(info: typer.models.CommandInfo) -> Callable[[], Command]:
        def build() -> Command:
            alone = typer.Typer(add_completion=False, pretty_exceptions_short=app.pretty_exceptions_short,
                                rich_markup_mode=app.rich_markup_mode)
            alone.callback()(lambda: None)  # a callback makes typer build a group even for a single verb
            alone.registered_commands.append(info)
            command: Command = getattr(typer.main.get_command(alone), "commands")[_typer_name(info)]
            add_command_id(command)  # a write built late takes --command-id like every other
            return command

        return build

    bare = copy.copy(app)
    bare.registered_commands = []
    group = typer.main.get_command(bare)
    commands = getattr(group, "commands")
    unbuilt = {_typer_name(info): builder(info) for info in app.registered_commands}
    group.commands = _Deferred(commands, unbuilt)  # type: ignore[attr-defined]
    return group


def _typer_name(info: typer.models.CommandInfo) -> str:
    """The name typer gives the verb ``info`` declares."""
    return info.name or typer.main.get_command_name(getattr(info.callback, "__name__", ""))


def _option(args: Sequence[str], long: str, short: str | None = None) -> str | None:
    """The value of an option among the words typed (``--campaign X``, ``--campaign=X``, ``-cX``)."""
    for i, word in enumerate(args):
        if word == "--":
            return None
        if word in (long, short) and i + 1 < len(args):
            return args[i + 1]
        if word.startswith(long + "="):
            return word.split("=", 1)[1]
        if short and word.startswith(short) and len(word) > 2 and not word.startswith("--"):
            return word[2:]
    return None


def _campaign(ctx: Context) -> tuple[str, str]:
    """The campaign the words typed work on and its ruleset's name; raises when it cannot be told."""
    root = ctx.find_root()
    if _CAMPAIGN not in root.meta:
        from yarnlog.cli.context import campaign_ruleset
        from yarnlog.cli.options import SETTINGS

        # Read from the words typed: an eager --help comes before click has parsed the options.
        words = root.meta.get(_ARGS, ())
        SETTINGS.db = _option(words, "--db") or root.params.get("db") or os.environ.get("YARNLOG_DB")
        asked = _option(words, "--campaign", "-c") or root.params.get("campaign") or os.environ.get("YARNLOG_CAMPAIGN")
        try:
            root.meta[_CAMPAIGN] = campaign_ruleset(asked)
        except Exception as exc:  # remembered and raised again: only a verb that needs it fails
            root.meta[_CAMPAIGN] = exc
    found = root.meta[_CAMPAIGN]
    if isinstance(found, Exception):
        raise found
    return found


def _campaign_or_none(ctx: Context) -> tuple[str, str] | None:
    try:
        return _campaign(ctx)
    except Exception:
        return None


def _verb_path(ctx: Context, name: str) -> str:
    words = [name]
    while ctx.parent is not None:
        words.insert(0, ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(words)


class CampaignGroup(TyperGroup):
    """A group of core verbs that adds the campaign's ruleset's verbs (at the top level) and
    withholds the core verbs that ruleset replaces. Its writes take ``--command-id``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        add_command_id(self)

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        if ctx.parent is None:
            ctx.meta[_ARGS] = list(args)
        return super().parse_args(ctx, args)

    def resolve_command(self, ctx: Context, args: list[str]) -> tuple[str | None, Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        params = getattr(command, "params", ())
        if name is not None and name in self.commands and "campaign" in {p.name for p in params}:
            self._refuse_if_replaced(ctx, name)
        return name, command, rest

    def _refuse_if_replaced(self, ctx: Context, name: str) -> None:
        found = _campaign_or_none(ctx)  # a campaign that cannot be found is the verb's own error to report
        if found is None:
            return
        campaign, ruleset = found
        path = _verb_path(ctx, name)
        instead = verbs_of(ruleset).replaces.get(path)
        if instead is not None:
            raise InvalidCommand(f"'{path}' is not used in {ruleset} campaigns: campaign {campaign} plays {ruleset}, "
                                 f"use 'yarnlog {instead}'")

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        command = self.commands.get(cmd_name)
        if command is not None or ctx.parent is not None:
            return command
        return self._ruleset_command(ctx, cmd_name)

    def _ruleset_command(self, ctx: Context, name: str) -> Command | None:
        if ctx.resilient_parsing:  # shell completion: never fail
            found = _campaign_or_none(ctx)
            return None if found is None else command_of(found[1], name)
        try:
            campaign, ruleset = _campaign(ctx)
        except YarnlogError:
            owners = [other for other, verbs in installed_verbs().items() if name in verbs]
            if not owners:
                return None  # no system has such a verb: click says so
            if "--help" in ctx.meta.get(_ARGS, ()):  # help needs no journal: the default system's verb first
                return command_of(_default_first(owners), name)
            raise
        command = command_of(ruleset, name)
        if command is not None:
            return command
        owners = [other for other, verbs in installed_verbs().items() if name in verbs]
        if owners:
            raise InvalidCommand(f"'{name}' is a verb of the {' and '.join(owners)} ruleset; "
                                 f"campaign {campaign} plays {ruleset}")
        return None

    def list_commands(self, ctx: Context) -> list[str]:
        names = list(self.commands)
        found = _campaign_or_none(ctx)
        if found is None:
            return names
        replaced = set(verbs_of(found[1]).replaces)
        names = [n for n in names if _verb_path(ctx, n) not in replaced]
        if ctx.parent is None:
            names += [n for n in commands_of(found[1]) if n not in self.commands]
        return names

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        if ctx.parent is None:  # the process may show help more than once (tests run it in-process)
            self.epilog = _systems_epilog() if _campaign_or_none(ctx) is None else None
        super().format_help(ctx, formatter)


def _systems_epilog() -> str:
    """Outside a campaign: which systems add which verbs."""
    try:
        added = installed_verbs()
    except YarnlogError:
        return ""
    lines = [f"{name} adds: {', '.join(verbs)}" for name, verbs in added.items()]
    lines.append("Inside a campaign (--campaign/-c, YARNLOG_CAMPAIGN, or a journal's only campaign) its "
                 "system's verbs are listed with the core ones.")
    return "\n\n".join(lines)
