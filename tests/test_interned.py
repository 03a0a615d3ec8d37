"""Interned records (model/record.py `interned`): one object per value, so that the hash can be the
identity. If any way of making a value missed the table, two equal zones would hash apart and the
search would store one position twice: these tests make values every way there is, and check the
zones of every state of real searches."""

from __future__ import annotations

import gc
import pickle
import sys
from pathlib import Path

import pytest

from dmcheck.explorer.bfs import explore
from dmcheck.model import record as records
from dmcheck.model.procedure import BreakModel
from dmcheck.model.record import Record, interned, interned_count, make, maker, record, replace, setter
from dmcheck.model.state import Zones

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import families  # noqa: E402


def test_every_way_of_making_a_value_gives_the_one_object():
    z = Zones(deck=(1, 2, 3), hand=(4,), links=((4, 5, "aura"),))
    assert Zones(deck=(1, 2, 3), hand=(4,), links=((4, 5, "aura"),)) is z
    assert replace(Zones(deck=(1, 2, 3)), hand=(4,), links=((4, 5, "aura"),)) is z
    assert setter(Zones, "hand")(replace(z, hand=()), (4,)) is z
    assert make(Zones, tuple(z)) is z and maker(Zones)(list(z)) is z
    assert pickle.loads(pickle.dumps(z)) is z
    assert z.remove("hand", 4).add("hand", 4) is z and z.move("hand", "mana", 4).move("mana", "hand", 4) is z
    moved = Zones(deck=(1, 2, 3), hand=(4,)).move("deck", "hand", 1)
    assert moved is Zones(deck=(2, 3), hand=(1, 4)) and moved is z.unlink(5).move("deck", "hand", 1)


def test_the_hash_is_the_identity_and_equal_values_share_it():
    a, b = Zones(hand=(1, 2)), Zones(hand=(2,)).add("hand", 1)
    assert a is b and hash(a) == hash(b) == object.__hash__(a)
    assert Zones(hand=(1,)) != a and Zones(hand=(1,)) < a   # ordered and compared by value, as before


def _table_of(cls) -> dict:
    return records._TABLES[cls]


def test_a_sweep_drops_only_the_values_nothing_else_holds(monkeypatch):
    monkeypatch.setattr(records, "SWEEP_FROM", 64)

    @interned
    @record
    class InternTestPile(Record):
        cards: tuple[int, ...] = ()

    try:
        kept = [InternTestPile(cards=(i,)) for i in range(40)]
        for i in range(40, 400):   # made and let go: the table doubles and is swept again and again
            InternTestPile(cards=(i,))
        gc.collect()
        assert interned_count(InternTestPile) < 200   # the let-go values went
        for i, old in enumerate(kept):   # the held ones are still the values' objects
            assert InternTestPile(cards=(i,)) is old
    finally:
        del records._MAKERS[InternTestPile], records._TABLES[InternTestPile]
        del records._NAMES["InternTestPile"]


def test_values_whose_hashes_collide_are_kept_apart(monkeypatch):
    @interned
    @record
    class InternTestCollide(Record):
        n: int = 0

    try:
        # -1 and -2 hash alike in CPython: so do (name, -1) and (name, -2)
        a, b = InternTestCollide(n=-1), InternTestCollide(n=-2)
        assert tuple.__hash__(a) == tuple.__hash__(b) and a is not b and a != b
        assert InternTestCollide(n=-1) is a and InternTestCollide(n=-2) is b
        assert isinstance(_table_of(InternTestCollide)[tuple.__hash__(a)], list)
    finally:
        del records._MAKERS[InternTestCollide], records._TABLES[InternTestCollide]
        del records._NAMES["InternTestCollide"]


@pytest.mark.parametrize("family,size", [("shield_check", 6), ("kakumeijin", 4), ("two_player", 8)])
def test_every_state_of_a_search_holds_interned_zones(family, size):
    model = BreakModel(getattr(families, family)(size))
    graph = explore(model)
    assert graph.complete and len(graph.states) > 100
    one = maker(Zones)
    for s in graph.states:
        for z in s.zones:
            assert one(tuple(z)) is z
