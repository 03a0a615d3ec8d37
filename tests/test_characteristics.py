"""Characteristics as data (rules 106, 108, 201-206): the power arithmetic, races and names by whole words, a
card's civilizations, and a card file's mistakes about them (exit 2 with the file, the line and what was
expected). The scenarios scenarios/attack/CH* pin the same rules through whole attacks (tests/test_attack.py)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from dmcheck.main import main
from dmcheck.model.cards import CardPool
from dmcheck.model.characteristics import (
    DIVIDED_BY,
    FIXED,
    INFINITY,
    TIMES,
    colour,
    contains_words,
    has_race,
    power_value,
    referenced,
)
from dmcheck.model.errors import InputError


# ---- R108.2, R206.4: additions, subtractions, multiplications, divisions --------------------------------------
def test_the_doubling_example_of_206_4():
    # 3000 with +2000 and "double its power" at once: 3000 + 2000 first, then doubled
    assert power_value(3000, (2000,), ((TIMES, 2),)) == 10000


def test_changes_apply_by_kind_not_by_the_order_they_came_in():
    # a halving given before a +1000 still comes after it: (4000 + 1000) / 2, not 4000 / 2 + 1000
    assert power_value(4000, (1000,), ((DIVIDED_BY, 2),)) == 2500
    # multiplications before divisions: 3000 x 3 / 2 = 4500 (dividing first and rounding would give 3000)
    assert power_value(3000, (), ((DIVIDED_BY, 2), (TIMES, 3))) == 4500


def test_a_fixed_power_is_the_power_whatever_else_applies():
    # R206.3: fixed at 500, a +2000 and a doubling change nothing
    assert power_value(3000, (2000, -INFINITY), ((TIMES, 2), (FIXED, 500))) == 500


def test_a_negative_power_doubled_stays_negative_and_is_read_as_0():
    raw = power_value(3000, (-5000,), ((TIMES, 2),))    # R108.1b: (3000 - 5000) x 2
    assert raw == -4000
    assert referenced(raw) == 0
    assert referenced(2500) == 2500


def test_infinite_power_ignores_changes_but_minus_infinity():
    assert power_value(INFINITY, (-5000,), ((DIVIDED_BY, 2),)) == INFINITY          # R108.1c: stays ∞
    assert power_value(7000, (INFINITY,)) == INFINITY                       # +∞ makes it ∞
    assert power_value(INFINITY, (-INFINITY,)) == -INFINITY                 # minus ∞: destroyed (703.4c)
    assert referenced(power_value(INFINITY, (-INFINITY,))) == 0


# ---- R203.2, R202.3, R106.2: what a filter compares -------------------------------------------------------------
def test_a_race_reaches_every_race_holding_its_words():
    assert has_race(("Armored Dragon",), "Dragon")
    assert has_race(("Mega Command Dragon",), "Command Dragon")
    assert not has_race(("Dragonoid",), "Dragon")          # a word is not part of a longer word
    assert not has_race(("Command",), "Command Dragon")    # the whole name must be there


def test_a_name_part_is_whole_words():
    assert contains_words("コッコ・ルピア", "ルピア")
    assert not contains_words("パープル・ピアス", "ルピア")    # R202.3's example: the letters run across two words


def test_mono_multicolored_colorless():
    assert colour(()) == "colorless"
    assert colour(("Fire",)) == "mono"
    assert colour(("Fire", "Nature")) == "multicolored"


# ---- card files -------------------------------------------------------------------------------------------------
def _cards(tmp_path: Path, body: str, kind: str = "creature") -> Path:
    path = tmp_path / "cards.yaml"
    head = f"cards:\n  - id: probe\n    name: Probe\n    type: {kind}\n    cost: 3\n"
    path.write_text(head + body, encoding="utf-8")
    return path


def test_civilizations_and_races_are_read_from_a_card_file(tmp_path):
    pool = CardPool()
    pool.add_file(_cards(tmp_path, "    power: infinity\n    civilizations: [Water, Light]\n    races: [Cyber Lord]\n"
                                   "    keywords: [Blocker, Liquid People]\n"))
    card = pool["probe"]
    assert card.civs() == ("Light", "Water")                       # in the rules' order (106.1)
    assert card.race_names() == ("Cyber Lord", "Liquid People")   # a race among the keywords counts too
    assert card.power == INFINITY


def test_an_unknown_civilization_is_refused_with_its_line(tmp_path):
    path = _cards(tmp_path, "    power: 1000\n    civilizations: [Fire, Wind]\n")
    with pytest.raises(InputError) as err:
        CardPool().add_file(path)
    text = str(err.value)
    assert f"{path}:7" in text and "civilizations[1]" in text
    assert all(civ in text for civ in ("Light", "Water", "Darkness", "Fire", "Nature")), text


def test_an_unknown_filter_key_is_refused_by_the_command_line(tmp_path):
    path = _cards(tmp_path, "    power: 1000\n    abilities:\n      - id: hunt\n        trigger: attacks\n"
                            "        effect:\n          - destroy: {whose: opponent, which: {species: Dragon}}\n")
    out, err = io.StringIO(), io.StringIO()
    assert main(["cards", str(path)], out, err) == 2
    assert f"{path}:11" in err.getvalue() and "species" in err.getvalue(), err.getvalue()


def test_a_power_word_takes_exactly_one_change(tmp_path):
    path = _cards(tmp_path, "    power: 1000\n    abilities:\n      - id: grow\n        trigger: attacks\n"
                            "        effect:\n          - power: {amount: 1000, times: 2, until: end_turn}\n")
    with pytest.raises(InputError) as err:
        CardPool().add_file(path)
    assert f"{path}:11" in str(err.value), str(err.value)


@pytest.mark.parametrize("body,line,key", [
    ('    power: 1000\n    keywords: ["S-Back:Wind"]\n', 7, "keywords[0]"),
    ("    keywords: [Darkness]\n    abilities:\n      - id: oni\n        trigger: oni_end\n        effect:\n"
     "          - oni_end: {mana_all_of: [Fire, Wind]}\n", 11, "mana_all_of[1]"),
    ("    power: 1000\n    abilities:\n      - id: hunt\n        trigger: attacks\n        effect:\n"
     "          - destroy: {which: {civilization: [Fire, Wind]}}\n", 11, "which.civilization"),
], ids=["s_back", "oni_end", "which"])
def test_every_civilization_a_card_file_names_is_one_of_the_five(tmp_path, body, line, key):
    path = _cards(tmp_path, body, "spell" if "oni_end" in body else "creature")
    with pytest.raises(InputError) as err:
        CardPool().add_file(path)
    assert f"{path}:{line}" in str(err.value) and key in str(err.value), str(err.value)
