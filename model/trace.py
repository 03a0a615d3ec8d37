"""A trace as a value: the actions taken from the initial state, their events, and its views.

Views: numbered lines for people (each step's choice, then only what it changed), JSON for tools,
and a replay key (`0/2/1`: the index of each action among the legal actions of its state).
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .events import Event
from .narrate import describe


# an action whose first event says the same thing again
_RESTATES = {"resolve": "resolve", "choose_shields": "choose_shields", "shield_trigger": "shield_trigger",
             "direct_attack": "win"}


@dataclass(frozen=True, slots=True)
class Step:
    index: int               # the action's index among the legal actions of the state
    action: Action
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Trace:
    steps: tuple[Step, ...]

    def key(self) -> str:
        return "/".join(str(s.index) for s in self.steps) or "-"

    def events(self) -> list[Event]:
        return [e for s in self.steps for e in s.events]

    def lines(self) -> list[str]:
        out = []
        for n, step in enumerate(self.steps, 1):
            events = list(step.events)
            header = f"{n}. {step.action.text}"
            if events and events[0].kind == _RESTATES.get(step.action.kind, "") or \
                    (events and step.action.kind == "choose" and events[0].kind == "cast"
                     and step.action.text.startswith(f"{events[0].get('player')} casts")):
                # the first event only restates the choice: keep its citation on the header
                header += f" [{events[0].rule}]" if events[0].rule else ""
                events = events[1:]
            out.append(header)
            out.extend(f"     - {describe(e)}" for e in events)
        out.append(f"   (replay key {self.key()})")
        return out

    def to_json(self) -> list[dict]:
        """The events of the trace, each with the step that caused it."""
        return [dict(e.to_json(), step=n) for n, s in enumerate(self.steps, 1) for e in s.events]
