"""Right answers where the model was wrong, one test per class of positions.

Each scenario under scenarios/rulings/answers/ was written from a ruling or rule text listed in
scenarios/corpus.d/ (paraphrased, with its source); the tests below also check the cases a
scenario's `expect` cannot say alone (every replacement kind, every reading, every era).
"""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from conftest import ROOT

from dmcheck.explorer.bfs import explore
from dmcheck.model.procedure import BreakModel
from dmcheck.model.readings import Readings
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.expectations import check

ANSWERS = ROOT / "scenarios" / "rulings" / "answers"


def _run(name: str, readings: dict | None = None, rules: dt.date | None = None):
    scenario = load_scenario(ANSWERS / f"{name}.yaml")
    if rules is not None:
        scenario = dataclasses.replace(scenario, rules=rules)
    if readings is not None:
        chosen = dict(scenario.readings or {})
        chosen.update(readings)
        scenario = dataclasses.replace(scenario, readings=chosen)
    graph = explore(BreakModel(scenario))
    assert graph.complete
    return scenario, graph


def _holds(name: str, readings: dict | None = None, rules: dt.date | None = None) -> None:
    scenario, graph = _run(name, readings, rules)
    for item in scenario.expect:
        verdict = check(graph, item)
        assert verdict.holds, (name, item.raw, verdict.reason, verdict.trace.lines() if verdict.trace else None)


def _events(graph):
    for node in graph.terminals:
        yield graph.state(node), graph.trace(node).events()


# scenarios written from a voice the default readings set aside hold under that voice's reading
VOICE = {"DS01_corpus_one_shield": {"indestructible_saver": "one_per_break"},
         "BK02_additional_break_effect_break_corpus": {"extra_break_applies_to_effect_breaks": "no"},
         "MB01_master_breaker_destroys_then_chooses": {"before_break_order": "effects_first"}}
# a voice no reading follows: the English text of v1.38 against the Japanese rules of 2021-09-07 (the era)
SPLIT = {"BL02_english_rules_one_blocker"}


@pytest.mark.parametrize("name", sorted(p.stem for p in ANSWERS.glob("*.yaml")))
def test_answer_scenarios_hold(name):
    if name in SPLIT:
        scenario, graph = _run(name)
        assert not all(check(graph, item).holds for item in scenario.expect)
        return
    _holds(name, VOICE.get(name))
    if name in VOICE:
        _, graph = _run(name)
        scenario = load_scenario(ANSWERS / f"{name}.yaml")
        assert not all(check(graph, item).holds for item in scenario.expect)   # not under the defaults


# ---- class 1: replacement effects do not chain (R101.5 v1.20 via S014; S005, S015, S017) ----------
@pytest.mark.parametrize("name, saver, protection", [
    ("RP03a_saver_escape_destroyed", "Escape Saver", "Escape Saver/escape"),
    ("RP03b_saver_skull_moon_destroyed", "Moon Saver", "Moon Saver/destroy_replacement"),
    ("RP03c_saver_ex_life_destroyed", "Life Saver", "Life Saver/ex_life"),
])
def test_class1_a_used_saver_is_destroyed_whatever_protects_it(name, saver, protection):
    _, graph = _run(name)
    used = 0
    for state, events in _events(graph):
        kinds = [(e.kind, e.get("by")) for e in events]
        if ("replace", f"{saver}/shield_saver") in kinds:
            used += 1
            assert ("replace", protection) not in kinds, kinds
            assert any(e.kind == "destroyed" and e.get("card") == saver for e in events)
            assert not state.zone("B").battle
    assert used, "the saver is used in some trace"


@pytest.mark.parametrize("name, victim", [("RP02_skull_moon_no_escape", "Neverlast/escape"),
                                          ("RP12_skull_moon_no_ex_life", "Zardicrica/ex_life")])
def test_class1_a_destruction_made_by_skull_moon_is_not_replaced(name, victim):
    _, graph = _run(name)
    seen = False
    for _, events in _events(graph):
        labels = [e.get("by") for e in events if e.kind == "replace"]
        if "Skull Moon/destroy_replacement" in labels:
            seen = True
            assert victim not in labels
    assert seen


# ---- class 2: a replacement that cannot be carried out in full is not applied (601.1a, S009) -----
@pytest.mark.parametrize("rules", [dt.date(2017, 6, 1), dt.date(2022, 6, 1), dt.date(2024, 6, 19)])
def test_class2_two_shield_replacement_with_one_shield_is_not_applied_in_any_era(rules):
    # S009: 601.1a was reworded on 2023-08-10 without a rule change; so before that date too
    _, graph = _run("RC04_true_escape_one_shield", rules=rules)
    for state, events in _events(graph):
        assert not any(e.kind == "replace" for e in events)
        assert "Never End" in [graph.model.name(c) for c in state.zone("B").graveyard]
    _, graph = _run("RC04b_true_escape_two_shields", rules=rules)
    assert any(e.kind == "replace" and e.get("by") == "Never End/true_escape"
               for _, events in _events(graph) for e in events)


def test_class2_discard_instead_needs_a_card():
    _holds("RC05_discard_instead_empty_hand")
    _holds("RC05b_discard_instead_with_a_card")


# ---- class 3: additional breaks and effect breaks: a named reading; Q07 holds under both ---------
def test_class3_extra_break_reading_changes_only_effect_breaks():
    _, yes = _run("BK02_extra_break_effect_break_yes")
    _, no = _run("BK02_extra_break_effect_break_no")
    most = lambda g: max(len(g.state(n).broken) for n in g.terminals)
    assert most(yes) == 4 and most(no) == 3   # the attack trigger's 1 (+1 under "yes") and the attack's 1 + 1
    from conftest import RULINGS
    q07 = next(p for p in RULINGS if p.stem.startswith("Q07"))
    for reading in ("yes", "no"):
        scenario = load_scenario(q07)
        scenario = dataclasses.replace(scenario, readings={"extra_break_applies_to_effect_breaks": reading})
        graph = explore(BreakModel(scenario))
        for item in scenario.expect:
            assert check(graph, item).holds, (reading, item.raw)
    # the official answer of 2023-06-23 (S161) and 701.14d (S162) made "yes" the default
    assert Readings.make().get("extra_break_applies_to_effect_breaks") == "yes"


# ---- class 5: readings where sources disagree: how many shields an indestructible Saver protects -
@pytest.mark.parametrize("reading, broken", [("unlimited", {0, 1, 2, 3}), ("one_per_break", {2, 3}),
                                             ("unusable", {3})])
def test_class5_indestructible_saver_readings(reading, broken):
    _, graph = _run(f"DS01_indestructible_saver_{reading}")
    assert {len(graph.state(n).broken) for n in graph.terminals} == broken
    for n in graph.terminals:
        assert graph.model.name(graph.state(n).zone("B").battle[0]) == "Guard Gainer"


# ---- class 6: checks that cry wolf --------------------------------------------------------------
def test_class6_a_sanity_property_without_example_does_not_fail_the_run():
    import io

    from dmcheck.main import main
    out, err = io.StringIO(), io.StringIO()
    code = main(["check", str(ROOT / "tests" / "data" / "answers" / "unpaid_texas_storm.yaml")], out, err)
    text = out.getvalue()
    assert code == 0, text + err.getvalue()
    line = next(ln for ln in text.splitlines() if "some-nested-frame" in ln)
    assert "no example in this scenario" in line and "FAIL" not in line


def test_class6_every_builtin_sometimes_property_has_an_example_in_the_corpus():
    # the guard against a vacuous model, moved from each user's scenario to the corpus
    from dmcheck.properties.builtin import BUILTIN
    from dmcheck.properties.checker import HOLDS
    from dmcheck.properties.checker import check as check_properties
    from dmcheck.rulings.corpus import builtin_corpus
    wanted = {p.id: p for p in BUILTIN if p.kind == "sometimes"}
    found: set[str] = set()
    paths = sorted({p for s in builtin_corpus().statements for p in s.scenarios})
    for path in paths:
        if not wanted.keys() - found:
            break
        todo = [p for pid, p in wanted.items() if pid not in found]
        model = BreakModel(load_scenario(path))
        if all(p.applies(model) for p in todo):
            continue
        graph = explore(model)
        for v in check_properties(graph, todo).verdicts:
            if v.verdict == HOLDS:
                found.add(v.property.id)
    assert found == set(wanted), f"no corpus scenario shows {sorted(set(wanted) - found)}"


# ---- class 4: rules eras (S007, S016, S008: before 2017-03-25 one shield at a time) -------------
def test_class4_eras_are_dated_and_the_oldest_refuses_older_dates():
    from dmcheck.model.rules import OutsideTimeline, timeline, version_on
    versions = timeline()
    assert versions[0].date == dt.date(2002, 5, 30) and not versions[0].simultaneous_break
    assert version_on(dt.date(2003, 6, 1)) is versions[0]
    assert not version_on(dt.date(2016, 6, 1)).simultaneous_break   # the 2004-06-26 era changes Slayer only
    assert version_on(dt.date(2017, 3, 25)).simultaneous_break
    with pytest.raises(OutsideTimeline, match="older than the oldest modelled rules era"):
        version_on(dt.date(2002, 5, 29))


def test_class4_old_rules_break_one_shield_at_a_time_with_checks_between():
    _, old = _run("ER01b_clock_old_rules")
    _, new = _run("ER01a_clock_new_rules")
    # old: one shield per choice, each choice after the previous shield's check
    for _, events in _events(old):
        chosen = [e.get("shields") for e in events if e.kind == "choose_shields"]
        assert all(len(c) == 1 for c in chosen)
    assert {len(old.state(n).broken) for n in old.terminals} == {1, 2, 3}   # The Clock 1st, 2nd or 3rd
    assert {len(new.state(n).broken) for n in new.terminals} == {3}
    # the same position dated 2016 runs under the old era, never under newer rules
    _, dated = _run("ER01a_clock_new_rules", rules=dt.date(2016, 1, 1))
    assert {len(dated.state(n).broken) for n in dated.terminals} == {1, 2, 3}


def test_class4_a_date_before_the_oldest_era_is_refused_with_exit_2(tmp_path):
    import io

    from dmcheck.main import main
    f = tmp_path / "old.yaml"
    f.write_text("name: old\nrules: 2001-01-01\nturn: A\nplayers:\n  A:\n    battle: [Vanilla]\n  B:\n"
                 "    shields: 1\nattack: {attacker: Vanilla, player: B}\n")
    err = io.StringIO()
    assert main(["explore", str(f)], io.StringIO(), err) == 2
    assert f"{f}:2: rules:" in err.getvalue() and "oldest modelled rules era" in err.getvalue()
    err = io.StringIO()
    assert main(["explore", "--rules", "1999-12-31", str(ANSWERS / "ER01a_clock_new_rules.yaml")],
                io.StringIO(), err) == 2
