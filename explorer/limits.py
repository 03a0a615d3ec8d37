"""Bounds on a search; hitting one makes the result incomplete (never a verdict of 'holds').

The bounds hold inside one step too: a model whose step runs an automatic procedure of its own may
offer the `watch` hook (explorer/protocol.py), and the search hands it a check that raises StepLimit
once the time is up or the step has taken more rounds than the state limit allows states.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    max_states: int = 2_000_000
    max_depth: int = 10_000
    max_seconds: float = 600.0


# The bounds a search gets unless told otherwise (a shared default argument: Limits is frozen).
DEFAULT_LIMITS = Limits()


class StepLimit(Exception):
    """A limit of the search was reached inside one step of the model (raised by the check the search
    gave the model's `watch` hook; the search ends incomplete with this reason)."""
