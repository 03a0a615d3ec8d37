"""The rebuild of an evolution creature whose top card alone left (801.4a-b): the highest card that can stand
alone in the battle zone stays (model/instructions/pile_moves.py `stands_alone`). Expected values come from the
rule text of the comprehensive rules Ver.1.48 (2025-12-17, S340), not from the program's output."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, verdicts

from dmcheck.model.cards import CardDef
from dmcheck.model.errors import InputError
from dmcheck.model.instructions import pile_moves
from dmcheck.model.scenario_file import load_scenario

PILES = ROOT / "scenarios" / "piles"


def _scenario(stem: str) -> Path:
    (path,) = sorted(PILES.glob(stem + "_*.yaml"))
    return path


def test_the_rebuild_scenarios_hold():
    for stem in ("RB01", "RB03", "RB04", "RB05", "RB06", "RB07", "ST01"):
        assert set(verdicts(_scenario(stem))) == {"holds"}, stem


def test_rb05_and_rb06_fail_when_only_a_creature_may_stand_alone(monkeypatch):
    # 801.4a-b: a tamaseed may stand alone; read as "a creature", it would go to the graveyard
    monkeypatch.setattr(pile_moves, "stands_alone", lambda m, c: m.card(c).type == "creature")
    assert "violated" in verdicts(_scenario("RB05"))
    assert "violated" in verdicts(_scenario("RB06"))


def test_rb06_fails_when_a_spell_may_stand_alone(monkeypatch):
    # 801.4b: a spell cannot stand alone in the battle zone (302.3); kept, it would be the card that stays
    monkeypatch.setattr(pile_moves, "STANDING", pile_moves.STANDING + ("spell",))
    assert "violated" in verdicts(_scenario("RB06"))


def test_what_may_stand_alone():
    # 801.4a with 806.1a, 814.1d, 305.3, 310.5: the card types that can lie alone in the battle zone
    assert set(pile_moves.STANDING) == {"creature", "tamaseed", "cross_gear", "dragheart_fortress"}
    assert pile_moves.KEEP_TAPPED == ("creature", "tamaseed")   # 801.4d


def test_rb07_fails_when_the_rebuilt_creature_loses_the_effects(monkeypatch):
    # 801.4c: the power change of the turn applies to the creature left by the rebuild; forgotten, Vanilla lives
    carry = pile_moves._carry
    monkeypatch.setattr(pile_moves, "_carry",
                        lambda s, old, new, creature=True: carry(s.forget(old), old, new, creature))
    assert "violated" in verdicts(_scenario("RB07"))


# ---- several sources (801.1b, 801.2b: model/instructions/piles.py `orders`, `evolve_onto`) ------------------------
def test_ev14_fails_when_the_sources_have_one_order(monkeypatch):
    # 801.1b: the owner orders the sources; with one fixed order only one card can be right under the evolution
    from dmcheck.model.instructions import piles

    monkeypatch.setattr(piles, "orders", lambda m, s, sources: [sources])
    assert set(verdicts(_scenario("EV14"))) == {"holds", "violated"}


def test_ev14_and_ev15_hold():
    # 801.2b: one tapped source makes the evolution creature tapped, so the second attacker may attack it
    assert set(verdicts(_scenario("EV14"))) == {"holds"}
    assert set(verdicts(_scenario("EV15"))) == {"holds"}


# ---- forbidden star evolution (813.1b: model/cards.py `CardDef.has`, `CardDef.evolution`) ------------------------
def test_fs01_and_fs02_hold():
    assert set(verdicts(_scenario("FS01"))) == {"holds"}
    assert set(verdicts(_scenario("FS02"))) == {"holds"}


def test_fs01_is_refused_when_a_forbidden_star_evolution_needs_a_source(monkeypatch):
    # 813.1b: it needs no source; read as needing one, the loader refuses the lone creature (801.1a)
    evolution = CardDef.evolution
    monkeypatch.setattr(CardDef, "evolution",
                        lambda self: 1 if "Forbidden Star Evolution" in self.keywords else evolution(self))
    with pytest.raises(InputError, match="801.1a"):
        load_scenario(_scenario("FS01"))


def test_fs02_fails_when_a_forbidden_star_evolution_is_no_star_evolution(monkeypatch):
    # 813.1b: it leaves as a star evolution creature does; without that, the whole pile is destroyed
    monkeypatch.setattr(CardDef, "has", lambda self, keyword: keyword in self.keywords)
    assert "violated" in verdicts(_scenario("FS02"))
