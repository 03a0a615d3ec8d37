"""Events: what a step made happen, in the vocabulary of the scenario format (docs/scenario-format.md)."""

from __future__ import annotations

from typing import Any

from .record import Record, build, record


@record
class Event(Record):
    """One thing that happened. `fields` are the format's keys; `rule` cites why it happened."""

    kind: str
    fields: tuple[tuple[str, Any], ...] = ()
    rule: str = ""

    def get(self, key: str, default: Any = None) -> Any:
        if key == "event":
            return self.kind
        for k, v in self.fields:
            if k == key:
                return v
        return default

    def to_json(self) -> dict:
        out: dict[str, Any] = {"event": self.kind}
        for k, v in self.fields:
            out[k] = list(v) if isinstance(v, tuple) else v
        if self.rule:
            out["rule"] = self.rule
        return out


def ev(kind: str, rule: str = "", **fields: Any) -> Event:
    """An Event (every step makes a few: built from its items, without a keyword call)."""
    return build(Event, ("Event", kind, tuple(fields.items()), rule))
