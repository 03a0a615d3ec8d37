"""Choosing a seal (R116.3a) and one card of a multi-card object (R109.2a): model/instructions/seals.py
`battle_card_to_hand` offers the seal beside the unsealed creatures, never the sealed creature (116.2a), and moves
the chosen seal alone (SE01, expectations from the rule text)."""

from __future__ import annotations

from conftest import ROOT, verdicts


def test_an_effect_choosing_a_battle_zone_card_may_choose_a_seal_and_moves_it_alone():
    (path,) = (ROOT / "scenarios" / "attack").glob("SE01_*.yaml")
    assert set(verdicts(path)) == {"holds"}, verdicts(path)
