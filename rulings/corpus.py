"""The rulings corpus as data: every rule statement and ruling, where it comes from, how it is checked.

One YAML file (the built-in one is scenarios/corpus.yaml; users bring theirs with
`dmcheck verify --rulings FILE`) lists *statements*. Each names the rule or ruling (`id`: the
comprehensive rules' number for a rule, the project's number for a seed's ruling or step), the source
it comes from (`source`), the date the source gives, one paraphrased sentence, and how it is checked:

- operationally, by scenario files whose `expect` items were written from its text;
- declaratively, by ordering constraints over the procedure milestones of properties/milestones.py
  (`order`, and `order_if` for constraints that depend on a reading of an open choice).
  `order_scope` says which of the model's traces the constraints bind: `all` (a rule: every trace
  of every scenario, the default), `own` (the traces of its own scenarios) or `none` (a ruling that
  describes one path of its situation: its scenario checks that path, Z3 only compares it).

Statements of different sources about the same moments are separate entries, so that their
disagreements show: an entry is known by `ID@SOURCE` (`R509.3@S001`). A statement is in force
from the rules version in force on its date (or `from:`) until `until:`; its scenarios run under
the version in force on its date unless `rules:` names another date. Loading is strict: every
mistake is reported as `FILE:LINE: key: what was expected`.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..model.errors import InputError, Mistakes, did_you_mean, raise_all
from ..model.readings import CHOICES, Choice, choice_named
from ..model.rules import RulesVersion, rules_date_problem, timeline, version_on
from ..model.yamlio import inner_path, key_path, line_of, load_yaml, schema_errors, shown, spoilt
from ..properties.milestones import MILESTONES
from .cycles import cycle


def _builtin_path() -> Path:
    """The built-in corpus: inside the installed package (pyproject.toml maps the repository's
    scenarios/ to `rulings.scenarios`), else the checkout's top-level scenarios/ (source or -e)."""
    here = Path(__file__).resolve().parent
    installed = here / "scenarios" / "corpus.yaml"
    return installed if installed.is_file() else here.parent / "scenarios" / "corpus.yaml"


BUILTIN = _builtin_path()

_TERM = r"(?:(first|last)\(\s*([a-z_]+)\s*\)|([a-z_]+))"
_CONSTRAINT = re.compile(rf"^\s*{_TERM}\s*(<|=)\s*{_TERM}\s*$")
_DATE = {"description": "a date YYYY-MM-DD", "anyOf": [{"type": "string"}, {"type": "object"}]}
_ORDER = {"type": "array", "items": {"type": "string"}}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "statements": {"type": "array", "minItems": 1, "items": {
            "type": "object",
            "required": ["id", "source", "date", "text"],
            "additionalProperties": False,
            "properties": {
                "id": {"type": "string", "pattern": r"^[A-Za-z0-9][A-Za-z0-9._-]*$"},
                "source": {"type": "string", "pattern": r"^[A-Za-z0-9][A-Za-z0-9._-]*$"},
                "date": {"description": "a date YYYY-MM-DD, or null when the source gives none"},
                "date_note": {"type": "string"},
                "rules": {"description": "a date YYYY-MM-DD"},
                "from": {"description": "a date YYYY-MM-DD"},
                "until": {"description": "a date YYYY-MM-DD"},
                "text": {"type": "string", "minLength": 10},
                "cites": {"type": "array", "items": {"type": "string"}},
                "note": {"type": "string"},
                "scenarios": {"type": "array", "items": {"type": "string"}},
                "order": _ORDER,
                "order_if": {"type": "array", "items": {
                    "type": "object", "required": ["when", "order"], "additionalProperties": False,
                    "properties": {"when": {"type": "object", "minProperties": 1,
                                            "additionalProperties": {"type": "string"},
                                            "description": "a mapping of interpretation choices to readings"},
                                   "order": _ORDER}}},
                "order_scope": {"enum": ["all", "own", "none"]},
                "unchecked": {"type": "string"},
                # what the statement is about, for `dmcheck coverage` (default: its file's name)
                "feature": {"type": "string", "pattern": r"^[a-z][a-z0-9_-]*$"},
            },
        }},
    },
    "required": ["statements"],
    "additionalProperties": False,
}
# `sources:` declares the sources a file's statements cite (ids S005..S099 for public sources): what
# each is, where it is, and the date it gives. Optional; when present, a statement of the file whose
# `source` looks like a declared kind (S + digits) must name a source declared in some loaded file.
SCHEMA["properties"]["sources"] = {"type": "array", "items": {
    "type": "object", "required": ["id", "title"], "additionalProperties": False,
    "properties": {"id": {"type": "string", "pattern": r"^S[0-9]{3}$"},
                   "title": {"type": "string", "minLength": 3},
                   "where": {"type": "string"},
                   "date": {"description": "a date YYYY-MM-DD, or null when the source gives none"},
                   "note": {"type": "string"}}}}


@dataclass(frozen=True, slots=True)
class Term:
    milestone: str
    select: str = ""          # "", "first" or "last"

    def __str__(self) -> str:
        return f"{self.select}({self.milestone})" if self.select else self.milestone


@dataclass(frozen=True, slots=True)
class Constraint:
    """`left < right` (every left moment before every right one) or `left = right` (one step)."""

    left: Term
    op: str
    right: Term

    def __str__(self) -> str:
        return f"{self.left} {self.op} {self.right}"

    def milestones(self) -> tuple[str, str]:
        return self.left.milestone, self.right.milestone


@dataclass(frozen=True)
class Statement:
    id: str
    source: str
    date: dt.date | None
    text: str
    file: str
    line: int
    scenarios: tuple[Path, ...] = ()
    order: tuple[Constraint, ...] = ()
    order_if: tuple[tuple[tuple[tuple[str, str], ...], tuple[Constraint, ...]], ...] = ()
    rules: dt.date | None = None
    valid_from: dt.date | None = None
    valid_until: dt.date | None = None
    cites: tuple[str, ...] = ()
    note: str = ""
    date_note: str = ""
    unchecked: str = ""
    builtin: bool = True
    scope: str = "all"        # which traces its constraints bind: all, its own scenarios', none (Z3 only)
    feature: str = ""         # what it is about (`feature:`, else the name of its file): dmcheck coverage

    @property
    def ref(self) -> str:
        """`ID@SOURCE`: how the statement is named in Z3 and in reports."""
        return f"{self.id}@{self.source}"

    def citation(self) -> str:
        when = self.date.isoformat() if self.date else "undated"
        return f"{self.id} ({self.source}, {when})"

    def constraints(self, readings: dict[str, str] | None = None) -> tuple[Constraint, ...]:
        """Its constraints under these readings (a missing choice takes its default)."""
        out = list(self.order)
        for when, extra in self.order_if:
            if all(_reading(readings, name) == reading for name, reading in when):
                out.extend(extra)
        return tuple(out)

    def choices(self) -> tuple[str, ...]:
        """The open choices its constraints depend on."""
        return tuple(sorted({name for when, _ in self.order_if for name, _ in when}))

    def declarative(self) -> bool:
        return bool(self.order or self.order_if)

    def in_force(self, version: RulesVersion) -> bool:
        """Whether it speaks of the rules of `version` (its period overlaps the version's)."""
        versions = timeline()
        i = versions.index(version)
        end = versions[i + 1].date if i + 1 < len(versions) else dt.date.max
        # a statement about earlier rules (`until`) speaks of them from the start unless it says `from`
        start = self.valid_from or (version_on(self.date).date if self.date and not self.valid_until else dt.date.min)
        until = self.valid_until or dt.date.max
        return start < end and until > version.date

    def run_version(self, override: dt.date | None = None) -> RulesVersion | None:
        """The version its scenarios run under (None: the scenario file's own `rules:`)."""
        day = override or self.rules or self.date
        return version_on(day) if day else None


def _reading(readings: dict[str, str] | None, name: str) -> str:
    if readings and name in readings:
        return readings[name]
    return known_choice(name).default


def known_choice(name: str) -> Choice:
    """The open choice of a name a loaded corpus uses (its files name only known choices)."""
    choice = choice_named(name)
    if choice is None:
        raise KeyError(f"unknown interpretation choice {name!r}")
    return choice


@dataclass(frozen=True)
class Source:
    id: str
    title: str
    where: str = ""
    date: dt.date | None = None
    note: str = ""


@dataclass(frozen=True)
class Corpus:
    statements: tuple[Statement, ...]
    files: tuple[str, ...] = ()
    declared: tuple[Source, ...] = ()

    def get(self, ref: str) -> Statement | None:
        return next((s for s in self.statements if s.ref == ref), None)

    def statement(self, ref: str) -> Statement:
        """The statement of a ref known to be in the corpus (one a check of it reported)."""
        found = self.get(ref)
        if found is None:
            raise KeyError(f"no statement {ref} in the corpus")
        return found

    def merged(self, other: Corpus) -> Corpus:
        """This corpus with another's statements added; a ref taken twice is an error at its line."""
        known = {s.ref: s for s in self.statements}
        mistakes = Mistakes()
        for i, s in enumerate(other.statements):
            if s.ref in known:
                first = known[s.ref]
                mistakes.add(InputError(s.file, s.line, f"statements[{i}].id", f"{s.ref} is already stated at "
                                        f"{first.file}:{first.line}; expected a new id or another source"))
        ids = {s.id for s in self.declared}
        for src in other.declared:
            if src.id in ids:
                mistakes.add(InputError(other.files[0] if other.files else "corpus", None, "sources",
                                        f"source {src.id} is declared twice; expected a new id"))
        mistakes.raise_all()
        return Corpus(self.statements + other.statements, self.files + other.files, self.declared + other.declared)

    def sources(self) -> list[str]:
        return sorted({s.source for s in self.statements})


def parse_constraint(text: str) -> Constraint | str:
    """A constraint from `a < b`, `last(a) < b`, `a = b`; or what is wrong with the text."""
    m = _CONSTRAINT.match(text)
    if not m:
        return f"expected MILESTONE < MILESTONE or MILESTONE = MILESTONE (first()/last() allowed), got {shown(text)}"
    left = Term(m.group(2) or m.group(3), m.group(1) or "")
    op = m.group(4)
    right = Term(m.group(6) or m.group(7), m.group(5) or "")
    for term in (left, right):
        if term.milestone not in MILESTONES:
            return (f"unknown milestone {shown(term.milestone)}{did_you_mean(term.milestone, MILESTONES)}; "
                    f"expected one of {', '.join(MILESTONES)}")
    if left.milestone == right.milestone:
        return f"expected two different milestones, got {shown(text)}"
    if op == "=" and (left.select or right.select):
        return "expected plain milestones on both sides of '=' (a step has no first or last)"
    return Constraint(left, op, right)


def _date(value: Any, fail, path: tuple, allow_none: bool = False) -> dt.date | None:
    if value is None and allow_none:
        return None
    try:
        day = value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value).strip())
    except ValueError:
        raise fail(path, f"expected a date YYYY-MM-DD{' or null' if allow_none else ''}, got {shown(value)}") from None
    if path[0] == "statements" and path[-1] in ("date", "rules") and rules_date_problem(day):
        raise fail(path, rules_date_problem(day))   # never run under newer rules
    return day


def _when(raw: dict, fail, where: tuple) -> tuple[tuple[str, str], ...]:
    """The readings an `order_if` item applies under, each checked against the open choices."""
    when = []
    for name, reading in raw.items():
        choice = choice_named(str(name))
        spot = where + (name,)
        if choice is None:
            raise fail(spot, f"unknown interpretation choice {shown(name)}"
                             f"{did_you_mean(str(name), [c.name for c in CHOICES])}; expected one of "
                             f"{', '.join(c.name for c in CHOICES)}")
        readings = [r for r, _ in choice.readings]
        if str(reading) not in readings:
            raise fail(spot, f"expected one of {', '.join(readings)}, got {shown(reading)}"
                             f"{did_you_mean(str(reading), readings)}")
        when.append((str(name), str(reading)))
    return tuple(sorted(when))


def _no_cycle(order: tuple[Constraint, ...], order_if: list, fail, here: tuple, ref: str) -> None:
    """A statement's own constraints can hold together under every combination of the readings its
    `order_if` names (rulings/cycles.py): a circle is a mistake of the file, not a finding."""
    names = sorted({name for when, _ in order_if for name, _ in when})
    options = [[r for r, _ in known_choice(name).readings] for name in names]
    for picked in itertools.product(*options):
        readings = dict(zip(names, picked))
        extra = [c for when, more in order_if if all(readings[n] == r for n, r in when) for c in more]
        found = cycle(list(order) + extra)
        if found:
            under = f" under {', '.join(f'{n}={r}' for n, r in readings.items())}" if extra else ""
            raise fail(here + (("order_if",) if any(c not in order for c in found) else ("order",)),
                       f"statement {ref}: its own order goes round in a circle{under}: "
                       f"{', '.join(map(str, found))}; expected constraints that can hold together (no trace "
                       f"where these milestones happen satisfies them)")


def _period(raw: dict, fail, here: tuple, ref: str) -> None:
    """A statement's `until` must come after its `from` (and after its date when it has no `from`)."""
    until = _date(raw["until"], fail, here + ("until",)) if "until" in raw else None
    start = _date(raw["from"], fail, here + ("from",)) if "from" in raw else None
    if until is not None and start is not None and until <= start:
        raise fail(here + ("until",), f"statement {ref}: `until` {until} is not after `from` {start}; "
                                      f"expected a period that ends after it starts")


def load_corpus(path: str | Path, builtin: bool = False) -> Corpus:
    """Read and check a rulings file (the format above); scenario paths are relative to it. Every
    statement is checked even when another has a mistake, and every part of a statement on its own,
    so that the file's independent mistakes come in one run."""
    file = str(path)
    root = load_yaml(path)
    if root is None:
        raise InputError(file, 1, "(top)", "the file is empty; expected a mapping with `statements:`")
    schema = schema_errors(root, SCHEMA, file)
    if not isinstance(root, dict) or not isinstance(root.get("statements"), list):
        raise_all(schema)
    mistakes = Mistakes()
    for e in schema:
        mistakes.add(e)

    def fail(where: tuple, expected: str) -> InputError:
        return InputError(file, line_of(root, where), key_path(where), expected)

    out: list[Statement] = []
    seen: dict[str, int | None] = {}   # ref -> its line
    for i, raw in enumerate(root["statements"]):
        here = ("statements", i)
        if spoilt(schema, here):
            continue      # its schema mistakes are listed; the rest of it is not read
        ref = f"{raw['id']}@{raw['source']}"
        if ref in seen:
            mistakes.add(fail(here + ("id",), f"{ref} is already stated at line {seen[ref]}; expected a new id "
                                              f"or another source"))
        seen.setdefault(ref, line_of(root, here))
        found = mistakes.check(_statement, raw, root, here, fail, file, builtin)
        if found is not None:
            out.append(found)
    declared = () if spoilt(schema, ("sources",)) else mistakes.check(_sources, root, fail)
    mistakes.raise_all()
    return Corpus(tuple(out), (file,), declared or ())


def _statement(raw: dict, root: Any, here: tuple, fail, file: str, builtin: bool) -> Statement:
    """One statement of a rulings file, each of its parts checked on its own."""
    mistakes = Mistakes()
    ref = f"{raw['id']}@{raw['source']}"
    order = mistakes.check(_constraints, raw.get("order"), here + ("order",), fail) or ()
    order_if = []
    for j, item in enumerate(raw.get("order_if") or []):
        when = mistakes.check(_when, item["when"], fail, here + ("order_if", j, "when"))
        constraints = mistakes.check(_constraints, item["order"], here + ("order_if", j, "order"), fail)
        if when is not None and constraints is not None:
            order_if.append((when, constraints))
    scenarios = []
    for j, name in enumerate(raw.get("scenarios") or []):
        found = mistakes.check(inner_path, file, name, root, here + ("scenarios", j), "scenario file",
                               f"statement {ref}: ")
        if found is not None:
            scenarios.append(found.resolve())
    mistakes.check(_period, raw, fail, here, ref)
    mistakes.check(_no_cycle, order, order_if, fail, here, ref)
    if not (raw.get("order") or raw.get("order_if") or raw.get("scenarios") or raw.get("unchecked")):
        mistakes.add(fail(here, "expected how it is checked: `scenarios`, `order`, `order_if`, or `unchecked: why`"))
    dates = {key: mistakes.check(_date, raw[key], fail, here + (key,), key == "date")
             for key in ("date", "rules", "from", "until") if key in raw}
    mistakes.raise_all()
    return Statement(
        id=str(raw["id"]), source=str(raw["source"]), date=dates["date"],
        text=" ".join(str(raw["text"]).split()), file=file, line=fail(here, "").line or 1,
        scenarios=tuple(scenarios), order=order, order_if=tuple(order_if),
        rules=dates.get("rules"), valid_from=dates.get("from"), valid_until=dates.get("until"),
        cites=tuple(str(c) for c in raw.get("cites") or ()), note=" ".join(str(raw.get("note", "")).split()),
        date_note=str(raw.get("date_note", "")), unchecked=str(raw.get("unchecked", "")), builtin=builtin,
        scope=str(raw.get("order_scope", "all")), feature=str(raw.get("feature") or Path(file).stem))


def _constraints(items: Any, where: tuple, fail) -> tuple[Constraint, ...]:
    """A list of constraints, every one that cannot be read reported."""
    parsed, mistakes = [], Mistakes()
    for j, text in enumerate(items or []):
        c = parse_constraint(str(text))
        if isinstance(c, str):
            mistakes.add(fail(where + (j,), c))
        else:
            parsed.append(c)
    mistakes.raise_all()
    return tuple(parsed)


def _sources(root: Any, fail) -> tuple[Source, ...]:
    out, seen, mistakes = [], set(), Mistakes()
    for i, raw in enumerate(root.get("sources") or []):
        where = ("sources", i)
        if raw["id"] in seen:
            mistakes.add(fail(where + ("id",), f"source {raw['id']} is declared twice in this file; expected a new id"))
            continue
        seen.add(raw["id"])
        day = mistakes.check(_date, raw.get("date"), fail, where + ("date",), True)
        out.append(Source(str(raw["id"]), " ".join(str(raw["title"]).split()), str(raw.get("where", "")),
                          day, " ".join(str(raw.get("note", "")).split())))
    mistakes.raise_all()
    return tuple(out)


def builtin_corpus() -> Corpus:
    """scenarios/corpus.yaml, then every file of scenarios/corpus.d/ in name order (one per topic)."""
    corpus = load_corpus(BUILTIN, builtin=True)
    for extra in sorted((BUILTIN.parent / "corpus.d").glob("*.yaml")):
        corpus = corpus.merged(load_corpus(extra, builtin=True))
    check_sources(corpus)
    return corpus


def check_sources(corpus: Corpus) -> None:
    """A statement citing a public source by its id (S + three digits, from S005) names one some loaded
    file declares: an id nothing declares refers to nothing (a typo, or a source never described)."""
    declared = sorted({s.id for s in corpus.declared})
    mistakes = Mistakes()
    for s in corpus.statements:
        if re.fullmatch(r"S[0-9]{3}", s.source) and s.source >= "S005" and s.source not in declared:
            where = "scenarios/corpus.d/" if s.builtin else "your file (or another rulings file given)"
            known = f", {declared[0]}..{declared[-1]}" if declared else ""
            mistakes.add(InputError(s.file, s.line, "source", f"source {s.source} is not declared"
                             f"{did_you_mean(s.source, declared)}; expected a declared source (S000-S004"
                             f"{known}: see scenarios/corpus.d/) or an entry in a "
                             f"`sources:` list of {where}; a source of your own may be any name that is "
                             f"not S + three digits (JUDGE, FORUM1)"))
    mistakes.raise_all()
