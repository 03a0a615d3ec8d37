"""`verify --only ID-or-PATTERN`: the named statements checked against the whole corpus, and nothing else.

A rules editor who edits one statement wants, in a few seconds, what a whole `verify` says of it:
- its rulings under every combination of readings (its scenarios explored now);
- every minimal set of statements holding it that cannot hold together: declarative (consistency.py
  with `containing`) and operational (`muses_with` over the other rulings' verdicts);
- corpus agreement: its constraints against every trace of the model, and the traces of its scenarios
  against every constraint of the corpus;
- the built-in properties on its scenarios' runs.
What the other statements contribute (each ruling's verdicts under every combination, the milestone
orders of its runs) does not change when one statement does: it comes from the result cache
(rulings/cache.py), and only a statement missing there is worked out (and stored). The answers are
those of a whole `verify` for the named statements (benchmarks/bench_only.py compares them); the
readings that satisfy the most rulings and the witness orders, which are about the whole corpus, are
not asked.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from math import prod
from pathlib import Path
from typing import Any, cast

import z3

from ..explorer.limits import DEFAULT_LIMITS, Limits
from ..model.errors import InputError, did_you_mean
from ..model.readings import CHOICES
from ..model.rules import RulesVersion, timeline, version_on
from ..properties.milestones import Orders, occurrences
from . import agreement as agreement_mod
from . import consistency
from .cache import Entry, RunRecord, Store, entry_of, statement_key
from .consistency import set_aside
from .corpus import Corpus, Statement
from .marco import muses_with
from .operational import (
    Conflict,
    Operational,
    Run,
    Runner,
    as_dict,
    combos,
    default_combo,
    ruling_verdict,
    tabulate,
)
from .verify import Report, _played, _properties, load


def select(corpus: Corpus, patterns: list[str]) -> list[Statement]:
    """The statements each pattern names: an id or `ID@SOURCE`, `*` and `?` as in file names. A pattern
    that names none is bad input (with the closest names)."""
    chosen: list[Statement] = []
    for pattern in patterns:
        found = [s for s in corpus.statements
                 if fnmatch.fnmatchcase(s.id, pattern) or fnmatch.fnmatchcase(s.ref, pattern)]
        if not found:
            mine = [s for s in corpus.statements if not s.builtin]
            names = [n for s in (mine or corpus.statements) for n in (s.id, s.ref)]
            more = ", ..." if len(mine) > 10 else ""
            listed = f" (yours: {', '.join(s.ref for s in mine[:10])}{more})" if mine else ""
            raise InputError("--only", None, pattern, f"names no statement{did_you_mean(pattern, names)}; expected "
                                                      f"an id, ID@SOURCE or a pattern such as 'X*'{listed}")
        chosen += [s for s in found if s not in chosen]
    return chosen


class _Recorded:
    """A run of another ruling's scenario read back from the cache: what corpus agreement reads (its
    orders and the combinations it serves); its graph is explored again only if a trace is shown."""

    def __init__(self, record: RunRecord, before: list[RunRecord], explore: Callable[[RunRecord], Run]):
        self.file, self.combo, self.consulted = record.file, record.combo, record.consulted
        self.version: RulesVersion = version_on(record.date)
        self.record = record
        self.served = _Served(record, before)     # `before`: the runs of its scenario and date made earlier
        self._explore = explore

    def orders(self) -> Orders:
        return Orders(self.record.paths, self.record.complete, self.record.reason)

    @property
    def graph(self) -> Any:
        return self._explore(self.record).graph

    @property
    def complete(self) -> bool:
        return self.record.complete


@dataclass
class Only:
    """What `--only` adds to a verify report: the statements asked for, and what the cache gave."""

    refs: tuple[str, ...]
    reused: int = 0                 # other rulings' results read back from the cache
    worked_out: int = 0             # other rulings' results worked out now (not in the cache)
    cache: str = ""                 # the cache folder, or "off"
    saved: bool = False
    records: list[Any] = field(default_factory=list)


def verify_only(extra: list[str] | tuple[str, ...], patterns: list[str], rules: dt.date | None = None,
                limits: Limits = DEFAULT_LIMITS, progress: Callable[[str], None] | None = None,
                deadline: float = math.inf) -> Report:
    """The named statements against the whole corpus (the module docstring); a Report like verify's,
    whose `only` says what was asked and what the cache gave."""
    start = time.perf_counter()
    tell = progress or (lambda text: None)
    corpus = load(list(extra))
    chosen = select(corpus, patterns)
    versions = [version_on(rules)] if rules else list(timeline())
    runner, rest = Runner(limits, progress), Runner(limits, progress)
    table = tabulate(runner, Corpus(tuple(chosen), corpus.files, corpus.declared), rules, deadline)
    store = Store(rules, limits)
    entries = _entries(corpus, chosen, table, runner, rest, store, rules, tell)
    chosen_rows = [s for s in chosen if s.ref in table.table]
    tell("operational contradictions (Z3)")
    table.conflicts = _operational(corpus, chosen, table, entries, runner, rest, rules)
    tell("declarative consistency (Z3)")
    refs = frozenset(s.ref for s in chosen)
    declarative = consistency.check(corpus, versions, deadline=deadline, containing=refs)
    tell("conformance")
    others = _records(entries, {(r.file, r.version.date) for r in runner.runs()}, rest)
    agreement = _agreement(corpus, chosen, runner.runs(), others)
    props = _properties(runner.runs(), default_combo(), deadline)
    every: list[Any] = [*runner.runs(), *others]
    played = {c.refs: _played(corpus, c, every, default_combo()) for c in declarative.conflicts}
    report = Report(corpus, versions, rules, table, declarative, agreement, props, played, runner,
                    extra_files=tuple(extra), not_finished=[f"ruling {ref}" for ref in table.unfinished])
    report.only = Only(tuple(s.ref for s in chosen), store.reused, len(entries) - store.reused - len(chosen_rows),
                       _where(), store.save(), others)
    report.solver_seconds = declarative.seconds
    report.seconds = time.perf_counter() - start
    return report


def _where() -> str:
    from .cache import where
    return where()


def _entries(corpus: Corpus, chosen: list[Statement], table: Operational, runner: Runner, rest: Runner,
             store: Store, rules: dt.date | None, tell: Callable[[str], None]) -> dict[str, Entry]:
    """Every ruling's entry: the chosen ones' from their fresh rows, the others' from the cache, and
    those missing there worked out now (in one table, as a whole verify would) and stored."""
    out: dict[str, Entry] = {}
    keys = {s.ref: statement_key(s) for s in corpus.statements if s.scenarios}
    for s in chosen:
        if s.scenarios and s.ref in table.table:
            out[s.ref] = entry_of(table, runner, s, rules)
            store.put(keys[s.ref], out[s.ref])
    missing = []
    for s in corpus.statements:
        if s.scenarios and s.ref not in out:
            found = store.get(keys[s.ref])
            if found is None:
                missing.append(s)
            else:
                out[s.ref] = found
    if missing:
        tell(f"{len(missing)} rulings not in the result cache: working them out")
        worked = tabulate(rest, Corpus(tuple(missing), corpus.files, corpus.declared), rules)
        for s in missing:
            out[s.ref] = entry_of(worked, rest, s, rules)
            store.put(keys[s.ref], out[s.ref])
    return out


def _lit() -> tuple[dict[tuple[str, str], z3.BoolRef], list[z3.BoolRef]]:
    lit = {(c.name, r): z3.Bool(f"{c.name}={r}") for c in CHOICES for r, _ in c.readings}
    hard = [z3.PbEq([(lit[c.name, r], 1) for r, _ in c.readings], 1) for c in CHOICES]
    return lit, hard


def _held(entry: Entry, lit) -> z3.BoolRef:
    """The readings under which a ruling holds, over the choices its verdicts read."""
    if not entry.depends:
        return z3.BoolVal(bool(entry.holds))
    terms = [z3.And([lit[CHOICES[i].name, r] for i, r in zip(entry.depends, part)]) for part in sorted(entry.holds)]
    return z3.Or(terms) if terms else z3.BoolVal(False)


def _always(entry: Entry) -> bool:
    return len(entry.holds) == prod(len(CHOICES[i].readings) for i in entry.depends)


def _operational(corpus: Corpus, chosen: list[Statement], table: Operational, entries: dict[str, Entry],
                 runner: Runner, rest: Runner, rules: dt.date | None) -> list[Conflict]:
    """The minimal sets of rulings no combination satisfies that hold a chosen one: those a whole
    verify finds (readings.solve: over the rulings that fail under some combination and were never
    inconclusive), each member shown failing under the readings that satisfy the others."""
    lit, hard = _lit()
    failing = {ref: _held(e, lit) for ref, e in entries.items() if not _always(e) and not e.unsure}
    found = muses_with(failing, hard, frozenset(s.ref for s in chosen) & set(failing))
    all_combos = combos()
    defaults = default_combo()
    out = []
    for mus in found.muses:
        failures = []
        for ref in mus:
            others = [entries[r] for r in mus if r != ref]
            fits = [c for c in all_combos if all(e.held(c) for e in others)]
            combo = min(fits, key=lambda c: (-sum(a == b for a, b in zip(c, defaults)), c), default=None)
            if combo is None:
                continue
            if ref in table.table:
                failures.append(table.table[ref][combo])
            else:
                failures.append(ruling_verdict(rest, corpus.statement(ref), combo, rules))
        out.append(Conflict(mus, failures))
    return out


def _records(entries: dict[str, Entry], mine: set[tuple[Path, dt.date]], rest: Runner) -> list[_Recorded]:
    """The runs of the other rulings' scenarios, from their entries, each once, in the order a whole
    verify made them; `mine`: the scenarios and rules dates explored now for the chosen statements."""
    by_place: dict[tuple[Path, dt.date], list[RunRecord]] = {}
    for entry in entries.values():
        for r in entry.runs:
            if (r.file, r.date) in mine:
                continue      # explored now
            known = by_place.setdefault((r.file, r.date), [])
            if not any(k.combo == r.combo and k.consulted == r.consulted for k in known):
                known.append(r)

    def explore(record: RunRecord) -> Run:
        return rest.run(record.file, version_on(record.date), record.combo)
    return [_Recorded(r, records[:k], explore) for records in by_place.values() for k, r in enumerate(records)]


class _Served:
    """The combinations a whole verify's look-ups give a recorded run: those agreeing with it on the
    choices it consulted that no run made before it of the same scenario and rules date agrees with
    (the first run that agrees serves a combination). Asked one at a time, or listed."""

    def __init__(self, record: RunRecord, before: list[RunRecord]):
        indices = {c.name: i for i, c in enumerate(CHOICES)}
        self.tests = [(tuple(indices[n] for n in r.consulted), r.combo) for r in (record, *before)]

    def __contains__(self, combo: object) -> bool:
        if not isinstance(combo, tuple):
            return False
        (mine, own), before = self.tests[0], self.tests[1:]
        return all(combo[i] == own[i] for i in mine) and \
            not any(all(combo[i] == other[i] for i in idx) for idx, other in before)

    def __iter__(self):
        return iter([c for c in combos() if c in self])


def _theirs(chosen: list[Statement], others: list[_Recorded]) -> list[agreement_mod.Violation]:
    """The chosen statements' constraints against the other rulings' runs (agreement.Soundness's
    binding: in force in the run's version, its scope, readings that do not set it aside). A run's
    served combinations are worked out only where one of its orders breaks a constraint."""
    out = []
    declarative = [s for s in chosen if s.declarative() and s.scope != "none"]
    for run in others:
        bound = [s for s in declarative if s.in_force(run.version)
                 and not (s.scope == "own" and run.file not in s.scenarios)]
        if not bound:
            continue
        seen = [(g, p, occurrences(g)) for g, p in run.orders().paths.items()]
        for s in bound:
            every = list(s.order) + [c for _, cs in s.order_if for c in cs]
            for c in dict.fromkeys(every):
                broken = next(((g, p) for g, p, occ in seen if not agreement_mod.satisfied(c, occ)), None)
                if broken is None:
                    continue
                combos_ = [k for k in run.served if s.ref not in set_aside(as_dict(k))
                           and c in s.constraints(as_dict(k))]
                if combos_:
                    # a recorded run stands for a Run: its graph is explored again when the trace is shown
                    out.append(agreement_mod.Violation(s, c, cast(Run, run), broken[0], broken[1], combos_))
    return out


def _agreement(corpus: Corpus, chosen: list[Statement], mine: list[Run],
               others: list[_Recorded]) -> agreement_mod.Agreement:
    """The chosen statements' constraints against every run, and the runs of their scenarios against
    every constraint of the corpus (the witness orders are about the whole corpus: not asked)."""
    own = agreement_mod.check(corpus, mine, [], {}, default_combo())
    out = agreement_mod.Agreement(complete=own.complete, reason=own.reason)
    out.violations = own.violations + _theirs(chosen, others)
    out.orders_checked = own.orders_checked + sum(len(r.record.paths) for r in others)
    out.constraints_checked = own.constraints_checked
    default = default_combo()
    out.violations.sort(key=lambda v: (default not in v.combos, v.statement.ref, str(v.constraint), v.run.file.name))
    return out
