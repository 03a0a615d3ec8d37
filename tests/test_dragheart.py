"""Draghearts (807): weapons (305), fortresses (306) and the hyperspatial zone they live in (117, 407).
Expected values come from the rule text of the comprehensive rules Ver.1.48 (2025-12-17, S340), not from
the program's output. Each scenario DHxx is also run against a model with its mechanism removed, and must
then fail."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import ROOT, verdicts

from dmcheck.model import homes, triggers, turn
from dmcheck.model.cards import CardPool
from dmcheck.model.errors import InputError
from dmcheck.model.instructions import hyperspatial, pile_moves
from dmcheck.model.instructions.registry import OPS
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.model.state import replace

PILES = ROOT / "scenarios" / "piles"
CARDS = ROOT / "scenarios" / "attack" / "cards" / "dragheart.yaml"
SCENARIOS = sorted(PILES.glob("DH*.yaml"))


_verdicts = verdicts   # tests/conftest.py


def _scenario(stem: str) -> Path:
    (path,) = [p for p in SCENARIOS if p.stem.startswith(stem)]
    return path


def _write(tmp_path: Path, players: str, attacker: str = "Vanilla",
           expect: str = "  - always: {shields_broken: 1}") -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(f"name: x\ncards: [{CARDS.as_posix()}]\nturn: A\nplayers:\n{players}"
                    f"attack: {{attacker: {attacker}, player: B}}\nexpect:\n{expect}\n", encoding="utf-8")
    return path


class NoHomeRule(BreakModel):
    """117.2, 807.4b removed: nothing sends a dragheart home."""

    def __init__(self, scenario, readings=None):
        super().__init__(scenario, readings)
        self.home_rule = False


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_dragheart_scenario_holds(path):
    assert len(SCENARIOS) >= 4
    assert set(_verdicts(path)) == {"holds"}


@pytest.mark.parametrize("stem", ["DH01", "DH02", "DH03", "DH05"])
def test_the_scenarios_fail_when_a_dragheart_may_stay_outside_its_home(stem):
    # 117.2, 305.3: without the rule, the weapon of a destroyed (DH01, DH03) or bounced (DH02) creature stays;
    # 807.4b: a destroyed or bounced dragheart creature (DH05) stays in the graveyard or the hand
    assert "violated" in _verdicts(_scenario(stem), NoHomeRule)


def test_dh02_fails_when_the_weapon_follows_its_creature(monkeypatch):
    # a weapon is no card the creature is made of: were it to go along to the hand, it would go home from there
    monkeypatch.setattr(pile_moves, "FOLLOWS", ("under", "aura", "weapon"))
    monkeypatch.setattr(pile_moves, "STAYS", ("cross",))
    assert "violated" in _verdicts(_scenario("DH02"))


def test_dh03_fails_when_a_fortress_may_not_stand_alone(monkeypatch):
    # 306.2: a fortress stands alone; a model sending it home like a lone weapon loses DH03's outcome
    monkeypatch.setattr(homes, "ALONE", homes.ALONE | {"dragheart_fortress"})
    assert "violated" in _verdicts(_scenario("DH03"))


def _options_become(monkeypatch, options) -> None:
    """put_dragheart offers `options(real, m, s, task, ins)` instead of its own options."""
    real = OPS["put_dragheart"]
    lenient = dataclasses.replace(real, options=lambda m, s, task, ins: options(real.options, m, s, task, ins))
    monkeypatch.setitem(OPS, "put_dragheart", lenient)


class _NoLimit:
    """An instruction read with no cost limit."""

    def __init__(self, ins):
        self.ins = ins

    def get(self, key, default=None):
        return 99 if key == "cost_max" else self.ins.get(key, default)


def test_dh03_fails_without_the_cost_limit(monkeypatch):
    # 807.4a: the effect's own limit (cost 5) leaves out the cost-8 weapon
    _options_become(monkeypatch, lambda real, m, s, task, ins: real(m, s, task, _NoLimit(ins)))
    assert "violated" in _verdicts(_scenario("DH03"))


def test_dh04_fails_when_a_weapon_may_be_put_for_a_creature_that_left(monkeypatch):
    # 305.3: with the creature gone, a weapon would be alone; a model offering it anyway puts Probe Sword
    def lenient(real, m, s, task, ins):
        found = real(m, s, task, ins)
        weapons = [c for c in s.zone(task.controller).hyperspatial if m.card(c).type == "dragheart_weapon"]
        return found + [((c,), f"puts {m.label(c)}") for c in weapons]
    _options_become(monkeypatch, lenient)
    assert "violated" in _verdicts(_scenario("DH04"))


def test_a_lone_weapon_in_the_initial_position_is_put_into_the_hyperspatial_zone(tmp_path):
    # 117.2: the rules repair such a position rather than it being refused
    path = _write(tmp_path, "  A:\n    battle: [Vanilla, Probe Sword]\n  B: {shields: 1}\n",
                  expect="  - always: {battle: {A: [Vanilla]}}")
    model = BreakModel(load_scenario(path))
    z = model.initial_state().zone("A")
    assert [model.label(c) for c in z.hyperspatial] == ["Probe Sword"] and len(z.battle) == 1
    assert _verdicts(path) == ["holds"]


def test_a_fortress_alone_in_the_initial_position_stays(tmp_path):
    # 306.2: a fortress may stand alone in the battle zone
    path = _write(tmp_path, "  A:\n    battle: [Vanilla, Probe Fort]\n  B: {shields: 1}\n",
                  expect="  - always: {battle: {A: [Vanilla, Probe Fort]}}")
    assert _verdicts(path) == ["holds"]


@pytest.mark.parametrize("zone", ["hand", "mana", "graveyard"])
def test_the_loader_refuses_a_dragheart_outside_the_battle_and_hyperspatial_zones(tmp_path, zone):
    # 807.4b: a dragheart put elsewhere returns at once, so no position holds one there
    path = _write(tmp_path, f"  A:\n    battle: [Vanilla]\n    {zone}: [Probe Fort]\n  B: {{shields: 1}}\n")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    (error,) = caught.value.all()
    assert error.line == 7 and f"players.A.{zone}[0]" in str(error) and "807.4b" in str(error), str(error)


def test_the_loader_refuses_a_card_that_is_no_weapon_under_weapon(tmp_path):
    # 305.2: what a creature is equipped with is a weapon
    path = _write(tmp_path, "  A:\n    battle: [{card: Vanilla, weapon: [Probe Fort]}]\n  B: {shields: 1}\n")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    (error,) = caught.value.all()
    assert error.line == 6 and "305.2" in str(error), str(error)


def test_the_loader_refuses_a_weapon_equipped_to_a_fortress(tmp_path):
    # 305.2: a weapon is equipped to a creature, and a fortress is none
    path = _write(tmp_path, "  A:\n    battle: [Vanilla, {card: Probe Fort, weapon: [Probe Sword]}]\n"
                            "  B: {shields: 1}\n")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    (error,) = caught.value.all()
    assert error.line == 6 and "305.2" in str(error) and "expected a creature" in str(error), str(error)


def test_the_hyperspatial_zone_takes_draghearts_and_still_refuses_other_cards(tmp_path):
    # 407.1: psychic cards and draghearts live there, nothing else
    ok = _write(tmp_path, "  A:\n    battle: [Vanilla]\n    hyperspatial: [Probe Sword, Probe Fort]\n"
                          "  B: {shields: 1}\n")
    assert _verdicts(ok) == ["holds"]
    path = _write(tmp_path, "  A:\n    battle: [Vanilla]\n    hyperspatial: [Probe Sword, Vanilla]\n"
                            "  B: {shields: 1}\n")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    (error,) = caught.value.all()
    assert "players.A.hyperspatial[1]" in str(error) and "407.1" in str(error) and "dragheart" in str(error)


@pytest.mark.parametrize("zone", ["graveyard", "hand", "mana"])
def test_a_dragheart_put_into_another_zone_returns_to_the_hyperspatial_zone(tmp_path, zone):
    # 807.4b: a dragheart (here a fortress, taken out of the battle zone) put into any zone but the battle zone
    # goes back to its owner's hyperspatial zone at once; no card word of the model moves one, so the move is made
    # by hand and the rules' step between two steps of the procedure is run
    path = _write(tmp_path, "  A:\n    battle: [Vanilla, Probe Fort]\n  B: {shields: 1}\n")
    model = BreakModel(load_scenario(path))
    s = model.initial_state()
    fort = next(c for c in s.zone("A").battle if model.label(c) == "Probe Fort")
    s = s.with_zone("A", s.zone("A").move("battle", zone, fort))
    out: list = []
    after = model._between_steps(s, out)
    assert after is not None and fort in after.zone("A").hyperspatial and fort not in getattr(after.zone("A"), zone)
    assert [(e.kind, e.get("from"), e.get("to"), e.rule) for e in out] == [("move", zone, "hyperspatial", "R807.4b")]


# ---- double-sided draghearts (807.1-807.5a): dragsolution and dragon escape turn the card over (`flip`) ----------
FLIPPING = ("DH06", "DH07", "DH08", "DH09")


@pytest.mark.parametrize("stem", FLIPPING)
def test_the_dragheart_flip_scenarios_fail_when_nothing_turns_over(stem, monkeypatch):
    # 807.1a-b: without the flip, no dragsolution (DH06, DH07, DH09) and no dragon escape (DH08) happens
    monkeypatch.setattr(hyperspatial, "flip", lambda m, s, card, out: s)
    assert "violated" in _verdicts(_scenario(stem))


def test_dh06_fails_when_an_equipped_weapon_watches_nothing(monkeypatch):
    # 305.2: an equipped weapon is in the battle zone and its dragsolution watches from there
    monkeypatch.setattr(triggers, "_weapon_watchers", lambda z, watchers: [])
    assert "violated" in _verdicts(_scenario("DH06"))


def test_dh09_fails_when_dragsolution_untaps(monkeypatch):
    # 807.1a: the tapped state stays; an untapped Solution Fort Dragon, there since the turn began, could attack
    real = hyperspatial.flip

    def untapping(m, s, card, out):
        s = real(m, s, card, out)
        face, owner = m.faces[card], m.owner(card)
        z = s.zone(owner)
        return s.with_zone(owner, replace(z, tapped=tuple(c for c in z.tapped if c != face)))
    monkeypatch.setattr(hyperspatial, "flip", untapping)
    assert "violated" in _verdicts(_scenario("DH09"))


def test_dh07_fails_when_the_arrival_stays_with_the_weapon_face(monkeypatch):
    # 807.5, 807.5a: the weapon arrived this turn, so the dragheart creature did; were the memory of the arrival
    # kept by the weapon face alone (as a psychic creature's is, 805.6), Solution Sword Dragon could attack
    monkeypatch.setattr(turn, "arrivals", lambda m, new: new)
    assert "violated" in _verdicts(_scenario("DH07"))


def test_the_back_face_of_a_dragheart_is_its_creature_with_characteristics_of_its_own():
    # 807.1, 807.2: the weapon (no power, no creature) and its dragheart creature face (a W-breaker of 7000)
    pool = CardPool()
    pool.add_file(CARDS)
    sword, dragon = pool["solution_sword"], pool["solution_sword:back"]
    assert (sword.type, sword.dragheart, sword.flips_to) == ("dragheart_weapon", True, "solution_sword:back")
    assert (dragon.type, dragon.dragheart, dragon.home, dragon.flips_to) == ("creature", True, "hyperspatial",
                                                                              "solution_sword")
    assert (dragon.name, dragon.power, dragon.breaker, dragon.awakened) == ("Solution Sword Dragon", 7000, 2, False)
    assert not dragon.abilities and [a.id for a in sword.abilities] == ["dragsolution"]
    fort_dragon = pool["solution_fort:back"]
    assert [a.replaces for a in fort_dragon.abilities] == ["self_leave"]


def test_dragsolution_leaves_the_weapon_standing_alone_and_keeps_its_arrival(tmp_path):
    # 807.1a: the weapon's link to its creature goes; the creature face stands in the battle zone; 807.5a: a
    # weapon put this turn is remembered as a dragheart creature put this turn too
    path = _write(tmp_path, "  A:\n    battle: [{card: Vanilla, weapon: [Solution Sword]}]\n  B: {shields: 1}\n")
    model = BreakModel(load_scenario(path))
    s = model.initial_state()
    sword = next(c for c in s.zone("A").attached if model.label(c) == "Solution Sword")
    out: list = []
    after = hyperspatial.flip(model, s, sword, out)
    z, dragon = after.zone("A"), model.faces[sword]
    assert dragon in z.battle and sword not in z.battle and not z.attached and not z.links
    assert turn.arrivals(model, [sword]) == [sword, dragon]
    assert [(e.kind, e.get("how"), e.rule) for e in out] == [("flip", "dragsolution", "R807.1a")]


def test_the_loader_refuses_a_dragheart_creature_face_outside_its_two_zones_or_under_weapon(tmp_path):
    # 807.4b: the creature face, too, is in the battle zone or the hyperspatial zone; 305.2: it is no weapon
    path = _write(tmp_path, "  A:\n    battle: [Vanilla]\n    graveyard: [Solution Sword Dragon]\n  B: {shields: 1}\n")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    (error,) = caught.value.all()
    assert "players.A.graveyard[0]" in str(error) and "807.4b" in str(error), str(error)
    path = _write(tmp_path, "  A:\n    battle: [{card: Vanilla, weapon: [Solution Sword Dragon]}]\n  B: {shields: 1}\n")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    (error,) = caught.value.all()
    assert "305.2" in str(error), str(error)
