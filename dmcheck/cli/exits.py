"""Exit codes, once: what every command returns, and how several results combine into one."""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

from dmcheck.properties.verdict import INCONCLUSIVE, VIOLATED, PropertyVerdictName


class Exit(IntEnum):
    OK = 0              # everything holds / nothing found / equivalent
    FINDING = 1         # an expectation or property does not hold, a contradiction, a difference
    BAD_INPUT = 2       # a file or flag could not be used (the message names it)
    INCOMPLETE = 3      # a limit cut the search or the solver said unknown: no verdict of "holds"
    INTERRUPTED = 130   # Ctrl-C: what was found so far is reported as incomplete
    MODEL_ERROR = 70    # dmcheck's own model went wrong (a step that never ends): a bug to report, never the
                        # input; sysexits' EX_SOFTWARE
    OUTPUT_CLOSED = 141  # the reader of the output went away (`| head`): 128 + SIGPIPE, as a shell reports it


HELP = ("exit status: 0 all hold (nothing found), 1 a finding, 2 bad input, 3 incomplete "
        "(a limit was hit), 70 the model failed (a bug of dmcheck, reported with its trace), 130 interrupted, "
        "141 output closed early (e.g. | head)")


def combine(codes: list[int]) -> Exit:
    """One exit code for several files: bad input first, then a finding, then incomplete."""
    for code in (Exit.BAD_INPUT, Exit.FINDING, Exit.INCOMPLETE):
        if code in codes:
            return code
    return Exit.OK


def exit_code(graph, verdicts: Sequence[PropertyVerdictName]) -> Exit:
    """A file's exit code: an incomplete search first, then a violation, then an inconclusive check.
    A sanity property's "no example" (properties/checker.py) is no finding: it never fails a run."""
    if not graph.complete:
        return Exit.INCOMPLETE
    if VIOLATED in verdicts:
        return Exit.FINDING
    if INCONCLUSIVE in verdicts:
        return Exit.INCOMPLETE
    return Exit.OK
