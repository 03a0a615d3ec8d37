"""Users' properties as data: a YAML file of rules, each with an SMT-LIB formula over the facts.

A rules editor adds a property without touching the engine: an id, the sentence, the citations, the
kind and what it ranges over, and the condition written in SMT-LIB 2 (Z3's own input language) over
the fact vocabulary of `facts.py`. `dmcheck check --properties FILE` loads the file next to the
built-in properties. Each formula is parsed once here against a small vocabulary, so a typo is
reported as `FILE:LINE: properties[i].formula: ...` before anything is explored; the checker parses it
again against each scenario's own cards. See docs/properties.md for the format and an example.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from model.errors import InputError
from model.rules import parse_date
from model.yamlio import key_path, line_of, load_yaml, shown, validate

from .property import KINDS, NEEDS, OVER, Property
from .symbols import FormulaError, Vocabulary, parse, quoted_names

_SCHEMA = {
    "type": "object",
    "properties": {
        "properties": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]*$"},
                    "text": {"type": "string"},
                    "citations": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                    "kind": {"enum": list(KINDS)},
                    "over": {"enum": list(OVER)},
                    "rules": {"type": "object", "properties": {"since": {}, "until": {}},
                              "additionalProperties": False},
                    "needs": {"type": "array", "items": {"enum": sorted(NEEDS)}},
                    "formula": {"type": "string"},
                },
                "required": ["id", "text", "citations", "kind", "over", "formula"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["properties"],
    "additionalProperties": False,
}


def _date(root: Any, path: tuple, value: Any, file: str) -> dt.date:
    if isinstance(value, dt.date):
        return value
    try:
        return parse_date(value)
    except ValueError:
        raise InputError(file, line_of(root, path), key_path(path),
                         f"expected a date YYYY-MM-DD, got {shown(value)}") from None


def _condition(over: str, text: str):
    def condition(scope) -> Any:
        return parse(scope.vocab, over, text)
    return condition


def load_properties(path: str | Path, taken: set[str] = frozenset()) -> list[Property]:
    """The properties of a YAML file; ids must be new (`taken`: the ids already loaded)."""
    file = str(path)
    root = load_yaml(path)
    if root is None:
        raise InputError(file, None, "", "expected a mapping with a `properties:` list")
    validate(root, _SCHEMA, file)
    out: list[Property] = []
    seen = set(taken)
    for i, raw in enumerate(root["properties"]):
        here = ("properties", i)
        pid = str(raw["id"])
        if pid in seen:
            raise InputError(file, line_of(root, here + ("id",)), key_path(here + ("id",)),
                             f"the property id {shown(pid)} is already taken; choose another")
        seen.add(pid)
        over, text = str(raw["over"]), str(raw["formula"])
        # the cards it names exist only in some scenarios: parse against them here, check they are
        # there when a scenario runs (Property.applies)
        cards = quoted_names(text, over)
        try:
            parse(Vocabulary(["card", *cards], positions=2), over, text)
        except FormulaError as exc:
            what = "transition facts and pre./post. state facts" if over == "transitions" else "state facts"
            raise InputError(file, line_of(root, here + ("formula",)), key_path(here + ("formula",)),
                             f"{exc}; expected an SMT-LIB Boolean term over the {what}, cards written as "
                             f"quoted symbols like |Kakumeijin| (see docs/properties.md)") from None
        rules = raw.get("rules") or {}
        since = _date(root, here + ("rules", "since"), rules["since"], file) if "since" in rules else None
        until = _date(root, here + ("rules", "until"), rules["until"], file) if "until" in rules else None
        out.append(Property(
            id=pid, text=str(raw["text"]), citations=tuple(str(c) for c in raw["citations"]),
            kind=str(raw["kind"]), over=over, condition=_condition(over, text), since=since, until=until,
            needs=tuple(str(n) for n in raw.get("needs", [])),
            origin=f"{file}:{line_of(root, here)}", cards=tuple(cards)))
    return out
