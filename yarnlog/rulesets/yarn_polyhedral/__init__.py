"""The polyhedral Yarn: qualities and points, even dice from d2 to d12, keep two, fortune and trouble.

It shares a name with Yarn 0.1 and nothing else (rules digest ``shared/rules/003-yarn-polyhedral.md``).
Its pure rules are in :mod:`.rules`; the journal's side in :mod:`.parts`, composed in :mod:`.ruleset`
(the entry point names ``yarnlog.rulesets.yarn_polyhedral.ruleset:RULESET``, so importing the pure
rules or the verbs loads nothing of the journal).
"""
