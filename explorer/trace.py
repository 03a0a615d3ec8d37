"""A trace as a value: the actions taken from the initial state, their events, and its views.

Views: numbered lines for people (each step's header, then what it changed, as the model narrates
them), JSON for tools (each event with its step), and a replay key (`0/2/1`: the index of each
action among the legal actions of its state). Events are opaque here: they only need `to_json()`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Narrate = Callable[..., "tuple[str, list[str]]"]   # (action, events, context=None) -> (header, event lines)


def plain(action: Any, events: tuple, context: dict | None = None) -> tuple[str, list[str]]:
    """Narration for a model without its own: the action's text, then each event as it prints."""
    return getattr(action, "text", str(action)), [str(e) for e in events]


@dataclass(frozen=True, slots=True)
class Step:
    index: int               # the action's index among the legal actions of the state
    action: Any
    events: tuple


@dataclass(frozen=True, slots=True)
class Trace:
    steps: tuple[Step, ...]
    narrate: Narrate = field(default=plain, compare=False, repr=False)

    def key(self) -> str:
        return "/".join(str(s.index) for s in self.steps) or "-"

    def events(self) -> list:
        return [e for s in self.steps for e in s.events]

    def narrated(self) -> list[tuple[str, list[str]]]:
        """Each step's header and event lines, told in order with one context, so that an event can
        name the earlier step that caused it."""
        context: dict = {}
        out = []
        for n, step in enumerate(self.steps, 1):
            context["step"] = n
            out.append(self.narrate(step.action, tuple(step.events), context))
        return out

    def lines(self) -> list[str]:
        out = []
        for n, (header, events) in enumerate(self.narrated(), 1):
            out.append(f"{n}. {header}")
            out.extend(f"     - {text}" for text in events)
        out.append(f"   (replay key {self.key()})")
        return out

    def to_json(self) -> list[dict]:
        """The events of the trace, each with the step that caused it."""
        return [dict(e.to_json(), step=n) for n, s in enumerate(self.steps, 1) for e in s.events]


def parse_key(key: str) -> list[int]:
    """The action indexes of a replay key (`-` is the empty trace); ValueError when it is not one."""
    if key in ("-", ""):
        return []
    parts = key.split("/")
    if not all(p.isdigit() for p in parts):
        raise ValueError(f"a replay key is action indexes separated by '/', like 0/2/1; got {key!r}")
    return [int(p) for p in parts]
