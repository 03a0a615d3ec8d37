"""One card instruction as a value: a word of the card vocabulary and its arguments.

Its own module because states, cards and the instruction registry all hold instructions, and none of
them should have to import another to do so.
"""

from __future__ import annotations

from typing import Any

from .record import Record, record


@record
class Instr(Record):
    """One effect instruction: an op from the vocabulary and its arguments (hashable)."""

    op: str
    args: tuple[tuple[str, Any], ...] = ()

    def get(self, name: str, default: Any = None) -> Any:
        for key, value in self.args:
            if key == name:
                return value
        return default
