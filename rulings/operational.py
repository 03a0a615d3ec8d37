"""Operational consistency: which rulings each combination of readings satisfies.

Every statement of the corpus that has scenarios is a *ruling* here: it holds under a combination of
readings when every `expect` item of its scenarios holds on the complete exploration of the scenario
under those readings and the rules version in force on its date. Every combination of the readings
of model/readings.py is tried — cheaply: the model looks a reading up only where the readings
would act differently (model/procedure.py), so a run records which choices it *consulted*, and any
combination that agrees with it on those choices has exactly the same state graph; it is reused.
A ruling's verdict reads only the choices its runs consulted, so it is asked once per reading of
those choices and stored so (`Row`); the combinations a run serves, and those under which a ruling
holds, are sets of bits (space.py), and the count per combination is summed per group of rulings
reading the same choices. Nothing is made per combination and ruling (9,216 x 281 on the built-in
corpus: 2.6 million verdicts and most of verify's memory, before).

Then, over one Boolean per reading (exactly one per choice):
- the combinations that satisfy the most rulings (every tie is listed): counted over the finite
  table (`best_with_z3` is Z3's Optimize on the same question, the tests' oracle);
- MARCO (rulings/marco.py, Z3): every minimal set of rulings that no combination satisfies
  together, each member shown failing, with its shortest trace, under readings that satisfy all the
  others (the combination keeping the most default readings, counted over the table).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import z3

from ..explorer.bfs import explore
from ..explorer.limits import DEFAULT_LIMITS, Limits
from ..model.cards import CardPool
from ..model.errors import ModelError
from ..model.procedure import BreakModel
from ..model.readings import CHOICES, Readings
from ..model.rules import RulesVersion, version_on
from ..model.scenario import Scenario
from ..model.scenario_file import load_scenario
from ..properties.expectations import HOLDS, INCONCLUSIVE, VIOLATED, Verdict, check
from ..properties.milestones import Orders, orders
from ..properties.verdict import VerdictName
from .corpus import Corpus, Statement
from .marco import enumerate_muses
from .space import Combo, Key, Served, projector, space


def combos() -> list[Combo]:
    """Every combination of readings, the defaults first."""
    return list(space().combos)


def as_dict(combo: Combo) -> dict[str, str]:
    return {c.name: r for c, r in zip(CHOICES, combo)}


def default_combo() -> Combo:
    return tuple(c.default for c in CHOICES)


def show(combo: Combo | dict, only_changed: bool = True) -> str:
    """`name=reading, ...` (the readings that differ from the defaults; 'the defaults' if none)."""
    readings = combo if isinstance(combo, dict) else as_dict(combo)
    parts = [f"{c.name}={readings[c.name]}" for c in CHOICES
             if c.name in readings and (not only_changed or readings[c.name] != c.default)]
    return ", ".join(parts) or "the defaults"


class _Consulted:
    """The model's readings, noting which choices the model looked up."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.names: set[str] = set()

    @property
    def pairs(self) -> tuple[tuple[str, str], ...]:
        return self.inner.pairs

    def get(self, name: str) -> str:
        self.names.add(name)
        return self.inner.get(name)


@dataclass
class Run:
    """One scenario explored under one rules version and one combination of readings."""

    file: Path
    scenario: Scenario
    version: RulesVersion
    combo: Combo
    graph: Any
    verdicts: list[Verdict]
    consulted: frozenset[str]
    seconds: float
    served: Served = field(default_factory=Served)   # the combinations this run stands for
    _orders: Orders | None = None

    def agrees(self, combo: Combo) -> bool:
        return all(combo[i] == self.combo[i] for i in self._looked_at())

    def _looked_at(self) -> tuple[int, ...]:
        """The indices in CHOICES of the choices the run consulted (worked out once)."""
        found = self.__dict__.get("_indices")
        if found is None:
            found = self.__dict__["_indices"] = tuple(i for i, c in enumerate(CHOICES) if c.name in self.consulted)
        return found

    def orders(self) -> Orders:
        if self._orders is None:
            self._orders = orders(self.graph)
        return self._orders

    @property
    def complete(self) -> bool:
        return self.graph.complete


class Runner:
    """Loads each scenario once and explores it once per distinct (version, consulted readings)."""

    def __init__(self, limits: Limits = DEFAULT_LIMITS, progress: Callable[[str], None] | None = None,
                 loaded: Callable[[Path], Scenario | None] | None = None):
        self.limits = limits
        self.progress = progress     # told each exploration as it starts (the CLI's progress line)
        self.loaded = loaded         # a scenario loaded elsewhere (verify's helper process), or None
        self._pool: CardPool | None = None
        self._scenarios: dict[Path, Scenario] = {}
        self._runs: dict[tuple[Path, dt.date], list[Run]] = {}
        self.explorations = 0
        self.lookups = 0
        self.used: list[Run] = []    # the run each look-up returned, in order (tabulate's memo reads it)

    def scenario(self, path: Path) -> Scenario:
        if path not in self._scenarios:
            found = self.loaded(path) if self.loaded is not None else None
            if found is not None:
                self._scenarios[path] = found
                return found
            if self._pool is None:
                self._pool = CardPool.builtin()
            self._scenarios[path] = load_scenario(path, self._pool.copy())
        return self._scenarios[path]

    def run(self, path: Path, version: RulesVersion | None, combo: Combo) -> Run:
        self.lookups += 1
        scenario = self.scenario(path)
        version = version or version_on(scenario.rules)
        runs = self._runs.setdefault((path, version.date), [])
        for run in runs:
            if run.agrees(combo):
                run.served.add(combo)
                self.used.append(run)
                return run
        start = time.perf_counter()
        sc = dataclasses.replace(scenario, rules=version.date, readings=as_dict(combo))
        consulted = _Consulted(Readings.make(sc.readings))
        if self.progress:
            self.progress(f"exploring {path.name} ({version.name})")
        model = BreakModel(sc, readings=consulted)
        try:
            graph = explore(model, self.limits)
        except ModelError as exc:   # the model's own error: named with its scenario, rules and readings
            exc.file = f"{path} ({version.name}; readings: {show(combo)})"
            raise
        verdicts = [check(graph, item) for item in sc.expect]
        run = Run(path, sc, version, combo, graph, verdicts, frozenset(consulted.names),
                  time.perf_counter() - start)
        self.explorations += 1
        run.served.add(combo)
        runs.append(run)
        self.used.append(run)
        return run

    def find(self, path: Path, version: RulesVersion | None, combo: Combo) -> Run:
        """The run `run` returns for a combination it has already served (nothing counted or added)."""
        version = version or version_on(self.scenario(path).rules)
        for run in self._runs.get((path, version.date), ()):
            if run.agrees(combo):
                return run
        raise LookupError(f"no run of {path.name} ({version.name}) serves {show(combo)}")

    def runs(self) -> list[Run]:
        return [r for rs in self._runs.values() for r in rs]

    def consulted(self, statement: Statement, rules: dt.date | None = None) -> tuple[int, ...]:
        """The indices in CHOICES of the choices any run of the statement's scenarios consulted: its
        verdict under a combination depends on those readings only (each lookup picks the first run
        agreeing with the combination on the choices that run consulted)."""
        version = statement.run_version(rules)
        names: set[str] = set()
        for path in statement.scenarios:
            day = (version or version_on(self.scenario(path).rules)).date
            names.update(n for r in self._runs.get((path, day), ()) for n in r.consulted)
        return tuple(i for i, c in enumerate(CHOICES) if c.name in names)


@dataclass
class RulingVerdict:
    """Whether one ruling holds under one combination: the first failing expectation, if any."""

    statement: Statement
    combo: Combo
    verdict: VerdictName
    run: Run | None = None                    # the run of the failing (or inconclusive) scenario
    failed: Verdict | None = None
    reason: str = ""

    @property
    def holds(self) -> bool:
        return self.verdict == HOLDS

    @property
    def trace(self):
        """The trace that shows the failure; for an absence (`sometimes`, `possible_order`), which
        no single trace can show, the shortest complete trace of the scenario instead."""
        if self.failed is not None and self.failed.trace is not None:
            return self.failed.trace
        if self.run is not None and self.run.graph.terminals:
            return self.run.graph.trace(self.run.graph.terminals[0])
        return None


def ruling_verdict(runner: Runner, statement: Statement, combo: Combo, rules: dt.date | None = None) -> RulingVerdict:
    return _verdict(statement, combo, statement.run_version(rules), runner.run)


def _verdict(statement: Statement, combo: Combo, version: RulesVersion | None,
             run_of: Callable[[Path, RulesVersion | None, Combo], Run]) -> RulingVerdict:
    """The ruling under one combination, its scenarios' runs given by `run_of` (Runner.run or .find)."""
    unsure = None
    for path in statement.scenarios:
        run = run_of(path, version, combo)
        violated = [v for v in run.verdicts if v.verdict == VIOLATED]
        if violated:   # the first failure a trace can show, if any
            v = next((v for v in violated if v.trace is not None), violated[0])
            return RulingVerdict(statement, combo, VIOLATED, run, v, v.reason)
        for v in run.verdicts:
            if v.verdict == INCONCLUSIVE and unsure is None:
                unsure = RulingVerdict(statement, combo, INCONCLUSIVE, run, v, v.reason)
        if not run.complete and unsure is None:
            unsure = RulingVerdict(statement, combo, INCONCLUSIVE, run, None, run.graph.reason)
    return unsure or RulingVerdict(statement, combo, HOLDS)


class Row(Mapping[Combo, RulingVerdict]):
    """One ruling's verdict under every combination (a mapping over `combos()`, in that order),
    stored once per reading of the choices it depends on: the combinations alike on those choices
    pick the same runs, so their verdicts differ only in the combination they name."""

    def __init__(self, depends: tuple[int, ...], verdicts: dict[Key, RulingVerdict]):
        self.depends = depends                # indices in CHOICES
        self.verdicts = verdicts              # key over `depends` -> the verdict of its first combination
        self._key = projector(depends)
        self._mask: int | None = None

    def __getitem__(self, combo: Combo) -> RulingVerdict:
        verdict = self.verdicts[self._key(combo)]
        if verdict.combo == combo:
            return verdict
        if combo not in space().index:
            raise KeyError(combo)
        return dataclasses.replace(verdict, combo=combo)

    def holds(self, combo: Combo) -> bool:
        return self.verdicts[self._key(combo)].holds

    def __iter__(self) -> Iterator[Combo]:
        return iter(space().combos)

    def __len__(self) -> int:
        return space().n

    def distinct(self) -> Iterable[RulingVerdict]:
        """The verdicts, one per reading of the choices the ruling depends on."""
        return self.verdicts.values()

    def mask(self) -> int:
        """The combinations under which the ruling holds, as bits (rulings/space.py)."""
        if self._mask is None:
            where = space()
            self._mask = 0
            for key, verdict in self.verdicts.items():
                if verdict.holds:
                    self._mask |= where.mask(self.depends, key)
        return self._mask


@dataclass
class Conflict:
    """A minimal set of rulings no combination of readings satisfies together."""

    refs: tuple[str, ...]
    failures: list[RulingVerdict]   # per member: failing under readings that satisfy the others


@dataclass
class Operational:
    rulings: list[Statement]
    table: dict[str, Row]
    best: list[Combo] = field(default_factory=list)
    best_count: int = 0
    conflicts: list[Conflict] = field(default_factory=list)
    complete: bool = True
    reason: str = ""
    solver_seconds: float = 0.0
    seconds: float = 0.0
    depends: dict[str, tuple[int, ...]] = field(default_factory=dict)   # ref -> the choices its verdicts read
    unfinished: list[str] = field(default_factory=list)   # rulings the time limit left unrun
    solved: bool = False                                  # Z3 was asked about the readings
    _counts: list[int] | None = field(default=None, repr=False, compare=False)

    def count(self, combo: Combo) -> int:
        """How many rulings hold under the combination (the table is counted once, when first asked)."""
        if self._counts is None:
            self._counts = _counts(self.table)
        return self._counts[space().index[combo]]

    def default(self, ref: str) -> RulingVerdict:
        return self.table[ref][default_combo()]


def _literals() -> tuple[dict[tuple[str, str], z3.BoolRef], list[z3.BoolRef]]:
    lit = {(c.name, r): z3.Bool(f"{c.name}={r}") for c in CHOICES for r, _ in c.readings}
    hard = [z3.PbEq([(lit[c.name, r], 1) for r, _ in c.readings], 1) for c in CHOICES]
    return lit, hard


def _combo_of(model: z3.ModelRef, lit) -> Combo:
    return tuple(next(r for r, _ in c.readings if z3.is_true(model.eval(lit[c.name, r], model_completion=True)))
                 for c in CHOICES)


def _mk(make, args: list[z3.BoolRef]) -> z3.BoolRef:
    """z3.And or z3.Or (`make` is Z3_mk_and or Z3_mk_or) of Boolean terms of one context, without
    the Python-side checks and coercions that were most of the cost of the readings' formulas."""
    ctx = args[0].ctx
    array = (z3.Ast * len(args))(*[a.as_ast() for a in args])
    return z3.BoolRef(make(ctx.ref(), len(args), array), ctx)


def analyse(runner: Runner, corpus: Corpus, rules: dt.date | None = None, timeout_ms: int = 20_000) -> Operational:
    """Run every ruling under every combination, then ask Z3 the two questions of the module."""
    start = time.perf_counter()
    return solve(tabulate(runner, corpus, rules), start, timeout_ms)


def tabulate(runner: Runner, corpus: Corpus, rules: dt.date | None = None,
             deadline: float = math.inf, into: dict | None = None) -> Operational:
    """Every ruling under every combination (the runs it takes are the runner's); Z3 not asked yet.
    A ruling not begun by `deadline` (time.monotonic) is left out and named in `unfinished`. `into`, if
    given, receives each ruling's row as soon as it is made (what a stopped verify reports)."""
    rulings = [s for s in corpus.statements if s.scenarios]
    table: dict[str, Row] = {} if into is None else into
    done: list[Statement] = []
    for s in rulings:
        if time.monotonic() > deadline:
            break
        table[s.ref] = _row(runner, s, rules)
        done.append(s)
    out = Operational(done, table, depends={s.ref: runner.consulted(s, rules) for s in done})
    out.unfinished = [s.ref for s in rulings[len(done):]]
    if out.unfinished:
        out.complete, out.reason = False, f"the time limit came before {len(out.unfinished)} rulings were run"
    return out


def _row(runner: Runner, statement: Statement, rules: dt.date | None) -> Row:
    """The statement's verdict under every combination, in `combos()` order. Two combinations alike on
    every choice the existing runs of its scenarios consulted pick the same runs, so the ruling is
    asked once per reading of those choices, at the first combination that has it; the others are
    told to the runs they use as sets of combinations (and their look-ups counted, as if asked
    again). A new run may consult more choices: from the combination after the one that made it,
    the readings are grouped anew."""
    where = space()
    p = 0
    while p < where.n:
        seen, depends = runner.explorations, runner.consulted(statement, rules)
        key_of = projector(depends)
        after = where.full ^ ((1 << p) - 1)        # the combinations from p on
        todo, end = after, where.n
        alike: list[tuple[int, list[Run]]] = []    # per reading asked: its other combinations, the runs used
        while todo:
            q = (todo & -todo).bit_length() - 1    # the first combination of a reading not asked yet
            before = len(runner.used)
            ruling_verdict(runner, statement, where.combos[q], rules)
            if runner.explorations != seen:
                end = q
                break
            group = where.mask(depends, key_of(where.combos[q])) & after
            alike.append((group & ~(1 << q), runner.used[before:]))
            todo &= ~group
        window = after & ((1 << end) - 1)
        for group, used in alike:
            group &= window
            if group:
                runner.lookups += len(used) * group.bit_count()
                for run in used:
                    run.served.bits |= group
        p = end + 1
    depends = runner.consulted(statement, rules)
    version = statement.run_version(rules)
    return Row(depends, {key: _verdict(statement, where.first(depends, key), version, runner.find)
                         for key in where.keys(depends)})


def _counts(table: dict[str, Row]) -> list[int]:
    """How many rulings hold under each combination, in `combos()` order: the rulings depending on
    the same choices are counted together, per reading of those choices."""
    groups: dict[tuple[int, ...], Counter[Key]] = {}
    for row in table.values():
        held = groups.setdefault(row.depends, Counter())
        held.update(key for key, verdict in row.verdicts.items() if verdict.holds)
    where = space()
    out = [0] * where.n
    for depends, held in groups.items():
        key_of = projector(depends)
        out = [n + held[key_of(combo)] for n, combo in zip(out, where.combos)]
    return out


class _Conjunctions(dict):
    """combination -> the conjunction of its readings' literals, built when first asked for."""

    def __init__(self, lit):
        super().__init__()
        self.lit = lit

    def __missing__(self, combo: Combo) -> z3.BoolRef:
        found = self[combo] = z3.And([self.lit[c.name, r] for c, r in zip(CHOICES, combo)])
        return found


def _held(out: Operational, ref: str, lit, conj, all_combos) -> z3.BoolRef:
    """The readings under which a ruling holds, as a formula: z3.Or without its Python-side checks
    (_mk); when the ruling's verdicts read only some choices, over those readings alone (an equivalent
    term under `hard`, and a far smaller one)."""
    row, depends = out.table[ref], out.depends.get(ref)
    if depends is None or len(depends) == len(CHOICES):
        return _mk(z3.Z3_mk_or, [conj[combo] for combo in all_combos if row.holds(combo)] or [z3.BoolVal(False)])
    # the row's verdict is one per reading of row.depends: a first combination per reading of both
    # sets of choices stands for all the combinations alike on them
    where, both = space(), tuple(sorted(set(depends) | set(row.depends)))
    firsts = (where.first(both, key) for key in where.keys(both))
    parts = sorted({tuple(combo[i] for i in depends) for combo in firsts if row.holds(combo)})
    if not depends:
        return z3.BoolVal(bool(parts))
    terms = [z3.And([lit[CHOICES[i].name, r] for i, r in zip(depends, part)]) for part in parts]
    return _mk(z3.Z3_mk_or, terms) if terms else z3.BoolVal(False)


def _nearest(table: dict[str, Row], refs: list[str]) -> Combo | None:
    """The combination, among those under which every ruling of `refs` holds, that keeps the most
    readings at their defaults (the first such in the table's order), or None: where a member of a
    minimal conflict is shown failing. Counted over the finite table, like the best readings."""
    where = space()
    fit = where.full
    for ref in refs:
        fit &= table[ref].mask()
    defaults = where.defaults
    fits = [where.combos[i] for i in where.members(fit)]
    return min(fits, key=lambda c: (-sum(a == b for a, b in zip(c, defaults)), c), default=None)


def best_with_z3(out: Operational, timeout_ms: int = 20_000) -> tuple[int, list[Combo]]:
    """The combinations satisfying the most rulings, by Z3's Optimize, then every combination
    reaching the optimum (the oracle of `solve`'s count)."""
    lit, hard = _literals()
    all_combos = combos()
    conj = _Conjunctions(lit)
    held = {ref: _held(out, ref, lit, conj, all_combos) for ref in out.table}
    opt = z3.Optimize()
    opt.set("timeout", timeout_ms)
    opt.add(*hard)
    score = z3.Sum([z3.If(held[ref], 1, 0) for ref in out.table])
    opt.maximize(score)
    if opt.check() != z3.sat:
        raise RuntimeError("Optimize answered unknown")
    best_count = opt.model().eval(score).as_long()
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*hard, score == best_count)
    best = []
    while solver.check() == z3.sat:
        combo = _combo_of(solver.model(), lit)
        best.append(combo)
        solver.add(z3.Not(z3.And([lit[c.name, r] for c, r in zip(CHOICES, combo)])))
    return best_count, sorted(best, key=lambda c: (c != default_combo(), c))


def solve(out: Operational, start: float, timeout_ms: int = 20_000) -> Operational:
    """Answer the two questions of the module about a table of `tabulate` (`start`: when it began)."""
    table, all_combos = out.table, combos()
    out.solved = True
    unsure = [ref for ref, row in table.items() if any(v.verdict == INCONCLUSIVE for v in row.distinct())]
    if unsure:
        out.complete, out.reason = False, f"inconclusive runs for {', '.join(unsure)}"
    z3_start = time.process_time()
    # the combinations that satisfy the most rulings: the table is finite (every combination of the
    # readings is a column), so they are counted, every tie listed; `best_with_z3` asks Z3's Optimize
    # the same question (tests check that both agree), at a hundred times the cost
    counts = {combo: out.count(combo) for combo in all_combos}
    out.best_count = max(counts.values(), default=0)
    out.best = sorted((c for c in all_combos if counts[c] == out.best_count),
                      key=lambda c: (c != default_combo(), c))

    # a ruling that holds under every combination is in no minimal conflict; a combination's
    # conjunction is built once and shared by every formula that needs it (`_held`)
    lit, hard = _literals()
    conj = _Conjunctions(lit)
    failing = {ref: _held(out, ref, lit, conj, all_combos) for ref in table
               if not all(v.holds for v in table[ref].distinct()) and ref not in unsure}
    result = enumerate_muses(failing, hard, timeout_ms)
    if not result.complete:
        out.complete, out.reason = False, result.reason
    for mus in result.muses:
        failures = []
        for ref in mus:
            combo = _nearest(table, [r for r in mus if r != ref])
            if combo is not None:
                failures.append(table[ref][combo])
        out.conflicts.append(Conflict(mus, failures))
    out.solver_seconds = time.process_time() - z3_start
    out.seconds = time.perf_counter() - start
    return out
