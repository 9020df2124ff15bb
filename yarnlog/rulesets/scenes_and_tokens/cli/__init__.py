"""The verbs of the shared core, registered by each ruleset that composes it."""
