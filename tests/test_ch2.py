"""Reading a card (rules 200-208, 810.4 of the comprehensive rules Ver.1.48, 2025-12-17, S340; issue 33). Each
scenario's expectations come from the rule text; each test breaks one piece of the mechanism (or reads the
scenario the mechanism must keep holding) and checks that a scenario then fails."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, verdicts

from dmcheck.model import payment
from dmcheck.model.errors import InputError
from dmcheck.model.instructions import choosing, selection
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario

TURN = ROOT / "scenarios" / "turn"


def _rk(stem: str) -> Path:
    return next(TURN.glob(f"{stem}_*.yaml"))


@pytest.mark.parametrize("path", sorted(TURN.glob("RK*.yaml")), ids=lambda p: p.stem)
def test_every_reading_scenario_holds(path):
    assert set(verdicts(path)) == {"holds"}


# ---- 207.1: the mana number ------------------------------------------------------------------------------
def test_a_mana_card_makes_its_mana_number(monkeypatch):
    # 207.1: a model where every mana card makes one mana cannot pay cost 2 with one card (RK01 fails)
    monkeypatch.setattr(payment, "mana_made", lambda m, s, cards: len(cards))
    assert "violated" in verdicts(_rk("RK01"))


def test_no_needless_card_is_tapped_with_mana_numbers(monkeypatch):
    # 112.2c with 207.1: a payment that taps any set making enough mana taps all three cards (RK01 fails)
    monkeypatch.setattr(payment, "pays", lambda m, s, cards, cost, civs: payment.mana_made(m, s, cards) >= cost
                        and payment.pays_civilizations(m, cards, civs))
    monkeypatch.setattr(payment, "all_ones", lambda m, s, cards: False)
    assert "violated" in verdicts(_rk("RK01"))


def test_a_mana_number_is_a_whole_number_from_zero(tmp_path):
    # 207.1: the loader refuses a mana number that is no whole number of zero or more, naming the key
    cards = tmp_path / "c.yaml"
    cards.write_text("cards:\n  - {id: x, name: X, type: creature, cost: 1, power: 1000, mana: -1}\n", encoding="utf-8")
    scen = tmp_path / "s.yaml"
    scen.write_text("name: x\ncards: [c.yaml]\nturn: A\nplayers:\n  A: {battle: [X]}\n  B: {shields: 1}\n"
                    "attack: {attacker: X, player: B}\nexpect: []\n", encoding="utf-8")
    with pytest.raises(InputError, match="mana"):
        load_scenario(scen)


# ---- 207.3: a colorless mana symbol ----------------------------------------------------------------------
def test_a_colorless_mana_card_pays_no_civilization(monkeypatch):
    # 207.3: a model where a colorless card's symbol paid a civilization would summon both Fire Probes (RK02 fails)
    real = payment.pays_civilizations
    monkeypatch.setattr(payment, "pays_civilizations", lambda m, cards, civs: real(m, cards, civs) or (
        len(cards) >= len(civs) and any(not m.card(c).civs() for c in cards)))
    assert "violated" in verdicts(_rk("RK02"))


# ---- 201.2a: the printed cost --------------------------------------------------------------------------
def test_a_cost_or_less_effect_reads_the_printed_cost():
    # 201.2a: the free cast reads Water Draw Spell's printed cost 2, not the 1 a reduction would make it cost
    # (benchmarks/mutations.py R201.2a-reduced-cost-read breaks the reading and this scenario then fails)
    assert verdicts(_rk("RK03")) == ["holds", "holds"]


# ---- 810.4: a twinpact's name ------------------------------------------------------------------------
ATTACK = ROOT / "scenarios" / "attack"


def test_a_twinpact_name_joins_both_sides_outside_the_battle_zone():
    # 810.4: "Roar" (the spell side's) is in the name of the twinpact in the deck, not of the one in the battle zone
    assert verdicts(next(ATTACK.glob("RK04_*.yaml"))) == ["holds", "holds"]


def test_the_joined_name_is_read_only_outside_the_battle_zone(monkeypatch):
    # 810.4: a model that read the joined name in the battle zone too would destroy B's Hazard O-Kabuto (RK04 fails)
    real = selection.card_names
    monkeypatch.setattr(selection, "card_names", lambda m, s, cid: real(m, s, cid) + (
        (selection.joined_name(m.card(cid).name, m.card(cid).spell_side.name),) if m.card(cid).spell_side else ()))
    assert "violated" in verdicts(next(ATTACK.glob("RK04_*.yaml")))


def test_a_twinpact_name_that_exists_is_the_joined_one():
    # 810.4 with 202.2: the joined name of a twinpact of the game is a name a player may choose
    scenario = load_scenario(next(ATTACK.glob("RK04_*.yaml")))
    model = BreakModel(scenario)
    assert "Hazard O-Kabuto/Kabuto's Roar" in choosing.values(model, "name")


# ---- 206.2a: a power marked + outside the battle zone ----------------------------------------------------
def test_a_plus_power_is_the_printed_number_outside_the_battle_zone():
    # 206.2a: Plus Power Probe has 3000 in the deck (its own +3000 works in the battle zone only), 6000 there
    assert verdicts(next(ATTACK.glob("RK05_*.yaml"))) == ["holds", "holds"]


def test_its_own_power_ability_works_only_in_the_battle_zone(monkeypatch):
    # 206.2a: a model whose statics worked from any zone would let the deck's Plus Power Probe be fetched (RK05 fails)
    from dmcheck.model import continuous
    monkeypatch.setattr(continuous, "works", lambda m, s, src, st: True)
    assert "violated" in verdicts(next(ATTACK.glob("RK05_*.yaml")))


# ---- 202.4: added names; 208.1a: printed icons -----------------------------------------------------------
def test_a_card_with_an_added_name_has_both():
    # 202.4: Alias Probe, also named Bolshack Dragon, is reached by "named Bolshack Dragon"; the plain one is not
    assert verdicts(next(ATTACK.glob("RK06_*.yaml"))) == ["holds", "holds"]


def test_an_added_name_is_a_name_that_exists():
    # 202.4 with 202.2: the added name is one a player may name
    model = BreakModel(load_scenario(next(ATTACK.glob("RK06_*.yaml"))))
    assert "Bolshack Dragon" in choosing.values(model, "name")


def test_an_effect_reads_a_printed_icon():
    # 208.1a: a soul icon printed on Printed Soul Probe is read by "a creature with 魂・ソウル"
    assert verdicts(next(ATTACK.glob("RK07_*.yaml"))) == ["holds", "holds"]


# ---- 112.4, 201.1b: a card of the hyperspatial or super GR zone: its cost is not paid from there ----------------
def _play_from(tmp_path, zone: str, cards: str, card: str):
    """Load a scenario whose main step names `card`, which lies in the turn player's `zone` (not his hand)."""
    scen = tmp_path / "s.yaml"
    scen.write_text(f"""name: x
cards: [{TURN / 'cards' / 'main.yaml'}, {ATTACK / 'cards' / cards}]
turn: A
main: {{play: [{card}]}}
players:
  A: {{{zone}: [{card}], mana: [Fire Card, Fire Card, Fire Card, Fire Card, Fire Card]}}
  B: {{shields: 5}}
attack: {{choose: true}}
expect: []
""", encoding="utf-8")
    return load_scenario(scen)


def test_a_psychic_creature_is_never_executed_from_the_hyperspatial_zone(tmp_path):
    # 201.1b (805.4a): the main step executes hand cards only; naming a psychic creature of the hyperspatial zone
    # among the cards to play is refused by the loader, naming the rule
    with pytest.raises(InputError, match=r"main\.play\[0\].*hyperspatial zone.*R201\.1b"):
        _play_from(tmp_path, "hyperspatial", "psychic.yaml", "Psychic Probe")


def test_a_gr_creature_is_never_executed_from_the_super_gr_zone(tmp_path):
    # 112.4: a card of the super GR zone has a cost too, but is never executed by paying it (GR summon puts one)
    with pytest.raises(InputError, match=r"main\.play\[0\].*'GR Probe' is in A's super GR zone.*R112\.4"):
        _play_from(tmp_path, "super_gr", "gr.yaml", "GR Probe")


# ---- 207.2: a mana number changed by an effect -------------------------------------------------------------
def test_an_effect_changes_the_mana_number():
    # 207.2: with Fire Mana Doubler each Fire Card makes 2 mana, so both Fire Probes are summoned, one card each
    assert verdicts(_rk("RK08")) == ["holds", "holds"]


def test_without_the_change_the_printed_mana_number_is_read(monkeypatch):
    # 207.2: a model reading only the printed number cannot summon both Fire Probes (RK08 fails)
    monkeypatch.setattr(payment, "mana_number", lambda m, s, cid: m.card(cid).mana)
    assert "violated" in verdicts(_rk("RK08"))
