"""The mana charge step and the main step with mana payment (model/main_step.py, model/payment.py,
model/main_plan.py; issues 33 and 34). Expected values come from the rule text of the comprehensive rules
Ver.1.48 (2025-12-17, S340), not from the program's output: each scenario's expectations are derived there,
and each test below also breaks one piece of the mechanism and checks that a scenario then fails."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, verdicts

from dmcheck.model import payment
from dmcheck.model.errors import InputError
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.model.state import replace

TURN = ROOT / "scenarios" / "turn"


def _ms(stem: str) -> Path:
    return next(TURN.glob(f"{stem}_*.yaml"))


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("path", sorted(TURN.glob("MS*.yaml")), ids=lambda p: p.stem)
def test_every_main_step_scenario_holds(path):
    assert set(verdicts(path)) == {"holds"}


# ---- opt-in: without `main:` nothing changes ---------------------------------------------------------
def test_without_main_the_scenario_starts_at_the_declaration():
    scenario = load_scenario(TURN / "TN02_creature_arrived_this_turn_cannot_attack_later.yaml")
    assert scenario.main is None
    assert BreakModel(scenario).initial_state().phase == "declare"


def test_main_starts_at_the_charge_step_or_the_main_step():
    assert BreakModel(load_scenario(_ms("MS01"))).initial_state().phase == "charge"
    assert BreakModel(load_scenario(_ms("MS02"))).initial_state().phase == "main"


# ---- 503.1, 503.2: the charge step --------------------------------------------------------------------
def test_the_charge_step_allows_one_charge_only(monkeypatch):
    # 503.2: a model that stays in the charge step after a charge lets two cards be charged (MS01 fails)
    real = BreakModel.main_step

    def stays(self, s, action):
        after, events = real(self, s, action)
        if action.kind == "mana_charge" and not after.over:
            after = replace(after, phase="charge")
        return after, events
    monkeypatch.setattr(BreakModel, "main_step", stays)
    assert "violated" in verdicts(_ms("MS01"))


def test_the_charge_step_offers_no_charge_too():
    # 503.1: the charge may be made or not: "no_charge" is among the first choices
    model = BreakModel(load_scenario(_ms("MS01")))
    kinds = {a.kind for a in model.actions(model.initial_state())}
    assert kinds == {"mana_charge", "no_charge"}


# ---- 112.2a, 601.1d: the civilizations --------------------------------------------------------------
def test_one_mana_card_pays_one_civilization(monkeypatch):
    # 112.2a: a multicoloured mana card counts as one civilization; counting it for all makes MS02 fail
    monkeypatch.setattr(payment, "pays_civilizations",
                        lambda m, cards, civs: all(any(c in m.card(x).civs() for x in cards) for c in civs))
    assert "violated" in verdicts(_ms("MS02"))


def test_the_civilizations_must_be_paid(monkeypatch):
    # 112.2a: ignoring the civilizations lets Nature Cards pay for Fire Water Probe (MS02 fails)
    monkeypatch.setattr(payment, "pays_civilizations", lambda m, cards, civs: True)
    assert "violated" in verdicts(_ms("MS02"))


def test_pays_civilizations_directly():
    model = BreakModel(load_scenario(_ms("MS03")))
    s = model.initial_state()
    fw, w = s.zone("A").mana
    assert payment.pays_civilizations(model, (fw, w), ("Water", "Fire"))
    assert not payment.pays_civilizations(model, (fw,), ("Water", "Fire"))   # one card, one civilization


# ---- 112.2c, 105.6: the amount ---------------------------------------------------------------------------
def test_no_overpaying(monkeypatch):
    # 112.2c: tapping one card more than the cost makes MS04's "never tapped 3" fail
    monkeypatch.setattr(payment, "amount_to_tap", lambda cost, civs: max(cost, len(civs)) + 1)
    assert "violated" in verdicts(_ms("MS04"))


def test_tapped_mana_cannot_pay_again(monkeypatch):
    # 105.6: a model that does not tap the mana it paid with lets both Fire Probes be summoned (MS04 fails)
    def untapped(self, s, cid, how, paid, out):
        return real(self, s, cid, how, (), out)
    real = BreakModel.execute_card
    monkeypatch.setattr(BreakModel, "execute_card", untapped)
    assert "violated" in verdicts(_ms("MS04"))


# ---- 301.1, 302.1, 601.1g: executing ---------------------------------------------------------------------
def test_a_summoned_creature_is_sick_for_the_attack_step(monkeypatch):
    # 506.1a: forgetting what the main step put into the battle zone lets it attack (MS05 fails)
    monkeypatch.setattr(BreakModel, "note_entries", lambda self, s, events: s)
    assert "violated" in verdicts(_ms("MS05"))


def test_only_the_named_cards_are_executed(monkeypatch):
    # 504.1 as the plan asks: a plan offering no card never summons (MS03's sometimes fails)
    monkeypatch.setattr(BreakModel, "executable", lambda self, s: [])
    assert "violated" in verdicts(_ms("MS03"))


def test_a_spell_is_cast_not_summoned(monkeypatch):
    # 302.1: a model that offers no cast never puts Water Draw Spell into the graveyard (MS06 fails)
    real = BreakModel.executable
    monkeypatch.setattr(BreakModel, "executable",
                        lambda self, s: [(c, h) for c, h in real(self, s) if h != "cast"])
    assert "violated" in verdicts(_ms("MS06"))


def test_the_main_step_follows_the_charge_step(monkeypatch):
    # 500.1: a model that skips from the charge step to the attack step never pays after a charge (MS07 fails)
    real = BreakModel.main_step

    def skips(self, s, action):
        after, events = real(self, s, action)
        if action.kind in ("mana_charge", "no_charge") and not after.running and not after.pending:
            after = replace(after, phase="declare")
        return after, events
    monkeypatch.setattr(BreakModel, "main_step", skips)
    assert "violated" in verdicts(_ms("MS07"))


# ---- 112.2b, 601.1e, 110.4e: cost changes ---------------------------------------------------------------
def test_cost_changes_are_applied_before_paying(monkeypatch):
    # 112.2b: without the cost changes Fire Probe costs 2 again and one fire card cannot pay (MS08 fails)
    monkeypatch.setattr(BreakModel, "cost_to_pay", lambda self, s, cid, printed: printed)
    assert "violated" in verdicts(_ms("MS08"))
    assert "violated" in verdicts(_ms("MS10"))


def test_a_reduction_never_skips_the_civilizations(monkeypatch):
    # 112.2b: a payment that reads only the reduced amount (0) would pay Fire Water Probe for nothing (MS09 fails)
    made = payment.mana_made
    monkeypatch.setattr(payment, "pays", lambda m, s, cards, cost, civs: made(m, s, cards) >= cost and not any(
        made(m, s, r) >= cost for r in payment.combinations(cards, max(len(cards) - 1, 0))))
    assert "violated" in verdicts(_ms("MS09"))


# ---- the loader ----------------------------------------------------------------------------------------
BAD = """name: x
turn: A
main: {{play: [{play}]}}
players:
  A: {{battle: [Vanilla], hand: [Vanilla W-breaker]}}
  B: {{shields: 5}}
attack: {attack}
"""


def test_main_needs_a_chosen_attack(tmp_path):
    with pytest.raises(InputError, match="R500.1"):
        load_scenario(_write(tmp_path, BAD.format(play="Vanilla W-breaker", attack="{attacker: Vanilla, player: B}")))


def test_main_plays_cards_of_the_hand(tmp_path):
    with pytest.raises(InputError, match="R504.1"):
        load_scenario(_write(tmp_path, BAD.format(play="Vanilla", attack="{choose: true}")))


# ---- 603.2a: "at the start of" abilities trigger as the step begins (model/turn.py) -------------------------
def test_start_of_step_abilities_trigger_as_the_start_step_begins(monkeypatch):
    # 603.2a, 501.2: a model whose start step triggers nothing fails TN04 (its start-of-turn draw never happens)
    real = BreakModel.trigger

    def no_start(self, s, what, player, card, out, to=""):
        return s if what == "start_of_turn" else real(self, s, what, player, card, out, to)
    monkeypatch.setattr(BreakModel, "trigger", no_start)
    assert "violated" in verdicts(TURN / "TN04_next_turn_untap_start_and_draw.yaml")
