"""The polyhedral Yarn's parts: each folds its own slice of the state, decides its own commands and
validates its own event types."""
