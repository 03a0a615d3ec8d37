"""Stopping an attack (攻撃の中止, S146; scenario A28): the later steps of the attack are skipped, what has
triggered still resolves, and the end of the attack comes. Expected values derived by hand from the
source: with the stop, no shield is broken and "not blocked" never triggers; without it the same
attack breaks two shields (a W-breaker, three shields) and "not blocked" resolves once."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, expectations_hold

from dmcheck.explorer.bfs import explore
from dmcheck.model.errors import InputError
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario

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


def test_a_key_given_to_a_card_word_that_takes_none_names_its_line(tmp_path):
    (tmp_path / "cards.yaml").write_text(
        "cards:\n  - id: p\n    name: P\n    type: creature\n    cost: 1\n    power: 1000\n    abilities:\n"
        "      - id: a\n        trigger: opponent_attacks\n        effect:\n          - stop_attack: {now: true}\n",
        encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text("name: x\nturn: A\ncards: [cards.yaml]\nplayers:\n  A: {battle: [Vanilla]}\n  B: {battle: [P]}\n"
                    "attack: {attacker: Vanilla, player: B}\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_scenario(path)
    assert info.value.line == 11 and "takes no keys" in info.value.expected, str(info.value)
