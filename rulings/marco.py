"""Every minimal unsatisfiable subset of a set of named Z3 assertions (MARCO enumeration).

Both consistency checks of `dmcheck verify` ask the same question of different assertions — the
ordering constraints of the rulings corpus (consistency.py), and "this ruling holds" over the
readings (operational.py): which sets of statements cannot all be true together, and
no smaller part of which is already impossible? One unsat core is not enough (it hides the other
conflicts, and need not be minimal), so the subsets are enumerated the MARCO way (Liffiton et al.,
"Fast, flexible MUS enumeration", 2016):

- a *map* solver over one Boolean per assertion proposes a seed: a subset not yet explained;
- if the seed is satisfiable it is grown to a maximal satisfiable subset, and the map is told that
  any later seed must add something outside it;
- if not, its core is shrunk (deletion) to a minimal unsatisfiable subset, and the map is told that
  no later seed may contain all of it.
The map is unsatisfiable exactly when every MUS has been found.

Each assertion is added once as `tracking literal => assertion`, the literal named by its id, so a
core reads as a list of citations; seeds are checked under assumptions on one solver per
enumeration. An `unknown` answer stops the enumeration and marks it incomplete.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import z3


@dataclass
class MusResult:
    muses: list[tuple[str, ...]] = field(default_factory=list)   # each sorted, in the order found
    complete: bool = True
    reason: str = ""
    checks: int = 0
    seconds: float = 0.0


def enumerate_muses(named: dict[str, z3.BoolRef], hard: list[z3.BoolRef] | tuple = (),
                    timeout_ms: int = 20_000, limit: int = 1000) -> MusResult:
    """Every minimal subset of `named` (id -> assertion) that is unsatisfiable with `hard`.

    >>> x = z3.Int("x")
    >>> enumerate_muses({"a": x > 1, "b": x < 0, "c": x == 5}).muses
    [('a', 'b'), ('b', 'c')]
    """
    start = time.perf_counter()
    marco = _Marco(named, hard, timeout_ms)
    try:
        marco.run(limit)
    except _Stop as why:
        marco.result.complete, marco.result.reason = False, str(why)
    marco.result.seconds = time.perf_counter() - start
    return marco.result


def muses_with(named: dict[str, z3.BoolRef], hard: list[z3.BoolRef] | tuple, among: frozenset[str],
               timeout_ms: int = 20_000, limit: int = 1000) -> MusResult:
    """The minimal unsatisfiable subsets of `named` that hold one of `among`: exactly those of
    `enumerate_muses(named, hard)` holding one, found without the others (`verify --only`).

    A set M holding r is minimal unsatisfiable exactly when N = M - {r} is a minimal subset of the rest
    that is unsatisfiable with r made hard, and N is satisfiable without r. So each is a MUS of the
    rest under `hard + [r]` that stays satisfiable under `hard` alone (and {r} itself when r alone is
    unsatisfiable: then no larger set holding r is minimal).

    >>> x = z3.Int("x")
    >>> muses_with({"a": x > 1, "b": x < 0, "c": x == 5, "d": x < -3}, (), frozenset({"c"})).muses
    [('b', 'c'), ('c', 'd')]
    """
    start = time.perf_counter()
    out = MusResult()
    check = z3.Solver()
    check.set("timeout", timeout_ms)
    check.add(*hard)
    for r in sorted(among & set(named)):
        alone = check.check(named[r])
        if alone == z3.unsat:
            out.muses.append((r,))
            continue
        rest = {n: f for n, f in named.items() if n != r}
        found = enumerate_muses(rest, [*hard, named[r]], timeout_ms, limit)
        out.checks += found.checks + 1
        if not found.complete:
            out.complete, out.reason = False, found.reason
        for mus in found.muses:
            if check.check(*[named[n] for n in mus]) == z3.sat:
                whole = tuple(sorted((*mus, r)))
                if whole not in out.muses:
                    out.muses.append(whole)
    out.muses.sort()
    out.seconds = time.perf_counter() - start
    return out


class _Stop(Exception):
    """The enumeration ends before the map is exhausted; the message says why."""


class _Marco:
    """The MARCO loop's state: the solver of the assertions (each behind its tracking literal), the
    map solver over one `pick` Boolean per assertion, and the result being filled."""

    def __init__(self, named: dict[str, z3.BoolRef], hard: list[z3.BoolRef] | tuple, timeout_ms: int):
        self.result = MusResult()
        self.names = names = sorted(named)
        self.track = {n: z3.Bool(n) for n in names}
        self.solver = z3.Solver()
        self.solver.set("timeout", timeout_ms)
        self.solver.add(*hard)
        for n in names:
            self.solver.add(z3.Implies(self.track[n], named[n]))
        self.pick = {n: z3.Bool(f"pick {n}") for n in names}
        self.chooser = z3.Solver()   # the map: which subsets are still to explain

    def check(self, subset: list[str]) -> z3.CheckSatResult:
        self.result.checks += 1
        return self.solver.check(*[self.track[n] for n in subset])

    def unknown(self) -> _Stop:
        return _Stop(f"the solver answered unknown ({self.solver.reason_unknown()})")

    def run(self, limit: int) -> None:
        """Seeds from the map until it is unsatisfiable: grow a satisfiable one, shrink an unsatisfiable
        one to a MUS, and block what each explains."""
        names, pick, chooser = self.names, self.pick, self.chooser
        if self.check([]) != z3.sat:
            raise _Stop("the assertions every statement relies on are not satisfiable on their own")
        while True:
            answer = chooser.check()
            if answer == z3.unsat:
                return
            if answer != z3.sat:
                raise _Stop("the map solver answered unknown")
            model = chooser.model()
            seed = [n for n in names if not z3.is_false(model.eval(pick[n], model_completion=False))]
            verdict = self.check(seed)
            if verdict == z3.sat:
                self.grow(seed)
                rest = [pick[n] for n in names if n not in seed]
                if not rest:
                    return   # everything is satisfiable together
                chooser.add(z3.Or(rest))
            elif verdict == z3.unsat:
                core = self.shrink(sorted(str(c) for c in self.solver.unsat_core()))
                self.result.muses.append(tuple(core))
                chooser.add(z3.Or([z3.Not(pick[n]) for n in core]))
                if len(self.result.muses) >= limit:
                    raise _Stop(f"more than {limit} minimal sets")
            else:
                raise self.unknown()

    def grow(self, seed: list[str]) -> None:
        """Add to a satisfiable seed, in place, every assertion it stays satisfiable with (a maximal
        satisfiable subset)."""
        for n in self.names:
            if n in seed:
                continue
            grown = self.check(seed + [n])
            if grown == z3.unknown:
                raise self.unknown()
            if grown == z3.sat:
                seed.append(n)

    def shrink(self, core: list[str]) -> list[str]:
        """An unsatisfiable core without what the conflict does not need (deletion): a MUS."""
        i = 0
        while i < len(core):
            trial = core[:i] + core[i + 1:]
            answer = self.check(trial)
            if answer == z3.unknown:
                raise self.unknown()
            if answer == z3.unsat:
                needed = {str(c) for c in self.solver.unsat_core()}
                core = [c for c in trial if c in needed]
            else:
                i += 1
        return core
