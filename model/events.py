"""Events: what a step made happen, in the vocabulary of the scenario format (docs/scenario-format.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
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


_NEW = object.__new__
_SET_KIND, _SET_FIELDS, _SET_RULE = (Event.__dict__[n].__set__ for n in ("kind", "fields", "rule"))


def ev(kind: str, rule: str = "", **fields: Any) -> Event:
    """An Event, built slot by slot (a frozen dataclass's __init__ is several times slower, and
    every step makes a few)."""
    e = _NEW(Event)
    _SET_KIND(e, kind)
    _SET_FIELDS(e, tuple(fields.items()))
    _SET_RULE(e, rule)
    return e
