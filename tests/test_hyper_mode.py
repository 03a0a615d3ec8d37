"""Hyper mode (816): a creature's released hyper mode is its other face (model/hyper.py, `hyper_mode:` of a card
file, the card word `release_hyper_mode`). Expected values come from the rule text of the comprehensive rules
Ver.1.48 (2025-12-17, S340) and the dmwiki.net pages the scenarios cite (S560, S561), not from the program."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import ROOT, verdicts

from dmcheck.model import hyper
from dmcheck.model.cards import CardPool
from dmcheck.model.errors import InputError
from dmcheck.model.instructions import hyper_mode, hyperspatial
from dmcheck.model.instructions.registry import OPS
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.model.state import replace

ATTACK = ROOT / "scenarios" / "attack"
CARDS = ATTACK / "cards" / "hyper.yaml"
HYPER = sorted(ATTACK.glob("HM*.yaml"))


_verdicts = verdicts   # tests/conftest.py


def _scenario(stem: str) -> Path:
    (path,) = [p for p in HYPER if p.stem.startswith(stem)]
    return path


def test_the_hyper_mode_scenarios_hold():
    assert [p.stem[:4] for p in HYPER] == ["HM01", "HM02", "HM03", "HM04", "HM05", "HM06", "HM07"]
    for path in HYPER:
        assert set(_verdicts(path)) == {"holds"}, path.stem


def test_the_hyper_face_adds_to_the_front_and_keeps_its_name():
    # 816.2a: the hyper abilities besides the normal ones; 816.2b: the hyper power in place of the normal one
    pool = CardPool()
    pool.add_file(CARDS)
    front = pool[pool.resolve("Hyper Probe")]
    back = front.back
    assert back is not None and back.hyper and not back.awakened
    assert (front.power, back.power, front.breaker, back.breaker) == (3000, 9000, 1, 2)
    assert [a.id for a in back.abilities] == [a.id for a in front.abilities] == ["release"]
    assert back.name == front.name and back.cost == front.cost and back.flips_to == front.id
    assert pool.resolve("Dogiragon Super") == "dogiragon_super"   # the name is the front's: one card


@pytest.mark.parametrize("stem", ["HM01", "HM03", "HM04"])
def test_without_the_hyper_face_the_hyper_scenarios_fail(stem, monkeypatch):
    # read as its normal side, Dogiragon breaks two (HM01) and loses to 10000 (HM03); never released, Hyper Probe
    # breaks one (HM04)
    monkeypatch.setattr(hyper_mode, "flip", lambda m, s, card, out: s)
    from dmcheck.model import table
    monkeypatch.setattr(table.CardTable, "_released", lambda self, s, hosts: s)
    assert "violated" in _verdicts(_scenario(stem))


def test_hm05_fails_when_a_released_creature_releases_again(monkeypatch):
    # 816.2c: released hyper mode is not released again; turning over anyway, the probe would be its front
    spec = OPS["release_hyper_mode"]
    again = dataclasses.replace(spec, execute=lambda m, s, task, ins, choice, out:
                                hyperspatial.flip(m, s, task.source, out))
    monkeypatch.setitem(OPS, "release_hyper_mode", again)
    assert "violated" in _verdicts(_scenario("HM05"))


def test_hm06_fails_when_a_card_that_left_stays_in_hyper_mode(monkeypatch):
    # 816.3: hyper mode is off outside the battle zone; left released, no hyper_end would be seen
    monkeypatch.setattr(hyper, "strays", lambda m, s: ())
    assert "violated" in _verdicts(_scenario("HM06"))


def test_hm07_fails_when_hyper_mode_outlasts_the_turn_start(monkeypatch):
    # hyperize's reminder (S561): released until the start of its owner's next turn
    monkeypatch.setattr(hyper, "expire", lambda m, s, out: s)
    assert "violated" in _verdicts(_scenario("HM07"))


def test_releasing_hyper_mode_keeps_summoning_sickness():
    # 816 changes no sickness: a creature put this turn is as sick released as before (unlike an awakened
    # psychic creature, 805.6); the memory of the creatures put this turn follows the card to its hyper face
    scenario = load_scenario(_scenario("HM04"))
    model = BreakModel(scenario)
    s = model.initial_state()
    probe = s.zone("A").battle[0]
    s = replace(s, entered=(probe,))
    turned = hyperspatial.turn_over(model, s, probe)
    assert turned.entered == (model.faces[probe],) and turned.zone("A").battle == (model.faces[probe],)


def _write(tmp_path: Path, players: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(f"""name: x
cards: [{CARDS.as_posix()}]
turn: A
players:
{players}
attack: {{attacker: Vanilla, player: B}}
expect:
  - always: {{shields_broken: 1}}
""", encoding="utf-8")
    return path


def test_the_loader_refuses_a_hyper_face_outside_the_battle_zone(tmp_path):
    # 816.3: released hyper mode is a battle-zone thing (model/positions.py `hyper_face`)
    path = _write(tmp_path, """  A:
    battle: [Vanilla]
    graveyard: [dogiragon_super:back]
  B: {shields: 1}""")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    (error,) = caught.value.all()
    assert error.line == 7 and "players.A.graveyard[0]" in str(error) and "816.3" in str(error), str(error)


def test_the_loader_refuses_hyper_mode_on_a_creature_without_it(tmp_path):
    path = _write(tmp_path, """  A:
    battle: [{card: Vanilla, hyper_mode: true}]
  B: {shields: 1}""")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    (error,) = caught.value.all()
    assert error.line == 6 and "hyper_mode" in str(error) and "816.1" in str(error), str(error)


def test_the_loader_refuses_hyper_mode_on_a_card_that_is_no_creature(tmp_path):
    cards = tmp_path / "cards.yaml"
    cards.write_text("""cards:
  - id: spelly
    name: Spelly
    type: spell
    cost: 3
    effect: [{draw: 1}]
    hyper_mode: {power: 5000}
""", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        CardPool().add_file(cards)
    assert any("cards[0].hyper_mode" in str(e) and e.line == 7 and "816.1" in str(e)
               for e in caught.value.all()), str(caught.value)


def test_a_mistake_in_a_hyper_ability_is_shown_where_it_is_written(tmp_path):
    cards = tmp_path / "cards.yaml"
    cards.write_text("""cards:
  - id: hyp
    name: Hyp
    type: creature
    cost: 3
    power: 1000
    hyper_mode:
      power: 5000
      abilities:
        - {id: x, trigger: attacks, effect: [{no_such_word: {}}]}
""", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        CardPool().add_file(cards)
    assert any("hyper_mode.abilities[0]" in str(e) and e.line == 10 for e in caught.value.all()), str(caught.value)
