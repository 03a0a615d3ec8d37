"""Redirections of an attack in the block step (model/redirection.py: Blocker and Guardman as one mechanism),
a creature entering the battle zone blocking (card word `put_blocking`) and the permission Attacks Untapped.
Expected values come from the comprehensive rules Ver.1.48 (2025-12-17, S340): 507.1a (the redirecting
creatures are chosen at once, each able to use its ability; Guardman not when a player is attacked), 507.2a-b
(only a Blocker resolved last makes a blocking creature), 507.4 (entering blocking is no block), 506.1e and
101.2 (attack targets; a "cannot" beats a "can"); and from the official notice of 2021-09-07 (S154: an
untapped Blocker that is attacked cannot block that attack). The scenarios scenarios/attack/GM* pin the same
rules through whole attacks; each is shown to fail on a model that gets its rule wrong."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, verdicts

from dmcheck.model import redirection
from dmcheck.model.errors import InputError
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.model.state import replace
from dmcheck.model.vocabulary import IGNORED

ATTACK = ROOT / "scenarios" / "attack"
CARDS = [ATTACK / "cards" / "touch.yaml", ATTACK / "cards" / "redirection.yaml"]
SCENARIOS = sorted(ATTACK.glob("GM*.yaml"))


_verdicts = verdicts   # tests/conftest.py


def _write(tmp_path: Path, players: str, attack: str, rules: str = "2025-12-17") -> Path:
    path = tmp_path / "s.yaml"
    cards = ", ".join(c.as_posix() for c in CARDS)
    path.write_text(f"name: x\ncards: [{cards}]\nrules: {rules}\nturn: A\nplayers:\n{players}attack: {attack}\n",
                    encoding="utf-8")
    return path


def _id(m: BreakModel, s, name: str) -> int:
    return next(c for p in ("A", "B") for c in s.zone(p).battle if m.name(c) == name)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_redirection_scenario_holds(path):
    assert len(SCENARIOS) >= 5
    assert set(_verdicts(path)) == {"holds"}


@pytest.mark.parametrize("name", ["GM01", "GM03", "GM06"])
def test_the_guardman_scenarios_fail_when_guardman_blocks(name, monkeypatch):
    # 507.2b: were Guardman a block, the attacker would be blocked and "when it blocks" would trigger
    blocking = tuple(redirection.Redirection(r.keyword, True, r.users, r.rule) for r in redirection.REDIRECTIONS)
    monkeypatch.setattr(redirection, "REDIRECTIONS", blocking)
    path = next(p for p in SCENARIOS if p.stem.startswith(name))
    assert "violated" in _verdicts(path)


def test_the_entering_scenario_fails_when_entering_blocking_is_a_block():
    # 507.4: a model that lets the creature put in blocking trigger "when it blocks" is caught by GM04
    class Eager(BreakModel):
        def after_block(self, s, out, designated=False):
            return super().after_block(s, out, designated or s.blocked)
    path = next(p for p in SCENARIOS if p.stem.startswith("GM04"))
    assert "violated" in _verdicts(path, Eager)


def test_the_attacked_blocker_scenario_fails_when_it_may_block_its_own_attacker():
    # 507.1a, S154: a model that lets the attacked untapped Blocker use its Blocker is caught by GM05
    class Careless(BreakModel):
        def blockers(self, s):
            z = s.zone(s.defender)
            return tuple(c for c in z.battle if c not in z.tapped and self.has_keyword(s, c, "Blocker"))
    path = next(p for p in SCENARIOS if p.stem.startswith("GM05"))
    assert "violated" in _verdicts(path, Careless)


def test_guardman_needs_an_attack_on_another_creature(tmp_path):
    # 507.1a: Guardman only for an attack on another of its controller's creatures, and only untapped
    path = _write(tmp_path, "  A: {battle: [Mach Probe]}\n"
                            "  B: {battle: [Guard Probe, {card: Vanilla, tapped: true}, "
                            "{card: Guard Boost Probe, tapped: true}]}\n",
                  "{attacker: Mach Probe, creature: Vanilla}")
    m = BreakModel(load_scenario(path))
    s = m.initial_state()
    guard, vanilla = _id(m, s, "Guard Probe"), _id(m, s, "Vanilla")
    assert s.target == vanilla
    assert m.guardmen(s) == (guard,)                        # the tapped Guard Boost Probe cannot
    assert m.guardmen(replace(s, target=-1)) == ()          # the player himself is attacked
    assert m.guardmen(replace(s, target=guard)) == ()       # Guard Probe itself is attacked (not "another")


def test_several_redirections_at_once_only_since_2021(tmp_path):
    # 507.1a of 2021-09-07 (S153): a Blocker and a Guardman together; before, one creature at a time
    players = ("  A: {battle: [Blocked Probe]}\n"
               "  B: {battle: [{card: Vanilla, tapped: true}, Block Boost Probe, Guard Probe]}\n")
    attack = "{attacker: Blocked Probe, creature: Vanilla}"
    now = BreakModel(load_scenario(_write(tmp_path, players, attack)))
    old = BreakModel(load_scenario(_write(tmp_path, players, attack, rules="2020-07-17")))
    sizes_now = sorted(len(a.choice) for a in now.block_actions(now.declared(now.initial_state())[0]))
    sizes_old = sorted(len(a.choice) for a in old.block_actions(old.declared(old.initial_state())[0]))
    assert sizes_now == [0, 1, 1, 2, 2]     # none, each alone, both with either resolved last
    assert sizes_old == [0, 1, 1]


def test_attacks_untapped_adds_the_untapped_creatures_as_targets(tmp_path):
    # 506.1e: the player or a tapped creature; the permission adds the untapped ones
    path = _write(tmp_path, "  A: {battle: [Mach Probe, Vanilla W-breaker]}\n"
                            "  B: {battle: [Guard Probe, {card: Vanilla, tapped: true}]}\n", "{choose: true}")
    m = BreakModel(load_scenario(path))
    s = m.initial_state()
    mach, w = _id(m, s, "Mach Probe"), _id(m, s, "Vanilla W-breaker")
    guard, vanilla = _id(m, s, "Guard Probe"), _id(m, s, "Vanilla")
    assert sorted(t for a, t in m.legal_attacks(s) if a == mach) == sorted([-1, guard, vanilla])
    assert sorted(t for a, t in m.legal_attacks(s) if a == w) == sorted([-1, vanilla])
    given = replace(s, granted=((w, "Attacks Untapped"),))   # given by an effect for the turn, it works too
    assert sorted(t for a, t in m.legal_attacks(given) if a == w) == sorted([-1, guard, vanilla])


def test_cannot_attack_beats_the_permission_to_attack_untapped_creatures(tmp_path):
    # 101.2: "cannot attack" wins over "can attack untapped creatures"
    path = _write(tmp_path, "  A: {battle: [Chained Mach Probe, Vanilla]}\n"
                            "  B: {battle: [Guard Probe]}\n", "{choose: true}")
    m = BreakModel(load_scenario(path))
    s = m.initial_state()
    chained = _id(m, s, "Chained Mach Probe")
    assert [t for a, t in m.legal_attacks(s) if a == chained] == []


def test_a_creature_put_in_blocking_is_the_blocking_creature_without_blocking(tmp_path):
    # 507.4: after Ambush Probe entered blocking, the attack is on it and the attacker is blocked, yet its
    # "when this creature blocks" never triggered
    from dmcheck.explorer.bfs import explore
    path = next(p for p in SCENARIOS if p.stem.startswith("GM04"))
    m = BreakModel(load_scenario(path))
    graph = explore(m)
    states = [graph.state(n) for n in range(graph.count)]
    entered = [s for s in states if any(m.name(c) == "Ambush Probe" for c in s.zone("B").battle)]
    assert entered
    for s in entered:
        assert s.blocked and m.name(s.target) == "Ambush Probe"
        assert not any(p.ability == "ambush_boost" for p in s.pending)


def test_the_redirect_choices_read_in_japanese_too(tmp_path, monkeypatch):
    # the block step's choices name each ability used: Guardman as ガードマン, Blocker as ブロッカー
    from dmcheck.model import lang
    players = ("  A: {battle: [Blocked Probe]}\n"
               "  B: {battle: [{card: Vanilla, tapped: true}, Block Boost Probe, Guard Probe]}\n")
    m = BreakModel(load_scenario(_write(tmp_path, players, "{attacker: Blocked Probe, creature: Vanilla}")))
    texts = [a.text for a in m.block_actions(m.declared(m.initial_state())[0])]
    assert "B redirects the attack of Blocked Probe to Guard Probe with its Guardman, first using Block Boost " \
           "Probe's Blocker" in texts
    monkeypatch.setenv(lang.ENV, "ja")
    names = lang.Names(m.pool)
    ja = [lang.action_text(t, names) for t in texts]
    assert "Bは先に《Block Boost Probe》のブロッカーを使い、《Guard Probe》のガードマンで" \
           "《Blocked Probe》の攻撃先を変更する（ブロックではない）" in ja
    assert "Bは先に《Guard Probe》のガードマンを使い、《Block Boost Probe》で《Blocked Probe》をブロックする" in ja


# ---- bad input -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("card, expected", [
    ("{id: g, name: Spell Guard, type: spell, cost: 2, keywords: [Guardman]}", "spell cannot have Guardman"),
    ("{id: g, name: Odd Guard, type: creature, cost: 2, power: 1000, keywords: ['Guardman:2']}",
     "expected 'Guardman' exactly"),
    ("{id: g, name: Spell Mach, type: spell, cost: 2, keywords: [Attacks Untapped]}",
     "spell cannot have Attacks Untapped"),
])
def test_a_bad_guardman_names_its_line_and_what_was_expected(tmp_path, card, expected):
    from dmcheck.model.cards import CardPool
    file = tmp_path / "c.yaml"
    file.write_text(f"cards:\n  - {card}\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        CardPool().add_file(file)
    text = str(caught.value)
    assert "c.yaml:2" in text and expected in text


def test_an_attack_on_an_untapped_creature_needs_the_permission(tmp_path):
    # 506.1e: without Attacks Untapped, the scenario's attack on an untapped creature is refused at its line
    path = _write(tmp_path, "  A: {battle: [Vanilla W-breaker]}\n  B: {battle: [Guard Probe]}\n",
                  "{attacker: Vanilla W-breaker, creature: Guard Probe}")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    text = str(caught.value)
    assert "s.yaml" in text and "attack.creature" in text and "Attacks Untapped" in text


def test_a_guardman_given_by_an_effect_takes_the_attack_too(tmp_path):
    # a keyword given for the turn is had like a printed one (`grant`); ignored abilities give no Guardman
    path = _write(tmp_path, "  A: {battle: [Mach Probe]}\n"
                            "  B: {battle: [{card: Vanilla, tapped: true}, Vanilla W-breaker]}\n",
                  "{attacker: Mach Probe, creature: Vanilla}")
    m = BreakModel(load_scenario(path))
    s = m.initial_state()
    w = _id(m, s, "Vanilla W-breaker")
    assert m.guardmen(s) == ()
    given = replace(s, granted=((w, "Guardman"),))
    assert m.guardmen(given) == (w,)
    assert [r.keyword for c, r in redirection.redirectors(m, given)] == ["Guardman"]
    ignored = replace(s, granted=tuple(sorted(((w, "Guardman"), (w, IGNORED)))))
    assert m.guardmen(ignored) == ()
