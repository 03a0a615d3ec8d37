"""Comparing one scenario under two settings: two rules versions, or two readings of an open choice.

What a rules change or a reading does to a situation is the difference between the sets of what can
happen: the *outcomes* (the end states, as `explore` reports them) and the *orders* (the sequence of
procedure milestones a trace goes through, properties/milestones.py — a rule change such as the one
of 2023-04-19 often reorders the procedure without changing where the cards end up). Each set of the
left side is compared with the right one's: equivalent, broader (a strict superset), narrower (a
strict subset) or incomparable; every outcome or order found on one side only comes with its
shortest trace. The expectations of the scenario are checked on both sides too.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass, field
from typing import Any, Literal

from ..explorer.bfs import explore
from ..explorer.graph import freeze
from ..explorer.limits import DEFAULT_LIMITS, Limits
from ..model.procedure import BreakModel
from ..model.scenario import Scenario
from ..properties.expectations import Verdict, check
from ..properties.milestones import Groups, Orders, orders


@dataclass
class Side:
    label: str
    scenario: Scenario
    graph: Any
    outcomes: dict[tuple, tuple[dict, int]]         # frozen outcome -> (outcome, a shortest witness node)
    orders: Orders
    verdicts: list[Verdict]

    @property
    def complete(self) -> bool:
        return self.graph.complete and self.orders.complete


@dataclass
class Only:
    """Something one side has and the other has not, with the shortest trace to it."""

    what: Literal["outcome", "order"]
    value: Any           # the outcome dict, or the milestone order
    trace: Any


@dataclass
class Diff:
    left: Side
    right: Side
    outcomes: str
    orders: str
    only_left: list[Only] = field(default_factory=list)
    only_right: list[Only] = field(default_factory=list)

    @property
    def relation(self) -> str:
        """Outcomes first; when they agree, the orders."""
        return self.outcomes if self.outcomes != "equivalent" else self.orders

    @property
    def complete(self) -> bool:
        return self.left.complete and self.right.complete


def relation(left: set, right: set) -> str:
    """How the left set stands to the right one.

    >>> relation({1, 2}, {1})
    'broader'
    """
    if left == right:
        return "equivalent"
    if left > right:
        return "broader"
    if left < right:
        return "narrower"
    return "incomparable"


def side(scenario: Scenario, label: str, rules: dt.date | None, readings: dict[str, str],
         limits: Limits, progress=None) -> Side:
    sc = scenario
    if rules is not None:
        sc = dataclasses.replace(sc, rules=rules)
    if readings:
        sc = dataclasses.replace(sc, readings={**sc.readings, **readings})
    model = BreakModel(sc)
    graph = explore(model, limits, progress(label) if progress else None)
    outs: dict[tuple, tuple[dict, int]] = {}
    for node in graph.terminals:   # breadth-first order: the first node of an outcome is a shortest one
        o = model.outcome(graph.state(node))
        outs.setdefault(freeze(o), (o, node))
    return Side(label, sc, graph, outs, orders(graph), [check(graph, item) for item in sc.expect])


def compare(scenario: Scenario, left: tuple[str, dt.date | None, dict], right: tuple[str, dt.date | None, dict],
            limits: Limits = DEFAULT_LIMITS, progress=None) -> Diff:
    """`left` and `right` are (label, rules date or None, readings); `progress`, if given, makes
    each side's progress callback for the explorer from its label."""
    a = side(scenario, *left, limits, progress)
    b = side(scenario, *right, limits, progress)
    diff = Diff(a, b, relation(set(a.outcomes), set(b.outcomes)), relation(set(a.orders.paths), set(b.orders.paths)))
    for one, other, sink in ((a, b, diff.only_left), (b, a, diff.only_right)):
        for key, (o, node) in one.outcomes.items():
            if key not in other.outcomes:
                sink.append(Only("outcome", o, one.graph.trace(node)))
        for groups, path in one.orders.paths.items():
            if groups not in other.orders.paths:
                sink.append(Only("order", groups, one.graph.trace_of(path)))
    return diff


def order_text(groups: Groups) -> str:
    from ..properties.milestones import show
    return show(groups)
