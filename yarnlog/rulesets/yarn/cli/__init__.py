"""Yarn's verbs on the command line, offered only in Yarn campaigns.

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


VERBS = Verbs(register=register, replaces={"scene open": "call"}, title="Yarn 0.1")
