"""Keyword processes of rule 701 the model tells apart by their events (model/instructions/keyword_process.py,
model/instructions/effects.py `summon`, model/trigger_patterns.py EVENTS).

Written from the comprehensive rules Ver.1.48 (2025-12-17):
- 701.3a: summoning brings a creature in by paying its cost or by an ability that summons it; 112.3a-d say
  S-Trigger, S-Back, Ninja Strike and Sabaki Z summon their creature. A creature an effect puts into the
  battle zone, or one Revolution Change swaps in, is not summoned: it only enters.
- 701.8a: a charge puts a card from the hand into its player's mana zone; other moves to the mana zone
  are no charge.
- 701.19a and 304.2: fortifying puts a castle from the hand onto a chosen shield, which it then fortifies.
- 701.16a, 701.17a, 303.2-303.4a: a generated cross gear comes into the battle zone; crossing puts it under
  a creature, a crossed gear may move to another creature but never onto its own again.
- 701.32b with 113.6d: a card put into the shield zone face up is a face-up shield whose effect applies there.
- 114.2 and 502.1: the draw step's draw is a draw: what watches its player's draws triggers (KP08), and
  114.1 and 114.4: the turn player's draw replacements meet it (KP09, KP10).
The scenarios KP01-KP05 (scenarios/attack/) pin the same rules on whole attacks.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT

from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.expectations import check

KP = sorted((ROOT / "scenarios" / "attack").glob("KP*.yaml")) + sorted((ROOT / "scenarios" / "turn").glob("KP*.yaml"))
CARDS = ROOT / "scenarios" / "attack" / "cards" / "keyword_processes.yaml"

_WATCHERS = """
  - id: summon_watch
    name: Summon Watch
    type: creature
    cost: 2
    power: 1000
    abilities:
      - {id: w, trigger: {on: summoned, player: any}, effect: PUMP}
  - id: enter_watch
    name: Enter Watch
    type: creature
    cost: 2
    power: 1000
    abilities:
      - {id: w, trigger: {on: enters, player: any, card: other}, effect: PUMP}
  - id: charge_watch
    name: Charge Watch
    type: creature
    cost: 2
    power: 1000
    abilities:
      - {id: w, trigger: {on: charged, player: any}, effect: PUMP}
  - id: fort_watch
    name: Fort Watch
    type: creature
    cost: 2
    power: 1000
    abilities:
      - {id: w, trigger: {on: fortified, player: any, type: castle}, effect: PUMP}
  - id: mech_raider
    name: Mech Raider
    type: creature
    cost: 5
    power: 5000
    abilities:
      - {id: m, trigger: attacks, effect: [{mechraid: {n: 5, keyword: Armored}}]}
  - id: look_raider
    name: Look Raider
    type: creature
    cost: 5
    power: 5000
    abilities:
      - {id: m, trigger: attacks, effect: [{look_top: {count: 3, kind: creature, to: battle, optional: false}}]}
  - id: armored_one
    name: Armored One
    type: creature
    cost: 3
    power: 3000
    keywords: [Armored]
  - id: trigger_evolution
    name: Trigger Evolution
    type: creature
    cost: 5
    power: 6000
    keywords: [S-Trigger, Evolution]
  - id: fortify_trigger
    name: Fortify Trigger
    type: spell
    cost: 3
    keywords: [S-Trigger]
    effect:
      - fortify: {}
  - id: gear_watch
    name: Gear Watch
    type: creature
    cost: 2
    power: 1000
    abilities:
      - {id: g, trigger: {on: generated, player: you, type: cross_gear}, effect: PUMP}
      - {id: c, trigger: {on: crossed, player: you}, effect: PUMP}
  - id: charge_trigger
    name: Charge Trigger
    type: spell
    cost: 3
    keywords: [S-Trigger]
    effect:
      - charge: {optional: true}
""".replace("PUMP", "[{add_power: {power: 1000, who: self, until: end_attack}}]")


def _holds(tmp_path: Path, players: str, attack: str, expect: str, extra: Path | None = None) -> list[str]:
    """The verdict of each expectation of a scenario with the watcher cards above (and the cards of `extra`)."""
    (tmp_path / "cards.yaml").write_text("cards:" + _WATCHERS, encoding="utf-8")
    files = "[cards.yaml" + (f", {extra}]" if extra else "]")
    path = tmp_path / "scenario.yaml"
    path.write_text(f"name: keyword process probe\nsource: [S340 R701]\nrules: 2025-12-17\ncards: {files}\n"
                    f"turn: A\nplayers:\n{players}\nattack: {attack}\nexpect:\n{expect}\n", encoding="utf-8")
    from dmcheck.explorer.bfs import explore
    from dmcheck.model.procedure import BreakModel
    scenario = load_scenario(path)
    graph = explore(BreakModel(scenario))
    assert graph.complete
    return [check(graph, item).verdict for item in scenario.expect]


@pytest.mark.parametrize("path", KP, ids=[p.stem for p in KP])
def test_keyword_process_scenarios_hold(path):
    from dmcheck.explorer.bfs import explore
    from dmcheck.model.procedure import BreakModel
    scenario = load_scenario(path)
    graph = explore(BreakModel(scenario))
    assert graph.complete and scenario.expect
    for item in scenario.expect:
        verdict = check(graph, item)
        assert verdict.verdict == "holds", (path.name, item.raw, verdict.reason)


def test_there_are_eight_keyword_process_scenarios_on_their_card_file():
    assert len(KP) >= 8 and CARDS.exists()


def test_mechraid_summons_what_it_uses(tmp_path):
    """A Mechraid 'uses' the card it finds without paying: a creature so used is summoned (701.3a)."""
    players = ("  A:\n    battle: [Mech Raider, Summon Watch]\n    deck: [Armored One, Vanilla, Vanilla, Vanilla]\n"
               "  B:\n    shields: 1")
    expect = ("  - possible_order:\n      - {event: put, card: Armored One, from: deck, to: battle}\n"
              "      - {event: trigger, ability: Summon Watch/w}\n")
    assert _holds(tmp_path, players, "{attacker: Mech Raider, player: B}", expect) == ["holds"]


def test_a_creature_put_from_the_deck_enters_unsummoned(tmp_path):
    """look_top puts the creature into the battle zone: it enters (what watches entries triggers) and is
    not summoned (what watches summons never does)."""
    players = ("  A:\n    battle: [Look Raider, Summon Watch, Enter Watch]\n"
               "    deck: [Armored One, Vanilla, Vanilla, Vanilla]\n  B:\n    shields: 1")
    expect = ("  - possible_order:\n      - {event: put, card: Armored One, from: deck, to: battle}\n"
              "      - {event: trigger, ability: Enter Watch/w}\n"
              "  - never_order:\n      - {event: trigger, ability: Summon Watch/w}\n")
    assert _holds(tmp_path, players, "{attacker: Look Raider, player: B}", expect) == ["holds", "holds"]


def test_revolution_change_swaps_in_without_a_summon(tmp_path):
    """Revolution Change puts the new creature in the attacker's place: it enters, it is not summoned."""
    players = ("  A:\n    battle: [Mega Spear Dragon, Summon Watch, Enter Watch]\n    hand: [Dogiragon Ken]\n"
               "  B:\n    shields: 1")
    expect = ("  - possible_order:\n      - {event: put, card: Dogiragon Ken, from: hand, to: battle}\n"
              "      - {event: trigger, ability: Enter Watch/w}\n"
              "  - never_order:\n      - {event: trigger, ability: Summon Watch/w}\n")
    assert _holds(tmp_path, players, "{attacker: Mega Spear Dragon, player: B}", expect) == ["holds", "holds"]


def test_an_s_back_creature_is_summoned(tmp_path):
    """112.3b: S-Back summons its creature, as S-Trigger does."""
    players = ("  A:\n    battle: [Vanilla T-breaker, Summon Watch]\n"
               "  B:\n    hand: [Ochappi]\n    shields: [Bucket Bucket, Vanilla, Vanilla]")
    expect = ("  - possible_order:\n      - {event: put, card: Ochappi, from: hand, to: battle}\n"
              "      - {event: trigger, ability: Summon Watch/w}\n")
    assert _holds(tmp_path, players, "{attacker: Vanilla T-breaker, player: B}", expect) == ["holds"]


def test_an_evolution_summoned_by_its_s_trigger_is_summoned_on_its_source(tmp_path):
    """An evolution creature its S-Trigger summons goes onto a creature (801) and is summoned: the summon
    reaches the evolution's own step, not only the creature that enters alone."""
    players = ("  A:\n    battle: [Vanilla, Summon Watch]\n"
               "  B:\n    battle: [Armored One]\n    shields: [Trigger Evolution]")
    expect = ("  - possible_order:\n      - {event: put, card: Trigger Evolution, to: battle, onto: Armored One}\n"
              "      - {event: trigger, ability: Summon Watch/w}\n")
    assert _holds(tmp_path, players, "{attacker: Vanilla, player: B}", expect) == ["holds"]


def test_a_declined_charge_is_no_charge_and_a_charge_needs_a_hand(tmp_path):
    """701.8a: only a card that goes from the hand is charged. B's Charge Trigger may charge a card of B's
    hand (then Charge Watch triggers) or decline (then nothing is charged); with an empty hand it has nothing
    to charge."""
    players = ("  A:\n    battle: [Vanilla, Charge Watch]\n"
               "  B:\n    hand: [Armored One]\n    shields: [Charge Trigger]")
    expect = ("  - possible_order:\n      - {event: charge, card: Armored One, player: B}\n"
              "      - {event: trigger, ability: Charge Watch/w}\n"
              "  - sometimes: {mana: {B: []}, hand: {B: [Armored One, Charge Trigger]}}\n"
              "  - never: {mana: {B: [Charge Trigger]}}\n")
    assert _holds(tmp_path, players, "{attacker: Vanilla, player: B}", expect) == ["holds", "holds", "holds"]
    empty = "  A:\n    battle: [Vanilla, Charge Watch]\n  B:\n    shields: [Charge Trigger]"
    expect = "  - never_order:\n      - {event: trigger, ability: Charge Watch/w}\n"
    assert _holds(tmp_path, empty, "{attacker: Vanilla, player: B}", expect) == ["holds"]


def test_fortify_puts_a_castle_onto_a_shield_and_triggers_fortified(tmp_path):
    """701.19a: the castle goes from the hand onto a shield of its owner (a creature card in the hand is no
    castle and stays), and what watches fortifying triggers."""
    players = ("  A:\n    battle: [Vanilla, Fort Watch]\n"
               "  B:\n    hand: [Hustle Castle, Armored One]\n    shields: [Fortify Trigger, Vanilla]")
    expect = ("  - possible_order:\n      - {event: fortify, card: Hustle Castle, player: B, shield: Vanilla}\n"
              "      - {event: trigger, ability: Fort Watch/w}\n"
              "  - never_order:\n      - {event: fortify, card: Armored One}\n"
              "  - sometimes: {hand: {B: [Armored One]}, graveyard: {B: [Fortify Trigger]}, shields: {B: 1}}\n")
    assert _holds(tmp_path, players, "{attacker: Vanilla, player: B}", expect) == ["holds", "holds", "holds"]


def test_a_castle_the_position_starts_with_was_never_fortified_in_play(tmp_path):
    """A castle given by the position is already there: no `fortified` event happens for it."""
    players = ("  A:\n    battle: [Vanilla, Fort Watch]\n"
               "  B:\n    shields: [{card: Vanilla, castle: Hustle Castle}, Vanilla]")
    expect = "  - never_order:\n      - {event: trigger, ability: Fort Watch/w}\n"
    assert _holds(tmp_path, players, "{attacker: Vanilla, player: B}", expect) == ["holds"]


def test_generate_and_cross_each_have_their_event(tmp_path):
    """701.16a, 701.17a: a generated gear triggers what watches generating, its crossing what watches crossing;
    a creature card in the hand is not generated, and a gear is crossed only onto a creature."""
    players = ("  A:\n    battle: [Gear Smith Probe, Gear Watch]\n    hand: [Bajula's Soul, Armored One]\n"
               "  B:\n    shields: 1")
    expect = ("  - possible_order:\n      - {event: generate, card: Bajula's Soul}\n"
              "      - {event: trigger, ability: Gear Watch/g}\n"
              "      - {event: cross, card: Bajula's Soul, onto: Gear Smith Probe}\n"
              "      - {event: trigger, ability: Gear Watch/c}\n"
              "  - never_order:\n      - {event: generate, card: Armored One}\n"
              "  - never_order:\n      - {event: cross, card: Bajula's Soul, onto: Bajula's Soul}\n")
    cards = ROOT / "scenarios" / "attack" / "cards" / "keyword_processes.yaml"
    assert _holds(tmp_path, players, "{attacker: Gear Smith Probe, player: B}", expect, extra=cards) == ["holds"] * 3


def test_a_crossed_gear_is_never_crossed_again_onto_its_creature(tmp_path):
    """303.4a: with only the creature it is crossed to, the gear has nowhere to go: no cross happens."""
    players = ("  A:\n    battle: [{card: Gear Smith Probe, cross: [Bajula's Soul]}, Gear Watch]\n"
               "  B:\n    shields: 1")
    expect = ("  - possible_order:\n      - {event: cross, card: Bajula's Soul, onto: Gear Watch}\n"
              "  - never_order:\n      - {event: cross, card: Bajula's Soul, onto: Gear Smith Probe}\n")
    cards = ROOT / "scenarios" / "attack" / "cards" / "keyword_processes.yaml"
    assert _holds(tmp_path, players, "{attacker: Gear Smith Probe, player: B}", expect, extra=cards) == ["holds"] * 2


@pytest.mark.parametrize("face_up, declared", [(True, "holds"), (False, "violated")])
def test_only_a_face_up_shield_lifts_the_lock(tmp_path, face_up, declared):
    """701.32b, 113.6d: Justice Shield put into the shield zone face up lifts B's spell lock when it is broken
    with Terror Pit; put face down, it is a plain shield and Terror Pit's S-Trigger is never declared."""
    maker = ("  - id: maker\n    name: Maker\n    type: creature\n    cost: 2\n    power: 1000\n    abilities:\n"
             "      - {id: up, trigger: opponent_attacks, effect: [{hand_to_shield: {face_up: FACE}}]}\n"
             ).replace("FACE", str(face_up).lower())
    (tmp_path / "maker.yaml").write_text("cards:\n" + maker, encoding="utf-8")
    players = ("  A:\n    battle: [Vanilla T-breaker]\n  B:\n    battle: [Maker]\n    hand: [Justice Shield]\n"
               "    shields: [Terror Pit, Vanilla, Vanilla]\nrestrictions:\n  B: {locked_types: [spell]}")
    expect = ("  - possible_order:\n      - {event: put, card: Justice Shield, from: hand, to: shields}\n"
              "      - {event: declare, card: Terror Pit, ability: S-Trigger}\n")
    rulings = ROOT / "scenarios" / "rulings" / "cards" / "rulings.yaml"
    extra = Path(f"{tmp_path / 'maker.yaml'}, {rulings}")
    assert _holds(tmp_path, players, "{attacker: Vanilla T-breaker, player: B}", expect, extra=extra) == [declared]
