"""Reports of an exploration: the JSON of docs/scenario-format.md and the text a person reads."""

from __future__ import annotations

from collections import Counter
from typing import Any


from properties.expectations import Verdict


def explore_json(scenario, graph, verdicts: list[Verdict]) -> dict[str, Any]:
    return {
        "scenario": scenario.name,
        "file": scenario.file,
        "rules": graph.model.version.name,
        "interpretation": dict(graph.model.interpretation.readings),
        "complete": graph.complete,
        "reason": graph.reason,
        "states": graph.count,
        "transitions": graph.transitions,
        "seconds": round(graph.seconds, 4),
        "outcomes": [dict(o, count=c, trace_key=graph.trace(n).key()) for o, c, n in graph.outcomes()],
        "expectations": [verdict_json(v) for v in verdicts],
    }


def verdict_json(v: Verdict) -> dict[str, Any]:
    out: dict[str, Any] = {"expect": v.expectation.raw, "holds": v.holds, "verdict": v.verdict, "reason": v.reason}
    if v.trace is not None:
        out["trace" if not v.holds else "witness"] = v.trace.to_json()
        out["replay"] = v.trace.key()
    return out


_ZONES = ("hand", "battle", "graveyard", "mana", "deck_bottom")


def _outcome_line(o: dict[str, Any], varying: set[tuple[str, str]] = frozenset()) -> str:
    parts = [f"winner {o['winner']}", f"shields broken {o['shields_broken']}"]
    if o["attack_stopped"]:
        parts.append("attack stopped")
    if o["turn_skipped"]:
        parts.append("turn skipped")
    parts.append("shields left " + ", ".join(f"{p}:{n}" for p, n in o["shields"].items()))
    if o["uses"]:
        parts.append("uses " + ", ".join(f"{k} x{n}" for k, n in sorted(o["uses"].items())))
    for zone, player in sorted(varying):
        counts = Counter(o[zone][player])
        cards = ", ".join(name if n == 1 else f"{name} x{n}" for name, n in sorted(counts.items()))
        parts.append(f"{player} {zone.replace('_', ' ')}: {cards or '-'}")
    return "; ".join(parts)


def explore_text(scenario, graph, verdicts: list[Verdict], show_outcomes: bool = True) -> list[str]:
    lines = [f"== {scenario.name}  ({scenario.file})",
             f"   rules: {graph.model.version.name}; search {'complete' if graph.complete else 'INCOMPLETE: ' + graph.reason}; "
             f"{graph.count} states, {graph.transitions} transitions, {graph.seconds:.2f}s"]
    if show_outcomes:
        outcomes = graph.outcomes()
        # name only the zones that differ between outcomes, so each line says what sets it apart
        varying = {(z, p) for z in _ZONES for p in ("A", "B")
                   if len({tuple(o[z][p]) for o, _, _ in outcomes}) > 1}
        lines.append(f"   outcomes ({len(outcomes)}):")
        for o, count, node in outcomes:
            lines.append(f"     {count:>5} x  {_outcome_line(o, varying)}   [replay {graph.trace(node).key()}]")
    for v in verdicts:
        mark = {"holds": "ok  ", "violated": "FAIL", "inconclusive": "??  "}[v.verdict]
        lines.append(f"   {mark} {_expect_text(v.expectation.raw)} — {v.reason}")
        if v.verdict == "violated" and v.trace is not None:
            lines.append("        shortest trace:")
            lines.extend("        " + line for line in v.trace.lines())
    return lines


def _expect_text(raw: dict) -> str:
    kind, value = next(iter(raw.items()))
    if isinstance(value, list):
        pats = ["{" + ", ".join(f"{k}: {v}" for k, v in p.items()) + "}" for p in value]
        return f"{kind}: [{', '.join(pats)}]"
    return f"{kind}: " + ", ".join(f"{k}={v}" for k, v in value.items())

