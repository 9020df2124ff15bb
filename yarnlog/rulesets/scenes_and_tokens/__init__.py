"""The shared core that Yarn 0.1 and DramaSystem share (digest 001, section 5).

Yarn took DramaSystem's dramatic text nearly word for word, so both rulesets compose one
implementation of it: the pure rules (:mod:`.rules`: drama tokens, challenges and votes, bennies),
the parts that decide, fold and validate its moves (:mod:`.parts`: the economy of tokens and
bennies, petitions, the drama slice, who plays whom), and :class:`.parameters.Dramatic`, what
differs between the two books. The core declares each payload once; each ruleset registers it
under its own prefix, so a ruleset still owns only its own event types.
"""
