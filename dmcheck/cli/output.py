"""Output written whole: the time budget's watchdog (dmcheck/cli/stop.py) never cuts a piece of output in
the middle, and has nothing left to stop once a command's output is all written.

A JSON document cut short is no JSON at all, and one printed after the full document would make two.
So a finished piece of output is made first (a string) and written inside `writing()`; the watchdog
waits for it, then fires; after `written()` it does not fire at all."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TextIO


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


# What a terminal would act on rather than show: C0 controls but tab and newline (ESC starts a colour, a
# title, a cursor move; CR overwrites the line), DEL, C1 controls (0x9b is CSI to some terminals) and the
# bidirectional overrides and isolates (text shown in another order than it is written).
_UNSEEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """`text` with every character a terminal would act on written as `\\uXXXX` (as JSON writes it, so a
    JSON document stays one)."""
    return _UNSEEN.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class Visible:
    """A text stream that writes what it is given through `visible`: a card or scenario name from a file
    (`name: "\\e]0;...\\a"`) is shown, never acted on by the terminal (dmcheck/main.py wraps the output of
    every command; error messages quote values with repr already)."""

    def __init__(self, stream: TextIO):
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(visible(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)
