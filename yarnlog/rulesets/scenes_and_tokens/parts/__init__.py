"""The parts of the shared core, composed by each ruleset with its own payloads and :class:`Dramatic`."""
