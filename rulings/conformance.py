"""Conformance: the model's traces against the declarative corpus, in both directions.

- Soundness: every complete trace of every run (a scenario under a rules version and a
  combination of readings) satisfies the ordering constraints of the statements in force in that
  version that those readings follow (interpretations.py sets the others aside). The traces are
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
from dataclasses import dataclass, field
from typing import Any

from model.interpretations import CHOICES
from model.rules import RulesVersion

from .consistency import Witness, set_aside
from .corpus import Constraint, Corpus, Statement
from properties.milestones import PARTS, Groups, occurrences
from .readings import Combo, Run, as_dict


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


def binding(corpus: Corpus, run: Run, combo: Combo) -> list[tuple[Statement, Constraint]]:
    """The constraints a run's traces must satisfy under one combination of readings."""
    readings = as_dict(combo)
    aside = set_aside(readings)
    out = []
    for s in corpus.statements:
        if not s.declarative() or s.ref in aside or not s.in_force(run.version) or s.scope == "none":
            continue
        if s.scope == "own" and run.file not in s.scenarios:
            continue
        out.extend((s, c) for c in s.constraints(readings))
    return out


def _binding_choices(corpus: Corpus) -> tuple[int, ...]:
    """The positions in a combination of the choices `binding` depends on: those setting aside a
    statement that has constraints, and those a statement's constraints are conditional on. Two
    combinations equal there bind the same constraints (so `check` computes them once per run)."""
    declarative = {s.ref for s in corpus.statements if s.declarative()}
    conditional = {name for s in corpus.statements for name in s.choices()}
    return tuple(i for i, c in enumerate(CHOICES)
                 if c.name in conditional or any(set(refs) & declarative for _, refs in c.sets_aside))


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
class Conformance:
    violations: list[Violation] = field(default_factory=list)
    unreached: list[Unreached] = field(default_factory=list)
    orders_checked: int = 0
    constraints_checked: int = 0
    pairs_checked: int = 0
    pairs_seen: int = 0
    complete: bool = True
    reason: str = ""
    seconds: float = 0.0


def check(corpus: Corpus, runs: list[Run], witnesses: list[Witness], versions: dict[str, RulesVersion],
          default: Combo) -> Conformance:
    start = time.perf_counter()
    out = Conformance()
    relevant = _binding_choices(corpus)
    for run in runs:
        orders = run.orders()
        if not orders.complete:
            out.complete, out.reason = False, f"{run.file.name}: {orders.reason}"
        out.orders_checked += len(orders.paths)
        per_constraint: dict[tuple[str, str], tuple[Statement, Constraint, list[Combo]]] = {}
        bound: dict[tuple[str, ...], list[tuple[Statement, Constraint]]] = {}
        for combo in sorted(run.served):
            key = tuple(combo[i] for i in relevant)
            if key not in bound:
                bound[key] = binding(corpus, run, combo)
            for s, c in bound[key]:
                per_constraint.setdefault((s.ref, str(c)), (s, c, []))[2].append(combo)
        for s, c, combos in per_constraint.values():
            out.constraints_checked += 1
            for groups, path in orders.paths.items():
                if not satisfied(c, occurrences(groups)):
                    out.violations.append(Violation(s, c, run, groups, path, combos))
                    break
    out.violations.sort(key=lambda v: (default not in v.combos, v.statement.ref, str(v.constraint), v.run.file.name))
    for w in witnesses:
        if w.verdict != "sat":
            continue
        version_runs = [r for r in runs if r.version.name == w.version and default in r.served]
        _reachability(w, version_runs, out)
    out.seconds = time.perf_counter() - start
    return out


def _reachability(w: Witness, runs: list[Run], out: Conformance) -> None:
    named = sorted({m for ref in w.active for m in w.mentions.get(ref, ())})
    related = {frozenset(p) for p in PARTS}
    pairs = [(x, y) for x in named for y in named
             if x != y and frozenset((x, y)) not in related and w.points[x][1] < w.points[y][0]]
    for x, y in pairs:
        out.pairs_checked += 1
        seen: tuple[Run, Groups, Any] | None = None
        realised = False
        for run in runs:
            for groups, path in run.orders().paths.items():
                occ = occurrences(groups)
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
