"""The verdicts of any check, once: an expectation, a property, a ruling.

NO_EXAMPLE is a built-in sanity `sometimes` property's verdict when a complete search of the scenario
shows no example: not a finding (properties/checker.py, issue 11)."""

HOLDS, VIOLATED, INCONCLUSIVE = "holds", "violated", "inconclusive"
NO_EXAMPLE = "no example"
