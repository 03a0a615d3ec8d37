"""verify's table of rulings under every combination of readings, computed per reading of the choices
each ruling depends on (rulings/operational.py `tabulate`, rulings/space.py), against the plain loop it
replaces: every combination asked in turn, each ruling's runs looked up one combination at a time."""

from __future__ import annotations

import itertools

import pytest

from dmcheck.model.readings import CHOICES
from dmcheck.rulings.corpus import Corpus, builtin_corpus
from dmcheck.rulings.operational import Runner, combos, ruling_verdict, tabulate
from dmcheck.rulings.space import Served, projector, space

# rulings whose verdicts read one, two or three choices, or none (R507.1a.v138 fails under all), and
# that share scenarios (Q11d and D3 explore Savark's scenarios under both replacement timings)
REFS = ("Q02@S000", "D3@S002", "Q11d@S001", "EV02@S200", "DS01@S017", "RC2023-04-19@S001", "A05@S116",
        "R507.1a.v138@S104", "Q11c@S001")


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    whole = builtin_corpus()
    return Corpus(tuple(whole.statement(ref) for ref in REFS))


def _plain(corpus: Corpus):
    """The table as it was computed before: each ruling asked under each combination."""
    runner = Runner()
    rows = {s.ref: [ruling_verdict(runner, s, combo) for combo in combos()] for s in corpus.statements}
    return runner, rows


def _runs(runner: Runner) -> list[tuple]:
    return [(r.file, r.version.name, r.combo, r.consulted, tuple(r.served)) for r in runner.runs()]


def test_the_table_per_reading_is_the_table_per_combination(corpus):
    runner = Runner()
    table = tabulate(runner, corpus)
    plain_runner, plain = _plain(corpus)
    # the same explorations, in the same order, made for the same combinations, serving the same ones
    assert _runs(runner) == _runs(plain_runner)
    assert (runner.lookups, runner.explorations) == (plain_runner.lookups, plain_runner.explorations)
    index = {id(r): i for i, r in enumerate(runner.runs())}
    plain_index = {id(r): i for i, r in enumerate(plain_runner.runs())}
    for ref, row in table.table.items():
        assert list(row) == combos()
        for combo, expected in zip(combos(), plain[ref]):
            got = row[combo]
            assert (got.combo, got.verdict, got.reason, index[id(got.run)] if got.run else None) == \
                (expected.combo, expected.verdict, expected.reason,
                 plain_index[id(expected.run)] if expected.run else None), (ref, combo)
            assert (got.failed is None) == (expected.failed is None)
            if got.failed is not None:
                assert got.run.verdicts.index(got.failed) == expected.run.verdicts.index(expected.failed)
            assert row.holds(combo) == expected.holds
    # the counts per combination, from the verdicts grouped by the choices each ruling reads
    for i, combo in enumerate(combos()):
        assert table.count(combo) == sum(plain[ref][i].holds for ref in plain)
    # and the rulings really read different choices (the grouping is exercised)
    assert {len(row.depends) for row in table.table.values()} >= {0, 1, 2}


def test_a_set_of_combinations_by_readings_is_the_combinations_with_them():
    where, all_combos = space(), combos()
    assert where.n == len(all_combos) and where.combos == all_combos and all_combos[0] == where.defaults
    for depends in [(), (0,), (3,), (11,), (1, 9), (3, 6, 10)]:
        for key in where.keys(depends):
            members = [i for i, c in enumerate(all_combos) if all(c[d] == r for d, r in zip(depends, key))]
            assert list(where.members(where.mask(depends, key))) == members
            assert where.first(depends, key) == all_combos[members[0]]
            assert projector(depends)(all_combos[members[-1]]) == key
    assert len(list(itertools.chain.from_iterable(c.readings for c in CHOICES))) == sum(
        len(o) for o in where.options)


def test_served_holds_the_combinations_added():
    served, all_combos = Served(), combos()
    picked = [all_combos[0], all_combos[17], all_combos[-1], all_combos[4000]]
    for combo in picked:
        served.add(combo)
    assert list(served) == sorted(picked, key=all_combos.index) and len(served) == 4
    assert all_combos[1] not in served and all_combos[17] in served and ("no", "such") not in served
