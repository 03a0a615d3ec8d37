"""King Cells (814): cells combined into one King creature (model/kings.py). Expected values come from the rule
text of the comprehensive rules Ver.1.48 (2025-12-17, S340) and the dmwiki.net pages the scenarios cite (S562,
S563), not from the program's output."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, verdicts

from dmcheck.model import kings, piles, positions
from dmcheck.model.cards import CardPool
from dmcheck.model.errors import InputError
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario

ATTACK = ROOT / "scenarios" / "attack"
CARDS = ATTACK / "cards" / "king.yaml"
KINGS = sorted(ATTACK.glob("KC*.yaml"))


_verdicts = verdicts   # tests/conftest.py


def _scenario(stem: str) -> Path:
    (path,) = [p for p in KINGS if p.stem.startswith(stem)]
    return path


def test_the_king_cell_scenarios_hold():
    assert [p.stem[:4] for p in KINGS] == ["KC01", "KC02", "KC03"]
    for path in KINGS:
        assert set(_verdicts(path)) == {"holds"}, path.stem


def test_kc01_fails_when_the_creature_is_read_as_its_head_cell(monkeypatch):
    # 814.1: the combined cells are the King creature (T-breaker); read as King's Thought alone it breaks one
    monkeypatch.setattr(kings, "record", lambda m, cell: cell)
    assert "violated" in _verdicts(_scenario("KC01"))


def test_kc02_fails_when_the_other_cells_stay_behind(monkeypatch):
    # 814.1d: the other cells do not stay when the head leaves (left behind, the rule would bury them later,
    # with no destroyed event)
    monkeypatch.setattr(piles, "ON_TOP", tuple(k for k in piles.ON_TOP if k != piles.KING))
    assert "violated" in _verdicts(_scenario("KC02"))


def test_kc03_fails_when_a_lone_cell_may_stand(monkeypatch):
    # 814.1d: put right before the attack (model/positions.py) and between the steps (model/kings.py); with
    # neither the lone cell would stay in the battle zone
    monkeypatch.setattr(positions, "CHECKS", [c for c in positions.CHECKS if c.name != "king_cells"])
    monkeypatch.setattr(kings, "lone", lambda m, s: ())
    assert "violated" in _verdicts(_scenario("KC03"))


def test_a_cell_left_alone_in_play_goes_to_the_graveyard():
    # 814.1d between the steps: cut the link of KC01's creature by hand; the lone head is buried at once
    model = BreakModel(load_scenario(_scenario("KC01")))
    s = model.initial_state()
    z = s.zone("A")
    head = z.battle[0]
    (other,) = kings.cells(z, head)
    s = s.with_zone("A", z.unlink(other).remove("attached", other).add("graveyard", other))
    assert kings.lone(model, s) == (("A", head),)
    out: list = []
    s = kings.bury(model, s, kings.lone(model, s), out)
    assert head in s.zone("A").graveyard and not s.zone("A").battle
    assert [e.rule for e in out] == ["R814.1d"]


def _cards(tmp_path: Path, body: str) -> Path:
    cards = tmp_path / "cards.yaml"
    cards.write_text("cards:\n" + body, encoding="utf-8")
    return cards


@pytest.mark.parametrize("extra, key, rule", [("cost: 3", "cost", "814.1a"),
                                              ("cost: 0\n    races: [Dragon]", "races", "814.1a")])
def test_the_loader_refuses_a_king_cell_with_a_cost_or_a_race(tmp_path, extra, key, rule):
    cards = _cards(tmp_path, f"""  - id: cell
    name: Cell
    type: king_cell
    king: Some King
    {extra}
""")
    with pytest.raises(InputError) as caught:
        CardPool().add_file(cards)
    assert any(f"cards[0].{key}" in str(e) and rule in str(e) for e in caught.value.all()), str(caught.value)


def _write(tmp_path: Path, battle: str, hand: str = "[]") -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(f"""name: x
cards: [{CARDS.as_posix()}]
turn: A
players:
  A:
    battle: {battle}
    hand: {hand}
  B: {{shields: 1}}
attack: {{attacker: Vanilla, player: B}}
expect:
  - always: {{shields_broken: 1}}
""", encoding="utf-8")
    return path


def test_the_loader_refuses_a_king_creature_without_all_its_cells(tmp_path):
    path = _write(tmp_path, "[Vanilla, {card: King's Thought, king: [King's Thought]}]")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    (error,) = caught.value.all()
    assert error.line == 6 and "king" in str(error) and "814.1" in str(error), str(error)


def test_the_loader_refuses_a_king_creature_as_a_card(tmp_path):
    # 814.1: the King creature is its cells combined; no card of a zone is the King creature itself
    path = _write(tmp_path, "[Vanilla]", "[New World King Volzeos-Balamord]")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    (error,) = caught.value.all()
    assert error.line == 7 and "players.A.hand[0]" in str(error) and "814.1" in str(error), str(error)
