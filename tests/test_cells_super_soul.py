"""超魂X (818): a card's 超魂X part is its own and reaches the creature it lies under (model/super_soul.py).
Expected values come from the rule text of the comprehensive rules Ver.1.48 (2025-12-17, S340), its examples
(ガヤルドスカイ-A3's Blocker, 邪心タル悪魔神ノ禍魂's 魂・ソウル), not from the program's output."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT, verdicts

from dmcheck.model import super_soul
from dmcheck.model.cards import CardPool
from dmcheck.model.piles import under

ATTACK = ROOT / "scenarios" / "attack"
CARDS = ATTACK / "cards" / "super_soul.yaml"
SOULS = sorted(ATTACK.glob("SX*.yaml"))


def _scenario(stem: str) -> Path:
    (path,) = [p for p in SOULS if p.stem.startswith(stem)]
    return path


def test_the_super_soul_scenarios_hold():
    assert [p.stem[:4] for p in SOULS] == ["SX01", "SX02", "SX03", "SX04"]
    for path in SOULS:
        assert set(verdicts(path)) == {"holds"}, path.stem


def test_a_super_soul_part_is_the_cards_own_and_kept_apart():
    # 818.1a: the 超魂X Blocker is the card's own; 818.1c: so is its soul icon; the part is kept for 818.1b
    pool = CardPool.builtin()
    pool.add_file(CARDS)
    guard, plain, icon = (pool[pool.resolve(n)] for n in ("Soul Guard Probe", "Plain Guard Probe", "Soul Icon Probe"))
    assert guard.has("Blocker") and guard.super_soul is not None and guard.super_soul.has("Blocker")
    assert plain.has("Blocker") and plain.super_soul is None
    assert icon.souls == ("魂・ソウル",) and icon.super_soul is not None and icon.super_soul.souls == ("魂・ソウル",)


def test_sx01_and_sx04_fail_when_nothing_under_a_creature_gives_it_anything(monkeypatch):
    # 818.1b, 818.1c: without them the evolution creature has neither the Blocker nor the soul icon
    monkeypatch.setattr(super_soul, "given", lambda record, parts: record)
    assert "violated" in verdicts(_scenario("SX01"))
    assert "violated" in verdicts(_scenario("SX04"))


def test_sx02_fails_when_every_ability_under_a_creature_is_given(monkeypatch):
    # 200.3a: a card under another gives nothing but its 超魂X; reading its whole card gives the plain Blocker
    monkeypatch.setattr(super_soul, "parts", lambda m, z, cid: tuple(m.card(c) for c in under(z, cid)))
    assert "violated" in verdicts(_scenario("SX02"))
