"""The polyhedral Yarn's journal seam: its name, book and event prefix."""

from yarnlog.core.ruleset import Ruleset

RULESET = Ruleset(
    name="yarn-polyhedral",
    title="Yarn (polyhedral)",
    book="003_e72cdbaaf570012c.txt",
    event_prefix="yarn-polyhedral",
)
