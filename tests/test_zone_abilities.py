"""Where hidden-zone abilities and statics work besides the battle zone (R110.4d, R604.3): a static `execute_from:
mana` (model/continuous.py) lets the cards it reaches be executed from the mana zone, so their Ninja Strike is
declared there (model/attack.py `ninjas_elsewhere`) and summons from there (model/instructions/attacking.py); a
static with `zone: executable` works wherever its card can be executed from (`continuous.execution_zone`).
ZA01-ZA05: expectations from the rule text; each check below, broken, changes a verdict."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, verdicts

from dmcheck.model import attack, continuous
from dmcheck.model.cards import CardPool
from dmcheck.model.errors import InputError

ATTACK = ROOT / "scenarios" / "attack"


def _scenario(stem: str) -> Path:
    (path,) = ATTACK.glob(f"{stem}_*.yaml")
    return path


@pytest.mark.parametrize("stem", ["ZA01", "ZA02", "ZA03", "ZA04", "ZA05"])
def test_the_zone_ability_scenarios_hold(stem):
    assert set(verdicts(_scenario(stem))) == {"holds"}


def test_a_ninja_strike_looked_for_in_the_hand_only_is_never_used_from_the_mana_zone(monkeypatch):
    # R110.4d: with the mana zone never looked at, Twin Ninja Probe is never declared from there
    monkeypatch.setattr(attack.AttackSteps, "ninjas_elsewhere", lambda self, s, ntp: ())
    assert "violated" in verdicts(_scenario("ZA01"))
    assert set(verdicts(_scenario("ZA02"))) == {"holds"}


def test_a_card_executable_from_the_hand_only_makes_za01_and_za05_fail(monkeypatch):
    # no static opens the mana zone: the ninja is not summoned from there, the ward does not work from there
    monkeypatch.setattr(continuous, "execution_zone",
                        lambda m, s, cid: "hand" if cid in s.zone(m.owner(cid)).hand else "")
    assert "violated" in verdicts(_scenario("ZA01"))
    assert "violated" in verdicts(_scenario("ZA05"))
    assert set(verdicts(_scenario("ZA03"))) == {"holds"}


def test_a_card_executable_from_any_zone_makes_the_default_limits_fail(monkeypatch):
    # every card executable from wherever it lies: the ninja of ZA02 and the ward of ZA04 would work from the mana zone
    monkeypatch.setattr(continuous, "execution_zone", lambda m, s, cid: "hand" if cid in s.zone(m.owner(cid)).hand
                        else "mana" if cid in s.zone(m.owner(cid)).mana else "")
    assert "violated" in verdicts(_scenario("ZA02"))
    assert "violated" in verdicts(_scenario("ZA04"))


def test_a_static_that_never_works_where_its_card_is_executed_makes_za03_fail(monkeypatch):
    monkeypatch.setattr(continuous, "execution_zone", lambda m, s, cid: "")
    assert "violated" in verdicts(_scenario("ZA03"))


def test_an_execute_from_working_where_its_card_is_executed_is_refused_at_its_line(tmp_path):
    bad = tmp_path / "cards.yaml"
    bad.write_text("cards:\n"
                   "  - id: loop_probe\n"
                   "    name: Loop Probe\n"
                   "    type: creature\n"
                   "    cost: 2\n"
                   "    power: 1000\n"
                   "    statics:\n"
                   "      - {execute_from: mana, zone: executable}\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        CardPool().add_file(bad)
    text = str(err.value)
    assert "cards.yaml:8" in text and "cards[0].statics[0].zone" in text and "expected one of battle" in text
