"""Bounds on a search; hitting one makes the result incomplete (never a verdict of 'holds').

The bounds hold inside one step too: a model whose step runs an automatic procedure of its own may
offer the `watch` hook (explorer/protocol.py), and the search hands it a check that raises StepLimit
once the time is up or the step has taken more rounds than the state limit allows states.

Time and states are counted as the search goes; memory and a request to stop (Ctrl-C, given by the
caller as `stop`) are looked at every CHECK_EVERY seconds, where the clock is read anyway (bfs.py).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass

CHECK_EVERY = 0.1    # seconds between two looks at the memory and at a stop request

# The memory a search may use, as the resident size of its whole process (its graph, what the process
# held before): 4 GB. Measured (docs/limits.md): the default state limit, 2,000,000 states, needs about
# 2.5 KB a state in the full store on the benchmark families, i.e. about 5 GB; the memory limit stops
# such a search first, leaving a machine of 8 GB room for the rest of its work.
DEFAULT_MAX_MEMORY = 4 * 1024**3


@dataclass(frozen=True, slots=True)
class Limits:
    max_states: int = 2_000_000
    max_depth: int = 10_000
    max_seconds: float = 600.0
    max_memory: int = DEFAULT_MAX_MEMORY        # bytes of the process's resident size
    stop: Callable[[], bool] | None = None      # asked every CHECK_EVERY seconds: True ends the search now


# The bounds a search gets unless told otherwise (a shared default argument: Limits is frozen).
DEFAULT_LIMITS = Limits()


class StepLimit(Exception):
    """A limit of the search was reached inside one step of the model (raised by the check the search
    gave the model's `watch` hook; the search ends incomplete with this reason)."""


def memory_used() -> int:
    """The process's resident size in bytes now (Linux: /proc/self/statm, a few microseconds); elsewhere
    its peak (getrusage), which never goes down."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        import resource
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def over(limits: Limits) -> str:
    """Why the search must stop now, '' if it goes on: the memory limit, or a stop asked for."""
    if limits.stop is not None and limits.stop():
        return "interrupted"
    used = memory_used()
    if used > limits.max_memory:
        return f"memory limit {_size(limits.max_memory)} reached ({_size(used)} used)"
    return ""


def _size(n: int) -> str:
    return f"{n / 1024**3:.3g} GB" if n >= 1024**3 else f"{n / 1024**2:.0f} MB"
