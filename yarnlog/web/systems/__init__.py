"""Pieces the rulesets' pages share (:mod:`.common`); each ruleset's ``PAGES`` is its ``pages`` module."""
