"""What every report shares: an expectation verdict as JSON, an outcome and an expectation as one line."""

from __future__ import annotations

from collections import Counter
from typing import Any


from properties.expectations import Verdict


def expectation_json(v: Verdict) -> dict[str, Any]:
    out: dict[str, Any] = {"expect": v.expectation.raw, "holds": v.holds, "verdict": v.verdict, "reason": v.reason}
    if v.trace is not None:
        out["trace" if not v.holds else "witness"] = v.trace.to_json()
        out["replay"] = v.trace.key()
    return out


def outcome_line(o: dict[str, Any], varying: set[tuple[str, str]] = frozenset()) -> str:
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


def expect_text(raw: dict) -> str:
    kind, value = next(iter(raw.items()))
    if isinstance(value, list):
        pats = ["{" + ", ".join(f"{k}: {v}" for k, v in p.items()) + "}" for p in value]
        return f"{kind}: [{', '.join(pats)}]"
    return f"{kind}: " + ", ".join(f"{k}={v}" for k, v in value.items())

