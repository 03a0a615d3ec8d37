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
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any, cast

from ..model.cards import CardPool
from ..model.errors import InputError, Mistakes, did_you_mean, raise_all
from ..model.rules import parse_date
from ..model.yamlio import key_path, line_of, load_yaml, schema_errors, shown, spoilt
from .property import KINDS, NEEDS, OVER, FormulaAt, Over, Property, PropertyKind
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


def load_properties(path: str | Path, taken: AbstractSet[str] = frozenset()) -> list[Property]:
    """The properties of a YAML file; ids must be new (`taken`: the ids already loaded)."""
    file = str(path)
    root = load_yaml(path)
    if root is None:
        raise InputError(file, None, "", "expected a mapping with a `properties:` list")
    schema = schema_errors(root, _SCHEMA, file)
    if not isinstance(root, dict) or not isinstance(root.get("properties"), list):
        raise_all(schema)
    out: list[Property] = []
    mistakes = Mistakes()
    for e in schema:
        mistakes.add(e)
    seen = set(taken)
    for i, raw in enumerate(root["properties"]):
        if not spoilt(schema, ("properties", i)):     # every property's mistakes are reported at once
            found = mistakes.check(_property, raw, ("properties", i), root, file, seen)
            if found is not None:
                out.append(found)
    mistakes.raise_all()
    return out


def _property(raw: Any, here: tuple, root: Any, file: str, seen: set[str]) -> Property:
    """One property of the file, its formula parsed against the fact vocabulary; its id, formula and
    dates each checked on their own."""
    mistakes = Mistakes()
    pid = str(raw["id"])
    if pid in seen:
        mistakes.add(InputError(file, line_of(root, here + ("id",)), key_path(here + ("id",)),
                                f"the property id {shown(pid)} is already taken; choose another"))
    seen.add(pid)
    # the schema allows only OVER and KINDS
    over, text = cast(Over, str(raw["over"])), str(raw["formula"])
    # the cards it names exist only in some scenarios: parse against them here, check they are
    # there when a scenario runs (Property.applies)
    cards = quoted_names(text, over)
    where: FormulaAt = (file, line_of(root, here + ("formula",)), key_path(here + ("formula",)))
    mistakes.check(_formula, over, text, cards, where)
    rules = raw.get("rules") or {}
    since = mistakes.check(_date, root, here + ("rules", "since"), rules["since"], file) if "since" in rules else None
    until = mistakes.check(_date, root, here + ("rules", "until"), rules["until"], file) if "until" in rules else None
    mistakes.raise_all()
    return Property(
        id=pid, text=str(raw["text"]), citations=tuple(str(c) for c in raw["citations"]),
        kind=cast(PropertyKind, str(raw["kind"])), over=over, condition=_condition(over, text),
        since=since, until=until,
        needs=tuple(str(n) for n in raw.get("needs", [])),
        origin=f"{file}:{line_of(root, here)}", cards=tuple(cards), formula_at=where)


def _formula(over: Over, text: str, cards: list[str], where: FormulaAt) -> None:
    """The formula parses against the fact vocabulary, and the cards it names are written as labels."""
    try:
        parse(Vocabulary(["card", *cards], positions=2), over, text)
    except FormulaError as exc:
        what = "transition facts and pre./post. state facts" if over == "transitions" else "state facts"
        raise InputError(*where, f"{exc}; expected an SMT-LIB Boolean term over the {what}, cards written as "
                                 f"quoted symbols like |Kakumeijin| (see docs/properties.md)") from None
    _card_forms(cards, where)


_NAMING = ("written as quoted symbols of their labels: the English name, `#k` for the k-th copy (|Kakumeijin|, "
           "|Vanilla#2|; `dmcheck check --list FILE` shows them, docs/properties.md)")


def _card_forms(cards: list[str], where: FormulaAt) -> None:
    """A quoted card name must be a label's form: a card of the built-in pool by its English name (a
    label never uses the pool id or the Japanese name), or a name a scenario's own card file may give."""
    builtin = CardPool.builtin()
    for name in cards:
        base, sep, suffix = name.partition("#")
        if sep and not (suffix.isdigit() and suffix == str(int(suffix)) and int(suffix) >= 1):
            raise InputError(*where, f"|{name}|: expected a copy number from 1 after #, got {suffix!r}; "
                                     f"cards are {_NAMING}")
        pool_id = builtin.resolve(base)
        if pool_id is not None and builtin[pool_id].name != base:
            english = builtin[pool_id].name + (f"#{suffix}" if sep else "")
            raise InputError(*where, f"|{name}| names {builtin[pool_id].name} but no label reads so; write "
                                     f"|{english}| (cards are {_NAMING})")


def _formula_at(prop: Property) -> FormulaAt:
    """Where the property's formula is written: a property that names cards comes from a user's file."""
    if prop.formula_at is None:
        raise ValueError(f"property {prop.id} names cards but tells no place of its formula")
    return prop.formula_at


def check_card_names(properties: list[Property], pools: list[CardPool]) -> None:
    """Every card a property names exists in some pool in play: the built-in one or a card file of a
    scenario checked. A typo (in no pool at all) is an error; a real card that one scenario lacks
    only makes the property not applicable to it (docs/properties.md), so one file serves many."""
    english = {pool[i].name for pool in pools for i in pool.ids()}
    for prop in properties:
        for name in prop.cards:
            base = name.partition("#")[0]
            if base in english:
                continue
            known = next((pool[pid].name for pool in pools if (pid := pool.resolve(base))), None)
            if known is not None:
                raise InputError(*_formula_at(prop), f"|{name}| names {known} but no label reads so; write "
                                                   f"|{known}| (cards are {_NAMING})")
            raise InputError(*_formula_at(prop), f"unknown card |{name}|{did_you_mean(base, english)}; "
                                               f"expected a card of the built-in pool (`dmcheck cards` lists it) or "
                                               f"of a card file of a scenario checked, {_NAMING}")


# the watch expressions the HTML page shows when none is given (docs/html.md): what a judge follows
# along a trace, like the variables of TLC's trace explorer
DEFAULT_WATCHES = ("(> depth 0)", "(> pending_total 0)", "running", "(> checks 0)", "turn_skipped",
                   "(not (= winner nobody))")


def watch_properties(formulas: list[str] | tuple[str, ...]) -> list[Property]:
    """Watch expressions (`--watch FORMULA`): state formulas over the fact vocabulary, each evaluated at
    every state of the page's traces. A formula that does not parse is bad input naming it."""
    out = []
    for i, text in enumerate(formulas):
        cards = quoted_names(text, "states")
        where: FormulaAt = ("--watch", None, text)
        _formula("states", text, cards, where)
        out.append(Property(id=f"watch-{i + 1}", text=text, citations=("--watch",), kind="sometimes",
                            over="states", condition=_condition("states", text), origin="--watch",
                            cards=tuple(cards), formula_at=where))
    return out
