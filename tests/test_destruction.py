"""Destruction as S003 defines it: the attempt and the result, what counts, and the 2022-04-08 change."""

from __future__ import annotations

import datetime as dt

from conftest import DATA

from dmcheck.explorer.bfs import explore
from dmcheck.model.cards import CardPool
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario import PlayerSetup, Scenario

BEFORE_2022 = dt.date(2022, 1, 1)


def _events(graph):
    for node in graph.terminals:
        yield node, graph.trace(node).events()


def test_every_destroyed_follows_its_destroy_attempt(ruling):
    # R701.6a-b: a card reaches the graveyard as the result of an attempt on that very card, made
    # earlier and not yet used up; a card attached to it (an aura, a seal, a card under an evolution)
    # is destroyed with it, in the events right after its host's `destroyed`.
    destroyed_some = set()
    for prefix in ("Q11a", "Q11b", "Q12a", "Q13", "Q14"):
        _, _, graph = ruling(prefix)
        for _, events in _events(graph):
            attempted: set[str] = set()
            host = None   # the attempted card whose `destroyed` the following ones go with
            for e in events:
                if e.kind == "destroy":
                    attempted.add(e.get("card"))
                if e.kind != "destroyed":
                    host = None
                    continue
                card = e.get("card")
                if card in attempted:
                    attempted.discard(card)
                    host = card
                else:
                    assert host is not None, (prefix, f"{card} destroyed without an attempt on it or its host")
                destroyed_some.add(prefix)
    # each of these rulings destroys something in some ending, so the loop above checked something;
    # Q13 destroys nothing (its ruling: EX Life always takes the destruction), only attempts
    assert destroyed_some == {"Q11a", "Q11b", "Q12a", "Q14"}, destroyed_some


def test_aura_is_not_destroyed_before_2022(ruling):
    # S003: before 2022-04-08 only creatures were destroyed; the aura just goes to the graveyard
    _, _, graph = ruling("Q12a", rules=BEFORE_2022)
    for _, events in _events(graph):
        assert not any(e.kind == "destroyed" and e.get("card") == "Code:1059" for e in events)
        assert not any(e.kind == "trigger" and "dragon_destroyed" in e.get("ability") for e in events)
    _, _, graph = ruling("Q12a")
    assert any(e.kind == "destroyed" and e.get("card") == "Code:1059" for _, ev in _events(graph) for e in ev)


def test_cannot_be_destroyed_keeps_the_card_but_the_attempt_happens():
    pool = CardPool.builtin()
    pool.add_file(DATA / "cards" / "sturdy.yaml")
    scenario = Scenario(name="sturdy", turn="A", pool=pool, attacker="jolly", attacker_index=0, defender="B",
                        players={"A": PlayerSetup(battle=("jolly",)),
                                 "B": PlayerSetup(battle=("sturdy",), shields=("vanilla",))})
    graph = explore(BreakModel(scenario))
    for node, events in _events(graph):
        kinds = [(e.kind, e.get("card")) for e in events]
        assert ("destroy", "Sturdy Wall") in kinds          # R701.6a: the attempt
        assert ("destroyed", "Sturdy Wall") not in kinds    # it does not leave
        assert graph.state(node).zone("B").battle
