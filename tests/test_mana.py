"""The mana zone (405; model/mana.py): a multicoloured card enters it tapped (405.1) and a tapped mana card
enters the battle zone untapped (400.5b). Expected values come from the rule text of the comprehensive rules
Ver.1.48 (2025-12-17, S340), not from the program's output."""

from __future__ import annotations

from conftest import ROOT

from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario

MZ01 = ROOT / "scenarios" / "attack" / "MZ01_multicoloured_card_enters_the_mana_zone_tapped.yaml"


def _ends():
    from dmcheck.explorer.bfs import explore
    m = BreakModel(load_scenario(MZ01))
    graph = explore(m)
    assert graph.complete
    return m, [s for s in graph.states if s.over]


def test_a_multicoloured_card_is_tapped_in_the_mana_zone_and_enters_the_battle_zone_untapped():
    m, ends = _ends()
    rainbow = next(c for c in range(len(m.instances)) if m.label(c) == "Rainbow Probe")
    mono = next(c for c in range(len(m.instances)) if m.label(c) == "Mono Probe")
    where = set()
    for s in ends:
        z = s.zone("A")
        where.add(z.where(rainbow))
        assert mono not in z.tapped   # 405.1: a mono-coloured card goes in untapped
        if rainbow in z.mana:
            assert rainbow in z.tapped   # 405.1: a multicoloured card goes in tapped
        if rainbow in z.battle:
            assert rainbow not in z.tapped   # 400.5b: the tapped mana card enters the battle zone untapped
    assert where == {"mana", "battle"}   # put into the battle zone from the mana zone, or left there
