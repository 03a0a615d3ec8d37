"""The facts as Z3 symbols: the sorts, the symbols a formula is written with, and what it reads.

Each check builds its own `Vocabulary` — its own `z3.Context`, so nothing Z3 lives at module level
and two scenarios with different card counts never share a `Card` sort. Properties build their
formula through a scope: `StateScope` (`s.depth`, `s.zone_of(c)`) for state and outcome properties,
`TransitionScope` (`t.pre.depth`, `t.post.winner`, `t.broken_now(c)`) for transition properties.
The same symbols back the SMT-LIB formulas of users' property files (`parse`), so a formula written
in either language reads the same facts.

    >>> v = Vocabulary(["Kakumeijin", "Vanilla#1"], positions=2)
    >>> t = TransitionScope(v)
    >>> sorted(symbols_of(v, t.forall_cards(lambda c: z3.Implies(t.broken_now(c), t.pre.in_shields(c)))))
    ['broken_now', 'pre.in_shields']
"""

from __future__ import annotations

import builtins
import itertools
import re
from collections.abc import Callable, Sequence
from typing import Any

import z3

from ..model.errors import DmcheckError, did_you_mean
from .facts import ENUMS, STATE, TRANSITION, Fact


class Vocabulary:
    """The Z3 sorts and fact symbols of one scenario, in a context of their own."""

    def __init__(self, card_labels: Sequence[str], positions: int):
        self.ctx = z3.Context()
        self.card_labels = tuple(card_labels)
        self.positions = max(1, positions)
        self.sorts: dict[str, z3.SortRef] = {}
        self.values: dict[str, dict[str, z3.ExprRef]] = {}
        for name, values in sorted(ENUMS.items()):
            sort, consts = z3.EnumSort(name, list(values), ctx=self.ctx)
            self.sorts[name] = sort
            self.values[name] = dict(zip(values, consts))
        sort, consts = z3.EnumSort("Card", [f"c{i}" for i in range(len(self.card_labels))], ctx=self.ctx)
        self.sorts["Card"] = sort
        self.cards = tuple(consts)
        self.sorts["Bool"] = z3.BoolSort(self.ctx)
        self.sorts["Int"] = z3.IntSort(self.ctx)
        self.sorts["Pos"] = self.sorts["Int"]
        # symbol name -> (declaration, fact, where) where is "state", "pre", "post" or "transition"
        self._symbols: dict[str, tuple[z3.FuncDeclRef, Fact, str]] = {}
        self._fresh = itertools.count()

    # ---- symbols ----------------------------------------------------------------------------
    def declare(self, fact: Fact, where: str) -> z3.FuncDeclRef:
        name = fact.name if where in ("state", "transition") else f"{where}.{fact.name}"
        found = self._symbols.get(name)
        if found is None:
            domain = [self.sorts[a] for a in fact.args]
            decl = z3.Function(name, *domain, self.sorts[fact.result])
            found = (decl, fact, where)
            self._symbols[name] = found
        return found[0]

    def lookup(self, name: str) -> tuple[z3.FuncDeclRef, Fact, str] | None:
        return self._symbols.get(name)

    def symbol(self, name: str) -> tuple[z3.FuncDeclRef, Fact, str]:
        """A symbol known to be declared (one `symbols_of` found): its declaration, fact and place."""
        return self._symbols[name]

    def declarations(self, over: str) -> dict[str, z3.FuncDeclRef]:
        """Every symbol a formula over states/outcomes or transitions may use, by name."""
        out = {}
        if over == "transitions":
            for fact in TRANSITION.values():
                out[fact.name] = self.declare(fact, "transition")
            for where in ("pre", "post"):
                for fact in STATE.values():
                    out[f"{where}.{fact.name}"] = self.declare(fact, where)
        else:
            for fact in STATE.values():
                out[fact.name] = self.declare(fact, "state")
        return out

    # ---- values -----------------------------------------------------------------------------
    def const(self, sort: str, value: Any) -> z3.ExprRef:
        """The Z3 value of a Python fact value of `sort`."""
        if sort == "Bool":
            return z3.BoolVal(bool(value), self.ctx)
        if sort in ("Int", "Pos"):
            return z3.IntVal(int(value), self.ctx)
        if sort == "Card":
            return self.cards[value]
        return self.values[sort][value]

    def show(self, sort: str, value: Any) -> str:
        """A value as a person reads it (cards by their label)."""
        if sort == "Card":
            return self.card_labels[value]
        return str(value).lower() if sort == "Bool" else str(value)

    def fresh(self, sort: str, stem: str) -> z3.ExprRef:
        return z3.Const(f"{stem}{next(self._fresh)}", self.sorts[sort])


class _Scope:
    """Formula-building helpers common to every scope: values, quantifiers over cards and positions."""

    def __init__(self, vocab: Vocabulary):
        self.vocab = vocab

    @property
    def ctx(self) -> z3.Context:
        return self.vocab.ctx

    def player(self, name: str) -> z3.ExprRef:
        return self.vocab.values["Player"][name]

    def zone(self, name: str) -> z3.ExprRef:
        return self.vocab.values["Zone"][name]

    def kind(self, name: str) -> z3.ExprRef:
        return self.vocab.values["Kind"][name]

    @property
    def players(self) -> tuple[z3.ExprRef, z3.ExprRef]:
        """The two real players (not `nobody`)."""
        return self.player("A"), self.player("B")

    def int(self, n: int) -> z3.ArithRef:
        return z3.IntVal(n, self.ctx)

    def true(self) -> z3.BoolRef:
        return z3.BoolVal(True, self.ctx)

    def forall_cards(self, body: Callable[[z3.ExprRef], z3.BoolRef]) -> z3.BoolRef:
        c = self.vocab.fresh("Card", "c_")
        return z3.ForAll([c], body(c))

    def exists_cards(self, body: Callable[[z3.ExprRef], z3.BoolRef]) -> z3.BoolRef:
        c = self.vocab.fresh("Card", "c_")
        return z3.Exists([c], body(c))

    def forall_positions(self, body: Callable[..., z3.BoolRef], arity: builtins.int = 1) -> z3.BoolRef:
        """For every frame stack position 1..max (several at once with arity > 1)."""
        xs = [self.vocab.fresh("Int", "i_") for _ in range(arity)]
        bounds = [z3.And(x >= 1, x <= self.vocab.positions) for x in xs]
        return z3.ForAll(xs, z3.Implies(z3.And(bounds), body(*xs)))


class StateScope(_Scope):
    """The state facts by name: `s.depth` (a constant) or `s.zone_of` (a function to apply)."""

    def __init__(self, vocab: Vocabulary, where: str = "state"):
        super().__init__(vocab)
        self._where = where

    def __getattr__(self, name: str) -> Any:
        fact = STATE.get(name)
        if fact is None:
            raise AttributeError(f"no state fact {name!r}; see properties/facts.py")
        decl = self.vocab.declare(fact, self._where)
        return decl() if not fact.args else decl


class TransitionScope(_Scope):
    """Transition facts by name, with the state before (`pre`) and after (`post`) the transition."""

    def __init__(self, vocab: Vocabulary):
        super().__init__(vocab)
        self.pre = StateScope(vocab, "pre")
        self.post = StateScope(vocab, "post")

    def __getattr__(self, name: str) -> Any:
        fact = TRANSITION.get(name)
        if fact is None:
            raise AttributeError(f"no transition fact {name!r}; state facts are t.pre.{name} / t.post.{name}")
        decl = self.vocab.declare(fact, "transition")
        return decl() if not fact.args else decl


def scope_for(vocab: Vocabulary, over: str) -> _Scope:
    return TransitionScope(vocab) if over == "transitions" else StateScope(vocab)


def symbols_of(vocab: Vocabulary, formula: z3.ExprRef) -> set[str]:
    """The names of the fact symbols a formula reads (bound variables and sort values excluded)."""
    names: set[str] = set()
    seen: set[int] = set()
    stack = [formula]
    while stack:
        e = stack.pop()
        key = e.get_id()
        if key in seen:
            continue
        seen.add(key)
        if z3.is_quantifier(e):
            stack.append(e.body())
            continue
        if z3.is_var(e) or not z3.is_app(e):
            continue
        d = e.decl()
        if d.kind() == z3.Z3_OP_UNINTERPRETED and vocab.lookup(d.name()) is not None:
            names.add(d.name())
        stack.extend(e.children())
    return names


class FormulaError(DmcheckError, ValueError):
    """An SMT-LIB formula that does not parse or is not a Boolean condition."""


_QUOTED = re.compile(r"\|([^|\\]*)\|")


def quoted_names(text: str, over: str) -> list[str]:
    """The SMT-LIB quoted symbols of a formula (`|Homing Drake|`, `|Vanilla#2|`) that are no fact,
    in order of appearance: the cards it names. Which scenario has them is known only when it runs."""
    taken = {f.name for f in STATE.values()} | {v for values in ENUMS.values() for v in values}
    if over == "transitions":
        taken |= {f.name for f in TRANSITION.values()} | {f"{w}.{f.name}" for w in ("pre", "post")
                                                          for f in STATE.values()}
    out: list[str] = []
    for name in _QUOTED.findall(text):
        if name not in taken and name not in out:
            out.append(name)
    return out


MAX_FORMULA = 20_000      # characters in one formula (docs/limits.md)
MAX_FORMULA_DEPTH = 100   # parentheses inside one another


def _tokens(text: str):
    """SMT-LIB tokens: `(`, `)`, and atoms (strings, |quoted| symbols and comments handled)."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c == ";":
            while i < n and text[i] != "\n":
                i += 1
        elif c in "()":
            yield c
            i += 1
        elif c in "|\"":
            end = text.find(c, i + 1)
            while c == '"' and end != -1 and text[end + 1:end + 2] == '"':   # "" escapes a quote
                end = text.find(c, end + 2)
            if end == -1:
                raise FormulaError(f"unterminated {c} at character {i + 1}")
            yield text[i:end + 1]
            i = end + 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in '();|"':
                j += 1
            yield text[i:j]
            i = j


def one_term(text: str) -> None:
    """Raise a FormulaError unless `text` is exactly one SMT-LIB term with nothing after it.

    Checked before Z3 reads it: `true) (exit) (assert true` would otherwise close the `assert` we
    wrap around it, and `(exit)` stops Z3's reader, so a formula could smuggle in commands."""
    if len(text) > MAX_FORMULA:
        raise FormulaError(f"the formula has {len(text)} characters; the limit is {MAX_FORMULA}")
    depth, terms = 0, 0
    for token in _tokens(text):
        if depth == 0 and terms == 1:
            raise FormulaError(f"expected exactly one term, found more after it (at {token[:30]!r})")
        if token == "(":
            depth += 1
            if depth > MAX_FORMULA_DEPTH:
                raise FormulaError(f"parentheses nested more than {MAX_FORMULA_DEPTH} deep; the limit is "
                                   f"{MAX_FORMULA_DEPTH}")
        elif token == ")":
            depth -= 1
            if depth < 0:
                raise FormulaError("a ')' closes nothing; expected exactly one term")
            if depth == 0:
                terms += 1
        elif depth == 0:
            terms += 1
    if depth > 0:
        raise FormulaError(f"{depth} '(' not closed; expected exactly one term")
    if terms == 0:
        raise FormulaError("the formula is empty; expected exactly one term")


def parse(vocab: Vocabulary, over: str, text: str) -> z3.BoolRef:
    """An SMT-LIB 2 term over the fact symbols, e.g. `(=> (> depth 0) (= winner nobody))`.

    Every card of the scenario is a constant of sort Card named by its label (model/table.py): a
    quoted symbol `|Kakumeijin|`, or `|Vanilla#2|` for the second copy of a card the scenario has
    several of. A label that is also a fact's name stays the fact.
    """
    one_term(text)
    decls = dict(vocab.declarations(over))
    for label, card in zip(vocab.card_labels, vocab.cards):
        decls.setdefault(label, card)
    sorts = {name: vocab.sorts[name] for name in ("Player", "Zone", "Kind", "ActionKind", "Card")}
    try:
        parsed = z3.parse_smt2_string(f"(assert {text})", sorts=sorts, decls=decls, ctx=vocab.ctx)
    except z3.Z3Exception as exc:
        message = exc.value.decode() if isinstance(exc.value, bytes) else str(exc.value)
        message = message.strip().removeprefix("(error").strip().strip(")").strip().strip('"')
        unknown = re.search(r"unknown constant (\S+)", message)
        if unknown:      # a misspelt fact or value: name the closest ones
            known = [*decls, *(v for values in ENUMS.values() for v in values)]
            message += did_you_mean(unknown.group(1).strip("|"), known)
        raise FormulaError(message.replace("invalid assert command, term", "the formula")) from None
    if len(parsed) != 1:
        raise FormulaError("expected exactly one term")
    return parsed[0]
