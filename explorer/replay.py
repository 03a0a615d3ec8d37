"""Replaying a key: the actions it names, taken one by one from the model's initial state.

A key (`0/2/1`) is the index of each action among the legal actions of the state it was taken in,
on a real path of the model (explorer/graph.py stores every state as its parent links reach it).
So a replay needs nothing of the search that printed the key: not its reduction, which only leaves
actions out and never renumbers them, nor its symmetry, which never renames a stored state. The
same key replays to the same state under any search settings; only the model (its scenario, rules
version and readings) gives it its meaning.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .protocol import hook
from .trace import Step, Trace, parse_key, plain


class BadKey(ValueError):
    """A key that is not a path of the model: `step` (1-based) is where it leaves the legal actions."""

    def __init__(self, step: int, message: str):
        super().__init__(message)
        self.step = step


@dataclass(frozen=True)
class Replay:
    trace: Trace
    states: tuple          # the initial state, then the state after each step
    model: Any

    @property
    def state(self) -> Any:
        return self.states[-1]


def replay(model: Any, key: str) -> Replay:
    """The trace a key names and the states along it; BadKey when an index is not a legal action."""
    try:
        indexes = parse_key(key.strip())
    except ValueError as exc:
        raise BadKey(0, str(exc)) from None
    s = model.initial_state()
    states, steps = [s], []
    for n, index in enumerate(indexes, 1):
        actions = model.actions(s)
        if index >= len(actions):
            legal = f"an action index below {len(actions)}" if actions else "nothing: the state before it is terminal"
            raise BadKey(n, f"step {n}: expected {legal}, got {index}")
        s, events = model.step(s, actions[index])
        steps.append(Step(index, actions[index], events))
        states.append(s)
    return Replay(Trace(tuple(steps), hook(model, "narrate") or plain), tuple(states), model)
