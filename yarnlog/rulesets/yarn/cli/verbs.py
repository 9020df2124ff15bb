"""Yarn's verbs on the command line, offered only in Yarn campaigns (``Ruleset.cli`` names this).

Yarn calls scenes (the book's word, "Calling Scenes") with ``call``, which replaces the core
``scene open`` in its campaigns; ending an episode stays the core ``episode end``, whose
:class:`~yarnlog.core.timeline.EndEpisode` Yarn takes over in the domain (the bennie vote).
"""

import typer

from yarnlog.cli.verbs import Verbs


def register(app: typer.Typer) -> None:
    """Add every Yarn verb to ``app``."""
    from yarnlog.rulesets.scenes_and_tokens.cli import rulings
    from yarnlog.rulesets.yarn.cli import audit_trail, characters, combat, drama, procedure, recap

    for module in (characters, drama, procedure, combat, audit_trail, recap, rulings):
        module.register(app)


_CLI = "yarnlog.rulesets.yarn.cli."
_CHARACTERS, _DRAMA, _REPORTS = _CLI + "characters:register", _CLI + "drama:register", _CLI + "drama_reports:register"
_PROCEDURE, _COMBAT, _AUDIT = _CLI + "procedure:register", _CLI + "combat:register", _CLI + "audit_trail:register"

#: Where each verb is registered, in the order the help lists them (typer lists a module's single
#: verbs, all modules' in turn, before the groups of verbs such as ``character`` or ``fight``).
INDEX = {
    **dict.fromkeys(("sheet", "relationships", "cast"), _CHARACTERS),
    **dict.fromkeys(("call", "scene-role", "shift", "montage-action", "offstage", "petition", "force", "two-way",
                     "quiz", "ballot"), _DRAMA),
    **dict.fromkeys(("tokens", "ledger", "bennies", "calling-order"), _REPORTS),
    **dict.fromkeys(("roll", "consequence", "read", "rolls", "consequences"), _PROCEDURE),
    **dict.fromkeys(("combatant", "armor", "initiative", "gestalt", "attack", "damage", "recover", "heal", "wounds"),
                    _COMBAT),
    **dict.fromkeys(("explain", "dice-stats"), _AUDIT),
    "recap": _CLI + "recap:register",
    **dict.fromkeys(("character", "supporting", "location", "precedence", "theme", "xp"), _CHARACTERS),
    **dict.fromkeys(("challenge", "bennie"), _DRAMA),
    **dict.fromkeys(("group", "psychic", "spell"), _PROCEDURE),
    **dict.fromkeys(("fight", "death"), _COMBAT),
    "ruling": "yarnlog.rulesets.scenes_and_tokens.cli.rulings:register",
}

VERBS = Verbs(register=register, replaces={"scene open": "call"}, title="Yarn 0.1", index=INDEX)
