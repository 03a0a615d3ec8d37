"""The hyperspatial zone (407, 117) and psychic creatures (805; model/instructions/hyperspatial.py).
Expected values come from the rule text of the comprehensive rules Ver.1.48 (2025-12-17, S340), not from
the program's output."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, verdicts

from dmcheck.model.errors import InputError
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario

ATTACK = ROOT / "scenarios" / "attack"
CARDS = ATTACK / "cards" / "psychic.yaml"
SCENARIOS = sorted(ATTACK.glob("PS*.yaml"))
HOME_SCENARIOS = [p for p in SCENARIOS if p.stem[:4] in ("PS01", "PS02", "PS03", "PS09")]   # 805.4b


_verdicts = verdicts   # tests/conftest.py


def _write(tmp_path: Path, players: str, expect: str = "  - always: {shields_broken: 1}") -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(f"name: x\ncards: [{CARDS.as_posix()}]\nturn: A\nplayers:\n{players}"
                    f"attack: {{attacker: Vanilla, player: B}}\nexpect:\n{expect}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_psychic_scenario_holds(path):
    assert len(SCENARIOS) >= 2
    assert set(_verdicts(path)) == {"holds"}


@pytest.mark.parametrize("path", HOME_SCENARIOS, ids=lambda p: p.stem)
def test_the_scenarios_fail_when_a_psychic_creature_may_stay_outside(path):
    # 805.4b: without the return, the destroyed (PS01) or bounced (PS02) psychic creature stays where it went
    class Lenient(BreakModel):
        def __init__(self, scenario, readings=None):
            super().__init__(scenario, readings)
            self.home_rule = False
    assert "violated" in _verdicts(path, Lenient)


def test_a_psychic_creature_put_into_the_mana_zone_returns_to_the_hyperspatial_zone(tmp_path):
    # 117.1, 805.4b: the mana zone is no place for it either; it is the owner's hyperspatial zone it goes to
    path = tmp_path / "s.yaml"
    path.write_text(f"""name: x
cards: [{CARDS.as_posix()}]
turn: A
players:
  A: {{battle: [Vanilla, Psychic Probe]}}
  B: {{shields: [Natural Trap]}}
attack: {{attacker: Vanilla, player: B}}
expect:
  - never: {{mana: {{A: [Psychic Probe]}}}}
  - possible_order: [{{event: move, card: Psychic Probe, from: mana, to: hyperspatial, player: A}}]
  - sometimes: {{mana: {{A: [Vanilla]}}, battle: {{A: [Psychic Probe]}}}}
""", encoding="utf-8")
    assert _verdicts(path) == ["holds", "holds", "holds"]


def test_the_loader_refuses_a_card_that_is_no_psychic_in_the_hyperspatial_zone(tmp_path):
    # 407.1: the hyperspatial zone holds psychic cards
    path = _write(tmp_path, "  A:\n    battle: [Vanilla]\n    hyperspatial: [Psychic Probe, Vanilla]\n"
                            "  B: {shields: 1}\n")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    (error,) = caught.value.all()
    assert error.line == 7 and "players.A.hyperspatial[1]" in str(error) and "407.1" in str(error), str(error)


@pytest.mark.parametrize("zone", ["hand", "mana", "graveyard"])
def test_the_loader_refuses_a_psychic_creature_outside_its_two_zones(tmp_path, zone):
    # 805.4b: a psychic creature is never in the hand, the mana zone, the graveyard...
    path = _write(tmp_path, f"  A:\n    battle: [Vanilla]\n    {zone}: [Psychic Probe]\n  B: {{shields: 1}}\n")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    (error,) = caught.value.all()
    assert error.line == 7 and f"players.A.{zone}[0]" in str(error) and "805.4b" in str(error), str(error)


def test_put_from_hyperspatial_offers_only_the_psychic_creatures_within_the_cost(tmp_path):
    # 805.4a: put by an effect; the effect's cost limit (7) leaves out a cost-8 psychic creature
    cards = tmp_path / "cards.yaml"
    cards.write_text(CARDS.read_text(encoding="utf-8") + """
  - {id: big_psychic, name: Big Psychic, type: psychic_creature, cost: 8, power: 9000}
""", encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text(f"""name: x
cards: [{cards.as_posix()}]
turn: A
players:
  A: {{battle: [Hyperspace Probe], hyperspatial: [Big Psychic]}}
  B: {{shields: 1}}
attack: {{attacker: Hyperspace Probe, player: B}}
expect:
  - never_order: [{{event: put, card: Big Psychic}}]
  - always: {{battle: {{A: [Hyperspace Probe]}}}}
""", encoding="utf-8")
    assert _verdicts(path) == ["holds", "holds"]
