"""Yarn 0.1's pure rules: dice, traits, combat, damage, healing, experience, powers and magic."""

from yarnlog.rulesets.yarn.rules import book_lines  # noqa: F401  (the book's index, for short citations)
