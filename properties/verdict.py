"""The verdicts of any check, once: an expectation, a property, a ruling.

NO_EXAMPLE is a built-in sanity `sometimes` property's verdict when a complete search of the scenario
shows no example: not a finding (properties/checker.py)."""

from typing import Final, Literal, TypeAlias

# The verdict of an expectation, a property or a ruling (the strings appear in JSON outputs).
VerdictName: TypeAlias = Literal["holds", "violated", "inconclusive"]
# A property's verdict: one of the above or, for a sanity property, NO_EXAMPLE.
PropertyVerdictName: TypeAlias = Literal[VerdictName, "no example"]

HOLDS: Final = "holds"
VIOLATED: Final = "violated"
INCONCLUSIVE: Final = "inconclusive"
NO_EXAMPLE: Final = "no example"
