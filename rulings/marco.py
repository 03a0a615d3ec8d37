"""Every minimal unsatisfiable subset of a set of named Z3 assertions (MARCO enumeration).

Both consistency checks of `dmcheck verify` ask the same question of different assertions — the
ordering constraints of the rulings corpus (consistency.py), and "this ruling holds" over the
interpretation readings (readings.py): which sets of statements cannot all be true together, and
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

    Long on purpose: it is the MARCO loop (a map solver proposing seeds, grow or shrink, block), and
    its solvers, budget and counters are shared across the loop's branches.

    >>> x = z3.Int("x")
    >>> enumerate_muses({"a": x > 1, "b": x < 0, "c": x == 5}).muses
    [('a', 'b'), ('b', 'c')]
    """
    start = time.perf_counter()
    result = MusResult()
    names = sorted(named)
    track = {n: z3.Bool(n) for n in names}
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*hard)
    for n in names:
        solver.add(z3.Implies(track[n], named[n]))
    pick = {n: z3.Bool(f"pick {n}") for n in names}
    chooser = z3.Solver()   # the map: which subsets are still to explain

    def check(subset: list[str]) -> z3.CheckSatResult:
        result.checks += 1
        return solver.check(*[track[n] for n in subset])

    def stop(why: str) -> MusResult:
        result.complete, result.reason = False, why
        result.seconds = time.perf_counter() - start
        return result

    if check([]) != z3.sat:
        return stop("the assertions every statement relies on are not satisfiable on their own")
    while True:
        answer = chooser.check()
        if answer == z3.unsat:
            break
        if answer != z3.sat:
            return stop("the map solver answered unknown")
        model = chooser.model()
        seed = [n for n in names if not z3.is_false(model.eval(pick[n], model_completion=False))]
        verdict = check(seed)
        if verdict == z3.sat:
            for n in names:   # grow to a maximal satisfiable subset
                if n in seed:
                    continue
                grown = check(seed + [n])
                if grown == z3.unknown:
                    return stop(f"the solver answered unknown ({solver.reason_unknown()})")
                if grown == z3.sat:
                    seed.append(n)
            rest = [pick[n] for n in names if n not in seed]
            if not rest:
                break   # everything is satisfiable together
            chooser.add(z3.Or(rest))
        elif verdict == z3.unsat:
            core = sorted(str(c) for c in solver.unsat_core())
            i = 0
            while i < len(core):   # shrink: drop what the conflict does not need
                trial = core[:i] + core[i + 1:]
                answer = check(trial)
                if answer == z3.unknown:
                    return stop(f"the solver answered unknown ({solver.reason_unknown()})")
                if answer == z3.unsat:
                    needed = {str(c) for c in solver.unsat_core()}
                    core = [c for c in trial if c in needed]
                else:
                    i += 1
            result.muses.append(tuple(core))
            chooser.add(z3.Or([z3.Not(pick[n]) for n in core]))
            if len(result.muses) >= limit:
                return stop(f"more than {limit} minimal sets")
        else:
            return stop(f"the solver answered unknown ({solver.reason_unknown()})")
    result.seconds = time.perf_counter() - start
    return result
