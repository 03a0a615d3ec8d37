"""The graph interface properties read: nodes are states, edges are (action index, successor, events)."""

from __future__ import annotations

from typing import Any, Protocol

from ..model.events import Event


class TraceView(Protocol):
    """A shortest trace as checks report it (the explorer's Trace): its steps and its three views."""

    @property
    def steps(self) -> tuple: ...   # read-only: the explorer's Trace is frozen

    def key(self) -> str: ...
    def lines(self) -> list[str]: ...
    def to_json(self) -> list[dict]: ...
    def events(self) -> list: ...


class StateGraph(Protocol):
    model: Any
    complete: bool
    reason: str
    terminals: list[int]

    def successors(self, node: int) -> list[tuple[int, int, tuple[Event, ...]]]: ...
    def is_terminal(self, node: int) -> bool: ...
    def state(self, node: int) -> Any: ...
    def trace(self, node: int, suffix: list[tuple[int, int]] | None = None) -> TraceView: ...
    def trace_of(self, path: list[tuple[int, int]]) -> TraceView: ...
    def arrival(self, node: int, index: int) -> Any: ...   # the successor before any renaming of identical cards
