"""Abilities with modes (R700.2a-c; model/instructions/modes.py): who chooses and when. Expected values come from
the rule text of the comprehensive rules Ver.1.48 (2025-12-17, S340), not from the program's output."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import ROOT, verdicts

from dmcheck.explorer.bfs import explore
from dmcheck.model.instructions import modes, registry
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario

ATTACK = ROOT / "scenarios" / "attack"
MO01 = ATTACK / "MO01_the_mode_is_chosen_on_resolution.yaml"
MO02 = ATTACK / "MO02_the_opponent_chooses_the_mode_on_resolution.yaml"


def _mode_choices(path):
    """(player choosing, ability resolving then, whether it already resolves) for every mode choice offered."""
    model = BreakModel(load_scenario(path))
    graph = explore(model, keep_graph=True)
    assert graph.complete
    found = []
    for s in graph.states:
        for a in model.actions(s):
            if "chooses mode" in a.text:
                found.append((a.player, s.running[-1].ability if s.running else "", s.running[-1].pc))
    return found


@pytest.mark.parametrize("path", [MO01, MO02], ids=lambda p: p.stem[:4])
def test_mode_scenarios_hold(path):
    assert set(verdicts(path)) == {"holds"}


def test_the_controller_chooses_the_mode_as_the_ability_resolves():
    """700.2a: the choice is offered while the ability's effect runs (its task is on the stack), to A."""
    found = _mode_choices(MO01)
    assert found and {f[0] for f in found} == {"A"}
    assert {f[1] for f in found} == {"Own Mode Probe/attack"}


def test_the_opponent_chooses_when_the_text_says_so():
    """700.2b-c: with `by: opponent` B chooses the mode of A's ability, at its resolution too."""
    found = _mode_choices(MO02)
    assert found and {f[0] for f in found} == {"B"}
    assert {f[1] for f in found} == {"Their Mode Probe/attack"}


def test_the_chooser_decides_who_picks(monkeypatch):
    """Without the chooser (the controller always picks), MO02's choice is A's: 700.2b is broken."""
    spec = registry.OPS["choose_mode"]
    monkeypatch.setitem(registry.OPS, "choose_mode", dataclasses.replace(spec, chooser=None))
    assert {f[0] for f in _mode_choices(MO02)} == {"A"}


def test_every_mode_is_offered(monkeypatch):
    """700.2: each mode is an option; offering only the first loses MO01's mana outcome."""
    spec = registry.OPS["choose_mode"]
    monkeypatch.setitem(registry.OPS, "choose_mode",
                        dataclasses.replace(spec, options=lambda m, s, t, i: modes._options(m, s, t, i)[:1]))
    assert verdicts(MO01)[0] == "violated"
