"""Zero Dragon (零龍): the ceremony and nebulas, their birth into one creature and the face read (311.1,
701.31a, 812.1, 812.1a, 812.2, 812.4; model/instructions/zero_dragon.py). Expectations from the rule text."""

from __future__ import annotations

import pytest
from conftest import ROOT, verdicts

from dmcheck.model.errors import InputError
from dmcheck.model.instructions.choosing import values
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario

ATTACK = ROOT / "scenarios" / "attack"


def _scenario(prefix: str):
    found = sorted(ATTACK.glob(f"{prefix}_*.yaml"))
    assert len(found) == 1, prefix
    return found[0]


def test_zero_dragon_birth_turns_the_ceremony_and_four_nebulas_into_one_creature():
    """701.31a, 812.1a: ZD01's five cards become one creature; ZD02's three nebulas are not enough."""
    assert set(verdicts(_scenario("ZD01"))) == {"holds"}
    assert set(verdicts(_scenario("ZD02"))) == {"holds"}


def test_a_zero_dragon_card_outside_the_battle_zone_is_read_as_either_face():
    """812.2: in the deck the ceremony may be read as its Zero Dragon face (ZD03)."""
    assert set(verdicts(_scenario("ZD03"))) == {"holds"}


def test_naming_a_zero_dragon_card_names_one_face():
    """812.4: either face's name may be named, never both at once."""
    names = values(BreakModel(load_scenario(_scenario("ZD01"))), "name")
    assert {"Zero Ceremony Probe", "Zero Dragon Probe", "Zero Nebula Probe", "Zero Part Probe"} <= set(names)
    assert not any("Zero Ceremony Probe" in n and "Zero Dragon Probe" in n for n in names)


def test_a_ceremony_without_its_other_front_is_refused(tmp_path):
    """812.1: a ceremony's other front is a part of the Zero Dragon creature; the loader asks for `back:`."""
    from dmcheck.model.cards import CardPool
    file = tmp_path / "cards.yaml"
    file.write_text("cards:\n  - {id: c, name: C, type: ceremony, cost: 0}\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        CardPool().add_file(file)
    assert "812.1" in str(caught.value) and "back:" in str(caught.value)
