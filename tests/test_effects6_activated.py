"""Activated abilities (R110.3c, R602; model/activated.py): a tap ability used instead of an attack. Expected values
come from the rule text of the comprehensive rules Ver.1.48 (2025-12-17, S340), not from the program's output."""

from __future__ import annotations

import pytest
from conftest import ROOT, verdicts

from dmcheck.model import activated, legality
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario

ATTACK = ROOT / "scenarios" / "attack"
AC01 = ATTACK / "AC01_a_tap_ability_is_used_instead_of_an_attack.yaml"
AC02 = ATTACK / "AC02_a_summoning_sick_creature_cannot_use_its_tap_ability.yaml"
AC03 = ATTACK / "AC03_a_tapped_creature_cannot_use_its_tap_ability_again.yaml"


@pytest.mark.parametrize("path", [AC01, AC02, AC03], ids=lambda p: p.stem[:4])
def test_activated_ability_scenarios_hold(path):
    assert set(verdicts(path)) == {"holds"}


def _activation(path):
    """Play the scenario's first choices until the tap ability is offered; return (model, state, action)."""
    m = BreakModel(load_scenario(path))
    s, seen = m.initial_state(), 0
    while seen < 50:
        acts = m.actions(s)
        found = [a for a in acts if a.kind == "activate"]
        if found:
            return m, s, found[0]
        if not acts:
            return m, s, None
        s, _ = m.step(s, acts[0])
        seen += 1
    return m, s, None


def test_the_act_comes_first_and_the_effect_is_a_separate_event():
    """602.1, 602.2: using the ability taps the creature (its own event), then the effect draws a card."""
    m, s, action = _activation(AC01)
    assert action is not None and action.player == "A"
    after, events = m.step(s, action)
    probe = action.choice[0]
    assert probe in after.zone("A").tapped
    kinds = [(e.kind, e.get("to")) for e in events]
    assert kinds.index(("tap", None)) < kinds.index(("move", "hand")), kinds
    assert after.phase == "declare"   # the turn player may declare again afterwards


def test_a_creature_that_cannot_attack_cannot_use_its_tap_ability(monkeypatch):
    """602.3a: offering the tap ability to any untapped creature (not only those able to attack) breaks AC02."""
    real = activated.tap_actions

    def any_untapped(m, s, attackers):
        z = s.zone(s.turn)
        return real(m, s, [c for c in z.battle if c not in z.tapped])
    monkeypatch.setattr(legality, "tap_actions", any_untapped)
    assert "violated" in verdicts(AC02)


def test_without_tap_abilities_only_attacks_are_offered(monkeypatch):
    """110.3c, 602.1: with no activation offered, AC01's tap-and-draw trace is gone."""
    monkeypatch.setattr(legality, "tap_actions", lambda m, s, attackers: [])
    assert verdicts(AC01)[0] == "violated"
