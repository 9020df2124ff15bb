"""Will & Descriptors' moves: payloads, commands, deciders with their validators, and folds."""
