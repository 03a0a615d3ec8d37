"""Swapping two whole zones (R701.26c; model/instructions/whole_zone.py `_swap_zones`): every card both ways,
none twice, and an empty zone does not stop it (SZ01, SZ02, expectations from the rule text)."""

from __future__ import annotations

from conftest import ROOT, verdicts

ATTACK = ROOT / "scenarios" / "attack"


def _holds(name: str) -> None:
    (path,) = ATTACK.glob(f"{name}_*.yaml")
    assert set(verdicts(path)) == {"holds"}, (name, verdicts(path))


def test_a_whole_zone_swap_moves_every_card_both_ways_even_from_an_empty_zone():
    _holds("SZ01")
    _holds("SZ02")


def test_a_searched_card_is_shown_only_when_the_effect_says_so():
    """701.10c: no `reveal` event for a search that does not say to show (SR01), one before the move when it does
    (SR02)."""
    _holds("SR01")
    _holds("SR02")
