"""Breadth-first search of a model's states with parent links, so every state has a shortest trace.

States are deduplicated by value (equal states are one node). The search keeps, per state, its
parent and the edges leaving it (action index, successor, events); it never needs networkx —
`Exploration.to_networkx` builds the graph only on request.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable

from model.events import Event
from model.outcome import freeze, outcome
from model.trace import Step, Trace

from .limits import Limits


@dataclass
class Exploration:
    """The explored state graph of one scenario (node 0 is the initial state)."""

    model: Any
    states: list = field(default_factory=list)
    parent: list[tuple[int, int]] = field(default_factory=list)   # (parent node, action index)
    depth: list[int] = field(default_factory=list)
    edges: list[list[tuple[int, int, tuple[Event, ...]]]] = field(default_factory=list)
    terminals: list[int] = field(default_factory=list)
    transitions: int = 0
    complete: bool = True
    reason: str = ""
    seconds: float = 0.0

    # the graph interface that properties/ reads
    def successors(self, node: int) -> list[tuple[int, int, tuple[Event, ...]]]:
        return self.edges[node]

    def is_terminal(self, node: int) -> bool:
        return self.states[node].over

    def state(self, node: int):
        return self.states[node]

    def trace(self, node: int, suffix: list[tuple[int, int]] | None = None) -> Trace:
        """The shortest trace from the initial state to `node` (then along `suffix` edges, if given)."""
        path: list[tuple[int, int]] = []
        while node != 0:
            prev, index = self.parent[node]
            path.append((prev, index))
            node = prev
        path.reverse()
        path += suffix or []
        return self.trace_of(path)

    def trace_of(self, path: list[tuple[int, int]]) -> Trace:
        """The trace of a path given as (node, action index) pairs."""
        steps = []
        for node, index in path:
            action = self.model.actions(self.states[node])[index]
            events = next(ev for i, _, ev in self.edges[node] if i == index) if node < len(self.edges) and \
                self.edges[node] else self.model.step(self.states[node], action)[1]
            steps.append(Step(index, action, events))
        return Trace(tuple(steps))

    def outcomes(self) -> list[tuple[dict, int, int]]:
        """Distinct outcomes of the terminal states: (outcome, how many terminal states, a witness node)."""
        counts: dict[tuple, list] = {}
        for node in self.terminals:
            result = outcome(self.model, self.states[node])
            key = freeze(result)
            if key in counts:
                counts[key][1] += 1
            else:
                counts[key] = [result, 1, node]
        return sorted((tuple(v) for v in counts.values()), key=lambda t: (-t[1], repr(freeze(t[0]))))

    def to_networkx(self):
        """The state graph as a networkx MultiDiGraph, edges keyed by the action index."""
        import networkx as nx

        g = nx.MultiDiGraph()
        for node, state in enumerate(self.states):
            g.add_node(node, fingerprint=state.fingerprint(), terminal=state.over)
        for node, out in enumerate(self.edges):
            for index, succ, _ in out:
                g.add_edge(node, succ, key=index,
                           action=self.model.actions(self.states[node])[index].text)
        return g


Progress = Callable[[int, int, int, float], None]   # states, frontier, depth, seconds


def explore(model: Any, limits: Limits = Limits(), progress: Progress | None = None) -> Exploration:
    """Every state reachable from the model's initial state, breadth first."""
    start = time.perf_counter()
    result = Exploration(model=model)
    init = model.initial_state()
    index = {init: 0}
    result.states.append(init)
    result.parent.append((-1, -1))
    result.depth.append(0)
    frontier = deque([0])
    last_report = start
    while frontier:
        node = frontier.popleft()
        state = result.states[node]
        out: list[tuple[int, int, tuple[Event, ...]]] = []
        result.edges.append(out)  # nodes are expanded in index order, so edges[node] lines up
        actions = model.actions(state)
        if not actions:
            result.terminals.append(node)
            continue
        if result.depth[node] >= limits.max_depth:
            result.complete, result.reason = False, f"depth limit {limits.max_depth} reached"
            continue
        for i, action in enumerate(actions):
            succ, events = model.step(state, action)
            result.transitions += 1
            target = index.get(succ)
            if target is None:
                if len(result.states) >= limits.max_states:
                    result.complete, result.reason = False, f"state limit {limits.max_states} reached"
                    continue
                target = len(result.states)
                index[succ] = target
                result.states.append(succ)
                result.parent.append((node, i))
                result.depth.append(result.depth[node] + 1)
                frontier.append(target)
            out.append((i, target, events))
        now = time.perf_counter()
        if now - start > limits.max_seconds:
            result.complete, result.reason = False, f"time limit {limits.max_seconds:g}s reached"
            break
        if progress and now - last_report > 0.5:
            progress(len(result.states), len(frontier), result.depth[node], now - start)
            last_report = now
    if frontier and result.complete:
        result.complete = False
    # nodes never expanded (limits) get empty edge lists so indexes stay aligned
    while len(result.edges) < len(result.states):
        result.edges.append([])
    result.seconds = time.perf_counter() - start
    return result
