"""The DramaSystem SRD (Robin D. Laws) ruleset.

Its pure rules (cards, procedural tokens, resolutions, contests, odds) are in :mod:`.rules`; the
journal's side (events, folds, validators) in :mod:`.parts`, composed in :mod:`.ruleset` (the
entry point names ``yarnlog.rulesets.dramasystem.ruleset:RULESET``, so importing the pure rules
loads nothing of the journal).
"""
