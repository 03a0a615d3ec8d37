"""The three verdicts of any check, once: an expectation, a property, a ruling."""

HOLDS, VIOLATED, INCONCLUSIVE = "holds", "violated", "inconclusive"
