"""A seal chosen as a card is a card of cost 0 with no other characteristic (R200.3b): model/instructions/seals.py
`battle_card_to_hand` filters seals with selection.py `blank_fits` (SE02, SE03: expectations from the rule text)."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT, verdicts

from dmcheck.model.instructions import seals, selection

ATTACK = ROOT / "scenarios" / "attack"


def _scenario(stem: str) -> Path:
    (path,) = ATTACK.glob(f"{stem}_*.yaml")
    return path


def test_a_seal_is_chosen_as_a_card_of_cost_0_with_nothing_else():
    assert set(verdicts(_scenario("SE02"))) == {"holds"}
    assert set(verdicts(_scenario("SE03"))) == {"holds"}


def test_a_seal_read_with_its_printed_cost_cannot_be_chosen_as_cost_2_or_less(monkeypatch):
    # the seal (printed cost 3) read as the card it is: nothing of B's fits cost 2 or less, the seal never returns
    monkeypatch.setattr(seals, "blank_fits", lambda which: not which)
    assert "violated" in verdicts(_scenario("SE02"))


def test_a_seal_read_with_its_printed_civilization_is_chosen_as_a_fire_card(monkeypatch):
    monkeypatch.setattr(seals, "blank_fits", lambda which: True)
    assert "violated" in verdicts(_scenario("SE03"))


def test_blank_fits_reads_cost_0_and_no_civilization():
    assert selection.blank_fits(None) and selection.blank_fits({"cost_max": 0})
    assert selection.blank_fits({"cost_min": 0, "cost_max": 5}) and selection.blank_fits({"color": "colorless"})
    assert not selection.blank_fits({"cost_min": 1}) and not selection.blank_fits({"race": "Dragon"})
    assert not selection.blank_fits({"civilization": "Fire"}) and not selection.blank_fits({"color": "mono"})
    assert not selection.blank_fits({"power_max": 5000}) and not selection.blank_fits({"cost_max": "chosen"})
