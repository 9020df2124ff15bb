"""The polyhedral Yarn: qualities and points, even dice from d2 to d12, keep two, fortune and trouble.

It shares a name with Yarn 0.1 and nothing else (rules digest ``shared/rules/003-yarn-polyhedral.md``).
"""

from yarnlog.rulesets.yarn_polyhedral.ruleset import RULESET

__all__ = ["RULESET"]
