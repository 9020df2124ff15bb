"""The parts of the dramatic core, composed by each ruleset with its own payloads and :class:`Dramatic`."""
