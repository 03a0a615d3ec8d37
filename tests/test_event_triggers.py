"""Triggered abilities as patterns over events, the new events they can watch, and delayed triggered
abilities (model/trigger_patterns.py, model/triggers.py, model/instructions/delayed.py).

The scenarios of tests/data/triggers/ are written from the comprehensive rules Ver.1.48 (each cites its
rules: R114.2-114.6a draws, R115.2-115.3a the battle's start, R507.3b block triggers, R511.1 the end of
the turn, R110.3b/R603.6/R603.6a/R607.2 delayed triggered abilities); their probe cards are
tests/data/triggers/cards.yaml. The unit tests pin that each trigger word is its pattern and that a
pattern that could never match is refused at its line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DATA

from dmcheck.model.cards import CardPool
from dmcheck.model.errors import InputError
from dmcheck.model.scenario_file import load_scenario
from dmcheck.model.trigger_patterns import ALIASES, TriggerPattern
from dmcheck.properties.expectations import check

SCENARIOS = sorted((DATA / "triggers").glob("T*.yaml"))


def _explore(path: Path):
    from dmcheck.explorer.bfs import explore
    from dmcheck.model.procedure import BreakModel
    scenario = load_scenario(path)
    return scenario, explore(BreakModel(scenario))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_trigger_scenarios_hold(path):
    scenario, graph = _explore(path)
    assert graph.complete and scenario.expect
    for item in scenario.expect:
        verdict = check(graph, item)
        assert verdict.verdict == "holds", (path.name, item.raw, verdict.reason)


def _card_file(tmp_path: Path, ability: str, kind: str = "creature") -> Path:
    path = tmp_path / "cards.yaml"
    path.write_text("cards:\n"
                    "  - id: probe\n"
                    "    name: Pattern Probe\n"
                    f"    type: {kind}\n"
                    "    cost: 2\n"
                    "    abilities:\n"
                    f"      - {ability}\n", encoding="utf-8")
    return path


def _pattern(tmp_path: Path, trigger: str) -> TriggerPattern | None:
    pool = CardPool()
    pool.add_file(_card_file(tmp_path, f"{{id: a, trigger: {trigger}, effect: []}}"))
    return pool["probe"].abilities[0].pattern


@pytest.mark.parametrize("word, mapping", [
    ("destroyed", "{on: destroyed, card: this}"),
    ("own_dragon_destroyed", "{on: destroyed, player: you, card: other, has: [Dragon]}"),
    ("opponent_cast_or_summon", "{on: [cast, enters], player: opponent}"),
    ("end_of_your_turn", "{on: end_of_turn, player: you}"),
    ("first_spell", "{on: cast, player: you, first_this_turn: true}"),
])
def test_a_trigger_word_is_its_pattern(tmp_path, word, mapping):
    """The old words and the patterns they stand for are one ability (R603.1: an event and a condition)."""
    assert _pattern(tmp_path, word) == ALIASES[word] == _pattern(tmp_path, mapping)


def test_declared_words_have_no_pattern(tmp_path):
    """Ninja Strike and the other hand declarations keep their own mechanism: no event pattern."""
    assert _pattern(tmp_path, "ninja_strike") is None and _pattern(tmp_path, "before_break") is None


@pytest.mark.parametrize("ability, words", [
    ("{id: a, trigger: {on: end_of_turn, card: this}, effect: []}", ["names no card"]),
    ("{id: a, trigger: {on: [cast, draw], first_this_turn: true}, effect: []}", ["first_this_turn", "on: cast"]),
    ("{id: a, trigger: {on: sneezes}, effect: []}", ["sneezes", "draw"]),
    ("{id: a, trigger: {on: draw, player: me}, effect: []}", ["player", "you, opponent, any"]),
    ("{id: a, trigger: {on: draw, whose: you}, effect: []}", ["unknown key 'whose'"]),
    ("{id: a, trigger: {on: destroyed, to: [hand]}, effect: []}", ["trigger.to", "on: leaves"]),
    ("{id: a, trigger: {on: cast, once_per_turn: yes please}, effect: []}", ["once_per_turn", "true or false"]),
    ("{id: a, trigger: attacks, effect: [{delayed_trigger: {when: {on: end_of_turn, has: [Fire]}, do: []}}]}",
     ["delayed_trigger.when", "names no card"]),
    ("{id: a, trigger: attacks, effect: [{delayed_trigger: {when: soon, do: []}}]}", ["when", "end_of_turn"]),
])
def test_a_pattern_that_cannot_match_is_refused_at_its_line(tmp_path, ability, words):
    with pytest.raises(InputError) as err:
        CardPool().add_file(_card_file(tmp_path, ability))
    text = str(err.value)
    assert "cards.yaml:7" in text and all(w in text for w in words), text


def test_a_spell_cannot_watch_its_own_battles(tmp_path):
    """Only a creature battles or attacks: `card: this` on such an event is refused on a spell."""
    with pytest.raises(InputError, match="cannot have the trigger"):
        CardPool().add_file(_card_file(tmp_path, "{id: a, trigger: {on: battle_start, card: this}, effect: []}",
                                       kind="spell"))


def test_a_delayed_ability_is_named_after_what_makes_it():
    pool = CardPool.builtin()
    pool.add_file(DATA / "triggers" / "cards.yaml")
    made = [a for a in pool["later_attacker"].abilities if a.zone == "delayed"]
    assert [(a.id, a.pattern) for a in made] == [("attack_later", TriggerPattern(on=("end_of_turn",)))]
