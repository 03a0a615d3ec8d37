"""The order of the deck (401; model/instructions/deck.py `hand_to_deck_nth`). Expected values come from the rule
text of the comprehensive rules Ver.1.48 (2025-12-17, S340), not from the program's output."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT

from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario

CARDS = ROOT / "scenarios" / "attack" / "cards" / "deck_order.yaml"


def _decks(tmp_path: Path, deck: str) -> set[tuple[str, ...]]:
    from dmcheck.explorer.bfs import explore
    path = tmp_path / "s.yaml"
    path.write_text(f"name: x\ncards: [{CARDS.as_posix()}]\nturn: A\nplayers:\n  A:\n"
                    f"    battle: [Third From Top Probe]\n    hand: [Marker Probe]\n    deck: {deck}\n"
                    "  B:\n    shields: 1\nattack: {attacker: Third From Top Probe, player: B}\n"
                    "expect:\n  - sometimes: {shields_broken: 1}\n", encoding="utf-8")
    m = BreakModel(load_scenario(path))
    graph = explore(m)
    assert graph.complete
    return {tuple(m.label(c).split("#")[0] for c in s.zone("A").deck) + (str(s.zone("A").deck_added),)
            for s in graph.states if s.over}


@pytest.mark.parametrize("n", [3, 4])
def test_a_card_put_third_from_the_top_of_a_deck_of_three_or_more_lies_there(tmp_path, n):
    # 401.6 applies only when the deck holds fewer than N cards: with N or more, the card is Nth from the top
    # (and not counted as put on the bottom)
    assert _decks(tmp_path, str(["Vanilla"] * n)) == {("Vanilla", "Vanilla", "Marker Probe") + ("Vanilla",) * (n - 2)
                                                     + ("0",)}


def test_a_card_put_third_from_the_top_of_a_deck_of_two_goes_to_its_bottom(tmp_path):
    # 401.6: the deck does not hold three cards, so the card goes to the bottom (counted as put there)
    assert _decks(tmp_path, "[Vanilla, Vanilla]") == {("Vanilla", "Vanilla", "Marker Probe", "1")}
