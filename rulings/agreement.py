"""Corpus agreement: the model's traces against the declarative corpus, in both directions.

(Not to be confused with engine conformance, dmcheck/engines/runner.py: an external engine against a
bundle of the model's runs. `verify` reports this check under the JSON key `conformance`.)

- Soundness: every complete trace of every run (a scenario under a rules version and a
  combination of readings) satisfies the ordering constraints of the statements in force in that
  version that those readings follow (model/readings.py sets the others aside). The traces are
  seen through the milestones of properties/milestones.py, one distinct milestone order at a time;
  a violated constraint is a finding with the shortest trace that shows it.
- Reachability: the witness order Z3 gives for a version (consistency.py) puts some milestones
  strictly before others. For each such pair that the model's traces of that version ever show
  together, some trace must show them in the witness's order; otherwise the statements allow an
  order the model never produces — a finding, with a trace of the order the model does produce.
  Only milestones the statements name are compared (the witness places the others anywhere), and
  only in traces where the model marks them in different steps.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from ..model.readings import CHOICES
from ..model.rules import RulesVersion
from ..properties.milestones import CAUSED, PARTS, Groups, occurrences
from .consistency import Witness, set_aside
from .corpus import Constraint, Corpus, Statement
from .operational import Combo, Run, as_dict


def satisfied(c: Constraint, occ: dict[str, list[tuple[int, int]]]) -> bool:
    """Whether one milestone order satisfies a constraint (vacuous when a side does not occur)."""
    a, b = c.milestones()
    if a not in occ or b not in occ:
        return True
    if c.op == "=":
        return len({g for _, g in occ[a] + occ[b]}) == 1
    left = [p for p, _ in occ[a]]
    right = [p for p, _ in occ[b]]
    lpos = min(left) if c.left.select == "first" else max(left)
    rpos = max(right) if c.right.select == "last" else min(right)
    return lpos < rpos


# the part of a combination of readings that can change a run's binding
_Projection = Callable[[Combo], Any]


class _Binder:
    """The constraints a run's traces must satisfy under a combination of readings (its binding): those
    of the statements in force for the run's version and file that the readings do not set aside. What
    does not depend on the combination (the statements in force, the choices their `order_if` read) is
    worked out once per version and file, and combinations that set aside the same statements and read
    those choices alike share one list (the same object)."""

    def __init__(self, corpus: Corpus):
        self.corpus = corpus
        self._candidates: dict[tuple[str, Any], tuple[list[Statement], tuple[int, ...], _Projection]] = {}
        self._aside: dict[Combo, frozenset[str]] = {}
        self._bound: dict[tuple, list[tuple[Statement, Constraint]]] = {}

    def _found(self, run: Run) -> tuple[list[Statement], tuple[int, ...], _Projection]:
        """The run's candidate statements, the choices their `order_if` read, and a function giving the
        part of a combination that can change its binding (those choices, and the choices whose
        readings set aside a candidate): combinations alike there bind alike."""
        where = (run.version.name, run.file)
        found = self._candidates.get(where)
        if found is None:
            self._bound.clear()    # the runs of one version and file come together: keep one's lists only
            candidates = [s for s in self.corpus.statements
                          if s.declarative() and s.scope != "none" and s.in_force(run.version)
                          and not (s.scope == "own" and run.file not in s.scenarios)]
            read = {name for s in candidates for name in s.choices()}
            refs = {s.ref for s in candidates}
            matter = [i for i, c in enumerate(CHOICES) if c.name in read
                      or any(set(aside) & refs for _, aside in c.sets_aside)]
            project = itemgetter(*matter) if matter else (lambda combo: ())
            found = self._candidates[where] = (candidates, tuple(i for i, c in enumerate(CHOICES) if c.name in read),
                                               project)
        return found

    def projector(self, run: Run) -> _Projection:
        return self._found(run)[2]

    def __call__(self, run: Run, combo: Combo) -> list[tuple[Statement, Constraint]]:
        where = (run.version.name, run.file)
        candidates, read, _ = self._found(run)
        aside = self._aside.get(combo)
        if aside is None:
            aside = self._aside[combo] = frozenset(set_aside(as_dict(combo)))
        key = (where, aside, tuple(combo[i] for i in read))
        out = self._bound.get(key)
        if out is None:
            out = self._bound[key] = []
            readings = as_dict(combo)
            for s in candidates:
                if s.ref not in aside:
                    out.extend((s, c) for c in s.constraints(readings))
        return out


@dataclass
class Violation:
    statement: Statement
    constraint: Constraint
    run: Run
    groups: Groups
    path: list[tuple[int, int]]
    combos: list[Combo]

    def trace(self):
        return self.run.graph.trace_of(self.path)


@dataclass
class Unreached:
    version: str
    before: str
    after: str
    run: Run
    groups: Groups
    path: list[tuple[int, int]]

    def trace(self):
        return self.run.graph.trace_of(self.path)


@dataclass
class Agreement:
    violations: list[Violation] = field(default_factory=list)
    unreached: list[Unreached] = field(default_factory=list)
    orders_checked: int = 0
    constraints_checked: int = 0
    pairs_checked: int = 0
    pairs_seen: int = 0
    complete: bool = True
    reason: str = ""
    seconds: float = 0.0


def _per_constraint(bind: _Binder, run: Run,
                    text: dict[int, str]) -> dict[tuple[str, str], tuple[Statement, Constraint, list]]:
    """Each constraint binding the run (by statement and text, in the order `binding` first gives them
    over the sorted combinations) with the groups of combinations under which it binds: `_combos`
    turns them into the sorted combinations when a violation needs them."""
    project = bind.projector(run)
    alike: dict[Any, list[Combo]] = {}   # combinations that bind alike, in order of first use
    for combo in sorted(run.served):
        key = project(combo)
        found = alike.get(key)
        if found is None:
            alike[key] = [combo]
        else:
            found.append(combo)
    groups: dict[int, tuple[list, list[Combo]]] = {}   # one per distinct binding, in order of first use
    for combos in alike.values():
        pairs = bind(run, combos[0])
        group = groups.get(id(pairs))
        if group is None:
            groups[id(pairs)] = (pairs, list(combos))
        else:
            group[1].extend(combos)
    out: dict[tuple[str, str], tuple[Statement, Constraint, list]] = {}
    for pairs, combos in groups.values():
        for s, c in pairs:
            shown = text.get(id(c))
            if shown is None:
                shown = text[id(c)] = str(c)
            out.setdefault((s.ref, shown), (s, c, []))[2].append(combos)
    return out


def _combos(groups: list[list[Combo]]) -> list[Combo]:
    return sorted(combo for group in groups for combo in group)


@dataclass
class Sound:
    """One run's traces against the constraints binding it, as plain data (a worker process of
    `verify --jobs` sends it back): violations as (statement ref, constraint, order, path, combos)."""

    orders: int
    constraints: int
    incomplete: str
    violations: list[tuple[str, Constraint, Groups, Any, list[Combo]]]


class Soundness:
    """The soundness half of `check`, one run at a time (what it works out once is kept)."""

    def __init__(self, corpus: Corpus):
        self.bind = _Binder(corpus)
        self.text: dict[int, str] = {}    # id(constraint) -> str(constraint): the corpus keeps them alive

    def __call__(self, run: Run) -> Sound:
        orders = run.orders()
        out = Sound(len(orders.paths), 0, "" if orders.complete else f"{run.file.name}: {orders.reason}", [])
        seen = _seen(run)
        for s, c, combos in _per_constraint(self.bind, run, self.text).values():
            out.constraints += 1
            for groups, path, occ in seen:
                if not satisfied(c, occ):
                    out.violations.append((s.ref, c, groups, path, _combos(combos)))
                    break
        return out


def check(corpus: Corpus, runs: list[Run], witnesses: list[Witness], versions: dict[str, RulesVersion],
          default: Combo, sound: list[Sound] | None = None) -> Agreement:
    """Both directions (the module docstring); `sound`, if given, is `Soundness` of each run, worked
    out elsewhere (in worker processes)."""
    start = time.perf_counter()
    out = Agreement()
    if sound is None:
        judge = Soundness(corpus)
        sound = [judge(run) for run in runs]
    for run, found in zip(runs, sound):
        if found.incomplete:
            out.complete, out.reason = False, found.incomplete
        out.orders_checked += found.orders
        out.constraints_checked += found.constraints
        out.violations += [Violation(corpus.statement(ref), c, run, groups, path, combos)
                           for ref, c, groups, path, combos in found.violations]
    out.violations.sort(key=lambda v: (default not in v.combos, v.statement.ref, str(v.constraint), v.run.file.name))
    for w in witnesses:
        if w.verdict != "sat":
            continue
        version_runs = [r for r in runs if r.version.name == w.version and default in r.served]
        _reachability(w, version_runs, out)
    out.seconds = time.perf_counter() - start
    return out


def _seen(run: Run) -> list[tuple[Groups, Any, dict[str, list[tuple[int, int]]]]]:
    """Each milestone order of the run with its path and occurrences (worked out once per run)."""
    found = run.__dict__.get("_occurrences")
    if found is None:
        found = run.__dict__["_occurrences"] = [(g, p, occurrences(g)) for g, p in run.orders().paths.items()]
    return found


def _reachability(w: Witness, runs: list[Run], out: Agreement) -> None:
    named = sorted({m for ref in w.active for m in w.mentions.get(ref, ())} - CAUSED)
    related = {frozenset(p) for p in PARTS}
    pairs = [(x, y) for x in named for y in named
             if x != y and frozenset((x, y)) not in related and w.points[x][1] < w.points[y][0]]
    for x, y in pairs:
        out.pairs_checked += 1
        seen: tuple[Run, Groups, Any] | None = None
        realised = False
        for run in runs:
            for groups, path, occ in _seen(run):
                # milestones the model marks in one step (one event can be both) are not compared
                if x in occ and y in occ and not {g for _, g in occ[x]} & {g for _, g in occ[y]}:
                    seen = seen or (run, groups, path)
                    if max(p for p, _ in occ[x]) < min(p for p, _ in occ[y]):
                        realised = True
                        break
            if realised:
                break
        if seen is None:
            continue
        out.pairs_seen += 1
        if not realised:
            out.unreached.append(Unreached(w.version, x, y, *seen))
