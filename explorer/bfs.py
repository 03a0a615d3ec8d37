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

from model.canonical import Symmetry

from .limits import Limits
from .reduction import Observe, Reducer


@dataclass
class Exploration:
    """The explored state graph of one scenario (node 0 is the initial state).

    In the full store (`keep_graph=True`) every state and every edge with its events is kept; the
    compact store keeps only a fingerprint per state, its parent link and the terminal states, and
    rebuilds any other state by replaying its path.
    """

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
    reduced: bool = False            # partial-order reduction and symmetry were on
    compact: bool = False
    count: int = 0                   # distinct states stored
    pruned: int = 0                  # transitions left out by the reduction
    symmetry: Any = None
    terminal_states: dict = field(default_factory=dict)

    # the graph interface that properties/ reads
    def successors(self, node: int) -> list[tuple[int, int, tuple[Event, ...]]]:
        if self.compact:
            raise ValueError("the compact store keeps no edges: explore with keep_graph=True")
        return self.edges[node]

    def is_terminal(self, node: int) -> bool:
        return self.state(node).over

    def state(self, node: int):
        if not self.compact:
            return self.states[node]
        found = self.terminal_states.get(node)
        return found if found is not None else self._replay(self._path(node))[-1]

    def arrival(self, node: int, index: int):
        """The state an edge leads to as the step made it: before symmetry renamed identical cards.

        A transition's facts compare the state before with the state after card by card, so they
        must be read on the same names; the stored node may be a renamed twin of that state.
        """
        if self.symmetry is None:
            return self.state(next(succ for i, succ, _ in self.successors(node) if i == index))
        s = self.state(node)
        return self.model.step(s, self.model.actions(s)[index])[0]

    def _path(self, node: int) -> list[tuple[int, int]]:
        path: list[tuple[int, int]] = []
        while node != 0:
            prev, index = self.parent[node]
            path.append((prev, index))
            node = prev
        path.reverse()
        return path

    def _replay(self, path: list[tuple[int, int]]) -> list:
        """The states along a path, as the search saw them (canonical when symmetry was on)."""
        s = self.model.initial_state()
        out = [s]
        for _, index in path:
            s = self.model.step(s, self.model.actions(s)[index])[0]
            if self.symmetry is not None:
                s = self.symmetry.canonical(s)
            out.append(s)
        return out

    def trace(self, node: int, suffix: list[tuple[int, int]] | None = None) -> Trace:
        """The shortest trace from the initial state to `node` (then along `suffix` edges, if given)."""
        return self.trace_of(self._path(node) + (suffix or []))

    def trace_of(self, path: list[tuple[int, int]]) -> Trace:
        """The trace of a path given as (node, action index) pairs."""
        steps = []
        s = self.model.initial_state()
        for node, index in path:
            if not self.compact:
                s = self.states[node]
            action = self.model.actions(s)[index]
            stored = self.edges[node] if not self.compact and node < len(self.edges) else []
            events = next((ev for i, _, ev in stored if i == index), None)
            succ, fresh = self.model.step(s, action)
            steps.append(Step(index, action, events if events is not None else fresh))
            s = self.symmetry.canonical(succ) if self.symmetry is not None else succ
        return Trace(tuple(steps))

    def outcomes(self) -> list[tuple[dict, int, int]]:
        """Distinct outcomes of the terminal states: (outcome, how many terminal states, a witness node)."""
        counts: dict[tuple, list] = {}
        for node in self.terminals:
            result = outcome(self.model, self.state(node))
            key = freeze(result)
            if key in counts:
                counts[key][1] += 1
            else:
                counts[key] = [result, 1, node]
        return sorted((tuple(v) for v in counts.values()), key=lambda t: (-t[1], repr(freeze(t[0]))))

    def to_networkx(self):
        """The state graph as a networkx MultiDiGraph, edges keyed by the action index."""
        import networkx as nx

        if self.compact:
            raise ValueError("the compact store keeps no edges: explore with keep_graph=True")
        g = nx.MultiDiGraph()
        for node, state in enumerate(self.states):
            g.add_node(node, fingerprint=state.fingerprint(), terminal=state.over)
        for node, out in enumerate(self.edges):
            for index, succ, _ in out:
                g.add_edge(node, succ, key=index,
                           action=self.model.actions(self.states[node])[index].text)
        return g


Progress = Callable[[int, int, int, float], None]   # states, frontier, depth, seconds


def explore(model: Any, limits: Limits = Limits(), progress: Progress | None = None, *, reduce: bool = False,
            observe: Observe | None = None, keep_graph: bool = True) -> Exploration:
    """Every state reachable from the model's initial state, breadth first.

    `reduce` turns on partial-order reduction (explorer/reduction.py) and symmetry (model/canonical.py);
    `observe` gives the signature under which alternatives must look alike to be reduced (expectations,
    properties). `keep_graph=False` keeps only fingerprints and parent links (the compact store).
    """
    start = time.perf_counter()
    result = Exploration(model=model, reduced=reduce, compact=not keep_graph)
    reducer = Reducer(model, observe) if reduce else None
    symmetry = Symmetry(model) if reduce else None
    result.symmetry = symmetry
    init = model.initial_state()
    if symmetry is not None:
        init = symmetry.canonical(init)
    key = (lambda st: st) if keep_graph else (lambda st: st.digest())
    index = {key(init): 0}
    if keep_graph:
        result.states.append(init)
    result.parent.append((-1, -1))
    result.depth.append(0)
    frontier: deque = deque([(0, init)])
    last_report = start
    while frontier:
        node, state = frontier.popleft()
        out: list[tuple[int, int, tuple[Event, ...]]] = []
        if keep_graph:
            result.edges.append(out)  # nodes are expanded in index order, so edges[node] lines up
        actions = model.actions(state)
        if not actions:
            result.terminals.append(node)
            if not keep_graph:
                result.terminal_states[node] = state
            continue
        if result.depth[node] >= limits.max_depth:
            result.complete, result.reason = False, f"depth limit {limits.max_depth} reached"
            continue
        chosen = range(len(actions))
        if reducer is not None:
            pick = reducer.candidate(actions)
            if pick is not None:
                if reducer.observe is not None:
                    successors = [model.step(state, a) for a in actions]
                    if not reducer.invisible(state, actions, successors):
                        pick = None
                if pick is not None:
                    result.pruned += len(actions) - 1
                    chosen = (pick,)
        for i in chosen:
            succ, events = model.step(state, actions[i])
            if symmetry is not None:
                succ = symmetry.canonical(succ)
            result.transitions += 1
            k = key(succ)
            target = index.get(k)
            if target is None:
                if len(index) >= limits.max_states:
                    result.complete, result.reason = False, f"state limit {limits.max_states} reached"
                    continue
                target = len(index)
                index[k] = target
                if keep_graph:
                    result.states.append(succ)
                result.parent.append((node, i))
                result.depth.append(result.depth[node] + 1)
                frontier.append((target, succ))
            if keep_graph:
                out.append((i, target, events))
        now = time.perf_counter()
        if now - start > limits.max_seconds:
            result.complete, result.reason = False, f"time limit {limits.max_seconds:g}s reached"
            break
        if progress and now - last_report > 0.5:
            progress(len(index), len(frontier), result.depth[node], now - start)
            last_report = now
    if frontier and result.complete:
        result.complete = False
    # nodes never expanded (limits) get empty edge lists so indexes stay aligned
    while keep_graph and len(result.edges) < len(result.states):
        result.edges.append([])
    result.count = len(index)
    result.seconds = time.perf_counter() - start
    return result
