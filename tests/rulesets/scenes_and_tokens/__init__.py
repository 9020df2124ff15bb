"""The dramatic core Yarn and DramaSystem share (yarnlog.rulesets.scenes_and_tokens), tested on both."""
