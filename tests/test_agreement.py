"""Corpus agreement: the model's traces seen as milestones, checked against the corpus's constraints.

The milestone walk is checked on traces whose order the rulings spell out (Q04/Q05's nested break,
Q03's waiting trigger); the agreement check must find nothing on the built-in scenarios, and must find the
R509.4 violation that the reading nested_other_pending=all produces when an effect triggered in the
attack's frame is still waiting at a nested break (Kobo's trigger from Texas Storm, a combination
of Q03's and Q04's situations).
"""

from __future__ import annotations

import pytest
from conftest import DATA

from dmcheck.model.rules import timeline
from dmcheck.properties.milestones import occurrences, orders
from dmcheck.rulings import agreement
from dmcheck.rulings.consistency import check as declarative
from dmcheck.rulings.corpus import builtin_corpus, parse_constraint
from dmcheck.rulings.operational import Runner, analyse, as_dict, combos, default_combo


def _flat(groups):
    return [t for g in groups for t in dict.fromkeys(g)]


def test_milestones_of_q04_follow_the_ruling(ruling):
    _, _, graph = ruling("Q04")
    found = orders(graph)
    assert found.complete
    nested = [g for g in found.paths if "nested_break" in _flat(g)]
    assert nested
    for groups in nested:
        flat = _flat(groups)
        # R509.3, then the first before-break, whose Texas Storm chooses the nested shields ...
        assert flat.index("shields_chosen") < flat.index("before_break_resolved") < flat.index("nested_shields_chosen")
        # ... whose before-break resolves before the nested break, and the attack's break comes last
        assert flat.index("nested_before_break_resolved") < flat.index("nested_break") \
            < len(flat) - 1 - flat[::-1].index("break")


def test_milestones_of_q05_put_the_waiting_cip_after_the_second_before_break(ruling):
    _, _, graph = ruling("Q05")
    found = orders(graph)
    hit = False
    for groups in found.paths:
        occ = occurrences(groups)
        if "nested_shield_check" not in occ or "other_pending_resolved" not in occ:
            continue
        last_bb = max(p for p, _ in occ["before_break_resolved"])
        if last_bb < min(p for p, _ in occ["nested_break"]):
            continue   # the second before-break cast Texas Storm: not the path Q05 describes
        hit = True
        assert max(p for p, _ in occ["nested_shield_check"]) < last_bb \
            < min(p for p, _ in occ["other_pending_resolved"])
    assert hit


def test_satisfied_reads_first_last_and_steps():
    groups = (("shields_chosen", "before_break_triggered"), ("before_break_resolved",), ("other_pending_resolved",),
              ("before_break_resolved",), ("break",))
    occ = occurrences(groups)
    ok = lambda text: agreement.satisfied(parse_constraint(text), occ)  # noqa: E731
    assert ok("shields_chosen = before_break_triggered")
    assert not ok("before_break_resolved < other_pending_resolved")        # every one before every one
    assert ok("first(before_break_resolved) < other_pending_resolved")
    assert ok("other_pending_resolved < last(before_break_resolved)")
    assert ok("before_break_resolved < break")
    assert ok("nested_break < break")                                     # vacuous: no nested break
    assert not ok("break = before_break_resolved")


@pytest.fixture(scope="module")
def checked():
    corpus = builtin_corpus()
    runner = Runner()
    analyse(runner, corpus)
    versions = list(timeline())
    dec = declarative(corpus, versions)
    return corpus, runner, agreement.check(corpus, runner.runs(), dec.witnesses, {v.name: v for v in versions},
                                             default_combo())


@pytest.mark.slow
def test_the_model_follows_the_corpus_on_every_built_in_scenario(checked):
    _, runner, result = checked
    assert result.complete
    assert result.violations == []
    assert result.unreached == []
    assert result.orders_checked > 200 and result.constraints_checked > 1000 and result.pairs_seen > 100


@pytest.mark.slow
def test_the_all_reading_breaks_r509_4_when_an_outer_effect_waits_at_a_nested_break(checked):
    corpus, _, _ = checked
    runner = Runner()
    path = (DATA / "rulings" / "kobo_texas_storm.yaml").resolve()
    runs = {c: runner.run(path, timeline()[-1], c) for c in combos()}
    default = default_combo()
    result = agreement.check(corpus, list({id(r): r for r in runs.values()}.values()), [], {}, default)
    broken = {(v.statement.ref, str(v.constraint)) for v in result.violations
              if any(as_dict(c)["nested_other_pending"] == "all" for c in v.combos)}
    assert ("R509.4@S000", "before_break_resolved < other_pending_resolved") in broken
    # the default reading (inner_only) is why the model keeps R509.4 there
    assert not any(default in v.combos for v in result.violations if v.statement.ref == "R509.4@S000")
    v = next(v for v in result.violations if v.statement.ref == "R509.4@S000")
    kinds = [(e.kind, e.get("ability")) for e in v.trace().events()]
    kobo = kinds.index(("resolve", "Kobo Magical Shocker/first_spell"))
    # Kobo's effect resolves while one of the attack's before-break effects still waits
    assert ("resolve", "Kakumeijin/before_break") in kinds[kobo:]
    assert all(as_dict(c)["nested_other_pending"] == "all" for c in v.combos)
