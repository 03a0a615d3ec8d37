"""Declarative consistency of the rulings corpus: can all its ordering constraints hold at once?

For one rules version, every statement in force there asserts its ordering constraints over the
procedure milestones (properties/milestones.py) as one Z3 assertion, tracked by a literal named
`ID@SOURCE`. Each milestone is an interval of time (two integers, first <= last), so "every a
before every b" is `last(a) < first(b)`. A few facts are not any source's claim but the meaning
of the milestones themselves, and are asserted untracked: an ability resolves after it triggers,
a part of a milestone lies inside it, a nested break is chosen after the attack's, a stopped
attack is the last thing that happens.

- If the assertions are unsatisfiable, *every* minimal unsatisfiable subset is enumerated
  (rulings/marco.py): each is a list of citations that cannot all be true, none of which can
  be dropped. Where a statement's constraints depend on a reading (`order_if`), each combination
  of those readings is checked and each set says under which readings it arises.
- A witness order is one order of the milestones that satisfies the statements the model follows
  under given readings (those a reading sets aside are left out, model/readings.py); when even
  those conflict, Z3 Optimize keeps as many statements as possible and says which it dropped.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

import z3

from ..model.readings import CHOICES
from ..model.rules import RulesVersion
from ..properties.milestones import MILESTONES, PARTS, TRIGGER_THEN_RESOLVE
from .corpus import Constraint, Corpus, Statement, Term, known_choice
from .marco import enumerate_muses, muses_with

TIMEOUT_MS = 20_000


def _point(m: str, end: str) -> z3.ArithRef:
    return z3.Int(f"{end}({m})")


def _term(t: Term, side: str) -> z3.ArithRef:
    # a plain milestone on the left of `<` means all of it (its last moment), on the right its first
    return _point(t.milestone, t.select or ("last" if side == "left" else "first"))


def encode(c: Constraint) -> z3.BoolRef:
    if c.op == "=":
        a, b = c.milestones()
        points = [_point(a, "first"), _point(a, "last"), _point(b, "first"), _point(b, "last")]
        return z3.And([p == points[0] for p in points[1:]])
    return _term(c.left, "left") < _term(c.right, "right")


def structure() -> list[z3.BoolRef]:
    """What the milestones mean, asserted for every version and untracked (no source's claim)."""
    out = [_point(m, "first") <= _point(m, "last") for m in MILESTONES]
    for part, whole in PARTS:
        out += [_point(whole, "first") <= _point(part, "first"), _point(part, "last") <= _point(whole, "last")]
    for trig, res in TRIGGER_THEN_RESOLVE:
        out.append(_point(trig, "last") < _point(res, "first"))
    out.append(_point("shields_chosen", "last") < _point("nested_shields_chosen", "first"))
    # a stopped attack ends the step: nothing of the procedure follows it (D7)
    # (R510, R511: only the end of the attack and of the turn come after it)
    after = ("attack_stopped", "end_of_attack", "end_of_turn", "game_lost")
    out += [_point(m, "last") < _point("attack_stopped", "first") for m in MILESTONES if m not in after]
    # a lost game ends the game at once (R104.1, LO01): nothing of the procedure follows it, so whatever
    # else happens in the same game happened before - a stopped attack, the end of the attack and of the
    # turn included, when the loss comes later (a second attack, the next turn's draw)
    out += [_point(m, "last") < _point("game_lost", "first") for m in MILESTONES if m != "game_lost"]
    # the attack begins with its declaration (R506.1) and ends with its end-of-attack step (R510), the
    # turn with its end (R511); a loss before them means they never come
    edges = ("attack_declared", "end_of_attack", "end_of_turn", "game_lost")
    out += [_point("attack_declared", "last") < _point(m, "first") for m in MILESTONES if m != "attack_declared"]
    out += [_point(m, "last") < _point("end_of_attack", "first") for m in MILESTONES if m not in edges]
    out += [_point(m, "last") < _point("end_of_turn", "first") for m in MILESTONES
            if m not in ("end_of_turn", "game_lost")]
    # the attack's break begins when its shields are chosen (D1): what belongs to that break follows
    within = ("break", "shield_check", "check_declared", "check_to_hand", "check_declared_late", "check_used",
              "before_break_resolved", "replacements_applied", "after_break_resolved")
    out += [_point("shields_chosen", "last") < _point(m, "first") for m in within]
    return out


@dataclass(frozen=True)
class Conflict:
    """A minimal set of statements whose ordering constraints cannot hold together."""

    refs: tuple[str, ...]
    versions: tuple[str, ...]                       # rules versions in which all are in force
    readings: tuple[tuple[str, str], ...] = ()     # readings its members' constraints depend on


# Z3's answer about a witness: "sat" (the points are a model), or "unknown" (no model within the time limit)
WitnessAnswer: TypeAlias = Literal["sat", "unknown"]


@dataclass
class Witness:
    version: str
    readings: dict[str, str]
    points: dict[str, tuple[int, int]]            # milestone -> (first, last)
    active: tuple[str, ...]                       # statements asserted
    dropped: tuple[str, ...] = ()                 # left out by Optimize to make the rest satisfiable
    set_aside: tuple[str, ...] = ()               # left out because the readings do not follow them
    verdict: WitnessAnswer = "sat"

    def order(self) -> list[list[str]]:
        """The milestones the active statements name, grouped by moment, earliest first."""
        named = {m for ref in self.active for m in self.mentions.get(ref, ())}
        stamps: dict[int, list[str]] = {}
        for m, (first, last) in self.points.items():
            if m not in named:
                continue
            if first == last:
                stamps.setdefault(first, []).append(m)
            else:
                stamps.setdefault(first, []).append(f"first({m})")
                stamps.setdefault(last, []).append(f"last({m})")
        return [sorted(stamps[t]) for t in sorted(stamps)]

    def text(self) -> str:
        return " < ".join(" = ".join(g) for g in self.order())

    mentions: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass
class Declarative:
    conflicts: list[Conflict] = field(default_factory=list)
    witnesses: list[Witness] = field(default_factory=list)
    checks: int = 0
    seconds: float = 0.0
    complete: bool = True
    reason: str = ""


def in_force(corpus: Corpus, version: RulesVersion) -> list[Statement]:
    return [s for s in corpus.statements if s.in_force(version) and s.declarative()]


def set_aside(readings: dict[str, str]) -> set[str]:
    """The statements the model does not follow under these readings."""
    out: set[str] = set()
    for choice in CHOICES:
        out |= set(choice.set_aside(readings.get(choice.name, choice.default)))
    return out


def defaults() -> dict[str, str]:
    return {c.name: c.default for c in CHOICES}


def check(corpus: Corpus, versions: list[RulesVersion], readings: dict[str, str] | None = None,
          timeout_ms: int = TIMEOUT_MS, deadline: float = math.inf,
          containing: frozenset[str] | None = None) -> Declarative:
    """Every minimal conflict of each version (for every combination of the readings the
    constraints depend on), and a witness order per version under `readings` (default: defaults).
    Past `deadline` (time.monotonic) no new combination is begun: the result is incomplete.
    With `containing` (statement refs: `verify --only`), only the conflicts holding one of them, and no
    witness: exactly those of the whole check that hold one (`_muses_with`)."""
    start = time.process_time()
    out = Declarative()
    found: dict[tuple, list[str]] = {}
    chosen = dict(defaults(), **(readings or {}))
    for version in versions:
        statements = in_force(corpus, version)
        depends = sorted({name for s in statements for name in s.choices()})
        options = [[(name, r) for r, _ in known_choice(name).readings] for name in depends]
        if readings:   # readings the user fixed are not varied
            options = [[o for o in opts if o[0] not in readings or readings[o[0]] == o[1]] for opts in options]
        seen_sets: set[frozenset] = set()
        for combo in itertools.product(*options):
            if time.monotonic() > deadline:
                out.complete, out.reason = False, "not finished: the time limit came first"
                break
            combo_readings = dict(combo)
            named = {}
            for s in statements:
                cs = s.constraints(combo_readings)
                if cs:
                    named[s.ref] = (s, cs)
            key = frozenset((ref, tuple(map(str, cs))) for ref, (_, cs) in named.items())
            if key in seen_sets:
                continue
            seen_sets.add(key)
            formulas = {ref: z3.And([encode(c) for c in cs]) for ref, (_, cs) in named.items()}
            result = (enumerate_muses(formulas, structure(), timeout_ms) if containing is None
                      else muses_with(formulas, structure(), containing, timeout_ms))
            out.checks += result.checks
            if not result.complete:
                out.complete, out.reason = False, f"{version.name}: {result.reason}"
            for mus in result.muses:
                used = tuple(sorted({(name, combo_readings[name]) for ref in mus
                                     for name in named[ref][0].choices()}))
                found.setdefault((mus, used), [])
                if version.name not in found[(mus, used)]:
                    found[(mus, used)].append(version.name)
        if containing is None:
            out.witnesses.append(witness(corpus, version, chosen, timeout_ms))
    out.conflicts = [Conflict(refs, tuple(vs), used) for (refs, used), vs in found.items()]
    out.conflicts.sort(key=lambda c: (-len(c.versions), c.readings, len(c.refs), c.refs))
    out.seconds = time.process_time() - start
    return out


def _ties(constraints: list[Constraint]) -> dict[str, str]:
    """milestone -> a representative of the milestones `=` constraints put in one step with it."""
    rep = {m: m for m in MILESTONES}

    def find(m: str) -> str:
        while rep[m] != m:
            m = rep[m]
        return m

    for c in constraints:
        if c.op == "=":
            a, b = c.milestones()
            rep[find(a)] = find(b)
    return {m: find(m) for m in MILESTONES}


def witness(corpus: Corpus, version: RulesVersion, readings: dict[str, str], timeout_ms: int = TIMEOUT_MS) -> Witness:
    """One order of the milestones satisfying what the model follows under `readings` in `version`.

    Z3 is asked in a context of its own, made afresh for each witness: which order it picks among
    the many that satisfy the statements then depends only on the question, never on what else the
    process asked Z3 before (in the shared context the terms' ids, and with them the model, would)."""
    ctx = z3.Context()
    here = lambda f: f.translate(ctx)   # noqa: E731  (the same term, in the witness's context)
    aside = set_aside(readings)
    active = [s for s in in_force(corpus, version) if s.ref not in aside and s.constraints(readings)]
    skipped = tuple(sorted(s.ref for s in in_force(corpus, version) if s.ref in aside))
    mentions = {s.ref: tuple(m for c in s.constraints(readings) for m in c.milestones()) for s in active}
    track = {s.ref: z3.Bool(s.ref, ctx) for s in active}
    formula = {s.ref: here(z3.And([encode(c) for c in s.constraints(readings)])) for s in active}
    # first the most statements that can hold together (Optimize, one soft literal per statement) ...
    opt = z3.Optimize(ctx=ctx)
    opt.set("timeout", timeout_ms)
    opt.add(*[here(f) for f in structure()])
    for ref, f in formula.items():
        opt.add(z3.Implies(track[ref], f))
        opt.add_soft(track[ref])
    if opt.check() != z3.sat:
        return Witness(version.name, dict(readings), {}, tuple(track), (), skipped, "unknown")
    chosen = opt.model()
    dropped = tuple(sorted(ref for ref, t in track.items() if z3.is_false(chosen.eval(t, model_completion=True))))
    kept = tuple(ref for ref in track if ref not in dropped)
    # ... then an order of them in which milestones the statements do not tie together (`=`) get
    # moments of their own, so that the order says what comes first
    solver = z3.Solver(ctx=ctx)
    solver.set("timeout", timeout_ms)
    solver.add(*[here(f) for f in structure()])
    solver.add(*[formula[ref] for ref in kept])
    ties = _ties([c for s in active if s.ref in kept for c in s.constraints(readings)])
    ends = [(m, e) for m in MILESTONES for e in ("first", "last")]
    for (m, e), (n, f) in itertools.combinations(ends, 2):
        if ties[m] != ties[n]:
            solver.add(here(_point(m, e) != _point(n, f)))
    # a milestone is one moment unless the statements spread it out (first(x) < ... < last(x))
    single = {m: z3.Bool(f"one moment: {m}", ctx) for m in MILESTONES}
    for m in MILESTONES:
        solver.add(z3.Implies(single[m], here(_point(m, "first") == _point(m, "last"))))
    assumed = list(MILESTONES)
    while True:
        answer = solver.check(*[single[m] for m in assumed])
        if answer != z3.unsat:
            break
        core = {str(c) for c in solver.unsat_core()}
        spread = next((m for m in assumed if str(single[m]) in core), None)
        if spread is None:
            break
        assumed.remove(spread)
    if answer != z3.sat:
        return Witness(version.name, dict(readings), {}, kept, dropped, skipped, "unknown")
    model = solver.model()
    points = {m: (model.eval(here(_point(m, "first")), model_completion=True).as_long(),
                  model.eval(here(_point(m, "last")), model_completion=True).as_long()) for m in MILESTONES}
    return Witness(version.name, dict(readings), points, kept, dropped, skipped, mentions=mentions)
