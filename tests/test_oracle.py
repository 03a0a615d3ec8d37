"""An independent oracle: where pending effects do not interact, the resolution orders the explorer
finds are exactly the topological sorts of their precedence graph (R509.4a-b: every turn-player
effect before every non-turn-player effect; any order within a player)."""

from __future__ import annotations

import networkx as nx
from conftest import DATA

from dmcheck.explorer.bfs import explore
from dmcheck.model.cards import CardPool
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario import PlayerSetup, Scenario

TP = ["TP Watcher A/draw", "TP Watcher B/draw", "TP Watcher C/draw"]
NTP = ["NTP Watcher A/shield", "NTP Watcher B/shield"]


def _orders(graph) -> set[tuple[str, ...]]:
    """The order of the watchers' resolve events along every complete path (the graph is a DAG)."""
    found: set[tuple[str, ...]] = set()
    stack = [(0, ())]
    while stack:
        node, order = stack.pop()
        if graph.is_terminal(node):
            found.add(order)
            continue
        for _, succ, events in graph.successors(node):
            extra = tuple(e.get("ability") for e in events if e.kind == "resolve"
                          and e.get("ability") in TP + NTP)
            stack.append((succ, order + extra))
    return found


def test_resolution_orders_equal_topological_sorts():
    pool = CardPool.builtin()
    pool.add_file(DATA / "cards" / "independent.yaml")
    scenario = Scenario(
        name="independent watchers", turn="A", pool=pool, attacker="kakumeijin", attacker_index=0, defender="B",
        players={"A": PlayerSetup(battle=("kakumeijin", "tp_a", "tp_b", "tp_c"), hand=("boil_charger",),
                                  mana=("vanilla",) * 3),
                 "B": PlayerSetup(battle=("ntp_a", "ntp_b"), shields=("vanilla",))})
    graph = explore(BreakModel(scenario))
    assert graph.complete
    precedence = nx.DiGraph()
    precedence.add_nodes_from(TP + NTP)
    precedence.add_edges_from((t, n) for t in TP for n in NTP)
    expected = {tuple(order) for order in nx.all_topological_sorts(precedence)}
    orders = _orders(graph) - {()}  # () is the path where the before-break casts nothing
    assert len(expected) == 12
    assert orders == expected
