"""Operational consistency: rulings under every combination of readings, the best readings (counted,
with Z3's Optimize as their oracle) and MARCO.

A run is reused for every combination that agrees with it on the choices the model looked up; the
first tests check that against fresh explorations. The expected findings come from the sources:
S002's D3 (a saved shield gets no before-break) holds only under S002's reading of the replacement
timing, S001's Q11 rulings only under S001's — so each pair is a minimal set no reading satisfies.
"""

from __future__ import annotations

import dataclasses

import pytest
from conftest import DATA, RULINGS

from dmcheck.explorer.bfs import explore
from dmcheck.explorer.graph import freeze
from dmcheck.model.procedure import BreakModel
from dmcheck.rulings.corpus import builtin_corpus
from dmcheck.rulings.operational import Runner, analyse, as_dict, best_with_z3, combos, default_combo

# every test here analyses rulings under all the combinations of readings (tens of seconds): CI runs them
pytestmark = pytest.mark.slow


def _outcomes(graph):
    return {freeze(o) for o, _, _ in graph.outcomes()}


@pytest.mark.parametrize("path", [next(p for p in RULINGS if p.name.startswith(n)) for n in ("Q02", "Q05", "Q11d")]
                         + [DATA / "rulings" / "castle_takes_chosen.yaml", DATA / "rulings" / "kobo_texas_storm.yaml"],
                         ids=lambda p: p.stem)
def test_a_reused_run_is_the_run_that_combination_would_have_made(path):
    runner = Runner()
    for combo in combos():
        run = runner.run(path.resolve(), None, combo)
        fresh = explore(BreakModel(dataclasses.replace(run.scenario, readings=as_dict(combo))))
        assert _outcomes(fresh) == _outcomes(run.graph), combo
        assert len(fresh.states) == len(run.graph.states) and fresh.transitions == run.graph.transitions
    assert runner.explorations < len(combos())


@pytest.fixture(scope="module")
def operational():
    return analyse(Runner(), builtin_corpus())


def test_d3_fails_under_the_default_readings_with_its_trace(operational):
    v = operational.default("D3@S002")
    assert v.verdict == "violated" and v.failed.expectation.kind == "never"
    # the counterexample: one shield saved, yet both before-break shield additions happened
    events = v.failed.trace.events()
    assert sum(e.kind == "resolve" and e.get("ability") == "Kirazeus Savark/before_break" for e in events) == 2
    assert any(e.kind == "replace" and e.get("by") == "Bucket Bucket/shield_saver" for e in events)
    # the others hold, but for the statements a default reading sets aside (DS01@S017: indestructible_saver;
    # A05@S116: the other reading of ntp_declaration_time)
    from dmcheck.model.readings import CHOICES
    aside = {"D3@S002"} | {r for c in CHOICES for r in c.set_aside(c.default)}
    assert "A05@S116" in aside
    # the English v1.38 text of the block step (one blocker) is split from the Japanese rules by
    # era, not by a reading: it fails under every combination
    split = {"R507.1a.v138@S104"}
    assert all(operational.default(s.ref).holds for s in operational.rulings if s.ref not in aside | split)
    assert not any(v.holds for v in operational.table["R507.1a.v138@S104"].values())
    assert not operational.default("A05@S116").holds


def test_each_q11_ruling_and_d3_are_a_minimal_operational_conflict(operational):
    sets = {c.refs: c for c in operational.conflicts}
    for ruling in ("Q11c@S001", "Q11d@S001", "Q11e@S001", "Q11f@S001"):
        conflict = sets[("D3@S002", ruling)]
        by_ref = {f.statement.ref: f for f in conflict.failures}
        # D3 fails under readings satisfying the Q11 ruling (S001's timing), and the other way round
        assert as_dict(by_ref["D3@S002"].combo)["break_replacement_timing"] == "at_break"
        assert as_dict(by_ref[ruling].combo)["break_replacement_timing"] == "before_triggers"
        assert all(f.verdict == "violated" and f.trace is not None for f in conflict.failures)
    assert all(len(c.refs) == 2 for c in operational.conflicts if c.refs != ("R507.1a.v138@S104",))


def test_optimize_picks_the_readings_satisfying_most_rulings(operational):
    counts = {c: operational.count(c) for c in combos()}
    assert operational.best_count == max(counts.values())
    assert set(operational.best) == {c for c, n in counts.items() if n == operational.best_count}
    assert default_combo() in operational.best
    # Z3's Optimize, asked the same question of the same table, finds the same optimum and ties
    assert best_with_z3(operational) == (operational.best_count, operational.best)
    # four Q11 rulings against one D3: S001's replacement timing wins
    assert all(as_dict(c)["break_replacement_timing"] == "at_break" for c in operational.best)
    # Q02 fails only where the casting effect's deck bottom beats Charger
    q02 = operational.table["Q02@S000"]
    assert {as_dict(c)["charger_cast_destination"] for c, v in q02.items() if not v.holds} == {"cast_destination"}


def test_a_ruling_failing_under_every_reading_is_a_conflict_of_its_own(tmp_path):
    scenario = tmp_path / "never.yaml"
    scenario.write_text((DATA / "rulings" / "kakumeijin_charger_bottom.yaml").read_text().replace(
        "- possible_order:", "- sometimes: {winner: A}\n  - possible_order:"))
    rulings = tmp_path / "r.yaml"
    rulings.write_text("statements:\n  - id: N1\n    source: TEST\n    date: 2024-01-10\n"
                       "    text: The attacker wins through two shields in one attack.\n    scenarios: [never.yaml]\n")
    from dmcheck.rulings.corpus import load_corpus
    corpus = builtin_corpus().merged(load_corpus(rulings))
    result = analyse(Runner(), corpus)
    assert ("N1@TEST",) in {c.refs for c in result.conflicts}
