"""Continuous effects of static abilities (R604, R608.3; model/continuous.py) and the zones they work from
(R110.4b-c). Expected values come from the rule text of the comprehensive rules Ver.1.48 (2025-12-17, S340),
not from the program's output."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, verdicts

from dmcheck.model import continuous, triggers
from dmcheck.model.errors import InputError
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario

ATTACK = ROOT / "scenarios" / "attack"
CARDS = ATTACK / "cards" / "continuous.yaml"
SCENARIOS = sorted(ATTACK.glob("CX*.yaml"))
# the scenarios whose expectations need the statics to apply at all (CX05b: a face-down shield gives nothing,
# which holds without any static too)
APPLYING = [p for p in SCENARIOS if p.stem.split("_")[0] in ("CX01", "CX02", "CX03", "CX04", "CX05", "CX06", "CX09",
                                                                 "CX10", "CX11")]
# the scenarios whose expectations need a static to stop where its card is not in its zone (R608.3b, R110.4b-c)
ZONED = [p for p in SCENARIOS if p.stem.split("_")[0] in ("CX02", "CX04", "CX05b")]


_verdicts = verdicts   # tests/conftest.py


class NoStatics(BreakModel):
    """A model with no static ability of another card: printed keywords and effects with a duration only."""

    @property
    def statics(self):
        return ()


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_static_scenario_holds(path):
    assert len(SCENARIOS) >= 7
    assert set(_verdicts(path)) == {"holds"}


@pytest.mark.parametrize("path", APPLYING, ids=lambda p: p.stem)
def test_the_scenarios_fail_without_static_effects(path):
    # R604.2, R608.3: without the evaluator, the +1000, the -2000, the given Blocker and "cannot block" vanish
    assert "violated" in _verdicts(path, NoStatics)


@pytest.mark.parametrize("path", ZONED, ids=lambda p: p.stem)
def test_the_scenarios_fail_when_a_static_works_from_any_zone(path, monkeypatch):
    # R608.3b, R110.4b-c: a static that kept working from the graveyard (CX02), the hand (CX04) or a face-down
    # shield (CX05b) breaks them
    monkeypatch.setattr(continuous, "works", lambda m, s, src, st: True)
    assert "violated" in _verdicts(path)


def test_the_mana_zone_trigger_fails_when_the_mana_zone_watches_nothing(monkeypatch):
    # R110.4g: with watchers in the battle zone and the graveyard only, CX07's Mana Mourner Probe never triggers
    path = ATTACK / "CX07_trigger_works_from_the_mana_zone.yaml"
    assert _verdicts(path) == ["holds", "holds"]
    monkeypatch.setattr(triggers, "TRIGGER_ZONES", ("battle", "graveyard"))
    assert _verdicts(path)[0] == "violated"


def test_a_static_keyword_applies_before_enter_triggers_are_looked_at(monkeypatch):
    # R608.3c: with the statics' keywords read only after the triggers were looked at, B's "when an opponent's
    # creature with Blocker enters" would miss the Light Recruit that A's static makes a Blocker
    path = ROOT / "tests" / "data" / "triggers" / "T21_static_keyword_before_enter_trigger.yaml"
    assert _verdicts(path) == ["holds", "holds", "holds"]
    monkeypatch.setattr(triggers, "keywords_of", lambda m, s, cid: frozenset())
    assert "violated" in _verdicts(path)


def test_a_counted_power_change_fails_when_counted_after_the_destruction(monkeypatch):
    # R608.2b: CX08's +1000 per creature counts three creatures as it resolves; counted as two (what is left after
    # the destruction that follows), Tally Lancer Probe ties instead of winning
    from dmcheck.model.instructions import power
    path = ATTACK / "CX08_counted_amount_fixed_on_resolution.yaml"
    monkeypatch.setattr(power, "count", lambda m, s, me, what: 2)
    assert "violated" in _verdicts(path)


def test_a_creature_whose_only_breaker_a_static_gives_must_use_it(tmp_path):
    # R509.2c: a breaker ability cannot be left unused; Vanilla (no breaker of its own) with the T-breaker A's
    # Breaker Banner Probe gives breaks three shields, never one
    path = _write(tmp_path, "  A: {battle: [Vanilla, Breaker Banner Probe]}\n  B: {shields: 5}\n",
                  "  - always: {shields_broken: 3}", attack="{attacker: Vanilla, player: B}")
    assert _verdicts(path) == ["holds"]
    assert _verdicts(path, NoStatics) == ["violated"]


def _write(tmp_path: Path, players: str, expect: str, attack: str = "{attacker: Light Lancer Probe, player: B}",
           extra: str = "") -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(f"name: x\ncards: [{CARDS.as_posix()}{extra}]\nturn: A\nplayers:\n{players}"
                    f"attack: {attack}\nexpect:\n{expect}\n", encoding="utf-8")
    return path


def test_an_ignored_creature_makes_no_static_effect(tmp_path):
    # 110.3d, dmwiki "無視": the abilities of an ignored creature do not work; B's Ignore:cost<=5 creature
    # ignores A's Light Banner Probe (cost 4), so A's Light Lancer Probe stays at 5000 and loses to 5500
    cards = tmp_path / "ignore.yaml"
    cards.write_text("cards:\n  - {id: hush_probe, name: Hush Probe, type: creature, cost: 6, power: 1000, "
                     "keywords: ['Ignore:cost<=5']}\n", encoding="utf-8")
    path = _write(tmp_path, "  A: {battle: [Light Lancer Probe, Light Banner Probe]}\n"
                            "  B: {battle: [{card: Stone Wall Probe, tapped: true}, Hush Probe]}\n",
                  "  - always: {graveyard: {A: [Light Lancer Probe]}}",
                  attack="{attacker: Light Lancer Probe, creature: Stone Wall Probe}", extra=f", {cards.as_posix()}")
    assert _verdicts(path) == ["holds"]


def test_a_static_reaches_only_whose_creatures_it_names(tmp_path):
    # 608.3b: "your opponent's creatures get -2000" (B's Mana Fog Probe in B's mana zone) lowers A's creatures
    # only: A's Light Lancer Probe (5000 - 2000 = 3000) loses to B's tapped Mana Fog Probe, which keeps its 4000
    # (lowered too, it would be 2000 and lose)
    path = _write(tmp_path, "  A: {battle: [Light Lancer Probe]}\n"
                            "  B: {battle: [{card: Mana Fog Probe, tapped: true}], mana: [Mana Fog Probe]}\n",
                  "  - always: {graveyard: {A: [Light Lancer Probe]}}",
                  attack="{attacker: Light Lancer Probe, creature: Mana Fog Probe}")
    assert _verdicts(path) == ["holds"]


def test_a_static_with_two_changes_is_refused_with_its_line(tmp_path):
    # one static ability makes one change (the schema's oneOf): power and keyword together are a mistake
    cards = tmp_path / "bad.yaml"
    cards.write_text("cards:\n  - id: bad_probe\n    name: Bad Probe\n    type: creature\n    cost: 1\n"
                     "    power: 1000\n    statics:\n      - {power: 1000, keyword: Blocker}\n", encoding="utf-8")
    path = _write(tmp_path, "  A: {battle: [Light Lancer Probe, Bad Probe]}\n  B: {shields: 1}\n",
                  "  - always: {shields_broken: 1}", extra=f", {cards.as_posix()}")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    assert "statics" in str(caught.value) and "bad.yaml" in str(caught.value), str(caught.value)


def test_a_static_that_names_the_graveyard_works_from_the_graveyard(tmp_path):
    # 110.4b: "while this card is in your graveyard, your opponent's creatures get -2000": A's Light Lancer Probe
    # (5000) is 3000 and loses to B's tapped Mana Fog Probe (4000); the copy in B's battle zone does nothing
    cards = tmp_path / "grave.yaml"
    cards.write_text("cards:\n  - id: grave_fog_probe\n    name: Grave Fog Probe\n    type: creature\n    cost: 5\n"
                     "    power: 1000\n    statics:\n      - {power: -2000, whose: opponent, zone: graveyard}\n",
                     encoding="utf-8")
    path = _write(tmp_path, "  A: {battle: [Light Lancer Probe]}\n"
                            "  B: {battle: [{card: Mana Fog Probe, tapped: true}, Grave Fog Probe], "
                            "graveyard: [Grave Fog Probe]}\n",
                  "  - always: {graveyard: {A: [Light Lancer Probe]}}\n"
                  "  - never_order: [{event: power_zero}]",
                  attack="{attacker: Light Lancer Probe, creature: Mana Fog Probe}", extra=f", {cards.as_posix()}")
    assert _verdicts(path) == ["holds", "holds"]
    assert _verdicts(path, NoStatics)[0] == "violated"


def test_a_static_cannot_attack_players_leaves_only_attacks_on_creatures(tmp_path):
    # R101.2, 604.2: B's static "your opponent's creatures cannot attack players" takes the attack on B from A's
    # choices (506.1); the attack on B's tapped creature stays (and not attacking at all)
    cards = tmp_path / "gate.yaml"
    cards.write_text("cards:\n  - id: gate_keeper_probe\n    name: Gate Keeper Probe\n    type: creature\n    cost: 5\n"
                     "    power: 1000\n    statics:\n      - {restriction: cannot_attack_players, whose: opponent}\n",
                     encoding="utf-8")
    path = _write(tmp_path, "  A: {battle: [Light Lancer Probe]}\n"
                            "  B: {battle: [{card: Gate Keeper Probe, tapped: true}], shields: 2}\n",
                  "  - never: {shields_broken: 1}\n  - sometimes: {graveyard: {B: [Gate Keeper Probe]}}",
                  attack="{choose: true}", extra=f", {cards.as_posix()}")
    assert _verdicts(path) == ["holds", "holds"]
    assert _verdicts(path, NoStatics)[0] == "violated"
