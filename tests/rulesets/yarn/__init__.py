"""Yarn 0.1 (yarnlog.rulesets.yarn): its rules, verbs, recaps and sample campaign."""
