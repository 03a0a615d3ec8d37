"""Right answers where public rulings contradicted the model, one test (or a few) per class.

Each scenario was written from a ruling or rule text of scenarios/corpus.d/public_answers.yaml (its
source and date are there); the tests check what a scenario's `expect` cannot say alone: the other era,
the other reading, the rule the model must not apply. Each test fails when its rule is removed
(benchmarks/mutations.py breaks them one at a time).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re

from conftest import ROOT

from dmcheck.explorer.bfs import explore
from dmcheck.model.procedure import BreakModel
from dmcheck.model.readings import Readings, choice_named
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.expectations import check

ATTACK = ROOT / "scenarios" / "attack"
ANSWERS = ROOT / "scenarios" / "rulings" / "answers"


def _graph(path, rules: dt.date | None = None, **readings):
    scenario = load_scenario(path)
    if rules is not None:
        scenario = dataclasses.replace(scenario, rules=rules)
    if readings:
        scenario = dataclasses.replace(scenario, readings={**scenario.readings, **readings})
    graph = explore(BreakModel(scenario))
    assert graph.complete
    return scenario, graph


def _holds(path, rules=None, **readings) -> bool:
    scenario, graph = _graph(path, rules, **readings)
    return all(check(graph, item).holds for item in scenario.expect)


def _outcomes(graph) -> list[dict]:
    return [o for o, _, _ in graph.outcomes()]


def _events(graph):
    for node in graph.terminals:
        yield graph.trace(node).events()


# ---- class 1: a swap is both moves or none (R701.26a; S150-S152) -----------------------------------------
def test_class1_a_swap_onto_a_creature_kept_by_ex_life_changes_nothing():
    _, graph = _graph(ATTACK / "SW01_revolution_change_onto_ex_life_fails.yaml")
    for o in _outcomes(graph):
        assert o["battle"]["A"] == ["Zardicrica"] and o["hand"]["A"] == ["Change Probe"]
        assert o["graveyard"]["A"] == [] and o["shields_broken"] == 2   # EX Life not applied; it keeps attacking
    fizzled = [e for events in _events(graph) for e in events if e.kind == "fizzle"]
    assert fizzled and all(e.get("with") == "Zardicrica" for e in fizzled)


def test_class1_before_2020_11_19_only_the_replacement_was_applied():
    old = dt.date(2020, 11, 18)
    _, graph = _graph(ATTACK / "SW01_revolution_change_onto_ex_life_fails.yaml", rules=old)
    outcomes = _outcomes(graph)
    assert any(o["graveyard"]["A"] == ["Vanilla"] and o["battle"]["A"] == ["Zardicrica"] for o in outcomes)
    assert all(o["hand"]["A"] == ["Change Probe"] for o in outcomes)   # never swapped, in either era
    assert _holds(ATTACK / "SW02_true_escape_swap.yaml")                 # S150's example 2, before
    assert not _holds(ATTACK / "SW02_true_escape_swap.yaml", rules=dt.date(2020, 11, 19))


def test_class1_every_swap_word_is_both_or_none():
    # Ninja Change swaps too (S122, S150); a creature that does not leave can never be swapped away
    assert _holds(ATTACK / "SW03_ninja_change_onto_ex_life.yaml")
    _, graph = _graph(ATTACK / "SW04_swap_with_creature_that_does_not_leave.yaml")
    assert all(o["battle"]["A"] == ["Stay Probe"] for o in _outcomes(graph))
    assert _holds(ATTACK / "SW02n_true_escape_swap_now.yaml")   # an optional replacement: declined, the swap is made


# ---- class 2: effects reach the creatures there when they resolve (110.2e; S159, S160) ------------------
def test_class2_an_extra_break_reaches_the_creatures_in_the_battle_zone_then():
    _, graph = _graph(ANSWERS / "EF01_extra_break_reaches_creatures_there_then.yaml")
    cast = [o for o in _outcomes(graph) if o["graveyard"]["A"] == ["Kankuro Blaster"]
            and o["battle"]["A"] == ["Change Probe", "Vanilla"]]
    # cast before the change: 3 (the Vanilla it reached keeps its extra break, Change Probe has none); after: 4
    assert {o["shields_broken"] for o in cast} == {3, 4}
    # a creature that left and came back (Texas Storm) is a new one: the extra break is gone (under both readings)
    for reading in ("yes", "no"):
        assert _holds(ANSWERS / "BK02_corpus_effect_break.yaml", extra_break_applies_to_effect_breaks=reading)


def test_class2_an_evolution_keeps_what_reached_its_source():
    _, graph = _graph(ANSWERS / "EF02_evolution_keeps_the_effects_on_its_source.yaml")
    cast = [o for o in _outcomes(graph) if o["graveyard"]["A"] == ["Kankuro Blaster"]
            and o["battle"]["A"] == ["Red Zone"]]
    assert cast and {o["shields_broken"] for o in cast} == {4}


# ---- class 3: several blockers since 2021-09-07 (R507.1a; S153, S154) -----------------------------------
def test_class3_several_blockers_by_era():
    path = ATTACK / "BL01_several_blockers_last_one_blocks.yaml"
    _, graph = _graph(path)
    taps = [e for events in _events(graph) for e in events if e.kind == "tap"]
    assert taps   # a Blocker used and overridden by the one resolved after it
    for events in _events(graph):
        blocks = [e for e in events if e.kind == "block"]
        assert len(blocks) <= 1   # one blocking creature, the last one resolved
    _, old = _graph(path, rules=dt.date(2021, 9, 6))
    assert not [e for events in _events(old) for e in events if e.kind == "tap"]
    _, first_day = _graph(path, rules=dt.date(2021, 9, 7))   # in force from the day of the change
    assert [e for events in _events(first_day) for e in events if e.kind == "tap"]
    assert _holds(ATTACK / "BL00_one_blocker_before_2021.yaml")


# ---- class 4: a creature's own break and its additional breaks; the defaults and their sources ----------
def test_class4_a_creatures_own_break_gets_its_additional_break_by_default():
    _, graph = _graph(ANSWERS / "AB01_own_ability_break_gets_additional_break.yaml")
    assert {o["shields_broken"] for o in _outcomes(graph)} == {4}
    _, no = _graph(ANSWERS / "AB01_own_ability_break_gets_additional_break.yaml",
                   extra_break_applies_to_effect_breaks="no")
    assert {o["shields_broken"] for o in _outcomes(no)} == {3}


def test_class4_defaults_follow_the_most_authoritative_most_recent_source():
    defaults = Readings.make()
    assert defaults.get("extra_break_applies_to_effect_breaks") == "yes"   # S161 (2023-06-23), S162 (2025-09-29)
    assert defaults.get("castle_other_shield") == "not_used"               # S164 (2024-01-14)
    assert defaults.get("break_replacement_timing") == "at_break"          # R603.7 (2023-09-14), R509.3 (v1.42)
    for name in ("extra_break_applies_to_effect_breaks", "castle_other_shield", "break_replacement_timing"):
        choice = choice_named(name)
        assert choice.readings[0][0] == choice.default
        # each reading names its sources with their dates (or says it has none)
        assert all(re.search(r"\d{4}-\d{2}-\d{2}", text) or text.startswith("no source") for _, text in choice.readings)
    assert _holds(ANSWERS / "CS01_castle_takes_a_shield_of_the_same_break.yaml")
    assert not _holds(ANSWERS / "CS01_castle_takes_a_shield_of_the_same_break.yaml",
                      castle_other_shield="unchosen_only")


# ---- class 5: an empty deck loses; two losses at once (LO01, S167; S109) --------------------------------
def test_class5_an_empty_deck_loses_at_once_even_in_an_effect():
    _, graph = _graph(ATTACK / "LO01_deck_out_loses_at_once.yaml")
    assert [(o["winner"], o["loser"], o["shields_broken"]) for o in _outcomes(graph)] == [("B", "A", 0)]
    _, both = _graph(ATTACK / "LO02_both_decks_out_both_lose.yaml")
    assert [(o["winner"], o["loser"]) for o in _outcomes(both)] == [("none", "both")]


# ---- class 6: the eras and the reading the rulings needed ---------------------------------------------
def test_class6_ninja_strike_mana_counted_at_declaration_until_2022_08_10():
    assert _holds(ATTACK / "NS03_ninja_strike_mana_at_declaration.yaml")
    assert not _holds(ATTACK / "NS03_ninja_strike_mana_at_declaration.yaml", rules=dt.date(2022, 8, 10))
    assert _holds(ATTACK / "NS03b_ninja_strike_mana_met_at_declaration.yaml")
    assert _holds(ATTACK / "A05b_ninja_mana_on_resolution.yaml", rules=dt.date(2022, 8, 10))


def test_class6_master_breaker_order_is_a_reading():
    path = ANSWERS / "MB01_master_breaker_destroys_then_chooses.yaml"
    assert _holds(path, before_break_order="effects_first")
    assert not _holds(path)   # the default follows today's rules: the shields are chosen first
    assert choice_named("before_break_order").default == "shields_first"


def test_class1_a_creature_that_does_not_leave_stays_whatever_moves_it(tmp_path):
    # "does not leave the battle zone" (離れない): Terror Pit from B's shield destroys the attacker; the
    # attempt happens (R701.6a) but it stays, and it still breaks (S150 names such effects beside replacements)
    path = tmp_path / "stay.yaml"
    path.write_text(f"""name: a creature that does not leave the battle zone is not destroyed
cards: [{ROOT / 'scenarios' / 'rulings' / 'cards' / 'public.yaml'}]
rules: 2024-06-19
turn: A
players:
  A:
    battle: [Stay Probe]
  B:
    shields: [Terror Pit, Vanilla, Vanilla]
attack: {{attacker: Stay Probe, player: B}}
""", encoding="utf-8")
    _, graph = _graph(path)
    attempts = [e for events in _events(graph) for e in events if e.kind == "destroy"]
    assert attempts and all(o["battle"]["A"] == ["Stay Probe"] for o in _outcomes(graph))
