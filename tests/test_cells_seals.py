"""Removing and putting seals (701.23a-b, 701.24a of the comprehensive rules Ver.1.48, S340): the keyword processes
behind the seal scenarios (model/instructions/seals.py). Expected values come from the rule text, not from the
program's output."""

from __future__ import annotations

import dataclasses

from conftest import ROOT, verdicts

from dmcheck.model.instructions import registry

ATTACK = ROOT / "scenarios" / "attack"
SL03 = ATTACK / "SL03_command_removes_a_seal.yaml"
SL06 = ATTACK / "SL06_sealed_at_the_attack_cannot_block.yaml"


def _replace_op(monkeypatch, name: str, execute) -> None:
    spec = registry.OPS[name]
    monkeypatch.setitem(registry.OPS, name, dataclasses.replace(spec, execute=execute))


def test_sl03_and_sl06_hold():
    assert set(verdicts(SL03)) == {"holds"}
    assert set(verdicts(SL06)) == {"holds"}


def test_sl03_fails_when_a_removed_seal_stays_in_the_battle_zone(monkeypatch):
    # 701.23a, 701.23b: a seal removed for a Command leaves the battle zone for the graveyard; kept on the card, the
    # Blocker stays sealed and the move never happens
    _replace_op(monkeypatch, "_unseal", lambda m, s, task, ins, choice, out: s)
    assert "violated" in verdicts(SL03)


def test_sl06_fails_when_sealing_puts_no_card(monkeypatch):
    # 701.24a: sealing puts the top card of the deck face down on the card; with nothing put, it may block
    _replace_op(monkeypatch, "seal", lambda m, s, task, ins, choice, out: s)
    assert "violated" in verdicts(SL06)
