"""DramaSystem's parts: each folds its own slice of :class:`~yarnlog.rulesets.dramasystem.state.DramaSystemState`,
decides its own commands and validates its own event types.

The shared core DramaSystem shares with Yarn (precedence, relationships, petitions, bennies...)
is not composed in yet: these parts are what DramaSystem adds (action types, procedural tokens,
card resolution).
"""
