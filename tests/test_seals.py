"""Seals (116; model/seals.py): a sealed creature is ignored, and a Command entering removes one of its
owner's seals (703.4j). Expected values come from the rule text of the comprehensive rules Ver.1.48
(2025-12-17, S340), not from the program's output."""

from __future__ import annotations

import pytest
from conftest import ROOT, verdicts

from dmcheck.model.procedure import BreakModel

ATTACK = ROOT / "scenarios" / "attack"
SCENARIOS = sorted(ATTACK.glob("SL*.yaml")) + sorted((ROOT / "scenarios" / "turn").glob("SL*.yaml"))
REMOVING = [p for p in SCENARIOS if p.stem.split("_")[0] in ("SL03", "SL04")]


_verdicts = verdicts   # tests/conftest.py


class Unsealed(BreakModel):
    """A model where a seal changes nothing (116.2 and 703.4j left out)."""

    @property
    def sealing(self):
        return False


class NeverUnsealed(BreakModel):
    """A model where sealed creatures are ignored but no Command removes a seal (703.4j left out)."""

    @property
    def seal_rule(self):
        return False


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_seal_scenario_holds(path):
    assert len(SCENARIOS) >= 5
    assert set(_verdicts(path)) == {"holds"}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_the_scenarios_fail_when_a_sealed_creature_is_not_ignored(path):
    # 116.2, 116.2a: unsealed, the sealed Blocker blocks (SL01, SL03, SL04), the sealed static applies (SL02) and
    # the sealed creature untaps (SL05)
    assert "violated" in _verdicts(path, Unsealed)


@pytest.mark.parametrize("path", REMOVING, ids=lambda p: p.stem)
def test_the_scenarios_fail_when_no_command_removes_a_seal(path):
    # 703.4j: without the removal, the Light Guard Probe stays sealed and never blocks
    assert "violated" in _verdicts(path, NeverUnsealed)


def test_the_owner_chooses_which_card_loses_a_seal(tmp_path):
    # 116.4a: with two of B's Light cards sealed, B chooses the one freed, so either may block; never the Nature one
    path = tmp_path / "s.yaml"
    cards = [(ATTACK / "cards" / n).as_posix() for n in ("seals.yaml", "continuous.yaml")]
    path.write_text(f"""name: x
cards: [{cards[0]}, {cards[1]}]
turn: A
players:
  A: {{battle: [Light Lancer Probe]}}
  B:
    battle: [{{card: Light Guard Probe, seal: [Vanilla]}}, {{card: Nature Guard Probe, seal: [Vanilla]}},
             {{card: Rampart Light Probe, seal: [Vanilla]}}]
    hand: [Ninja Command Probe]
    mana: 1
    shields: 1
attack: {{attacker: Light Lancer Probe, player: B}}
expect:
  - possible_order: [{{event: block, card: Light Guard Probe}}]
  - possible_order: [{{event: block, card: Rampart Light Probe}}]
  - never_order: [{{event: block, card: Nature Guard Probe}}]
""", encoding="utf-8")
    extra = tmp_path / "extra.yaml"
    extra.write_text("cards:\n  - {id: rampart_light_probe, name: Rampart Light Probe, type: creature, cost: 3, "
                     "power: 6000, civilizations: [Light], keywords: [Blocker]}\n", encoding="utf-8")
    text = path.read_text(encoding="utf-8").replace(f"{cards[1]}]", f"{cards[1]}, {extra.as_posix()}]", 1)
    path.write_text(text, encoding="utf-8")
    assert _verdicts(path) == ["holds", "holds", "holds"]


def test_a_card_with_two_seals_stays_sealed_after_one_is_removed(tmp_path):
    # 116.1b: several seals may lie on one card; 116.4a: a Command removes one, so the other keeps it ignored
    path = tmp_path / "s.yaml"
    cards = [(ATTACK / "cards" / n).as_posix() for n in ("seals.yaml", "continuous.yaml")]
    path.write_text(f"""name: x
cards: [{cards[0]}, {cards[1]}]
turn: A
players:
  A: {{battle: [Light Lancer Probe]}}
  B:
    battle: [{{card: Light Guard Probe, seal: [Vanilla, Vanilla]}}]
    hand: [Ninja Command Probe]
    mana: 1
    shields: 1
attack: {{attacker: Light Lancer Probe, player: B}}
expect:
  - possible_order: [{{event: put, card: Ninja Command Probe}}, {{event: move, card: Vanilla, to: graveyard}}]
  - never_order: [{{event: block, card: Light Guard Probe}}]
""", encoding="utf-8")
    assert _verdicts(path) == ["holds", "holds"]
