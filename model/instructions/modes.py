"""Abilities with modes (R700.2): "choose one: ..." — the mode is chosen as the ability resolves (700.2a), by
the ability's controller or, when the text says so, by another player, who also chooses then (700.2b) and at
the time the mode is usually chosen (700.2c: for every moded effect of the model that is its resolution).
The chosen mode's instructions run at once, with the binds of the effect around them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import Event
from ..state import State, Task, other
from .registry import PROGRAM, Option, op, run_within

if TYPE_CHECKING:
    from ..game import Game


def chooser(m: Game, s: State, task: Task, ins) -> str:
    """Who picks the mode (700.2b-c): the controller, or his opponent with `by: opponent`."""
    return other(task.controller) if ins.get("by") == "opponent" else task.controller


def _options(m: Game, s: State, task: Task, ins) -> list[Option]:
    """700.2a: offered when the instruction is reached, i.e. on resolution; every mode, even one that would
    do nothing now (101.3: what can be done is done)."""
    who = chooser(m, s, task, ins)
    return [((k,), f"{who} chooses mode {k + 1} of {task.ability}") for k in range(len(ins.get("modes")))]


def _choose_mode(m: Game, s: State, task: Task, ins, choice, out: list[Event]) -> State:
    return run_within(s, task, ins.get("modes")[choice[0]])


_SCHEMA = {
    "doc": "choose one of several modes (R700.2) as the effect resolves (700.2a); `by: opponent` makes the "
           "controller's opponent choose, then too (700.2b-c); the chosen mode's instructions run at once",
    "properties": {"modes": {"type": "array", "minItems": 2, "maxItems": 8, "items": PROGRAM},
                   "by": {"enum": ["self", "opponent"]}},
    "required": ["modes"],
}
op("choose_mode", chooser=chooser, schema=_SCHEMA)((_options, _choose_mode))
