"""The compiled formulas of properties/fasteval.py answer exactly as Z3 does.

The checker trusts a compiled formula's "unsat" without asking Z3, so the two
must agree on every projection: on random projections of every built-in property (values no
scenario reaches, frame positions beyond the deepest included), on every projection of every
corpus scenario that `verify` checks (slow: Z3 is asked each one too), and on user formulas in
SMT-LIB. A formula the evaluator does not know must be left to Z3, never guessed.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dmcheck.properties import checker
from dmcheck.properties.builtin import BUILTIN
from dmcheck.properties.facts import ENUMS, Domains
from dmcheck.properties.property import Property
from dmcheck.properties.symbols import parse


def _domains(cards: int, positions: int) -> Domains:
    model = SimpleNamespace(instances=[SimpleNamespace(label=f"Card#{i}") for i in range(cards)])
    return Domains(model, positions)


def _query(prop: Property, cards: int, positions: int) -> checker._Query:
    domains = _domains(cards, positions)   # a vocabulary of its own, nothing shared with other checks
    return checker._Query(prop, checker._Shared(domains.labels, domains.positions), domains, checker.QUERY_TIMEOUT_MS)


def _value(draw, sort: str, positions: int):
    if sort == "Bool":
        return draw(st.booleans())
    if sort in ("Int", "Pos"):
        return draw(st.integers(-1, positions + 2))
    return draw(st.sampled_from(ENUMS[sort]))


def _point_values(sort: str, cards: int, positions: int) -> tuple:
    """A sort's values for a function's arguments; positions one past the table's end included."""
    if sort == "Card":
        return tuple(range(cards))
    if sort == "Pos":
        return tuple(range(positions + 2))
    return ENUMS[sort]


@st.composite
def _projection(draw, q: checker._Query, cards: int, positions: int) -> tuple:
    """Random values for every symbol the property reads, in the sparse form facts.py reads."""
    out = []
    for name in q.symbols:
        fact, _ = q.where[name]
        if not fact.args:
            out.append(_value(draw, fact.result, positions))
            continue
        axes = [_point_values(a, cards, positions) for a in fact.args]
        points = [tuple(draw(st.sampled_from(axis)) for axis in axes) for _ in range(draw(st.integers(0, 4)))]
        points = [p[0] if len(p) == 1 else p for p in points]
        if fact.result == "Bool":
            out.append(frozenset(points))
        else:
            out.append(frozenset({p: _value(draw, fact.result, positions) for p in points}.items()))
    return tuple(out)


def _agree(q: checker._Query, values: tuple) -> None:
    answer, _ = q._z3(values)
    assert answer in ("sat", "unsat")
    assert q.fast(values) == (answer == "sat"), (q.prop.id, q.symbols, values)


# 15 random projections per property in the default run (the slow run compares every projection the
# corpus's scenarios meet, test_every_corpus_projection_agrees_with_z3)
@pytest.mark.parametrize("prop", BUILTIN, ids=lambda p: p.id)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), cards=st.integers(1, 3), positions=st.integers(1, 3))
def test_every_builtin_property_agrees_with_z3_on_random_projections(prop, data, cards, positions):
    q = _query(prop, cards, positions)
    assert q.fast is not None, f"{prop.id} is not compiled: it would cost Z3 queries again"
    _agree(q, data.draw(_projection(q, cards, positions)))


def _user(text: str, over: str = "states", kind: str = "always") -> Property:
    return Property("user", "a user's formula", (), kind, over, lambda scope: parse(scope.vocab, over, text),
                    origin="test")


@pytest.mark.parametrize("text", [
    "(=> (> depth 0) (= winner nobody))",
    "(forall ((c Card)) (=> (in_shields c) (not (= (zone_of c) hand))))",
    "(exists ((i Int)) (and (>= i 1) (<= i 3) (frame_open i)))",
    "(forall ((i Int) (j Int)) (=> (and (<= 0 i) (<= i 4) (< i j) (<= 1 j) (<= j 4))"
    " (or (frame_open i) (not (frame_open j)))))",
    "(distinct winner loser turn)",
    "(= (ite over 1 2) (+ depth (- 1) (* 2 0)))",
    "(xor over attack_stopped)",
])
def test_user_formulas_agree_with_z3(text):
    q = _query(_user(text), 3, 2)
    assert q.fast is not None

    @settings(max_examples=40, deadline=None)
    @given(data=st.data())
    def run(data):
        _agree(q, data.draw(_projection(q, 3, 2)))

    run()


@pytest.mark.parametrize("text", [
    "(forall ((i Int)) (=> (frame_open i) (> i 0)))",       # an integer quantifier without bounds
    "(= (div depth 2) 0)",                                   # division
    "(exists ((i Int)) (and (>= i 1) (frame_open i)))",     # bounded on one side only
])
def test_what_is_not_compiled_is_left_to_z3(text):
    q = _query(_user(text), 2, 2)
    assert q.fast is None
    # and is still checked: the solver answers every projection
    values = tuple(frozenset() if q.where[n][0].args else (0 if q.where[n][0].result == "Int" else False)
                   for n in q.symbols)
    assert q.ask(values if len(q.symbols) != 1 else values[0]) in ("sat", "unsat")
    assert q.counts.queries == 1


def test_a_sat_answer_is_confirmed_by_z3_with_its_witness():
    """The compiled formula only filters: the projection it finds is asked of Z3, whose model gives
    the witness the report shows (as before the compiled formulas)."""
    q = _query(_user("(= depth 0)"), 1, 1)
    assert q.symbols == ["depth"]
    assert q.ask(0) == "unsat"             # always (= depth 0): depth 0 is no counterexample
    assert q._solved.solver is None               # ... and Z3 was not needed for it
    assert q.ask(2) == "sat"
    assert q.witness_of(2) == (("depth", "2"),)


@pytest.mark.slow
def test_every_corpus_projection_agrees_with_z3(monkeypatch):
    """Every run `verify` checks the built-in properties on (each ruling's scenarios under the default
    readings), every projection: Z3 and the compiled formula give the same answer."""
    from dmcheck.rulings.operational import Runner, default_combo
    from dmcheck.rulings.verify import load

    monkeypatch.setattr(checker, "CROSSCHECK", True)
    runner = Runner()
    for s in load([]).statements:
        for path in s.scenarios:
            runner.run(path, s.run_version(), default_combo())
    asked = 0
    seen = set()
    for run in runner.runs():
        if id(run.graph) in seen:
            continue
        seen.add(id(run.graph))
        for q in _checked(run.graph, BUILTIN):
            assert q.fast is not None, q.prop.id
            assert q.disagreements == [], (run.file.name, q.prop.id)
            asked += q.counts.queries
    assert len(seen) > 80 and asked > 1000


def _checked(graph, props) -> list[checker._Query]:
    """The queries of a check of the graph (under CROSSCHECK, Z3 was asked every projection too)."""
    return checker.search(graph, props).queries
