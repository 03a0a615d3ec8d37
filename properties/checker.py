"""Checking properties on an explored state graph with Z3, with shortest counterexamples.

For each property that applies to the scenario: one incremental `z3.Solver` holding the negated
condition (`always`) or the condition (`sometimes`), named after the property and its citations.
The graph is walked once, breadth first. Each state, transition or outcome is *projected* onto the
facts the property's formula reads (`symbols.symbols_of`), and only a projection not seen before
costs a query: push, assert the projected facts, check, pop. A property that reads three facts thus
costs as many queries as there are distinct combinations of those three facts, however large the
graph; every other item is a cache hit. Facts are read once per state and once per transition into
a vector shared by all properties (`_Vectors`), and a projection is an `itemgetter` of that vector.

A query is answered first by the formula compiled into Python (fasteval.py, once per property and
size of scenario): its "unsat" is final, its "sat" goes to Z3, whose model is the witness. So the
solver (and the vocabulary's Z3 context) is made only for a property that finds something or that
fasteval.py cannot compile; tests/test_fasteval.py proves both answer alike on every projection.

Verdicts (CrossHair's three, in our words):
- `holds` — the search was complete and every projection was unsat (always), or an example was
  found (sometimes; its trace is the witness);
- `violated` — a projection was sat: the first such item in breadth-first order gives the shortest
  trace to the violation, and the Z3 model that witnessed it is reported fact by fact; for
  `sometimes`, a complete search found no example;
- `no example` — a built-in sanity `sometimes` property found no example in a complete search of
  this scenario: the thing cannot happen here (a spell that cannot be paid for), which is no fault
  of the model's; the guard against a vacuous model is the corpus test that every built-in
  `sometimes` property has an example in some corpus scenario (tests/test_right_answers.py). A
  user's own `sometimes` property without an example stays `violated`;
- `inconclusive` — the search was incomplete (a limit was hit) and nothing was found, or the solver
  said unknown. Never `holds` for an incomplete search.

Only the `StateGraph` interface of graph.py is used: nothing here knows how the explorer works.
"""

from __future__ import annotations

import builtins
import math
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

import z3

from ..model.lang import tr
from .facts import Domains, Fact, Transition, table
from .fasteval import compile_goal
from .graph import StateGraph, TraceView
from .property import Property
from .symbols import Vocabulary, scope_for, symbols_of
from .verdict import HOLDS, INCONCLUSIVE, NO_EXAMPLE, VIOLATED, PropertyVerdictName

QUERY_TIMEOUT_MS = 20_000
CROSSCHECK = False   # tests: ask Z3 every projection too, and record where fasteval.py differs


@dataclass
class Counts:
    """What checking one property (or all of them, summed) cost."""

    items: int = 0          # states, transitions or outcomes visited
    projections: int = 0    # distinct projections met in this check
    queries: int = 0        # projections answered now (Z3 or the compiled formula); the rest were known
    cache_hits: int = 0     # items answered from the projection cache (this check's or an earlier one's)
    seconds: float = 0.0    # time spent asserting facts and in the solver

    def add(self, other: Counts) -> None:
        self.items += other.items
        self.projections += other.projections
        self.queries += other.queries
        self.cache_hits += other.cache_hits
        self.seconds += other.seconds


@dataclass(frozen=True)
class PropertyVerdict:
    property: Property
    verdict: PropertyVerdictName
    reason: str
    counts: Counts
    trace: TraceView | None = None                  # counterexample (violated) or example (sometimes)
    witness: tuple[tuple[str, str], ...] = ()   # the Z3 model: (fact, value) for each fact read
    symbols: tuple[str, ...] = ()               # the facts the formula reads

    @builtins.property   # the field `property` hides the built-in in this class's body
    def holds(self) -> bool:
        return self.verdict == HOLDS


@dataclass
class CheckResult:
    verdicts: list[PropertyVerdict] = field(default_factory=list)
    not_applicable: list[tuple[Property, str]] = field(default_factory=list)
    counts: Counts = field(default_factory=Counts)
    facts_seconds: float = 0.0    # reading facts from states and events
    seconds: float = 0.0          # everything, walking the graph and building formulas included


# ---- the graph, breadth first --------------------------------------------------------------------
class _Walk:
    """The graph's nodes in breadth-first order from the initial state, and the deepest frame stack."""

    def __init__(self, graph: StateGraph):
        self.order: list[int] = []
        self.edges: dict[int, list[tuple[int, int, tuple]]] = {}
        deepest = 1
        seen = {0}
        queue = deque([0])
        while queue:
            node = queue.popleft()
            self.order.append(node)
            deepest = max(deepest, len(graph.state(node).frames))
            out = graph.successors(node)
            self.edges[node] = out
            for _, succ, events in out:
                for e in events:
                    if e.kind in ("choose_shields", "break"):
                        deepest = max(deepest, e.get("frame") or 0)
                if succ not in seen:
                    seen.add(succ)
                    queue.append(succ)
        # one spare position: a frame opened and broken inside one transition above a lingering one
        self.positions = deepest + 1


class _Vectors:
    """The facts any property needs, read once per state and once per transition, as tuples.

    A transition's vector is (state facts before) + (state facts after) + (transition facts), so a
    property's projection is one `itemgetter` whatever it reads.
    """

    def __init__(self, graph: StateGraph, domains: Domains, state_facts: list[Fact],
                 transition_facts: list[Fact]):
        self.graph = graph
        self.domains = domains
        self.state_facts = state_facts
        self.transition_facts = transition_facts
        self._state_readers = [f.read for f in state_facts]
        self._transition_readers = [f.read for f in transition_facts]
        self._states: dict[int, tuple] = {}
        self._actions: dict[int, tuple] = {}
        self.seconds = 0.0

    def state(self, node: int) -> tuple:
        found = self._states.get(node)
        if found is None:
            start = time.perf_counter()
            s, d = self.graph.state(node), self.domains
            memo: dict[str, Any] = {}
            found = tuple([read(d, s, memo) for read in self._state_readers])
            self._states[node] = found
            self.seconds += time.perf_counter() - start
        return found

    def transition(self, node: int, index: int, succ: int, events: tuple) -> tuple:
        # read the state after on the same card names as the state before (symmetry may have renamed
        # identical cards in the stored successor)
        arrival = self.graph.arrival(node, index) if getattr(self.graph, "symmetry", None) is not None \
            else self.graph.state(succ)
        pre = self.state(node)
        post = self.state(succ) if arrival is self.graph.state(succ) else self._read(arrival)
        if not self.transition_facts:
            return pre + post
        start = time.perf_counter()
        t = Transition(self.graph.state(node), index, events, arrival, lambda: self._action(node, index))
        d = self.domains
        memo: dict[str, Any] = {}
        own = tuple([read(d, t, memo) for read in self._transition_readers])
        self.seconds += time.perf_counter() - start
        return pre + post + own

    def _read(self, s) -> tuple:
        start = time.perf_counter()
        d = self.domains
        memo: dict[str, Any] = {}
        found = tuple([read(d, s, memo) for read in self._state_readers])
        self.seconds += time.perf_counter() - start
        return found

    def _action(self, node: int, index: int):
        acts = self._actions.get(node)
        if acts is None:
            acts = self._actions[node] = self.graph.model.actions(self.graph.state(node))
        return acts[index]


# ---- what checks of one vocabulary share ------------------------------------------------------------
class _Solved:
    """One property's goal, solver and answers in one vocabulary: the same projection means the same
    thing in every graph of that vocabulary, so its answer is kept for the next check (a sweep's
    positions, verify's runs of one scenario)."""

    def __init__(self) -> None:
        self.goal: z3.BoolRef | None = None
        self.solver: z3.Solver | None = None
        self.cache: dict[Any, tuple[str, Any]] = {}   # projection -> ("sat"|"unsat"|"unknown", witness or why)


class _Shared:
    """Z3's context and sorts for one vocabulary (card labels, frame positions), made on first need,
    and per property what it solved (`_Solved`)."""

    def __init__(self, labels: tuple[str, ...], positions: int):
        self.labels, self.positions = labels, positions
        self._vocab: Vocabulary | None = None
        self.assertions: dict = {}                   # (symbol, value) -> equalities, for every property
        self.solved: dict[tuple, _Solved] = {}

    def vocab(self) -> Vocabulary:
        if self._vocab is None:
            self._vocab = Vocabulary(self.labels, self.positions)
        return self._vocab

    def of(self, prop: Property, timeout_ms: int) -> _Solved:
        return self.solved.setdefault((prop, timeout_ms), _Solved())


_SHARED: dict[tuple, _Shared] = {}
# kept per process, the most recently used: each holds a Z3 context, about 16 MB of memory; verify's
# runs (273 checks, 197 vocabularies) make 223 with two kept against 207 with eight, and peak 120 MB lower
SHARED_VOCABULARIES = 2


def forget_shared() -> None:
    """Drop every kept vocabulary: called when Z3's contexts were interrupted (a deadline, Ctrl-C), since an
    interrupted context refuses every later query ("push canceled"), and its answers may be cut short."""
    _SHARED.clear()


def _shared(labels: tuple[str, ...], positions: int) -> _Shared:
    """The shared state of a vocabulary, the most recently used kept (setting Z3 up was most of the
    time of checking a small scenario: a context, its sorts and a solver per property)."""
    key = (labels, positions)
    found = _SHARED.pop(key, None) or _Shared(labels, positions)
    _SHARED[key] = found
    while len(_SHARED) > SHARED_VOCABULARIES:
        del _SHARED[next(iter(_SHARED))]
    return found


# ---- one property's solver ------------------------------------------------------------------------
def _unplanned(vector: tuple) -> Any:
    raise RuntimeError("a query's projection is read before _plan made it")


class _Query:
    """One property's incremental solver, its projection cache and what it found."""

    def __init__(self, prop: Property, shared: _Shared, domains: Domains, timeout_ms: int):
        self.prop = prop
        self._vocab = shared.vocab       # the vocabulary, made when Z3 is first needed
        self.domains = domains
        self.timeout_ms = timeout_ms
        self._solved = shared.of(prop, timeout_ms)   # goal, solver (made when Z3 is needed) and answers
        self.symbols, self.where, self.fast = _shape(self)
        self.cache = self._solved.cache
        self.seen: set = set()           # the projections met in this check (its figures)
        self.assertions = shared.assertions   # shared by all properties: (symbol, value) -> equalities
        self.counts = Counts()
        self.unknown: list[str] = []
        self.found: tuple | None = None  # (item, witness) of the first sat projection
        self.get: Callable[[tuple], Any] = _unplanned   # the projection from a fact vector (_plan)
        self.disagreements: list[Any] = []   # projections where fasteval and Z3 differ (CROSSCHECK)

    @property
    def vocab(self) -> Vocabulary:
        return self._vocab()

    @property
    def goal(self) -> z3.BoolRef:
        """What a projection must make satisfiable to be found: the negated condition (always) or the
        condition (sometimes), built in the check's vocabulary on first use."""
        if self._solved.goal is None:
            formula = self.prop.condition(scope_for(self.vocab, self.prop.over))
            self._solved.goal = z3.Not(formula) if self.prop.kind == "always" else formula
        return self._solved.goal

    @property
    def solver(self) -> z3.Solver:
        """The property's incremental solver, made on first use."""
        if self._solved.solver is None:
            solver = z3.Solver(ctx=self.vocab.ctx)
            solver.set("timeout", self.timeout_ms)
            # named with the property and its rules, so an unsat core reads as citations
            solver.assert_and_track(self.goal, z3.Bool(f"{self.prop.id} [{', '.join(self.prop.citations)}]",
                                                       self.vocab.ctx))
            self._solved.solver = solver
            for name in self.symbols:
                self._outside_positions(name)
        return self._solved.solver

    def _outside_positions(self, name: str) -> None:
        """A function of a frame position takes its default outside 0..max, so that a formula that
        reads beyond the deepest frame reads "no frame there" rather than anything at all."""
        decl, fact, _ = self.vocab.symbol(name)
        if "Pos" not in fact.args:
            return
        xs = [self.vocab.fresh(sort, "x_") for sort in fact.args]
        outside = z3.Or([z3.Or(x < 0, x > self.domains.positions) for x, sort in zip(xs, fact.args) if sort == "Pos"])
        default = (z3.BoolVal(False, self.vocab.ctx) if fact.result == "Bool"
                   else self.vocab.const(fact.result, fact.default))
        self.solver.add(z3.ForAll(xs, z3.Implies(outside, decl(*xs) == default)))

    def ask(self, key: Any) -> str:
        """"sat", "unsat" or "unknown" for a projection: from the cache, from the compiled formula
        (an "unsat" it gives is final; a "sat" is asked of Z3, whose model is the witness), or Z3."""
        self.counts.items += 1
        self.meet(key)
        found = self.cache.get(key)
        if found is not None:
            self.counts.cache_hits += 1
            return self.recall(found)
        values = key if len(self.symbols) != 1 else (key,)
        start = time.process_time()
        witness: tuple | str
        if self.fast is not None and not CROSSCHECK and not self.fast(values):
            result, witness = "unsat", ()
        else:
            result, witness = self._z3(values)
            if self.fast is not None and self.fast(values) != (result == "sat") and result != "unknown":
                self._disagree(key)
        self.counts.seconds += time.process_time() - start
        self.counts.queries += 1
        self.cache[key] = (result, witness)
        return result

    def _z3(self, values: tuple) -> tuple[str, tuple | str]:
        """One solver query: push, assert the projected facts, check, pop."""
        solver = self.solver
        solver.push()
        for name, value in zip(self.symbols, values):
            solver.add(self._equalities(name, value))
        answer = solver.check()
        witness: tuple | str = ()
        if answer == z3.sat:
            result = "sat"
            witness = self._witness(solver.model())
        elif answer == z3.unsat:
            result = "unsat"
        else:
            result = "unknown"
            why: str = solver.reason_unknown()   # kept with the answer: a later check says it again
            self.unknown.append(why)
            witness = why
        solver.pop()
        return result, witness

    def _disagree(self, key: Any) -> None:
        """The compiled formula and Z3 differ: a bug of fasteval.py. Z3's answers stand from now on,
        and, since the earlier "unsat" answers came from the compiled formula, a property found to
        hold is reported inconclusive (the solver's unknown list says why)."""
        self.disagreements.append(key)
        if not CROSSCHECK:
            self.fast = None
            self.unknown.append("the compiled formula disagreed with Z3 on a projection (a dmcheck bug)")

    def meet(self, key: Any) -> None:
        """Count a projection this check meets for the first time (whoever answered it first)."""
        if key not in self.seen:
            self.seen.add(key)
            self.counts.projections += 1

    def recall(self, found: tuple[str, Any]) -> str:
        """A cached answer, which may come from an earlier check of the same vocabulary: an unknown
        is reported again, so that this check is inconclusive too."""
        if found[0] == "unknown":
            self.unknown.append(found[1])
        return found[0]

    def witness_of(self, key: Any) -> tuple:
        return self.cache[key][1]

    def _equalities(self, name: str, value: Any) -> z3.BoolRef:
        """The facts `name = value` as one conjunction (built once per distinct value, shared)."""
        key = (name, value)
        found = self.assertions.get(key)
        if found is None:
            decl, fact, _ = self.vocab.symbol(name)
            if not fact.args:
                found = decl() == self.vocab.const(fact.result, value)
            else:
                terms = self._terms(name, decl, fact)
                found = z3.And([t == self.vocab.const(fact.result, v)
                                for t, v in zip(terms, table(self.domains, fact, value))])
            self.assertions[key] = found
        return found

    def _terms(self, name: str, decl: z3.FuncDeclRef, fact: Fact) -> list[z3.ExprRef]:
        """The function applied to every point of its domain: zone_of(c0), zone_of(c1), ..."""
        key = ("terms", name)
        found = self.assertions.get(key)
        if found is None:
            found = [decl(*[self.vocab.const(sort, a) for sort, a in zip(fact.args, point)])
                     for point in self.domains.points(fact.args)]
            self.assertions[key] = found
        return found

    def _witness(self, model: z3.ModelRef) -> tuple[tuple[str, str], ...]:
        """The model's value of every fact the formula reads, as a person reads it."""
        out = []
        for name in self.symbols:
            decl, fact, _ = self.vocab.symbol(name)
            if not fact.args:
                out.append((name, self._show(fact.result, model.eval(decl(), model_completion=True))))
                continue
            entries = []
            for point, term in zip(self.domains.points(fact.args), self._terms(name, decl, fact)):
                value = self._show(fact.result, model.eval(term, model_completion=True))
                shown = ", ".join(self.vocab.show(sort, a) for sort, a in zip(fact.args, point))
                entries.append((shown, value))
            out.append((name, _summarise(entries)))
        return tuple(out)

    def _show(self, sort: str, value: z3.ExprRef) -> str:
        if sort == "Bool":
            return "true" if z3.is_true(value) else "false"
        if sort == "Card":
            return self.vocab.card_labels[int(str(value)[1:])]
        return str(value)


_SHAPES: dict[tuple, tuple[list[str], dict[str, tuple[Fact, str]], Any]] = {}


def _shape(q: _Query) -> tuple[list[str], dict[str, tuple[Fact, str]], Any]:
    """The symbols a property's goal reads, where each is read (`_plan`), and the goal compiled
    (fasteval.py): once per property and size of scenario, since a condition is a function of the
    vocabulary's number of cards (their labels, for a property naming cards) and positions alone (its
    bound variables' names aside)."""
    cards = q.domains.labels if q.prop.cards else q.domains.cards   # a formula naming cards: their labels
    key = (q.prop, cards, q.domains.positions)
    try:
        found = _SHAPES.get(key)
        shared = True
    except TypeError:      # a property that cannot be hashed: no sharing
        found, shared = None, False
    if found is None:
        vocab = q.vocab
        symbols = sorted(symbols_of(vocab, q.goal))
        where = {name: vocab.symbol(name)[1:] for name in symbols}
        fast = compile_goal(q.goal, vocab.lookup, symbols, q.domains.cards, q.domains.positions)
        found = (symbols, where, fast)
        if shared:
            _SHAPES[key] = found
    return found


def _summarise(entries: list[tuple[str, str]]) -> str:
    """A function table in few words: the entries that differ from its most common value."""
    common, _ = Counter(v for _, v in entries).most_common(1)[0]
    odd = [f"{k}: {v}" for k, v in entries if v != common]
    if not odd:
        return f"{common} everywhere"
    return "{" + "; ".join(odd) + (f"; otherwise {common}" if len(odd) < len(entries) else "") + "}"


# ---- the pass over the graph ------------------------------------------------------------------------
def _plan(queries: list[_Query]) -> tuple[list[Fact], list[Fact]]:
    """The state and transition facts any property reads, and each property's getter over the vectors."""
    state_facts: list[Fact] = []
    transition_facts: list[Fact] = []
    for q in queries:
        for name in q.symbols:
            fact, where = q.where[name]
            bucket = transition_facts if where == "transition" else state_facts
            if fact not in bucket:
                bucket.append(fact)
    n = len(state_facts)
    for q in queries:
        index = []
        for name in q.symbols:
            fact, where = q.where[name]
            if where == "transition":
                index.append(2 * n + transition_facts.index(fact))
            else:
                index.append(state_facts.index(fact) + (n if where == "post" else 0))
        q.get = itemgetter(*index) if index else (lambda vector: ())
    return state_facts, transition_facts


def _visit(queries: list[_Query], vector: tuple, item: Any) -> None:
    """Ask each live property about one item: a cache hit, or one query (the hot loop, kept flat)."""
    for q in queries:
        if q.found is None:
            key = q.get(vector)
            found = q.cache.get(key)
            if found is not None:
                # answered before, in this check or an earlier one of the same vocabulary
                q.counts.items += 1
                q.counts.cache_hits += 1
                q.meet(key)
                if q.recall(found) == "sat":
                    q.found = (item, found[1])
            elif q.ask(key) == "sat":
                q.found = (item, q.witness_of(key))


def _walk(walk: _Walk, graph: StateGraph, vectors: _Vectors, queries: list[_Query],
          deadline: float = math.inf) -> bool:
    """Ask every live property about every state and transition; False when the deadline (a
    time.monotonic() value) stopped the walk first, leaving undecided what had no answer by then."""
    by_over = {over: [q for q in queries if q.prop.over == over] for over in ("states", "outcomes", "transitions")}
    for count, node in enumerate(walk.order):
        if count & 255 == 0 and time.monotonic() > deadline:
            return False
        live_states = [q for q in by_over["states"] if q.found is None]
        live_outcomes = [q for q in by_over["outcomes"] if q.found is None] if graph.is_terminal(node) else []
        if live_states or live_outcomes:
            vector = vectors.state(node)
            _visit(live_states, vector, node)
            _visit(live_outcomes, vector, node)
        live = [q for q in by_over["transitions"] if q.found is None]
        if not live:
            continue
        for index, succ, events in walk.edges[node]:
            _visit(live, vectors.transition(node, index, succ, events), (node, index))
    return True


def _noun(prop: Property, n: int) -> str:
    word = {"states": "state", "transitions": "transition", "outcomes": "outcome"}[prop.over]
    return tr(f"{{n}} {word}{'s' if n != 1 else ''}", n=n)


@dataclass
class Found:
    """What checking one property found, before its trace is drawn: plain data, so that a worker
    process can send it back (rulings/verify.py, `verify --jobs`) and the graph's owner draw it."""

    index: int                                # of the property in the list checked
    counts: Counts
    symbols: tuple[str, ...]
    found: tuple | None                       # (item, witness) of the first sat projection
    unknown: list[str]
    stopped: bool = False                     # the time limit ended the walk before it saw everything


def _verdict(prop: Property, f: Found, graph: StateGraph) -> PropertyVerdict:
    counts, symbols = f.counts, f.symbols
    if f.found is not None:
        item, witness = f.found
        if prop.over == "transitions":
            node, index = item
            trace = graph.trace(node, [(node, index)])
        else:
            trace = graph.trace(item)
        step = tr("step {n}", n=len(trace.steps)) if trace.steps else tr("the initial state")
        if prop.kind == "always":
            where = tr({"transitions": "the transition of {step}", "states": "the state after {step}",
                        "outcomes": "the outcome after {step}"}[prop.over], step=step)
            if not trace.steps:
                where = tr("the initial state")
            return PropertyVerdict(prop, VIOLATED, tr("{where} breaks it (shortest counterexample)", where=where),
                                   counts, trace, witness, symbols)
        return PropertyVerdict(prop, HOLDS, tr("an example at {step}", step=step), counts, trace, witness, symbols)
    what = tr("no counterexample") if prop.kind == "always" else tr("no example")
    if f.stopped:
        return PropertyVerdict(prop, INCONCLUSIVE, tr("{what} in the {items} checked before the time limit stopped "
                                                      "the check", what=what, items=_noun(prop, counts.items)),
                               counts, symbols=symbols)
    if f.unknown:
        return PropertyVerdict(prop, INCONCLUSIVE, tr("the solver answered unknown on {n} projection(s) ({why})",
                                                      n=len(f.unknown), why=f.unknown[0]), counts, symbols=symbols)
    if not graph.complete:
        return PropertyVerdict(prop, INCONCLUSIVE, tr("{what} in the {items} explored, but the search is incomplete "
                                                      "({why})", what=what, items=_noun(prop, counts.items),
                                                      why=graph.reason), counts, symbols=symbols)
    if prop.kind == "sometimes" and prop.origin == "built-in":
        return PropertyVerdict(prop, NO_EXAMPLE, tr("no example in this scenario (none of the {items}); a sanity "
                                                    "check, not a finding", items=_noun(prop, counts.items)),
                               counts, symbols=symbols)
    if prop.kind == "sometimes":
        return PropertyVerdict(prop, VIOLATED, tr("none of the {items} is an example",
                                                  items=_noun(prop, counts.items)), counts, symbols=symbols)
    return PropertyVerdict(prop, HOLDS, tr("all {items} checked, {n} distinct projection(s) unsat",
                                           items=_noun(prop, counts.items), n=counts.projections),
                           counts, symbols=symbols)


@dataclass
class Search:
    """One pass of the checker over a graph, before any trace is drawn (plain data but `queries`)."""

    found: list[Found] = field(default_factory=list)
    not_applicable: list[tuple[int, str]] = field(default_factory=list)   # (index, why)
    facts_seconds: float = 0.0
    seconds: float = 0.0
    queries: list[_Query] = field(default_factory=list)


def search(graph: StateGraph, properties: list[Property] | tuple[Property, ...],
           timeout_ms: int = QUERY_TIMEOUT_MS, deadline: float = math.inf) -> Search:
    """Walk the graph once for every property that applies (the work of `check`, traces aside); a
    walk stopped by `deadline` (time.monotonic) leaves undecided what had no answer by then."""
    start = time.perf_counter()
    out = Search()
    model = graph.model
    applicable = []
    for i, prop in enumerate(properties):
        why = prop.applies(model)
        if why:
            out.not_applicable.append((i, why))
        else:
            applicable.append(i)
    if applicable:
        walk = _Walk(graph)
        domains = Domains(model, walk.positions)
        shared = _shared(domains.labels, domains.positions)
        out.queries = [_Query(properties[i], shared, domains, timeout_ms) for i in applicable]
        vectors = _Vectors(graph, domains, *_plan(out.queries))
        whole = _walk(walk, graph, vectors, out.queries, deadline)
        out.found = [Found(i, q.counts, tuple(q.symbols), q.found, q.unknown, stopped=not whole)
                     for i, q in zip(applicable, out.queries)]
        out.facts_seconds = vectors.seconds
    out.seconds = time.perf_counter() - start
    return out


def result(graph: StateGraph, properties: list[Property] | tuple[Property, ...], done: Search) -> CheckResult:
    """The verdicts of a search, each with its trace drawn from the graph."""
    start = time.perf_counter()
    out = CheckResult(not_applicable=[(properties[i], why) for i, why in done.not_applicable])
    for f in done.found:
        verdict = _verdict(properties[f.index], f, graph)
        out.verdicts.append(verdict)
        out.counts.add(verdict.counts)
    out.facts_seconds = done.facts_seconds
    out.seconds = done.seconds + time.perf_counter() - start
    return out


def check(graph: StateGraph, properties: list[Property] | tuple[Property, ...],
          timeout_ms: int = QUERY_TIMEOUT_MS, deadline: float = math.inf) -> CheckResult:
    """Check every property that applies to the graph's scenario (see the module docstring).

    `timeout_ms` bounds each solver query; a query that runs out answers unknown (inconclusive).
    `deadline` (a time.monotonic() value) bounds the walk: a property decided by then keeps its
    verdict and its trace, the others are inconclusive.
    """
    return result(graph, properties, search(graph, properties, timeout_ms, deadline))


def watch(graph: StateGraph, formulas: list[Property] | tuple[Property, ...], nodes: list[int],
          timeout_ms: int = QUERY_TIMEOUT_MS) -> list[list[bool | None]]:
    """Each state formula's value at each node (True, False, or None when the solver could not say, or
    the formula names a card the scenario lacks): the watch expressions of the HTML page, evaluated like
    the variables of TLC's trace explorer. Each distinct projection is decided once (`_Query`)."""
    model = graph.model
    walk = _Walk(graph)
    domains = Domains(model, walk.positions)
    shared = _shared(domains.labels, domains.positions)
    live = [f for f in formulas if not f.applies(model)]
    queries = [_Query(f, shared, domains, timeout_ms) for f in live]
    vectors = _Vectors(graph, domains, *_plan(queries))
    answers = {f: q for f, q in zip(live, queries)}
    out: list[list[bool | None]] = []
    for formula in formulas:
        q = answers.get(formula)
        if q is None:
            out.append([None] * len(nodes))
            continue
        row: list[bool | None] = []
        for node in nodes:
            said = q.ask(q.get(vectors.state(node)))
            row.append(True if said == "sat" else False if said == "unsat" else None)
        out.append(row)
    return out
