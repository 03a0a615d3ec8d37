"""Forbidden cards (307.1, 809): written from the comprehensive rules Ver.1.48 (S340) and the reminder text of a
forbidden pulse quoted by dmarchive (S542, scenarios/corpus.d/special.yaml), not from the program's output."""

from __future__ import annotations

import pytest
from conftest import ROOT

from dmcheck.model.errors import InputError
from dmcheck.model.scenario_file import load_scenario

SPECIAL = ROOT / "scenarios" / "attack" / "cards" / "special.yaml"


def _errors(tmp_path, text: str) -> list[InputError]:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    return list(caught.value.all())


def test_a_forbidden_pulse_needs_its_forbidden_creature(tmp_path):
    """307.1, 809.1: a pulse is one face of a double-sided card whose other face is a forbidden creature."""
    cards = tmp_path / "c.yaml"
    cards.write_text("cards:\n  - id: p\n    name: Lone Pulse\n    type: forbidden_pulse\n    cost: 0\n",
                     encoding="utf-8")
    errors = _errors(tmp_path, f"name: t\nturn: A\ncards: [{cards}]\nplayers:\n  A: {{battle: [Vanilla]}}\n"
                               "  B: {battle: [Vanilla]}\nattack: {attacker: Vanilla, player: B}\n")
    assert any("809.1" in str(e) and "back" in str(e) for e in errors)
