"""Reduction is sound: with partial-order reduction and symmetry the outcomes, the verdicts and the
lengths of the shortest traces are those of the full search.

Checked on every ruling scenario (expectations and Z3 properties), on random scenarios (hypothesis)
and on a benchmark family where the reduction is large; and the compact store against the full one.
"""

from __future__ import annotations

import sys

import pytest
from conftest import ROOT, RULINGS
from hypothesis import HealthCheck, given, settings
from test_model_contract import scenarios

from dmcheck.explorer.bfs import explore
from dmcheck.explorer.limits import Limits
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.builtin import BUILTIN
from dmcheck.properties.checker import check as check_properties
from dmcheck.properties.expectations import check, observer
from dmcheck.properties.visibility import observer as property_observer

sys.path.insert(0, str(ROOT / "benchmarks"))
import families  # noqa: E402


def _outcome_set(graph) -> set[str]:
    return {repr(sorted(o.items())) for o, _, _ in graph.outcomes()}


def _both(model, scenario, properties=()):
    obs = [o for o in (observer(scenario.expect), property_observer(model, properties)) if o]
    observe = (lambda *t: tuple(o(*t) for o in obs)) if obs else None
    return explore(model), explore(model, reduce=True, observe=observe)


@pytest.mark.slow
def test_rulings_same_outcomes_verdicts_and_trace_lengths():
    for path in RULINGS:
        scenario = load_scenario(path)
        model = BreakModel(scenario)
        full, reduced = _both(model, scenario)
        assert reduced.complete and reduced.count <= full.count, path.name
        assert _outcome_set(full) == _outcome_set(reduced), path.name
        for item in scenario.expect:
            a, b = check(full, item), check(reduced, item)
            assert a.verdict == b.verdict, (path.name, item.raw)
            if a.trace is not None:
                assert len(a.trace.steps) == len(b.trace.steps), (path.name, item.raw)


@pytest.mark.slow
def test_rulings_same_property_verdicts():
    for path in RULINGS:
        scenario = load_scenario(path)
        model = BreakModel(scenario)
        full, reduced = _both(model, scenario, BUILTIN)
        a = {v.property.id: v for v in check_properties(full, BUILTIN).verdicts}
        b = {v.property.id: v for v in check_properties(reduced, BUILTIN).verdicts}
        assert {k: v.verdict for k, v in a.items()} == {k: v.verdict for k, v in b.items()}, path.name
        for pid, v in a.items():
            if v.trace is not None and v.verdict == "violated":
                assert len(v.trace.steps) == len(b[pid].trace.steps)


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_random_scenarios_same_outcomes(scenario):
    model = BreakModel(scenario)
    full = explore(model, Limits(max_states=3000))
    if not full.complete:
        return
    reduced = explore(model, reduce=True)
    # (symmetry may keep two renamings of one state apart, so the count is not compared here)
    assert reduced.complete
    assert _outcome_set(full) == _outcome_set(reduced)


def test_commuting_effects_are_resolved_in_one_order():
    # k = 10 draws of the non-turn player commute: 2^10 subsets unreduced, a chain of them reduced
    model = BreakModel(families.independent(10))
    full, reduced = explore(model), explore(model, reduce=True)
    assert full.count > 1000
    assert reduced.count <= 10 + 5
    assert _outcome_set(full) == _outcome_set(reduced)


def test_the_watch_waiting_behind_the_turn_player_does_not_stop_the_reduction():
    # The Watch (Q09, skip the rest of the turn: TOP) is B's, so while A's effects are pending it
    # waits (R509.4a-b): A's shielders commute, and the reduced search keeps one order of them (a
    # chain, one state more per shielder) while the full one keeps every subset (doubling)
    counts = {}
    for t in (2, 4, 6):
        model = BreakModel(families.watched(t))
        full, reduced = explore(model), explore(model, reduce=True)
        assert _outcome_set(full) == _outcome_set(reduced)
        assert any(o["turn_skipped"] for o, _, _ in reduced.outcomes())
        counts[t] = full.count, reduced.count
    assert counts[6][0] > 2 * counts[4][0]
    assert counts[6][1] - counts[4][1] <= 2 * 2 and counts[6][1] < counts[6][0] / 3


def _watched_scenarios():
    """A's shielders, echoers and watchers against B's The Watch, drawers and echoers, under both
    readings of R603.7b and three rules versions: the skip pending while effects of both players wait."""
    import datetime as dt

    from hypothesis import strategies as st

    from dmcheck.model.scenario import PlayerSetup, Scenario
    pool = families.pool()
    a_cards = ["bench_tp_01", "bench_tp_02", "bench_tp_echo", "bench_responder", "the_watch", "kobo"]
    b_cards = ["the_watch", "bench_ntp_01", "bench_ntp_02", "bench_echo_01", "bench_first", "kobo"]

    @st.composite
    def build(draw):
        a = PlayerSetup(battle=("bench_caster",) + tuple(draw(st.lists(st.sampled_from(a_cards), max_size=4,
                                                                        unique=True))),
                        hand=("bench_signal",) + tuple(draw(st.lists(st.sampled_from(["texas_storm", "boil_charger"]),
                                                                     max_size=1))),
                        graveyard=("bench_echo",), mana=("vanilla",) * draw(st.integers(0, 5)), deck=("vanilla",) * 8)
        b = PlayerSetup(battle=tuple(draw(st.lists(st.sampled_from(b_cards), min_size=1, max_size=4, unique=True))),
                        graveyard=("bench_echo",), shields=("vanilla",) * draw(st.integers(1, 3)),
                        deck=("vanilla",) * 8)
        return Scenario(name="watched random", turn="A", players={"A": a, "B": b}, attacker="bench_caster",
                        attacker_index=0, defender="B", pool=pool,
                        rules=draw(st.sampled_from([None, dt.date(2021, 1, 1)])),
                        readings={"nested_other_pending": draw(st.sampled_from(["all", "inner_only"]))})
    return build()


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_watched_scenarios())
def test_random_scenarios_with_a_skip_same_outcomes(scenario):
    model = BreakModel(scenario)
    full = explore(model, Limits(max_states=4000))
    if not full.complete:
        return
    reduced = explore(model, reduce=True)
    assert reduced.complete
    assert _outcome_set(full) == _outcome_set(reduced)


def test_a_pattern_on_the_order_keeps_the_orders():
    # when an expectation looks at the order of the draws, no alternative may be pruned
    scenario = families.independent(4)
    model = BreakModel(scenario)
    observe = lambda pre, action, events, post: tuple(e.get("ability") for e in events if e.kind == "resolve")  # noqa: E731
    assert explore(model, reduce=True, observe=observe).count == explore(model).count


def test_compact_store_matches_the_full_one():
    for path in RULINGS[:6]:
        model = BreakModel(load_scenario(path))
        full, compact = explore(model), explore(model, keep_graph=False)
        assert compact.count == full.count and compact.transitions == full.transitions
        assert _outcome_set(full) == _outcome_set(compact)
        for node in compact.terminals[:3]:
            assert compact.trace(node).key() == full.trace(node).key()
            assert [e.to_json() for e in compact.trace(node).events()] \
                == [e.to_json() for e in full.trace(node).events()]


def test_compact_cli_gives_the_same_counterexample():
    import io

    from conftest import DATA

    from dmcheck.main import main
    full, compact = io.StringIO(), io.StringIO()
    assert main(["explore", str(DATA / "wrong_expectation.yaml")], full, io.StringIO()) == 1
    assert main(["explore", str(DATA / "wrong_expectation.yaml"), "--compact"], compact, io.StringIO()) == 1
    cut = lambda text: text[text.index("shortest trace:"):]  # noqa: E731
    assert cut(full.getvalue()) == cut(compact.getvalue())
    err = io.StringIO()
    assert main(["explore", str(RULINGS[0]), "--compact"], io.StringIO(), err) == 2
    assert "need the full graph" in err.getvalue()
