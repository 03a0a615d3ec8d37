"""Fields (308, model/fields.py): deploying one (701.27a) from the hand in the main step (308.1) or by an
S-Trigger, its entering the battle zone (308.2), the older D2 field sent to the graveyard when another enters
(703.4l), and the card loader's refusals. Expected values come from the rule text of the comprehensive rules
Ver.1.48 (2025-12-17, S340), not from the program's output."""

from __future__ import annotations

import pytest
from conftest import ROOT, verdicts

from dmcheck.model import fields, main_step
from dmcheck.model.cards import CardPool
from dmcheck.model.errors import InputError
from dmcheck.model.instructions import effects, hyperspatial, shield_check
from dmcheck.model.instructions.common import creatures
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario

FD01 = ROOT / "scenarios" / "attack" / "FD01_a_newer_d2_field_ends_the_older_ones_static.yaml"
FD02 = ROOT / "scenarios" / "turn" / "FD02_a_field_is_deployed_in_the_main_step.yaml"


def test_the_field_scenarios_hold():
    assert set(verdicts(FD01)) == {"holds"}
    assert set(verdicts(FD02)) == {"holds"}


def test_fd02_fails_when_a_field_cannot_be_deployed_in_the_main_step(monkeypatch):
    # 308.1: the turn player may deploy a field from his hand in his main step; without it, no deploy happens
    executable = main_step.MainSteps.executable

    def without_fields(self, s):
        return [(c, how) for c, how in executable(self, s) if how != "deploy"]
    monkeypatch.setattr(main_step.MainSteps, "executable", without_fields)
    assert "violated" in verdicts(FD02)


def test_fd02_fails_when_a_deployed_field_does_not_enter_the_battle_zone(monkeypatch):
    # 308.2, 701.27a: deployed, a field enters the battle zone (its static then works there)
    monkeypatch.setattr(effects, "enter", lambda m, s, player, cid, zone, out, summoned=False: s)
    assert "violated" in verdicts(FD02)


def test_fd01_fails_when_an_s_trigger_field_is_summoned_rather_than_deployed(monkeypatch):
    # 701.27a, 112.3a: a field used for its S-Trigger is deployed (the `deploy` event), not summoned
    monkeypatch.setattr(effects, "deploy", lambda m, s, player, cid, zone, out: effects.summon(
        m, s, player, cid, zone, out, summoned=True))
    monkeypatch.setattr(shield_check.effects, "deploy", effects.deploy)
    assert "violated" in verdicts(FD01)


def test_fd01_fails_when_the_older_d2_field_stays(monkeypatch):
    # 703.4l: the older D2 field goes to its owner's graveyard; kept, its static still wins A's second battle
    monkeypatch.setattr(fields, "displaced", lambda m, s, new: ())
    assert "violated" in verdicts(FD01)


def test_only_d2_fields_displace_each_other(monkeypatch):
    # 703.4l reaches D2 fields only (204.3c): a field that is not D2 sends nothing away and is sent by nothing
    m = BreakModel(load_scenario(FD01))
    s = m.initial_state()
    victory = next(c for c in s.zone("A").battle if m.card(c).name == "Victory Field Probe")
    bastion = next(c for c in s.zone("B").shields if m.card(c).name == "Bastion Field Probe")
    assert fields.displaced(m, s, bastion) == (victory,)
    assert fields.displaced(m, s, victory) == ()   # the only D2 field there is itself
    monkeypatch.setattr(type(m.card(bastion)), "d2", False)   # read as a field that is not D2
    assert fields.displaced(m, s, bastion) == ()


def test_a_field_is_no_creature_for_effects_choosing_creatures():
    # 308, 301.4: a field is not a creature; "a creature" effects never choose it
    m = BreakModel(load_scenario(FD01))
    s = m.initial_state()
    found = {m.card(c).name for c in creatures(m, s, "A", "own")}
    assert "Victory Field Probe" not in found and "Vanilla" in found


CARD = """cards:
  - id: test_field
    name: Test Field
    type: {kind}
    cost: 2
{extra}"""


@pytest.mark.parametrize("kind, extra, rule, line", [
    ("field", "    power: 3000\n", "301.3", 6),
    ("field", "    breaker: 2\n", "301.3", 6),
    ("creature", "    power: 1000\n    d2: true\n", "204.3c", 7),
])
def test_the_loader_refuses_what_a_field_cannot_be(tmp_path, kind, extra, rule, line):
    path = tmp_path / "cards.yaml"
    path.write_text(CARD.format(kind=kind, extra=extra))
    with pytest.raises(InputError) as caught:
        CardPool().add_file(path)
    assert rule in str(caught.value) and caught.value.line == line, str(caught.value)


def test_a_position_with_two_d2_fields_is_refused(tmp_path):
    # 703.4l: no game has two D2 fields in the battle zone at once
    text = FD01.read_text().replace("battle: [{card: Vanilla W-breaker, tapped: true}]",
                                    "battle: [{card: Vanilla W-breaker, tapped: true}, Bastion Field Probe]")
    text = text.replace("shields: [Bastion Field Probe, Vanilla]", "shields: [Vanilla]")
    path = tmp_path / "two.yaml"
    path.write_text(text.replace("cards: [cards/fields.yaml]", f"cards: [{FD01.parent / 'cards' / 'fields.yaml'}]"))
    with pytest.raises(InputError, match="703.4l"):
        load_scenario(path)


# ---- WD fields (819.1): two fields on one card, the upright side read ----------------------------------------
FW01 = ROOT / "scenarios" / "turn" / "FW01_a_wd_field_enters_with_the_side_executed_upright.yaml"
FW02 = ROOT / "scenarios" / "attack" / "FW02_a_wd_field_turns_to_its_other_side.yaml"


def test_the_wd_field_scenarios_hold():
    assert set(verdicts(FW01)) == {"holds"}
    assert set(verdicts(FW02)) == {"holds"}


def test_a_wd_field_card_has_a_field_on_each_side():
    # 819.1: a WD field is one card holding two fields, each with its own characteristics
    pool = CardPool()
    pool.add_file(ROOT / "scenarios" / "attack" / "cards" / "fields.yaml")
    dawn = pool[pool.resolve("Dawn Field Probe")]
    assert dawn.type == "field" and dawn.back is not None and dawn.back.type == "field"
    assert dawn.back.name == "Dusk Field Probe" and dawn.back.cost == 1 and not dawn.back.statics


def test_fw01_fails_when_only_the_front_side_may_be_deployed(monkeypatch):
    # 819.1a: the side executed enters upright; with only the front deployable, Dusk never enters
    executable = main_step.MainSteps.executable

    def front_only(self, s):
        return [(c, how) for c, how in executable(self, s) if how != "deploy_back"]
    monkeypatch.setattr(main_step.MainSteps, "executable", front_only)
    assert "violated" in verdicts(FW01)


def test_fw01_fails_when_the_back_side_enters_with_the_front_upright(monkeypatch):
    # 819.1a-b: deployed as Dusk, the card is not turned: Dawn upright would be read (and win the battle)
    execute = main_step.MainSteps.execute_card

    def front_up(self, s, cid, how, paid, out):
        return execute(self, s, cid, "deploy" if how == "deploy_back" else how, paid, out)
    monkeypatch.setattr(main_step.MainSteps, "execute_card", front_up)
    assert "violated" in verdicts(FW01)


def test_fw02_fails_when_a_wd_field_cannot_turn_to_its_other_side(monkeypatch):
    # 819.1b: its own ability turns it upside down, the other side upright; without it Dawn is never read
    monkeypatch.setattr(hyperspatial, "flip", lambda m, s, card, out, kind=None: s)
    assert "violated" in verdicts(FW02)


def test_fw02_fails_when_the_turn_is_named_as_a_psychic_flip(monkeypatch):
    # 701.28a, 819.1b: a WD field changing sides is turned upside down (not awakened or released)
    monkeypatch.setattr(hyperspatial, "_flip_kind", lambda m, face: ("R805.1a", "awaken"))
    assert "violated" in verdicts(FW02)
