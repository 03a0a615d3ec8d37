"""Protection until the end of the attack (card word `protect`; R506.1d as S105 renders it; scenario
A12d). Derived by hand: Block Guard Probe (3000) blocks Vanilla W-breaker (6000) and loses the battle
(R508); the destroy attempt happens (R701.6a) but the protection keeps it in the battle zone; the
protection ends at R510, so a destruction after the end of the attack would succeed."""

from __future__ import annotations

from conftest import ROOT, expectations_hold

from dmcheck.explorer.bfs import explore
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario

A12D = ROOT / "scenarios" / "attack" / "A12d_protected_until_end_of_attack.yaml"


def test_a12d_expectations_hold():
    expectations_hold(A12D)


def test_the_blocker_stays_and_the_protection_is_gone_at_the_end():
    graph = explore(BreakModel(load_scenario(A12D)))
    blocked = [graph.state(n) for n in graph.terminals if graph.state(n).blocked]
    assert blocked
    for s in blocked:
        probe = s.target   # the blocker became the creature the attack is on (R507)
        assert probe in s.zone("B").battle and probe not in s.zone("B").graveyard
        assert s.guards == ()


def test_without_the_protection_the_blocker_is_destroyed(tmp_path):
    """The same block by Hayabusamaru (a Blocker with no protection, power below 6000) ends with it destroyed."""
    text = A12D.read_text(encoding="utf-8").split("expect:")[0].replace("Block Guard Probe", "Hayabusamaru")
    path = tmp_path / "plain.yaml"
    path.write_text(text, encoding="utf-8")
    graph = explore(BreakModel(load_scenario(path)))
    blocked = [graph.state(n) for n in graph.terminals if graph.state(n).blocked]
    assert blocked
    for s in blocked:
        assert s.zone("B").battle == () and len(s.zone("B").graveyard) == 1
