"""Bounds on a search; hitting one makes the result incomplete (never a verdict of 'holds')."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    max_states: int = 2_000_000
    max_depth: int = 10_000
    max_seconds: float = 600.0


# The bounds a search gets unless told otherwise (a shared default argument: Limits is frozen).
DEFAULT_LIMITS = Limits()
