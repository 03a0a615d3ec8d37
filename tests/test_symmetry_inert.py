"""Inert classes of identical cards (model/symmetry.py `_inert_classes`).

The symmetry skips a class of identical cards when the scenario's card words can only draw its
members from the deck, in deck order, into a hand nothing takes from (a vanilla card, no program
that is TOP). The claim is that no two reachable states then differ by a renaming of such a class;
here it is checked by ranking those classes anyway (every class active) on every state of the full
search and counting the distinct canonical forms, and by the reduced searches with and without the
skip storing the same number of states. Scenarios where a class can diverge keep it active.
"""

from __future__ import annotations

import dataclasses
import sys

import pytest
from conftest import ROOT

from dmcheck.explorer.bfs import explore
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario

sys.path.insert(0, str(ROOT / "benchmarks"))
import families  # noqa: E402

# repository scenarios with an inert class (found by listing `symmetry.active` on all of them)
WITH_INERT = ["attack/A01_declaration_then_end.yaml", "attack/A09_block_dai_league.yaml",
              "attack/A10a_battle_tapped_creature.yaml", "attack/A10b_battle_tie.yaml",
              "attack/A11a_no_battle_win_on_tie.yaml", "attack/A11b_battle_win.yaml", "attack/A13_end_of_turn.yaml",
              "attack/A14a_blocked_at_zero_shields.yaml", "attack/A17a_ash_raider_once_per_shield.yaml",
              "attack/A17b_one_or_more_once.yaml", "flow/D0_no_shields.yaml",
              "rulings/R113.6a_standby_not_counted.yaml", "rulings/SC3_sabaki_z_revolution_0.yaml",
              "rulings/answers/BK06_world_breaker.yaml", "rulings/answers/G17_breaker_must_be_used.yaml"]
CASES = [lambda n=n: families.shield_check(n) for n in (2, 4, 7, 8)] + \
        [lambda p=p: load_scenario(ROOT / "scenarios" / p) for p in WITH_INERT]


def _ranked_everything(model: BreakModel) -> BreakModel:
    model.symmetry.active = list(range(len(model.symmetry.classes)))
    return model


@pytest.mark.parametrize("make", CASES)
def test_an_inert_class_never_separates_two_reachable_states(make):
    model = BreakModel(make())
    sym = model.symmetry
    inert = len(sym.classes) - len(sym.active)
    assert inert > 0
    states = explore(model).states                 # unreduced, no symmetry: every reachable state
    full = _ranked_everything(BreakModel(make())).symmetry
    # ranking the inert classes too merges no two of them, and the skip changes no canonical form
    assert len({full.canonical(s) for s in states}) == len({sym.canonical(s) for s in states})
    skipped = explore(model, reduce=True)
    ranked = explore(_ranked_everything(BreakModel(make())), reduce=True)
    assert len(skipped.parent) == len(ranked.parent)
    assert {repr(sorted(o.items())) for o, _, _ in skipped.outcomes()} == \
        {repr(sorted(o.items())) for o, _, _ in ranked.outcomes()}


def test_the_shield_check_family_has_only_inert_classes():
    # from n = 7 on, at most one of B's shields is a Vanilla (T = 4 S-Triggers): nothing to tell apart
    for n in (7, 8, 10, 12):
        sym = BreakModel(families.shield_check(n)).symmetry
        assert sym.classes and sym.active == []


def test_two_vanilla_shields_of_the_defender_stay_active():
    # shield_check(5): three S-Triggers and two Vanilla shields, which the attacker may choose apart
    sym = BreakModel(families.shield_check(5)).symmetry
    b_class = next(k for k, ids in enumerate(sym.classes) if sym.class_owner[k] == 1)
    assert b_class in sym.active


def test_a_card_word_that_takes_from_the_hand_keeps_the_deck_active():
    # Emergency Typhoon discards from its caster's hand: a drawn Vanilla may be discarded, another kept
    sc = families.shield_check(8)
    b = sc.players["B"]
    shields = ("emergency_typhoon",) + b.shields[1:]
    sc = dataclasses.replace(sc, players={**sc.players, "B": dataclasses.replace(b, shields=shields)})
    sym = BreakModel(sc).symmetry
    owners = [sym.class_owner[k] for k in sym.active]
    assert 1 in owners                       # B's deck class
    assert 0 not in owners                   # A's deck and shields: nothing reaches them


def test_a_program_beyond_footprints_leaves_nothing_inert():
    sym = BreakModel(families.kakumeijin(7)).symmetry   # casts, breaks: TOP
    assert len(sym.active) == len(sym.classes) > 0


def test_a_trace_names_each_card_drawn_from_an_inert_deck():
    # A17a: two break triggers each draw the top card of A's deck of Vanillas. The deck's class is
    # inert, so the stored states keep the cards' own names: the second draw takes Vanilla#2 (once
    # the deck was renamed after each draw, and both draws read "Vanilla#1")
    from dmcheck.properties.expectations import check

    sc = load_scenario(ROOT / "scenarios" / "attack" / "A17a_ash_raider_once_per_shield.yaml")
    graph = explore(BreakModel(sc), reduce=True)
    two = next(item for item in sc.expect if item.raw.get("sometimes") == {"hand": {"A": ["Vanilla", "Vanilla"]}})
    trace = check(graph, two).trace
    drawn = [e.get("card") for e in trace.events() if e.kind == "move" and e.get("from") == "deck"]
    assert drawn == ["Vanilla#1", "Vanilla#2"]
