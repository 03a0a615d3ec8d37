"""Declarative consistency with Z3: every minimal conflict of the corpus's ordering constraints.

MARCO is checked against brute force on small random systems of order constraints; on the built-in
corpus the conflicts expected are those the sources' texts make: S002's D2-D3 (replacements
decided before the before-break triggers) against S001's Q11 (the replacement after the
before-break effects) and against R509.3 ("trigger at this point"), and R603.7b read as "all
other pending effects" against R509.4/Q05 — and none in the versions before 2023-04-19.
"""

from __future__ import annotations

import itertools
import random

import pytest
import z3

from dmcheck.model.rules import timeline
from dmcheck.properties.milestones import MILESTONES
from dmcheck.rulings.consistency import check, encode, structure, witness
from dmcheck.rulings.corpus import builtin_corpus, parse_constraint
from dmcheck.rulings.marco import enumerate_muses


def _brute_force(named: dict[str, z3.BoolRef]) -> set[tuple[str, ...]]:
    names = sorted(named)

    def sat(subset) -> bool:
        s = z3.Solver()
        s.add(*[named[n] for n in subset])
        return s.check() == z3.sat

    unsat = [frozenset(c) for k in range(1, len(names) + 1) for c in itertools.combinations(names, k)
             if not sat(c)]
    return {tuple(sorted(u)) for u in unsat if not any(v < u for v in unsat)}


@pytest.mark.parametrize("seed", range(12))
def test_marco_finds_exactly_the_minimal_unsatisfiable_subsets(seed):
    rng = random.Random(seed)
    points = [z3.Int(f"p{i}") for i in range(4)]
    named = {}
    for k in range(rng.randint(4, 7)):
        a, b = rng.sample(points, 2)
        named[f"c{k}"] = a < b if rng.random() < 0.8 else a == b
    result = enumerate_muses(named)
    assert result.complete
    assert set(result.muses) == _brute_force(named)
    assert len(result.muses) == len(set(result.muses))


def test_marco_with_nothing_in_conflict_and_with_an_impossible_base():
    x = z3.Int("x")
    assert enumerate_muses({"a": x > 0, "b": x > 1}).muses == []
    broken = enumerate_muses({"a": x > 0}, [x > 1, x < 0])
    assert not broken.complete and broken.muses == []


@pytest.fixture(scope="module")
def result():
    return check(builtin_corpus(), list(timeline()))


def _sets(result, version=None, readings=None):
    return {c.refs for c in result.conflicts
            if (version is None or version in c.versions) and (readings is None or c.readings == readings)}


def test_s002_against_s001_is_a_minimal_conflict(result):
    v142, v2023 = "v1.42", timeline()[-2].name
    for ruling in ("Q11c@S001", "Q11d@S001", "Q11e@S001", "Q11f@S001"):
        assert ("D3@S002", ruling) in _sets(result, v142, ())
        assert ("D3@S002", ruling) in _sets(result, v2023, ())
    # D2 + D3 against "they trigger at this point": S000's quote (2023-04-21) and v1.42 (S001)
    assert ("D2@S002", "D3@S002", "R509.3@S000") in _sets(result, v2023, ())
    assert ("D2@S002", "D3@S002", "R509.3@S001") in _sets(result, v142, ())
    assert ("D2@S002", "D3@S002", "R509.3@S001") not in _sets(result, v2023)   # v1.42 is not in force yet


def test_r603_7b_read_as_all_conflicts_with_q05(result):
    v142 = "v1.42"
    assert ("Q05@S000", "R603.7b@S000") in _sets(result, v142, (("nested_other_pending", "all"),))
    assert ("Q04@S000", "R509.4@S000", "R603.7b@S000") in _sets(result, v142, (("nested_other_pending", "all"),))
    assert not _sets(result, v142, (("nested_other_pending", "inner_only"),))


def test_every_set_is_minimal_and_unsatisfiable(result):
    corpus = builtin_corpus()
    for c in result.conflicts:
        readings = dict(c.readings)
        formulas = {ref: z3.And([encode(x) for x in corpus.get(ref).constraints(readings or None)]) for ref in c.refs}

        def sat(refs, formulas=formulas) -> bool:
            s = z3.Solver()
            s.add(*structure(), *[formulas[r] for r in refs])
            return s.check() == z3.sat

        assert not sat(c.refs), c.refs
        assert all(sat([r for r in c.refs if r != drop]) for drop in c.refs), c.refs


def test_no_conflict_before_the_2023_change(result):
    old = [v.name for v in timeline()[:-2]]
    # among the break procedure's sources (below S100); the attack's ntp_declaration_time dispute (S102 vs S116)
    # concerns every version and is a named reading (ntp_declaration_time)
    seeds = [c for c in result.conflicts if all(r.split("@")[1] < "S100" for r in c.refs)]
    assert not any(set(c.versions) & set(old) for c in seeds)
    attack = [c for c in result.conflicts if not all(r.split("@")[1] < "S100" for r in c.refs)]
    # the official 603.7 of 2023-09-14 (S165) takes S001's side against S002's D2-D3, from 2023-04-19
    official = [c for c in attack if "R603.7@S165" in c.refs]
    assert official and all(set(c.refs) <= {"R603.7@S165", "D2@S002", "D3@S002"} and not set(c.versions) & set(old)
                            for c in official)
    attack = [c for c in attack if c not in official]
    assert attack and all(set(c.refs) == {"A05@S116", "R506.3b@S102"} for c in attack)


def test_witness_satisfies_what_the_readings_follow():
    corpus = builtin_corpus()
    v142 = timeline()[-1]
    w = witness(corpus, v142, {"nested_other_pending": "inner_only"})
    assert w.verdict == "sat" and w.dropped == () and w.set_aside == ("A05@S116", "D3@S002")
    for ref in w.active:
        for c in corpus.get(ref).constraints({"nested_other_pending": "inner_only"}):
            a, b = c.milestones()
            first = {m: w.points[m][0] for m in MILESTONES}
            last = {m: w.points[m][1] for m in MILESTONES}
            if c.op == "=":
                assert first[a] == last[a] == first[b] == last[b]
            else:
                left = first[a] if c.left.select == "first" else last[a]
                right = last[b] if c.right.select == "last" else first[b]
                assert left < right, (ref, str(c))
    order = w.text()
    assert order.index("shields_chosen") < order.index("before_break_resolved") < order.index("replacements_decided")
    # under the default reading of R603.7b the statements conflict: Optimize drops as few as it can
    w = witness(corpus, v142, {"nested_other_pending": "all"})
    assert w.verdict == "sat" and len(w.dropped) == 2


def test_equal_means_one_moment():
    c = parse_constraint("shields_chosen = before_break_triggered")
    s = z3.Solver()
    s.add(*structure(), encode(c), z3.Int("first(before_break_triggered)") > z3.Int("last(shields_chosen)"))
    assert s.check() == z3.unsat
