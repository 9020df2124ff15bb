"""The pure rules of the shared core: drama tokens, challenges and votes, bennies.

DramaSystem's dramatic text and Yarn 0.1's are the same words (digest 001, section 5), so the
rules quote them once, under Yarn's book name (the citations Yarn's journals store); a
DramaSystem decider names its own book through :func:`yarnlog.rulesets.scenes_and_tokens.citing.cited_in`.
Like every pure rule, nothing here imports the journal.
"""
