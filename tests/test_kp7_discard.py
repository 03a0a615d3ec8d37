"""Who chooses a discarded card (R701.7b; model/instructions/effects.py `discard_chooser`): the discarding player
by default, the effect's controller when the text says so, nobody (every card explored) at random. The DC
scenarios check which cards can go; these tests check WHO makes the decision the explorer branches on."""

from __future__ import annotations

from conftest import ROOT, verdicts

from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario

ATTACK = ROOT / "scenarios" / "attack"


def _discard_deciders(name: str) -> set[tuple[str, str]]:
    """(player, text) of every discard decision reachable in the scenario, after checking its expectations."""
    (path,) = ATTACK.glob(f"{name}_*.yaml")
    assert set(verdicts(path)) == {"holds"}, verdicts(path)
    model = BreakModel(load_scenario(path))
    seen, todo, found = set(), [model.initial_state()], set()
    while todo:
        s = todo.pop()
        if s in seen:
            continue
        seen.add(s)
        for action in model.actions(s):
            if " discards " in action.text:
                found.add((action.player, action.text))
            todo.append(model.step(s, action)[0])
    return found


def test_the_discarder_chooses_unless_the_effect_names_another():
    """701.7b: B discards and B chooses (DC01); an effect letting its controller choose makes A choose (DC02);
    a random discard offers every card (DC03)."""
    assert {p for p, _ in _discard_deciders("DC01")} == {"B"}
    dc02 = _discard_deciders("DC02")
    assert {p for p, _ in dc02} == {"A"} and all("chosen by A" in t for _, t in dc02)
    dc03 = _discard_deciders("DC03")
    assert len(dc03) == 2 and all(t.endswith("at random") for _, t in dc03)
