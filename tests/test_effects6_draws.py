"""Replacing a draw (R114.4, R114.4a-b, R609.6, R609.6a-b; model/instructions/draws.py). Expected values come
from the rule text of the comprehensive rules Ver.1.48 (2025-12-17, S340), not from the program's output."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import ROOT, verdicts

from dmcheck.model.instructions import draws, effects, registry
from dmcheck.model.instructions.destruction import REPLACING
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.model.state import Task

ATTACK = ROOT / "scenarios" / "attack"
DR01 = ATTACK / "DR01_each_draw_of_several_replaced_in_turn.yaml"
DR02 = ATTACK / "DR02_an_optional_replacement_chosen_per_draw.yaml"
DR03 = ATTACK / "DR03_a_follow_up_on_a_replaced_draw_does_nothing.yaml"
DR04 = ATTACK / "DR04_a_follow_up_on_a_draw_made_happens.yaml"
DR05 = ATTACK / "DR05_a_draw_for_each_card_returned_meets_a_draw_replacement.yaml"
DR06 = ATTACK / "DR06_each_player_draws_turn_player_first.yaml"


@pytest.mark.parametrize("path", [DR01, DR02, DR03, DR04, DR05, DR06], ids=lambda p: p.stem[:4])
def test_draw_replacement_scenarios_hold(path):
    assert set(verdicts(path)) == {"holds"}


def test_each_draw_of_several_is_replaced_before_the_next(monkeypatch):
    """R114.4a: without the one-at-a-time steps the attack's two draws are never replaced, so DR01's order fails."""
    monkeypatch.setattr(draws, "replaceable", lambda m, s, task: False)
    got = verdicts(DR01)
    assert got[0] == "violated" and got[1] == "violated", got


def test_a_replacements_own_draws_are_not_replaced():
    """R101.5 (R114.4a's example): the replacement's two draws are plain draws. A task carrying out a
    replacement (the `replacing` bind) is not offered to the replacement again; any other draw of A's is."""
    m = BreakModel(load_scenario(DR01))
    s = m.initial_state()
    plain = Task(program=(), pc=0, controller="A", source=-1, ability="x")
    replacing = Task(program=(), pc=0, controller="A", source=-1, ability="x", binds=((REPLACING, 1),))
    assert draws.replaceable(m, s, plain)
    assert not draws.replaceable(m, s, replacing)
    assert not draws.replaceable(m, s, Task(program=(), pc=0, controller="B", source=-1, ability="x"))


def test_an_optional_replacement_may_be_declined_per_draw(monkeypatch):
    """R609.6: the drawer chooses for each draw; without the 'no replacement' option, DR02's mixed traces vanish."""
    def forced(m, s, task, ins):
        found = draws.draw_replacements(m, s, task.controller)
        return [((r,), r.label) for r, _ in found] or None
    spec = registry.OPS[draws.DRAW_ONE]
    monkeypatch.setitem(registry.OPS, draws.DRAW_ONE, dataclasses.replace(spec, options=forced))
    assert verdicts(DR02)[0] == "violated"


def test_a_follow_up_on_a_replaced_draw_does_nothing(monkeypatch):
    """R114.4b: a replaced draw binds no card, so the follow-up's condition fails; binding one anyway (the card
    the replacement's first draw takes) makes DR03's follow-up put a card into the mana zone."""
    real = draws._draw_one

    def binds_even_when_replaced(m, s, task, ins, choice, out):
        name = ins.get("bind")
        if name and choice is not None and choice != draws.NONE and s.zone(task.controller).deck:
            s = draws._bind_below(s, name, s.zone(task.controller).deck[0])
        return real(m, s, task, ins, choice, out)
    spec = registry.OPS[draws.DRAW_ONE]
    monkeypatch.setitem(registry.OPS, draws.DRAW_ONE, dataclasses.replace(spec, execute=binds_even_when_replaced))
    got = verdicts(DR03)
    assert got[0] == "violated" and got[2] == "violated", got


def test_a_follow_up_on_a_draw_made_happens(monkeypatch):
    """R114.4b's other side: a draw made binds its card; without the bind DR04's unreplaced outcome is lost."""
    monkeypatch.setattr(draws, "_bind_below", lambda s, name, card: s)
    monkeypatch.setattr(effects, "bind", lambda s, name, card: s)
    assert verdicts(DR04)[0] == "violated"


def test_draw_binds_the_card_drawn():
    """The draw's `bind` is a card word (R114.4b's "the card drawn"); the schema accepts it."""
    assert "bind" in effects._SCHEMA_DRAW["properties"]
