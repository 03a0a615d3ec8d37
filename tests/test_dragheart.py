"""Draghearts (807): weapons (305), fortresses (306) and the hyperspatial zone they live in (117, 407).
Expected values come from the rule text of the comprehensive rules Ver.1.48 (2025-12-17, S340), not from
the program's output. Each scenario DHxx is also run against a model with its mechanism removed, and must
then fail."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import ROOT

from dmcheck.model import homes
from dmcheck.model.errors import InputError
from dmcheck.model.instructions import pile_moves
from dmcheck.model.instructions.registry import OPS
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.expectations import check

PILES = ROOT / "scenarios" / "piles"
CARDS = ROOT / "scenarios" / "attack" / "cards" / "dragheart.yaml"
SCENARIOS = sorted(PILES.glob("DH*.yaml"))


def _verdicts(path: Path, model_class=BreakModel) -> list[str]:
    from dmcheck.explorer.bfs import explore
    scenario = load_scenario(path)
    graph = explore(model_class(scenario))
    assert graph.complete
    return [check(graph, item).verdict for item in scenario.expect]


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
