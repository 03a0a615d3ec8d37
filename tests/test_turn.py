"""The turn around the attack (model/turn.py, model/turn_plan.py): several attacks in a turn (505.5), the
end of the turn and the next turn's start and draw (511, 512, 501, 502). Expected values come from the
rule text of the comprehensive rules Ver.1.48 (2025-12-17, S340), not from the program's output."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, verdicts

from dmcheck.model.errors import InputError
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.model.state import replace

TURN = ROOT / "scenarios" / "turn"


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return path


_verdicts = verdicts   # tests/conftest.py


@pytest.mark.parametrize("path", sorted(TURN.glob("TN*.yaml")), ids=lambda p: p.stem)
def test_every_turn_scenario_holds(path):
    assert set(_verdicts(path)) == {"holds"}


# ---- 505.5: the number of attacks -------------------------------------------------------------------
THREE = """name: x
turn: A
{until}
players:
  A: {{battle: [Vanilla, Vanilla W-breaker, Vanilla T-breaker]}}
  B: {{shields: 5}}
attack: {{choose: true}}
expect:
  - possible_order: [{{event: attack}}, {{event: attack}}]
  - possible_order: [{{event: attack}}, {{event: attack}}, {{event: attack}}]
"""


def test_the_attacks_key_bounds_the_attacks(tmp_path):
    # three untapped creatures: as many as three attacks (505.5); `attacks: 2` stops at two
    assert _verdicts(_write(tmp_path, THREE.format(until="until: end_attack_step"))) == ["holds", "holds"]
    two = THREE.format(until="until: end_attack_step\nattacks: 2")
    assert _verdicts(_write(tmp_path, two)) == ["holds", "violated"]


@pytest.mark.parametrize("until", ["", "until: end_attack", "until: end_turn"])
def test_end_attack_and_end_turn_still_play_one_attack(tmp_path, until):
    # the meaning these values always had: one attack, then the end (of the attack or of the turn)
    assert _verdicts(_write(tmp_path, THREE.format(until=until))) == ["violated", "violated"]


def test_no_more_attacks_ends_the_attack_step_and_then_the_turn(tmp_path):
    path = _write(tmp_path, """name: x
turn: A
until: end_turn
attacks: 3
players:
  A: {battle: [Vanilla, Vanilla W-breaker]}
attack: {attacker: Vanilla, player: B}
expect:
  - possible_order: [{event: end_attack}, {event: no_attack, player: A}, {event: end_turn, player: A}]
  - in_order: [{event: end_attack}, {event: end_turn, player: A}]
  - never_order: [{event: end_turn}, {event: attack}]
""")
    assert set(_verdicts(path)) == {"holds"}


def test_summoning_sickness_at_a_later_attack_needs_the_creatures_that_entered(tmp_path):
    # 506.1a: TN02 fails if the creatures put into the battle zone during the turn are not remembered
    class Forgetful(BreakModel):
        def note_entries(self, s, events):
            return s
    verdicts = _verdicts(TURN / "TN02_creature_arrived_this_turn_cannot_attack_later.yaml", Forgetful)
    assert verdicts[0] == "violated"


def test_a_turn_effect_at_the_second_attack_needs_the_effect_kept(tmp_path):
    # 500.3: TN03 fails if the turn's power changes were dropped at the end of an attack
    class EndsEarly(BreakModel):
        def next_declaration(self, s):
            return replace(super().next_declaration(s), powers=())
    verdicts = _verdicts(TURN / "TN03_turn_effect_lasts_through_the_next_attack.yaml", EndsEarly)
    assert verdicts[1] == "violated"


def test_the_shields_broken_earlier_in_the_turn_need_to_be_kept(tmp_path):
    # S316: TN07 fails if the shields broken by the first attack were forgotten at the second
    class Forgets(BreakModel):
        def next_declaration(self, s):
            return replace(super().next_declaration(s), broken=())
    verdicts = _verdicts(TURN / "TN07_shields_broken_earlier_in_the_turn_count.yaml", Forgets)
    assert verdicts[0] == "violated"


def test_a_keyword_until_the_next_turn_needs_to_outlive_the_end_step(tmp_path):
    # 500.3: TN08 fails if the end step ended the keyword given until the start of B's next turn
    class Short(BreakModel):
        def attack_phase(self, s, out):
            return super().attack_phase(replace(s, lasting=()) if s.phase == "end_turn" else s, out)
    verdicts = _verdicts(TURN / "TN08_until_the_start_of_your_next_turn.yaml", Short)
    assert verdicts[2] == "violated"


def test_cannot_attack_this_turn_needs_to_be_kept(tmp_path):
    # S380: TN09 fails if "cannot attack this turn" were forgotten at the end of the attack
    class Forgets(BreakModel):
        def next_declaration(self, s):
            return replace(super().next_declaration(s), cant_attack=())
    verdicts = _verdicts(TURN / "TN09_cannot_attack_this_turn_holds_at_the_next_attack.yaml", Forgets)
    assert verdicts[0] == "violated"


def test_an_evolution_put_this_turn_attacks_only_because_it_is_never_sick(tmp_path):
    # 801.3: TN11 fails if an evolution creature that entered this turn were summoning sick like any other
    class Sick(BreakModel):
        def summoning_sick(self, s, c):
            return c in self.summoned or c in s.entered
    verdicts = _verdicts(TURN / "TN11_evolution_put_this_turn_attacks_later.yaml", Sick)
    assert verdicts[0] == "violated"


# ---- 500.5, 500.5a: whose turn comes next ---------------------------------------------------------
def _model(tmp_path) -> BreakModel:
    return BreakModel(load_scenario(_write(tmp_path, "name: x\nturn: A\nuntil: next_turn_start\n"
                                                     "players: {A: {battle: [Vanilla]}}\n"
                                                     "attack: {attacker: Vanilla, player: B}\n")))


def test_without_an_extra_turn_the_other_player_plays_next(tmp_path):
    m = _model(tmp_path)
    assert m.next_player(m.initial_state()) == ("B", ())


def test_extra_turns_one_at_a_time(tmp_path):
    # 500.5: two extra turns of A come one after the other: the next turn is one of them, one is left
    m = _model(tmp_path)
    assert m.next_player(replace(m.initial_state(), extra_turns=("A", "A"))) == ("A", ("A",))


def test_both_players_extra_turns_turn_player_first(tmp_path):
    # 500.5a: both players gained one in A's turn: A's comes first, whatever order they were gained in
    m = _model(tmp_path)
    assert m.next_player(replace(m.initial_state(), extra_turns=("B", "A"))) == ("A", ("B",))
    assert m.next_player(replace(m.initial_state(), turn="B", extra_turns=("A", "B"))) == ("B", ("A",))


def test_the_next_turn_forgets_the_turns_memories(tmp_path):
    # 511.2, 512: "this turn" memories of A's turn do not reach B's
    m = _model(tmp_path)
    s = replace(m.initial_state(), cant_attack=(0,), spells_cast=(2, 1), attacks=2, entered=(0,),
                extra_breaks=((0, 1),))
    after = m.next_turn(s, [])
    assert (after.turn, after.cant_attack, after.spells_cast, after.attacks, after.entered, after.extra_breaks) == \
        ("B", (), (0, 0), 0, (), ())


# ---- the loader ----------------------------------------------------------------------------------
@pytest.mark.parametrize("body, key, hint", [
    ("until: next_turn\n", "until", "next_turn_start"),
    ("attacks: 0\n", "attacks", "1"),
    ("attacks: two\n", "attacks", "whole number"),
])
def test_bad_turn_keys_name_the_line_and_what_is_allowed(tmp_path, body, key, hint):
    path = _write(tmp_path, "name: x\nturn: A\n" + body + "players: {A: {battle: [Vanilla]}}\n"
                                                         "attack: {attacker: Vanilla, player: B}\n")
    with pytest.raises(InputError) as info:
        load_scenario(path)
    assert (info.value.line, info.value.key) == (3, key) and hint in info.value.expected, str(info.value)


def test_a_creature_that_entered_this_turn_is_not_interchangeable_with_its_twin(tmp_path):
    # 506.1a: of two identical creatures, the one put into the battle zone this turn cannot attack: a choice
    # between them offers both, and the symmetry does not rename one into the other
    from dmcheck.model.instructions.common import same
    m = BreakModel(load_scenario(_write(tmp_path, "name: x\nturn: A\nuntil: end_attack_step\n"
                                                  "players: {A: {battle: [Vanilla W-breaker, Vanilla, Vanilla]}}\n"
                                                  "attack: {attacker: Vanilla W-breaker, player: B}\n")))
    s = m.initial_state()
    a, b = sorted(c for c in s.zone("A").battle if m.name(c) == "Vanilla")
    assert same(m, s, a) == same(m, s, b)
    sick = replace(s, entered=(b,))
    assert same(m, sick, a) != same(m, sick, b)
    assert m.canonical(sick) is sick
    assert sorted(x for x, _ in m.legal_attacks(sick)) == sorted(c for c in s.zone("A").battle if c != b)


def test_the_next_turn_untaps_only_its_players_cards(tmp_path):
    # 501.1: B's turn begins: B's tapped creature is untapped, A's tapped attacker stays tapped
    m = BreakModel(load_scenario(_write(tmp_path, "name: x\nturn: A\nuntil: next_turn_start\n"
                                                  "players:\n  A: {battle: [Vanilla]}\n"
                                                  "  B: {battle: [{card: Vanilla W-breaker, tapped: true}]}\n"
                                                  "attack: {attacker: Vanilla, player: B}\n")))
    s = m.initial_state()
    mine = s.zone("A").battle[0]
    s = s.with_zone("A", replace(s.zone("A"), tapped=(mine,)))
    after = m.next_turn(s, [])
    assert after.zone("B").tapped == () and after.zone("A").tapped == (mine,)
