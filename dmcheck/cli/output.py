"""Output written whole: the time budget's watchdog (dmcheck/cli/stop.py) never cuts a piece of output in
the middle, and has nothing left to stop once a command's output is all written.

A JSON document cut short is no JSON at all, and one printed after the full document would make two.
So a finished piece of output is made first (a string) and written inside `writing()`; the watchdog
waits for it, then fires; after `written()` it does not fire at all."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass
class State:
    writing: int = 0        # pieces of output being written now
    written: bool = False   # the command's whole output is written


state = State()


@contextlib.contextmanager
def writing() -> Iterator[None]:
    """Write a finished piece of output whole (see the module docstring)."""
    state.writing += 1
    try:
        yield
    finally:
        state.writing -= 1


def written() -> None:
    """The command has written all its output: the deadline has nothing left to stop."""
    state.written = True
