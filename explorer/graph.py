"""The explored state graph: states (or their fingerprints), parent links, edges and terminals.

What checks read (properties/ sees it through its StateGraph protocol): successors, states, shortest
traces, outcomes. The compact store keeps only a fingerprint per state and rebuilds any other state
by replaying its path from the initial state.

Every stored state is the state its parent links reach from the initial state, as the steps made it
(the symmetry only picks which states are one: explorer/bfs.py stores the first twin found). So a
trace is a real path of the model, its replay key is the index of each action among the legal
actions of the state it was taken in, and a key means the same thing whatever the search did: it
is replayed by stepping the model, nothing else (explorer/replay.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .protocol import hook
from .trace import Step, Trace, plain


def freeze(value: Any) -> Any:
    """A hashable, canonical form of nested dicts and lists (to count terminal states per outcome)."""
    if isinstance(value, dict):
        return tuple(sorted((k, freeze(x)) for k, x in value.items()))
    if isinstance(value, list):
        return tuple(value)
    return value


SYMMETRY_ON = "kept"          # on for the whole search
SYMMETRY_OFF = "off"          # not asked for (no reduction, or a check names a card copy)
SYMMETRY_UNUSED = "unused"    # on, but it renamed nothing over its sample: turned off there
SYMMETRY_DROPPED = "dropped"  # it merged too little over its sample: the search started again without it


@dataclass(frozen=True)
class SearchRecord:
    """What the search really did (what the command line asked for may have been changed by the search
    itself): whether the partial-order reduction pruned orders, and what became of the symmetry."""

    reduction: bool = False
    symmetry: str = SYMMETRY_OFF

    def to_json(self) -> dict[str, Any]:
        return {"reduction": self.reduction, "symmetry": self.symmetry}

    def text(self) -> str:
        return (f"reduction {'on' if self.reduction else 'off'}, symmetry {self.symmetry}")


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
    edges: list[list[tuple[int, int, tuple]]] = field(default_factory=list)
    terminals: list[int] = field(default_factory=list)
    transitions: int = 0
    complete: bool = True
    reason: str = ""
    seconds: float = 0.0
    reduced: bool = False            # partial-order reduction was asked for
    compact: bool = False
    count: int = 0                   # distinct states stored
    frontier: int = 0                # states stored but not expanded when the search stopped
    pruned: int = 0                  # transitions left out by the reduction
    symmetry: Any = None             # the canonical form states were looked up by, or None
    record: SearchRecord = field(default_factory=SearchRecord)
    terminal_states: dict = field(default_factory=dict)
    loops: list = field(default_factory=list)   # explorer/loops.Loop: cycles found (full store only)
    _outcomes: list | None = field(default=None, repr=False, compare=False)

    # the graph interface that properties/ reads
    def successors(self, node: int) -> list[tuple[int, int, tuple]]:
        if self.compact:
            raise ValueError("the compact store keeps no edges: explore with keep_graph=True")
        return self.edges[node]

    def is_terminal(self, node: int) -> bool:
        is_terminal = hook(self.model, "is_terminal")
        s = self.state(node)
        return is_terminal(s) if is_terminal is not None else not self.model.actions(s)

    def state(self, node: int):
        if not self.compact:
            return self.states[node]
        found = self.terminal_states.get(node)
        return found if found is not None else self._replay(self._path(node))[-1]

    def arrival(self, node: int, index: int):
        """The state an edge leads to as the step made it from the stored state `node`.

        A transition's facts compare the state before with the state after card by card, so they
        must be read on the same names; with the symmetry on, the stored successor may be a twin
        first reached another way, its identical cards in other places.
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
        """The states along a path of parent links: exactly the states stored (explorer/bfs.py)."""
        s = self.model.initial_state()
        out = [s]
        for _, index in path:
            s = self.model.step(s, self.model.actions(s)[index])[0]
            out.append(s)
        return out

    def key(self, node: int) -> str:
        """The replay key of the shortest trace to `node`, read off the parent links (no step taken)."""
        parts = []
        while node > 0:
            node, index = self.parent[node]
            parts.append(str(index))
        return "/".join(reversed(parts)) or "-"

    def trace(self, node: int, suffix: list[tuple[int, int]] | None = None) -> Trace:
        """The shortest trace from the initial state to `node` (then along `suffix` edges, if given)."""
        return self.trace_of(self._path(node) + (suffix or []))

    def trace_of(self, path: list[tuple[int, int]]) -> Trace:
        """The trace of a path given as (node, action index) pairs, as the model really plays it.

        Along parent links the states met are the stored ones. A path through other edges (an order
        expectation's, a loop's round) can reach, with the symmetry on, a twin of a stored state: the
        same choice is then made on the twin, so the trace names the copies that really moved."""
        steps = []
        s = self.model.initial_state()
        for node, index in path:
            here = s if self.compact else self.states[node]
            if here is not s and here != s:
                index = self._twin_choice(s, node, index)
                stored = None
            else:
                stored = self.edges[node] if not self.compact and node < len(self.edges) else None
            action = self.model.actions(s)[index]
            events = next((ev for i, _, ev in stored if i == index), None) if stored else None
            succ, fresh = self.model.step(s, action)
            steps.append(Step(index, action, events if events is not None else fresh))
            s = succ
        return Trace(tuple(steps), hook(self.model, "narrate") or plain)

    def _twin_choice(self, s, node: int, index: int) -> int:
        """The action of `s`, a renamed twin of the stored state `node`, that makes the choice `index`
        makes there: the one whose successor is the same state up to the symmetry."""
        if self.symmetry is None:
            raise ValueError(f"the path leaves the stored states at node {node}: not a path of this graph")
        stored = self.states[node]
        want = self.symmetry(self.model.step(stored, self.model.actions(stored)[index])[0])
        actions = self.model.actions(s)
        for j in [index] + [j for j in range(len(actions)) if j != index]:
            if self.symmetry(self.model.step(s, actions[j])[0]) == want:
                return j
        raise ValueError(f"no choice of a twin of node {node} makes its choice {index}: the symmetry's "
                         "canonical form is not canonical here")

    def ends(self) -> list[tuple[int, dict]]:
        """Where the runs end, with their outcome: each terminal state, then each forced loop's entry
        (its outcome says `loop: true`: the game repeats with no choice, explorer/loops.py)."""
        keyed = hook(self.model, "outcome_key")
        built: dict = {}
        out = []
        for node in self.terminals:
            state = self.state(node)
            if keyed is None:
                out.append((node, self.model.outcome(state)))
                continue
            key = keyed(state)
            found = built.get(key)
            if found is None:
                found = built[key] = self.model.outcome(state)
            out.append((node, found))
        for loop in self.loops:
            if loop.forced:
                out.append((loop.entry, dict(self.model.outcome(self.state(loop.entry)), loop=True)))
        return out

    def outcomes(self) -> list[tuple[dict, int, int]]:
        """Distinct outcomes of the ends (terminal states and forced loops): (outcome, how many, a
        witness node: the first stored, so its trace is a shortest one), most frequent first. Computed
        once per graph: the report's views (text, JSON, HTML, expectations) share it."""
        if self._outcomes is not None:
            return self._outcomes
        counts: dict[int, list] = {}   # by the outcome object: one per key when the model groups them
        by_value: dict[str, list] = {}   # by the outcome as canonical JSON (outcomes are JSON values)
        for node, result in self.ends():
            entry = counts.get(id(result))
            if entry is None:
                key = json.dumps(result, sort_keys=True, separators=(",", ":"))
                entry = by_value.get(key)
                if entry is None:
                    entry = by_value[key] = [result, 0, node, key]
                counts[id(result)] = entry
            entry[1] += 1
        self._outcomes = [(o, n, w) for o, n, w, _ in sorted(by_value.values(), key=lambda t: (-t[1], t[3]))]
        return self._outcomes

    def to_networkx(self):
        """The state graph as a networkx MultiDiGraph, edges keyed by the action index."""
        import networkx as nx

        if self.compact:
            raise ValueError("the compact store keeps no edges: explore with keep_graph=True")
        g = nx.MultiDiGraph()
        for node, state in enumerate(self.states):
            g.add_node(node, fingerprint=state.fingerprint(), terminal=self.is_terminal(node))
        for node, out in enumerate(self.edges):
            for index, succ, _ in out:
                g.add_edge(node, succ, key=index,
                           action=self.model.actions(self.states[node])[index].text)
        return g
