"""Rule pins: scenarios at each boundary, on both sides of each change date and under each reading
the model consults, written from the rule they cite (tests/data/pins/*.yaml, each file's comment
says which rule and why its expectations follow). `benchmarks/mutations.py` breaks each coded rule
once; the tests here kill the mutations that the ruling scenarios let survive.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import pytest
from conftest import DATA, ROOT

from dmcheck.explorer.bfs import explore
from dmcheck.model.procedure import BreakModel
from dmcheck.model.rules import version_on
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.expectations import check

PINS = sorted((DATA / "pins").glob("*.yaml"))
# the flow (D0) and rule-change scenarios have expectations too, which only `verify` looked at
OTHERS = sorted((ROOT / "scenarios" / "flow").glob("*.yaml")) + sorted((ROOT / "scenarios" / "changes").glob("*.yaml"))
SCENARIOS = [p for p in PINS if p.name != "cards.yaml"] + OTHERS


def _explore(path: Path, **overrides):
    scenario = dataclasses.replace(load_scenario(path), **overrides)
    model = BreakModel(scenario)
    return scenario, model, explore(model)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_pin_expectations_hold(path):
    scenario, _, graph = _explore(path)
    assert graph.complete
    assert scenario.expect, "a pin scenario must say what the rule expects"
    for item in scenario.expect:
        verdict = check(graph, item)
        assert verdict.verdict == "holds", (path.name, item.raw, verdict.reason,
                                            verdict.trace.lines() if verdict.trace else None)


@pytest.mark.parametrize("day, waits", [(dt.date(2023, 4, 18), True), (dt.date(2023, 4, 19), False)])
def test_2023_04_19_change_takes_effect_on_its_day(day, waits):
    # S001: the change is in force from 2023-04-19 itself; the day before, triggered effects still
    # wait for the break
    assert version_on(day).triggers_wait_for_break is waits


@pytest.mark.parametrize("day, any_card", [(dt.date(2022, 4, 7), False), (dt.date(2022, 4, 8), True)])
def test_2022_04_08_change_takes_effect_on_its_day(day, any_card):
    # S003: R701.6a says "card" from 2022-04-08 on
    assert version_on(day).destroy_any_card is any_card


def test_R509_4c_breaks_after_the_attacker_left_cite_it(ruling):
    # R509.4c (Q06): the chosen shields still break after the attacking creature left the battle
    # zone, and the break says why; when Kakumeijin stayed, the break is the ordinary D4
    _, _, graph = ruling("Q06")
    cited = set()
    for node in graph.terminals:
        state = graph.state(node)
        left = state.attacker not in state.zone("A").battle
        rules = {e.rule for e in graph.trace(node).events() if e.kind == "break"}
        assert rules == ({"R509.4c"} if left else {"D4"}), (left, rules)
        cited.add(left)
    assert cited == {True, False}, "Q06 has endings with and without Kakumeijin returned"
