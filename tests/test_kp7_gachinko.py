"""Gachinko Judge (R701.21a-c, 201.2c; model/instructions/gachinko.py): the GJ scenarios' expectations, derived
from the rule text, hold — and each test names the part of the rule whose code it guards."""

from __future__ import annotations

from conftest import ROOT, verdicts

ATTACK = ROOT / "scenarios" / "attack"


def _ok(name: str) -> None:
    (path,) = ATTACK.glob(f"{name}_*.yaml")
    assert set(verdicts(path)) == {"holds"}, (name, verdicts(path))


def test_gachinko_judge_shows_and_bottoms_each_top_card():
    """701.21a: each player's top card is shown and put on his deck's bottom, turn player first."""
    _ok("GJ01")


def test_gachinko_judge_user_wins_with_a_cost_at_least_his_opponents():
    """701.21b: a higher cost wins, a tie is the user's, a lower cost loses and the win program does not run."""
    _ok("GJ01")
    _ok("GJ02")
    _ok("GJ03")


def test_gachinko_judge_two_cost_card_is_priced_by_its_revealer():
    """701.21c, 201.2c: the revealer (the opponent as well as the user) picks a twinpact's cost."""
    _ok("GJ04")
    _ok("GJ05")
