"""Checking a scenario's `expect` items on an explored graph, with shortest traces.

Outcome items (`always`, `never`, `sometimes`) read the terminal states. Order items read the
events along paths: a breadth-first search of the product of the graph with the pattern's progress
gives the shortest path that violates (or witnesses) each one. A search that was not complete never
yields `holds` for what needs every path: that verdict is `inconclusive`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..model.lang import tr
from ..model.outcome import matches, outcome
from ..model.scenario import Expectation
from .graph import StateGraph, TraceView
from .patterns import advance
from .verdict import HOLDS, INCONCLUSIVE, VIOLATED, VerdictName


@dataclass(frozen=True)
class Verdict:
    expectation: Expectation
    verdict: VerdictName
    reason: str = ""
    trace: TraceView | None = None      # the counterexample, or the witness of a sometimes/possible_order

    @property
    def holds(self) -> bool:
        return self.verdict == HOLDS


def check(graph: StateGraph, item: Expectation) -> Verdict:
    if item.kind in ("always", "never", "sometimes"):
        return _check_outcomes(graph, item)
    return _check_order(graph, item)


def _check_outcomes(graph: StateGraph, item: Expectation) -> Verdict:
    ends = _ends(graph)
    # terminals are in breadth-first order, so the first one found has a shortest trace
    hits = (n for n, o in ends if matches(item.value, o))
    misses = (n for n, o in ends if not matches(item.value, o))
    if item.kind == "sometimes":
        node = next(hits, None)
        if node is not None:
            return Verdict(item, HOLDS, tr("an outcome matches"), graph.trace(node))
        if not graph.complete:
            return Verdict(item, INCONCLUSIVE, tr("no matching outcome in an incomplete search ({why})",
                                                  why=graph.reason))
        return Verdict(item, VIOLATED, tr("no terminal state has this outcome"))
    node = next(misses if item.kind == "always" else hits, None)
    if node is not None:
        what = tr("this outcome does not match") if item.kind == "always" else tr("this outcome matches")
        return Verdict(item, VIOLATED, what, graph.trace(node))
    if not graph.complete:
        return Verdict(item, INCONCLUSIVE, tr("search incomplete ({why})", why=graph.reason))
    loops = len(ends) - len(graph.terminals)
    return Verdict(item, HOLDS, tr("all {n} terminal states checked", n=len(ends)) if not loops else
                   tr("all {n} terminal states and {loops} forced loops checked", n=len(graph.terminals), loops=loops))


def _ends(graph: StateGraph) -> list:
    """(node, outcome) of every terminal state, and of every forced loop when the graph finds loops
    (explorer's `ends`: such a run never ends, its outcome says `loop: true`, A27)."""
    ends = getattr(graph, "ends", None)
    if ends is not None:
        return ends()
    return [(n, outcome(graph.model, graph.state(n))) for n in graph.terminals]


def _check_order(graph: StateGraph, item: Expectation) -> Verdict:
    patterns: list[dict[str, Any]] = item.value
    n = len(patterns)
    start = (0, 0)
    parent: dict[tuple[int, int], tuple[tuple[int, int], int] | None] = {start: None}
    queue = deque([start])
    found = None
    while queue:
        node, k = queue.popleft()
        if item.kind == "never_order" and k == n:
            found = (node, k)
            break
        if graph.is_terminal(node):
            if (item.kind == "in_order" and k < n) or (item.kind == "possible_order" and k == n):
                found = (node, k)
                break
            continue
        for index, succ, events in graph.successors(node):
            nxt = (succ, advance(patterns, k, events))
            if nxt not in parent:
                parent[nxt] = ((node, k), index)
                queue.append(nxt)
    trace = None
    if found is not None:
        path = []
        cur = found
        while (link := parent[cur]) is not None:
            prev, index = link
            path.append((prev[0], index))
            cur = prev
        trace = graph.trace_of(list(reversed(path)))
    if item.kind == "possible_order":
        if trace is not None:
            return Verdict(item, HOLDS, tr("a trace has these events in this order"), trace)
        if not graph.complete:
            return Verdict(item, INCONCLUSIVE, tr("no such trace in an incomplete search ({why})", why=graph.reason))
        return Verdict(item, VIOLATED, tr("no complete trace has these events in this order"))
    if trace is not None:
        why = (tr("this complete trace lacks the events in this order") if item.kind == "in_order"
               else tr("this trace has the events in this order"))
        return Verdict(item, VIOLATED, why, trace)
    if not graph.complete:
        return Verdict(item, INCONCLUSIVE, tr("search incomplete ({why})", why=graph.reason))
    return Verdict(item, HOLDS, tr("every trace checked"))


def observer(items) -> Callable | None:
    """What order expectations see of a transition: the events their patterns could match.

    The explorer's reduction only prunes alternatives that look alike under this signature, so
    the orders the patterns test are kept (see explorer/reduction.py, C2). Outcome expectations
    need nothing: reduction keeps every terminal state.
    """
    from .patterns import event_matches

    patterns = [p for item in items if item.kind not in ("always", "never", "sometimes") for p in item.value]
    if not patterns:
        return None

    def observe(pre, action, events, post):
        return tuple(i for e in events for i, p in enumerate(patterns) if event_matches(p, e))

    return observe
