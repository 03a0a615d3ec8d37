"""Dream Rare cards (817): the special type Dream bars a second same-name element of the same owner from the battle
zone (model/dream.py). Expected values come from the rule text of the comprehensive rules Ver.1.48 (2025-12-17,
S340) and its examples, not from the program's output."""

from __future__ import annotations

from conftest import ROOT, verdicts

from dmcheck.model import dream

ATTACK = ROOT / "scenarios" / "attack"
DREAMS = sorted(ATTACK.glob("DM0*.yaml"))


def test_the_dream_scenarios_hold():
    assert [p.stem[:4] for p in DREAMS] == ["DM01", "DM02", "DM03"]
    for path in DREAMS:
        assert set(verdicts(path)) == {"holds"}, path.stem


def test_dr01_fails_when_nothing_bars_a_second_dream_creature(monkeypatch):
    # 817.2: unbarred, B's S-Trigger puts its second Dream Trigger Probe into the battle zone
    monkeypatch.setattr(dream, "barred", lambda m, s, cid: False)
    assert "violated" in verdicts(DREAMS[0])


def test_dr02_fails_when_the_opponents_dream_creature_bars_it(monkeypatch):
    # 817.2 names the owner: reading any player's Dream element as a bar keeps B's copy out
    monkeypatch.setattr(dream, "barred", lambda m, s, cid: m.card(cid).has("Dream") and any(
        m.card(c).name == m.card(cid).name for p in ("A", "B") for c in s.zone(p).battle if c != cid))
    assert "violated" in verdicts(DREAMS[1])
