"""A property's formula compiled once into Python, to answer a projection without building Z3 terms.

Checking a projection with Z3 means asserting every point of every fact the formula reads
(`zone_of(c0) = hand`, ...) and asking the solver: most of the cost is Python building those terms
(about 60 % of `verify` when it was measured), not solving. Once a projection fixes every fact the formula
reads, the formula is closed: quantifiers range over finite domains (cards, enumerations, frame
positions between literal bounds) and every function is a table (a frame position outside
0..positions reads the fact's default, as `checker._Query._outside_positions` tells Z3). So the
formula is compiled once into one Python expression over the projected values, and a projection
costs one call.

Z3 stays the judge: the checker asks Z3 every projection this evaluator answers "sat" (the
counterexample or example, and its witness, come from Z3's model), and a formula using anything
this module does not know (an unbounded integer quantifier, division, a recogniser, ...) is not
compiled at all: every projection then goes to Z3 as before. tests/test_fasteval.py asks Z3 and
this evaluator every projection of every corpus run and property and requires the same answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from .facts import Fact

MAX_CODE = 200_000   # characters of generated Python; a larger formula is left to Z3


class Unsupported(Exception):
    """A construct the evaluator does not compile (the property is then asked of Z3 only)."""


_BINARY = {z3.Z3_OP_LE: "<=", z3.Z3_OP_LT: "<", z3.Z3_OP_GE: ">=", z3.Z3_OP_GT: ">", z3.Z3_OP_EQ: "=="}
_NARY = {z3.Z3_OP_AND: " and ", z3.Z3_OP_OR: " or ", z3.Z3_OP_ADD: " + ", z3.Z3_OP_SUB: " - ",
         z3.Z3_OP_MUL: " * "}


class _Compiler:
    """Z3 expression -> Python source over `V` (the projected values, one per symbol)."""

    def __init__(self, lookup: Callable[[str], Any], symbols: list[str], cards: int, positions: int):
        self.lookup = lookup
        self.index = {name: i for i, name in enumerate(symbols)}
        self.cards = cards
        self.positions = positions
        self.depth = 0          # variables bound so far (v0 outermost)
        self.domains: list[tuple] = []   # D0, D1, ...: the finite domains quantifiers range over

    def expr(self, e: z3.ExprRef) -> str:
        if z3.is_quantifier(e):
            return self._quantifier(e)
        if z3.is_var(e):
            return f"v{self.depth - 1 - z3.get_var_index(e)}"
        if z3.is_int_value(e):
            return str(e.as_long())
        if not z3.is_app(e):
            raise Unsupported(f"{e.sexpr()[:60]}")
        d = e.decl()
        k = d.kind()
        args = [self.expr(a) for a in e.children()]
        if k == z3.Z3_OP_TRUE:
            return "True"
        if k == z3.Z3_OP_FALSE:
            return "False"
        if k in _NARY:
            if not args:
                return "True" if k == z3.Z3_OP_AND else "False" if k == z3.Z3_OP_OR else "0"
            return "(" + _NARY[k].join(args) + ")"
        if k == z3.Z3_OP_NOT:
            return f"(not {args[0]})"
        if k == z3.Z3_OP_IMPLIES:
            return f"((not {args[0]}) or {args[1]})"
        if k == z3.Z3_OP_XOR:
            return f"({args[0]} != {args[1]})"
        if k == z3.Z3_OP_ITE:
            return f"({args[1]} if {args[0]} else {args[2]})"
        if k == z3.Z3_OP_UMINUS:
            return f"(-{args[0]})"
        if k in _BINARY and len(args) == 2:
            return f"({args[0]} {_BINARY[k]} {args[1]})"
        if k == z3.Z3_OP_DISTINCT:
            return f"(len({{{', '.join(args)}}}) == {len(args)})"
        if k == z3.Z3_OP_DT_CONSTRUCTOR and not args:
            return self._constant(e)
        if k == z3.Z3_OP_UNINTERPRETED:
            return self._fact(d.name(), args)
        raise Unsupported(f"operator {d.name()}")

    def _constant(self, e: z3.ExprRef) -> str:
        name = e.decl().name()
        if e.sort().name() == "Card":
            return str(int(name[1:]))
        return repr(name)

    def _fact(self, name: str, args: list[str]) -> str:
        found = self.lookup(name)
        if found is None or name not in self.index:
            raise Unsupported(f"symbol {name}")
        _, fact, _ = found
        i = self.index[name]
        if not fact.args:
            return f"V[{i}]"
        point = args[0] if len(args) == 1 else "(" + ", ".join(args) + ",)"
        default = "False" if fact.result == "Bool" else repr(fact.default)
        value = f"({point} in V[{i}])" if fact.result == "Bool" else f"V[{i}].get({point}, {default})"
        guards = [f"0 <= {a} <= {self.positions}" for a, sort in zip(args, fact.args) if sort == "Pos"]
        if not guards:
            return value
        return f"({value} if ({' and '.join(guards)}) else {default})"

    def _quantifier(self, q: z3.QuantifierRef) -> str:
        if q.is_lambda():
            raise Unsupported("lambda")
        n = q.num_vars()
        names = [f"v{self.depth + i}" for i in range(n)]
        self.depth += n
        try:
            body = self.expr(q.body())
            ranges = [self._domain(q, i) for i in range(n)]
        finally:
            self.depth -= n
        gens = " ".join(f"for {v} in {r}" for v, r in zip(names, ranges))
        return f"({'all' if q.is_forall() else 'any'}({body} {gens}))"

    def _domain(self, q: z3.QuantifierRef, i: int) -> str:
        """The values variable i of q ranges over, as a name of `self.domains`."""
        sort = q.var_sort(i)
        if sort.kind() == z3.Z3_BOOL_SORT:
            values: tuple = (False, True)
        elif sort.kind() == z3.Z3_DATATYPE_SORT and sort.name() == "Card":
            values = tuple(range(self.cards))
        elif sort.kind() == z3.Z3_DATATYPE_SORT and all(sort.constructor(j).arity() == 0
                                                          for j in range(sort.num_constructors())):
            values = tuple(sort.constructor(j).name() for j in range(sort.num_constructors()))
        elif sort.kind() == z3.Z3_INT_SORT:
            values = tuple(range(*self._int_bounds(q, i)))
        else:
            raise Unsupported(f"a quantifier over {sort}")
        self.domains.append(values)
        return f"D{len(self.domains) - 1}"

    def _int_bounds(self, q: z3.QuantifierRef, i: int) -> tuple[int, int]:
        """[lo, hi+1) for an integer variable bounded by literals in the guard of its quantifier:
        forall x. (lo <= x and x <= hi ...) => body, or exists x. lo <= x and x <= hi and ... ."""
        body = q.body()
        op = z3.Z3_OP_IMPLIES if q.is_forall() else z3.Z3_OP_AND
        if not (z3.is_app(body) and body.decl().kind() == op):
            raise Unsupported("an integer quantifier without literal bounds")
        guard = body.arg(0) if q.is_forall() else body
        index = q.num_vars() - 1 - i        # the de Bruijn index of variable i inside the body
        lo, hi = None, None
        for c in _conjuncts(guard):
            bound = _bound(c, index)
            if bound is not None:
                side, value = bound
                if side == "lo":
                    lo = value if lo is None else max(lo, value)
                else:
                    hi = value if hi is None else min(hi, value)
        if lo is None or hi is None:
            raise Unsupported("an integer quantifier without literal bounds")
        return lo, max(lo, hi + 1)


def _conjuncts(e: z3.ExprRef) -> list[z3.ExprRef]:
    if z3.is_app(e) and e.decl().kind() == z3.Z3_OP_AND:
        return [c for a in e.children() for c in _conjuncts(a)]
    return [e]


def _bound(c: z3.ExprRef, index: int) -> tuple[str, int] | None:
    """("lo", k) for var >= k (or k <= var, var > k-1 ...), ("hi", k) for var <= k; else None."""
    if not (z3.is_app(c) and c.num_args() == 2 and c.decl().kind() in _BINARY):
        return None
    a, b = c.arg(0), c.arg(1)
    k = c.decl().kind()
    flip = {z3.Z3_OP_LE: z3.Z3_OP_GE, z3.Z3_OP_GE: z3.Z3_OP_LE, z3.Z3_OP_LT: z3.Z3_OP_GT,
            z3.Z3_OP_GT: z3.Z3_OP_LT}
    if z3.is_int_value(a) and z3.is_var(b):
        if k not in flip:
            return None
        a, b, k = b, a, flip[k]
    if not (z3.is_var(a) and z3.get_var_index(a) == index and z3.is_int_value(b)):
        return None
    n = b.as_long()
    return {z3.Z3_OP_GE: ("lo", n), z3.Z3_OP_GT: ("lo", n + 1), z3.Z3_OP_LE: ("hi", n),
            z3.Z3_OP_LT: ("hi", n - 1)}.get(k)


class Compiled:
    """A formula as a Python function of one projection (the values of its symbols, in order)."""

    def __init__(self, fn: Callable, converters: tuple):
        self._fn = fn
        self._converters = converters

    def __call__(self, values: tuple) -> bool:
        return self._fn(tuple(conv(v) for conv, v in zip(self._converters, values)))


def _converter(fact: Fact) -> Callable[[Any], Any]:
    """How a projected value is read: a function with a non-Bool result becomes a dict."""
    if fact.args and fact.result != "Bool":
        return dict
    return _same


def _same(value: Any) -> Any:
    return value


def compile_goal(goal: z3.BoolRef, lookup: Callable[[str], Any], symbols: list[str], cards: int,
                 positions: int) -> Compiled | None:
    """`goal` as a Python function of a projection, or None when it uses what this module does not
    compile (the checker caches the result per formula text and domains)."""
    compiler = _Compiler(lookup, symbols, cards, positions)
    try:
        code = compiler.expr(goal)
        if len(code) > MAX_CODE:
            raise Unsupported("too large")
        scope = {f"D{i}": d for i, d in enumerate(compiler.domains)}
        fn = eval(compile(f"lambda V: {code}", "<property>", "eval"), scope)   # noqa: S307 (our own code)
    except (Unsupported, RecursionError, SyntaxError, MemoryError, z3.Z3Exception):
        return None
    return Compiled(fn, tuple(_converter(lookup(name)[1]) for name in symbols))
