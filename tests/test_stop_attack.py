"""Stopping an attack (攻撃の中止, S146; scenario A28): the later steps of the attack are skipped, what has
triggered still resolves, and the end of the attack comes. Expected values derived by hand from the
source: with the stop, no shield is broken and "not blocked" never triggers; without it the same
attack breaks two shields (a W-breaker, three shields) and "not blocked" resolves once."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT, expectations_hold

from explorer.bfs import explore
from model.procedure import BreakModel
from model.scenario_file import load_scenario

A28 = ROOT / "scenarios" / "attack" / "A28_stopped_attack.yaml"


def _outcomes(path: Path, reduce: bool = True):
    model = BreakModel(load_scenario(path))
    graph = explore(model, reduce=reduce)
    assert graph.complete
    return [result for _, result in graph.ends()]


def test_a28_expectations_hold():
    expectations_hold(A28)


def test_stopped_attack_breaks_nothing_and_still_ends():
    for out in _outcomes(A28, reduce=False):
        assert out["attack_stopped"] is True and out["shields_broken"] == 0
        uses = out["uses"]
        assert uses.get("Whole Attack Probe/not_blocked_draw", 0) == 0
        assert uses["Whole Attack Probe/end_of_attack"] == 1
        assert uses["Attack Watch Probe/opponent_attacks"] == 1   # triggered before the stop, resolved after it too


def test_without_the_stop_the_attack_goes_on(tmp_path):
    text = A28.read_text(encoding="utf-8").replace("battle: [Miracle Rumba, Attack Watch Probe]",
                                                   "battle: [Attack Watch Probe]")
    path = tmp_path / "no_rumba.yaml"
    path.write_text(text.split("expect:")[0], encoding="utf-8")
    for out in _outcomes(path, reduce=False):
        assert out["attack_stopped"] is False and out["shields_broken"] == 2
        assert out["uses"]["Whole Attack Probe/not_blocked_draw"] == 1
        assert out["uses"]["Whole Attack Probe/end_of_attack"] == 1
