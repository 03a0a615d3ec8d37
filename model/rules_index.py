"""The comprehensive rules as the model's checklist: one row per numbered rule of Ver.1.48.

`model/data/rules_index.yaml` lists every numbered rule of デュエル・マスターズ総合ゲームルール Ver.1.48
(2025-12-17), chapters 0 to 8, with a status: `modelled` (the code site that implements it and a test
or scenario that fails if it breaks), `not_modelled` (the feature it needs and why), `out_of_scope`
(deck construction, the game's start, a card's look) or `not_applicable` (a definition or a heading).
The table measures the model: `dmcheck rules` prints it, the README's list of what is not modelled is
made from it, and a loader that meets a word the model lacks (a card type, a zone, a keyword) names
the rules it would need through `needed_for`. The titles are the project's own words, never the
rules' sentences.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from typing import Any

from .errors import InputError
from .yamlio import line_of, load_yaml, plain, validate

MODELLED, NOT_MODELLED, OUT_OF_SCOPE, NOT_APPLICABLE = "modelled", "not_modelled", "out_of_scope", "not_applicable"
STATUSES = (MODELLED, NOT_MODELLED, OUT_OF_SCOPE, NOT_APPLICABLE)
IN_SCOPE = (MODELLED, NOT_MODELLED)
# 509, 509.4, 509.4a (the text's own forms; 000.1 is the one rule of chapter 0)
NUMBER = re.compile(r"^(\d{3})(?:\.(\d{1,2})([a-z])?)?$")
CHAPTERS = {0: "introduction", 1: "the game's basics", 2: "reading a card", 3: "card types", 4: "zones",
            5: "the turn", 6: "executing cards, abilities and effects", 7: "other rules", 8: "special cards"}

_TEXT = {"type": "string", "minLength": 1}
_LIST = {"type": "array", "items": _TEXT, "minItems": 1}
_ROW = {
    "type": "object",
    "required": ["rule", "title", "status"],
    "additionalProperties": False,
    "properties": {
        "rule": {"type": "string", "pattern": NUMBER.pattern},
        "title": {"type": "string", "minLength": 1, "maxLength": 100},
        "status": {"enum": list(STATUSES)},
        "code": _LIST, "tests": _LIST, "limits": _TEXT, "needs": _TEXT, "reason": _TEXT,
        "eras": {"type": "array", "items": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"}},
    },
    "allOf": [
        {"if": {"properties": {"status": {"const": MODELLED}}},
         "then": {"required": ["code", "tests"], "not": {"anyOf": [{"required": ["needs"]}]}}},
        {"if": {"properties": {"status": {"const": NOT_MODELLED}}},
         "then": {"required": ["needs", "reason"]}},
        {"if": {"properties": {"status": {"enum": [OUT_OF_SCOPE, NOT_APPLICABLE]}}},
         "then": {"required": ["reason"]}},
    ],
}
SCHEMA = {
    "type": "object",
    "required": ["edition", "date", "source", "features", "rules"],
    "additionalProperties": False,
    "properties": {
        "edition": _TEXT, "date": _TEXT, "source": _TEXT,
        "features": {"type": "object", "additionalProperties": {
            "type": "object", "required": ["title"], "additionalProperties": False,
            "properties": {"title": _TEXT, "words": {"type": "array", "items": _TEXT}}}},
        "rules": {"type": "array", "items": _ROW, "minItems": 1},
    },
}


def sort_key(number: str) -> tuple[int, int, str]:
    """The text's order: a section, then its rules by number, each before its lettered sub-rules."""
    m = NUMBER.match(number)
    if m is None:
        raise ValueError(f"not a rule number: {number!r}")
    return int(m.group(1)), int(m.group(2) or 0), m.group(3) or ""


@dataclass(frozen=True, slots=True)
class RuleRow:
    """One numbered rule of Ver.1.48 and how the model stands to it."""

    rule: str
    title: str
    status: str
    code: tuple[str, ...] = ()      # path:qualified name of what implements it (modelled)
    tests: tuple[str, ...] = ()     # tests/...::name or a scenario file that fails if it breaks (modelled)
    needs: str = ""                 # the feature it needs (not_modelled)
    reason: str = ""
    limits: str = ""                # what a modelled rule leaves out that no attack can show
    eras: tuple[str, ...] = ()      # the rules-timeline dates at which what it says changed

    @property
    def section(self) -> str:
        return self.rule[:3]

    @property
    def chapter(self) -> int:
        return int(self.rule[0])

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rule": self.rule, "title": self.title, "status": self.status}
        for key in ("code", "tests", "needs", "reason", "limits", "eras"):
            value = getattr(self, key)
            if value:
                out[key] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True, slots=True)
class Feature:
    """What the model lacks for a group of rules, and the words of a file that would need it."""

    id: str
    title: str
    words: tuple[str, ...] = ()


@dataclass(frozen=True)
class RulesIndex:
    edition: str
    date: str
    source: str
    features: dict[str, Feature]
    rows: tuple[RuleRow, ...]

    def row(self, number: str) -> RuleRow | None:
        return self._by_number.get(number)

    @cached_property
    def _by_number(self) -> dict[str, RuleRow]:
        return {r.rule: r for r in self.rows}

    def numbers(self) -> frozenset[str]:
        """Every rule number of the edition (what a citation may name without naming another edition)."""
        return frozenset(self._by_number)

    def rules_needing(self, feature: str) -> tuple[RuleRow, ...]:
        return tuple(r for r in self.rows if r.status == NOT_MODELLED and r.needs == feature)

    def counts(self, rows: Iterable[RuleRow] | None = None) -> dict[str, int]:
        """Rows per status (every status present, in STATUSES' order)."""
        found = {s: 0 for s in STATUSES}
        for r in self.rows if rows is None else rows:
            found[r.status] += 1
        return found


def in_scope(counts: dict[str, int]) -> int:
    """How many of the counted rules can matter to a game position: modelled or not (IN_SCOPE)."""
    return sum(counts[s] for s in IN_SCOPE)


def share(counts: dict[str, int]) -> float:
    """The modelled share of the in-scope rules (modelled and not modelled), 0..1."""
    scope = in_scope(counts)
    return counts[MODELLED] / scope if scope else 1.0


def _problems(data: dict, file: str, root: Any) -> list[InputError]:
    """What the schema cannot say: numbers in order and once, known features, no unused feature."""
    errors = []
    seen: set[str] = set()
    last = (-1, -1, "")
    for i, row in enumerate(data["rules"]):
        number, line = row["rule"], line_of(root, ("rules", i))
        if number in seen:
            errors.append(InputError(file, line, "rule", f"{number} is listed twice"))
        seen.add(number)
        key = sort_key(number)
        if key < last:
            errors.append(InputError(file, line, "rule", f"{number} is out of the text's order"))
        last = max(last, key)
        if row["status"] == NOT_MODELLED and row["needs"] not in data["features"]:
            errors.append(InputError(file, line, "needs", f"unknown feature {row['needs']!r}; expected one of "
                                                          f"the table's features"))
    used = {row.get("needs") for row in data["rules"]}
    for fid in data["features"]:
        if fid not in used:
            errors.append(InputError(file, line_of(root, ("features", fid)), f"features.{fid}",
                                     "no not_modelled rule needs it; remove it"))
    return errors


def _shipped() -> Any:
    """The table shipped with the package: model/data/rules_index.yaml."""
    return resources.files(__package__) / "data" / "rules_index.yaml"


@lru_cache(maxsize=1)
def load_index() -> RulesIndex:
    """The table shipped with the package, checked."""
    with resources.as_file(_shipped()) as path:
        return read_index(path)


def read_index(path: Any) -> RulesIndex:
    """A rules table file, checked: every mistake of the file reported at once with its line."""
    file = str(path)
    root = load_yaml(path)
    validate(root, SCHEMA, file)
    data = plain(root)
    errors = _problems(data, file, root)
    if errors:
        first = errors[0]
        raise InputError(first.file, first.line, first.key, first.expected, more=tuple(errors[1:]))
    features = {fid: Feature(fid, f["title"], tuple(f.get("words", ()))) for fid, f in data["features"].items()}
    rows = tuple(RuleRow(rule=r["rule"], title=r["title"], status=r["status"], code=tuple(r.get("code", ())),
                         tests=tuple(r.get("tests", ())), needs=r.get("needs", ""), reason=r.get("reason", ""),
                         limits=r.get("limits", ""), eras=tuple(str(e) for e in r.get("eras", ())))
                 for r in data["rules"])
    return RulesIndex(str(data["edition"]), str(data["date"]), str(data["source"]), features, rows)


@lru_cache(maxsize=1)
def _feature_words() -> frozenset[str]:
    """The words of the shipped table's features, casefolded, read from the parsed file alone: the loaders
    ask about every keyword of every card file, and checking the whole table against its schema took a
    tenth of a second of every command's start. The table itself is loaded (and checked) only for a word
    found here."""
    with resources.as_file(_shipped()) as path:
        root = load_yaml(path)
    features = root.get("features") if isinstance(root, dict) else None
    return frozenset(str(w).casefold() for f in (features.values() if isinstance(features, dict) else ())
                     if isinstance(f, dict) for w in (f.get("words") or ()))


def needed_for(word: str) -> str:
    """'; dmcheck does not model psychic creatures (rules 805, 806; `dmcheck rules --feature ...`)' when
    `word` (a card type, a zone, a keyword a file used) belongs to a feature the model lacks; '' otherwise.
    Loaders append it to their refusal."""
    folded = word.casefold()
    if folded not in _feature_words():
        return ""
    index = load_index()
    for feature in index.features.values():
        if any(w.casefold() == folded for w in feature.words):
            sections = sorted({r.section for r in index.rules_needing(feature.id)}, key=int)
            title = re.sub(r"\s*\([^()]*\)$", "", feature.title)
            return (f"; dmcheck does not model {title} (rules {', '.join(sections)}; "
                    f"`dmcheck rules --feature {feature.id}` lists them)")
    return ""
