"""The abyss zone (410) and sending a card to the abyss (701.33; model/instructions/abyss.py). Expected values
come from the rule text of the comprehensive rules Ver.1.48 (2025-12-17, S340), not from the program's output."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT

from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.expectations import check

ATTACK = ROOT / "scenarios" / "attack"
CARDS = [ATTACK / "cards" / name for name in ("abyss.yaml", "gr.yaml", "psychic.yaml")]
SCENARIOS = sorted(ATTACK.glob("AY*.yaml"))


def _graph(path: Path):
    from dmcheck.explorer.bfs import explore
    scenario = load_scenario(path)
    m = BreakModel(scenario)
    graph = explore(m)
    assert graph.complete
    return scenario, m, graph


def _write(tmp_path: Path, players: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    cards = ", ".join(c.as_posix() for c in CARDS)
    path.write_text(f"name: x\ncards: [{cards}]\nturn: A\nplayers:\n{players}"
                    f"attack: {{attacker: Abyss Probe, player: B}}\nexpect:\n  - sometimes: {{shields_broken: 1}}\n",
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_abyss_scenario_holds(path):
    assert len(SCENARIOS) >= 2
    scenario, _, graph = _graph(path)
    assert {check(graph, item).verdict for item in scenario.expect} == {"holds"}


def test_a_card_in_the_abyss_never_leaves_it_not_even_for_its_home_zone(tmp_path):
    # 410.4: a card in the abyss zone moves to no other zone for the rest of the game, psychic and GR creatures
    # included (they do not go back to the hyperspatial or the super GR zone, 117.1, 118.1); the opponent's
    # creature Abyss Probe sends there joins them
    path = _write(tmp_path, "  A:\n    battle: [Abyss Probe]\n    abyss: [GR Probe, Psychic Probe]\n"
                            "  B:\n    battle: [GR Probe]\n    shields: 1\n")
    _, m, graph = _graph(path)
    names = {c: m.label(c) for c in range(len(m.instances))}
    for s in graph.states:
        assert sorted(names[c] for c in s.zone("A").abyss) == ["GR Probe#1", "Psychic Probe"]
        assert not s.zone("A").super_gr and not s.zone("A").hyperspatial
    ends = {tuple(names[c] for c in s.zone("B").abyss) for s in graph.states if s.over}
    assert ends == {(), ("GR Probe#2",)}   # up to one: sent (701.33a) or not, never back to B's super GR zone


def test_the_abyss_zone_keeps_no_order():
    # 410.3: its owner arranges his abyss zone at will, so the order cards arrived in is not kept (two orders of
    # the same cards are one position); the field is declared `Sorted`, which the symmetry renames and re-sorts
    from typing import get_type_hints

    from dmcheck.model.state import SORTED, Zones
    assert Zones(abyss=(5,)).add("abyss", 3).abyss == (3, 5)
    z = Zones(hand=(3,), abyss=(5,)).move("hand", "abyss", 3)
    assert z.abyss == (3, 5) and z.hand == () and z.where(3) == "abyss"
    assert SORTED in get_type_hints(Zones, include_extras=True)["abyss"].__metadata__
