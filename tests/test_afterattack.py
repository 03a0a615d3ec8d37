"""The rest of the attack (brief "afterattack", issue 10): the tapped attacker (R506.1), end-of-attack
abilities (R510), "while attacking" effects, blocks and "not blocked", shields moved by effects,
attacker-side break replacements and loops. Expected values are derived by hand from the rulings
(research/attack.md entries A01, A12, A19, A20, A24, A26, A27), not copied from the program."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from model.errors import InputError
from model.scenario_file import load_scenario
from properties.expectations import check

from conftest import ROOT

ATTACK = ROOT / "scenarios" / "attack"


def graph_of(path: Path):
    from explorer.bfs import explore
    from model.procedure import BreakModel
    scenario = load_scenario(path)
    model = BreakModel(scenario)
    return scenario, model, explore(model)


def _write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _holds(path: Path):
    scenario, _, graph = graph_of(path)
    assert graph.complete
    for item in scenario.expect:
        verdict = check(graph, item)
        assert verdict.verdict == "holds", (item.raw, verdict.reason)


# ---- 1. R506.1 (A01): the attack taps the attacker ------------------------------------------------
def test_the_attacker_is_tapped_in_every_end_state():
    _, model, graph = graph_of(ATTACK / "A01_declaration_then_end.yaml")
    assert graph.terminals
    for node in graph.terminals:
        s = graph.state(node)
        assert s.attacker in s.zone(s.turn).tapped


def test_a_tapped_creature_cannot_attack(tmp_path):
    path = _write(tmp_path, "name: x\nturn: A\nplayers:\n  A: {battle: [{card: Vanilla, tapped: true}]}\n"
                            "attack: {attacker: Vanilla, player: B}\n")
    with pytest.raises(InputError) as info:
        load_scenario(path)
    assert (info.value.line, info.value.key) == (5, "attack.attacker") and "untapped" in info.value.expected


def test_of_two_copies_the_untapped_one_attacks(tmp_path):
    path = _write(tmp_path, "name: x\nturn: A\nplayers:\n  A: {battle: [{card: Vanilla, tapped: true}, Vanilla]}\n"
                            "  B: {shields: 1}\nattack: {attacker: Vanilla, player: B}\n")
    _, model, graph = graph_of(path)
    s0 = model.initial_state()
    assert s0.attacker not in s0.zone("A").tapped
    for node in graph.terminals:
        s = graph.state(node)
        assert sorted(s.zone("A").tapped) == sorted(s.zone("A").battle)   # both tapped now
