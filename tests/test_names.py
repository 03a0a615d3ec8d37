"""Choosing a name, a race, a civilization or a number (model/instructions/choosing.py): what may be chosen
(106.3, 108.1a, 202.2, 203.4, one face of a double-sided card 805.7 / 807.6 / 809.4, one card of a linked
God 804.6) and how a named card is matched (202.3a). Expectations are written from the rule text."""

from __future__ import annotations

import pytest
from conftest import ROOT, verdicts

from dmcheck.model.characteristics import CIVILIZATIONS
from dmcheck.model.instructions.choosing import substitute, values
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario

ATTACK = ROOT / "scenarios" / "attack"


def _scenario(prefix: str):
    found = sorted(ATTACK.glob(f"{prefix}_*.yaml"))
    assert len(found) == 1, prefix
    return found[0]


def _model(path):
    return BreakModel(load_scenario(path))


def test_a_chosen_civilization_is_one_of_the_five_never_colourless():
    """106.3: the five civilizations only; NM03's colourless creature is never reached."""
    m = _model(_scenario("NM03"))
    assert values(m, "civilization") == CIVILIZATIONS
    assert set(verdicts(_scenario("NM03"))) == {"holds"}


def test_a_chosen_number_is_never_negative():
    """108.1a: 0 up to the maximum, no negative number."""
    m = _model(_scenario("NM04"))
    assert values(m, "number", 6) == (0, 1, 2, 3, 4, 5, 6)
    assert set(verdicts(_scenario("NM04"))) == {"holds"}


def test_a_chosen_race_is_a_whole_race_that_exists():
    """203.4: Cyber Virus may be chosen, Cyber (a part of it) may not."""
    m = _model(_scenario("NM02"))
    races = values(m, "race")
    assert "Cyber Virus" in races and "Cyber" not in races
    assert set(verdicts(_scenario("NM02"))) == {"holds"}


def test_naming_a_psychic_creature_names_one_face():
    """202.2, 805.7: each face's name alone; the face up is the one matched in the battle zone (805.3)."""
    m = _model(_scenario("NM01"))
    names = values(m, "name")
    assert {"Bolshack Dragon of Space-Time", "Bolshack Mobius"} <= set(names)
    assert "Bolshack" not in names
    assert set(verdicts(_scenario("NM01"))) == {"holds"}


@pytest.mark.parametrize("path, faces", [
    ("piles/DH06_weapon_dragsolves_into_an_untapped_creature_that_may_attack.yaml",
     ("Solution Sword", "Solution Sword Dragon")),                               # 807.6
    ("attack/FB01_forbidden_release_when_the_last_seal_leaves.yaml",
     ("Forbidden Pulse Probe", "Forbidden Dragon Probe")),                       # 809.4
])
def test_naming_a_dragheart_or_a_forbidden_card_names_one_face(path, faces):
    """807.6, 809.4: either face's name may be named, never the two at once."""
    names = values(_model(ROOT / "scenarios" / path), "name")
    assert set(faces) <= set(names)
    joined = {f"{a}{sep}{b}" for a, b in (faces, faces[::-1]) for sep in ("/", " / ", " ")}
    assert not joined & set(names)


def test_a_named_card_matches_its_whole_name_only():
    """202.3a: naming Virus Probe does not reach Cyber Virus Probe."""
    assert set(verdicts(_scenario("NM05"))) == {"holds"}


def test_naming_one_card_of_a_linked_god_reaches_it():
    """804.6 with 202.5: either card's name is offered alone, and either reaches the linked God."""
    names = values(_model(_scenario("NM06")), "name")
    assert {"Ryukyokushin Geki", "Ryukyokushin Metsu"} <= set(names)
    assert set(verdicts(_scenario("NM06"))) == {"holds"}


def test_the_value_chosen_replaces_the_word_chosen_in_later_instructions():
    """The choice is recorded in the rest of the effect: every `chosen` in its arguments, nested or not."""
    args = (("whose", "opponent"), ("which", (("race", "chosen"), ("cost_max", 3))))
    assert substitute(args, "Cyber Virus") == (("whose", "opponent"), ("which", (("race", "Cyber Virus"),
                                                                                ("cost_max", 3))))


def test_a_forbidden_card_outside_the_battle_zone_is_read_as_either_face():
    """809.2: in the deck either face may be read (NM07 finds the pulse by its creature face's cost); in the
    battle zone only the face up is (FB01's sealed pulse is read as the pulse alone)."""
    from dmcheck.model.instructions.selection import either_face, fits

    assert set(verdicts(_scenario("NM07"))) == {"holds"}
    m = _model(_scenario("FB01"))
    s = m.initial_state()
    pulse = next(c for c in s.zone("B").battle if m.card(c).name == "Forbidden Pulse Probe")
    assert not either_face(m, s, pulse)
    assert not fits(m, s, pulse, (("cost_min", 50),))
