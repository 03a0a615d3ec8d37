"""Restrictions on attacking and blocking (model/restrictions.py, card word `restrict`). Expected values come
from the rule text of the comprehensive rules Ver.1.48 (2025-12-17, S340): 101.2 (a "cannot" beats a "can"),
110.3d and 604.2 (a static ability applies while it works), 608.1 and 608.2a (an effect's restriction lasts the
time it names and is not an ability of the creature), 500.3 (until the start of a player's next turn). The
scenarios scenarios/attack/CE* pin the same rules through whole attacks (tests/test_attack.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT

from dmcheck.model.errors import InputError
from dmcheck.model.procedure import BreakModel
from dmcheck.model.restrictions import CANNOT_ATTACK, CANNOT_ATTACK_PLAYERS, CANNOT_BLOCK, restricted
from dmcheck.model.scenario_file import load_scenario
from dmcheck.model.state import replace
from dmcheck.model.vocabulary import IGNORED

CARDS = ROOT / "scenarios" / "attack" / "cards" / "restrictions.yaml"


def _model(tmp_path: Path) -> BreakModel:
    path = tmp_path / "s.yaml"
    path.write_text(f"name: x\ncards: [{CARDS}]\nturn: A\nuntil: next_turn_start\n"
                    "players:\n  A: {battle: [Vanilla, Vanilla W-breaker]}\n"
                    "  B: {battle: [Rampart Probe, Shy Probe, {card: Vanilla T-breaker, tapped: true}]}\n"
                    "attack: {choose: true}\n", encoding="utf-8")
    return BreakModel(load_scenario(path))


def _id(m: BreakModel, s, name: str) -> int:
    return next(c for p in ("A", "B") for c in s.zone(p).battle if m.name(c) == name)


def test_an_effects_cannot_attack_removes_every_attack_of_that_creature(tmp_path):
    m = _model(tmp_path)
    s = m.initial_state()
    w = _id(m, s, "Vanilla W-breaker")
    assert any(a == w for a, _ in m.legal_attacks(s))
    s = replace(s, restrictions=((w, CANNOT_ATTACK, "turn"),))
    assert all(a != w for a, _ in m.legal_attacks(s))


def test_cannot_attack_players_leaves_the_attacks_on_tapped_creatures(tmp_path):
    # 506.1e: a player or a tapped creature; without the player, only the tapped Vanilla T-breaker is left
    m = _model(tmp_path)
    s = m.initial_state()
    w, t = _id(m, s, "Vanilla W-breaker"), _id(m, s, "Vanilla T-breaker")
    s = replace(s, restrictions=((w, CANNOT_ATTACK_PLAYERS, "attack"),))
    assert [target for a, target in m.legal_attacks(s) if a == w] == [t]


def test_an_effects_restriction_outlives_ignoring_the_creatures_abilities(tmp_path):
    # 608.1: the effect changes the rules for that creature; it is no ability of it, so ignoring (無視) leaves it
    m = _model(tmp_path)
    s = m.initial_state()
    w = _id(m, s, "Vanilla W-breaker")
    s = replace(s, restrictions=((w, CANNOT_ATTACK, "turn"),), granted=((w, IGNORED),))
    assert restricted(m, s, w, CANNOT_ATTACK)
    assert all(a != w for a, _ in m.legal_attacks(s))


def test_a_printed_cannot_block_works_only_while_the_abilities_work(tmp_path):
    # 110.3d, 604.2: a static ability applies while it works; ignored, Shy Probe's "cannot block" does not
    m = _model(tmp_path)
    s = m.initial_state()
    shy, rampart = _id(m, s, "Shy Probe"), _id(m, s, "Rampart Probe")
    assert restricted(m, s, shy, CANNOT_BLOCK) and not restricted(m, s, rampart, CANNOT_BLOCK)
    assert not restricted(m, replace(s, granted=((shy, IGNORED),)), shy, CANNOT_BLOCK)


def test_a_restriction_ends_with_the_creature_and_moves_to_an_evolution(tmp_path):
    # 110.2e: a creature that left is a new object; S160 (official Q&A 2021-04-16): effects move to the evolution
    m = _model(tmp_path)
    s = m.initial_state()
    v, w = _id(m, s, "Vanilla"), _id(m, s, "Vanilla W-breaker")
    s = replace(s, restrictions=((v, CANNOT_ATTACK, "turn"), (w, CANNOT_BLOCK, "A")))
    assert s.forget(v).restrictions == ((w, CANNOT_BLOCK, "A"),)
    assert s.inherit(w, 99).restrictions == ((v, CANNOT_ATTACK, "turn"), (99, CANNOT_BLOCK, "A"))


def test_until_your_next_turn_ends_only_as_that_players_turn_begins(tmp_path):
    # 500.3: B's restriction ends as B's turn begins; A's (until the start of A's next turn) goes on
    m = _model(tmp_path)
    s = m.initial_state()
    v, w = _id(m, s, "Vanilla"), _id(m, s, "Vanilla W-breaker")
    s = replace(s, restrictions=((v, CANNOT_ATTACK, "B"), (w, CANNOT_ATTACK, "A")))
    out: list = []
    after = m.next_turn(s, out)
    assert after.turn == "B" and after.restrictions == ((w, CANNOT_ATTACK, "A"),)
    assert [(e.kind, e.get("effect"), e.rule) for e in out if e.kind == "expire"] == \
        [("expire", CANNOT_ATTACK, "R500.3")]


@pytest.mark.parametrize("word, key", [
    ("{restriction: cannot_block, target: all, whose: opponent}", "until"),
    ("{restriction: cannot_fly, target: all, whose: opponent, until: end_turn}", "restriction"),
    ("{restriction: cannot_block, target: all, whose: opponent, until: next_week}", "until"),
])
def test_a_bad_restrict_word_names_its_line_and_key(tmp_path, word, key):
    cards = tmp_path / "c.yaml"
    cards.write_text("cards:\n  - id: bad\n    name: Bad Probe\n    type: spell\n    cost: 1\n"
                     f"    keywords: [S-Trigger]\n    effect:\n      - restrict: {word}\n", encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text(f"name: x\ncards: [{cards}]\nturn: A\nplayers:\n  A: {{battle: [Vanilla]}}\n"
                    "  B: {shields: [Bad Probe]}\nattack: {attacker: Vanilla, player: B}\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    text = str(caught.value)
    assert "c.yaml" in text and ":8" in text and key in text
