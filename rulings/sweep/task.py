"""One position of a sweep, checked: what a worker runs, on any backend.

The position's scenario is explored once under the template's own settings (with the reduction
kept blind to nothing the expectations and properties observe, as `dmcheck check` does); the
built-in properties (properties/builtin.py) and the template's `expect` items are checked on that
graph. With `compare`, each compared setting is explored too (the template's own graph is reused
for the side whose settings it already has), and the outcome sets are compared as rulings/diff.py
does: when they are not all equal the position is a *difference*, and every outcome a side has
that another lacks comes with its shortest trace (terminals are in breadth-first order, so the
first node of an outcome is a shortest one).

The result is plain JSON-able data, small enough to cross a process or a Ray cluster.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from ...explorer.bfs import explore
from ...explorer.graph import freeze
from ...explorer.limits import Limits
from ...model.procedure import BreakModel
from ...model.scenario import ZONE_KEYS
from ...properties.builtin import BUILTIN
from ...properties.checker import INCONCLUSIVE, VIOLATED
from ...properties.checker import check as check_properties
from ...properties.expectations import check as check_expectation
from ...properties.expectations import observer as expectation_observer
from ...properties.visibility import observer as property_observer
from ..diff import relation
from .positions import Position, scenario_at
from .template import Setting, Template

OK, FINDING, INCOMPLETE = "ok", "finding", "incomplete"


def trace_json(trace: Any) -> dict[str, Any]:
    return {"replay": trace.key(), "lines": trace.lines(), "events": trace.to_json()}


def _observer(model: BreakModel, scenario):
    seen = [o for o in (expectation_observer(scenario.expect), property_observer(model, BUILTIN)) if o]
    if len(seen) <= 1:
        return seen[0] if seen else None
    return lambda *t: tuple(o(*t) for o in seen)


def _checked(scenario, limits: Limits, timeout_ms: int) -> tuple[Any, list[dict], bool, dict]:
    """Explore under the scenario's own settings; the findings of its properties and expectations,
    and every verdict ({"properties": {id: verdict}, "expect": [verdict]})."""
    model = BreakModel(scenario)
    graph = explore(model, limits, reduce=True, observe=_observer(model, scenario))
    findings, inconclusive = [], False
    verdicts: dict[str, Any] = {"properties": {}, "expect": []}
    for v in check_properties(graph, BUILTIN, timeout_ms).verdicts:
        verdicts["properties"][v.property.id] = v.verdict
        inconclusive |= v.verdict == INCONCLUSIVE
        if v.verdict == VIOLATED:
            findings.append({"kind": f"property {v.property.id}", "what": "violation", "detail": v.reason,
                             "trace": trace_json(v.trace) if v.trace is not None else None})
    for i, item in enumerate(scenario.expect):
        e = check_expectation(graph, item)
        verdicts["expect"].append(e.verdict)
        inconclusive |= e.verdict == INCONCLUSIVE
        if e.verdict == VIOLATED:
            findings.append({"kind": f"expect {i + 1}", "what": "violation", "detail": e.reason,
                             "expect": item.raw, "trace": trace_json(e.trace) if e.trace is not None else None})
    return graph, findings, inconclusive, verdicts


def _setup(scenario) -> dict[str, dict[str, list[str]]]:
    """The position as a person would write it: each player's zones by card name (cards on cards,
    if any, are the template's)."""
    pool = scenario.pool
    return {p: {zone: [pool[c].name for c in getattr(setup, zone)] for zone in ZONE_KEYS}
            for p, setup in sorted(scenario.players.items())}


def _outcomes(graph) -> dict:
    outs: dict = {}
    for node in graph.terminals:       # breadth-first order: the first node of an outcome is a shortest one
        o = graph.model.outcome(graph.state(node))
        outs.setdefault(freeze(o), (o, node))
    return outs


def _side_graph(scenario, setting: Setting, base_graph, limits: Limits):
    sc = scenario
    if setting.rules is not None:
        sc = dataclasses.replace(sc, rules=setting.rules)
    if setting.readings:
        sc = dataclasses.replace(sc, readings={**sc.readings, **dict(setting.readings)})
    model = BreakModel(sc)
    base = base_graph.model
    if model.version == base.version and model.readings == base.readings:
        return base_graph
    return explore(model, limits, reduce=True)


def compare(scenario, settings: tuple[Setting, ...], base_graph, limits: Limits, what: str) -> tuple[dict | None, bool]:
    """A difference finding when the outcome sets are not all equal (None when they are); and
    whether every search was complete."""
    graphs = [_side_graph(scenario, s, base_graph, limits) for s in settings]
    outs = [_outcomes(g) for g in graphs]
    complete = all(g.complete for g in graphs)
    if all(set(o) == set(outs[0]) for o in outs[1:]):
        return None, complete
    sides = []
    for setting, graph, mine in zip(settings, graphs, outs):
        only = [{"outcome": o, "trace": trace_json(graph.trace(node))}
                for key, (o, node) in mine.items() if any(key not in other for other in outs)]
        sides.append({"label": setting.label, "outcomes": len(mine), "complete": graph.complete, "only": only})
    if len(outs) == 2:     # rulings/diff.py's words: broader, narrower or incomparable
        rel = relation(set(outs[0]), set(outs[1]))
        detail = f"{settings[0].label} is {rel} {settings[1].label}"
    else:                  # three readings or more: which ones differ is in `sides`
        rel, detail = "different", "the outcome sets of " + ", ".join(s.label for s in settings) + " are not all equal"
    return {"kind": f"difference {what}", "what": "difference", "detail": detail, "relation": rel,
            "sides": sides}, complete


def run_position(template: Template, position: Position, limits: Limits, timeout_ms: int) -> dict[str, Any]:
    """Check one position; the result a store records."""
    start = time.perf_counter()
    scenario = scenario_at(template, position)
    graph, findings, inconclusive, verdicts = _checked(scenario, limits, timeout_ms)
    complete = graph.complete and not inconclusive
    if template.compare:
        diff, compared = compare(scenario, template.compare, graph, limits, template.compare_text)
        complete &= compared
        if diff is not None:
            findings.append(diff)
    status = FINDING if findings else (OK if complete else INCOMPLETE)
    return {"index": position.index, "key": position.key, "cards": position.cards,
            "zones": {zone: list(names) for zone, names in position.names}, "status": status,
            "complete": complete, "states": graph.count, "findings": findings, "verdicts": verdicts,
            "scenario": _setup(scenario),
            "seconds": round(time.perf_counter() - start, 4)}
