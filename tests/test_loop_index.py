"""The loop check's index of positions (explorer/loops.py `PathIndex`) finds the loops the walk of
every path found before it: the same loops, the same entries and rounds, the same states stored.

The oracle is the earlier check, kept here: for each new state deep enough, walk the whole chain of
parents and compare positions. The models are toy graphs (no game) whose states carry a counter
that grows on some edges and that `position` drops, so positions come back both on a path (loops,
forced or not) and on other branches (the index's candidates that are not on the path)."""

from __future__ import annotations

import random

import pytest

import dmcheck.explorer.bfs as bfs
from dmcheck.explorer.limits import Limits


class _Walk:
    """The loop check before the index: every question walks the whole path."""

    def __init__(self, result, position, position_hash=None):
        self.result, self.position = result, position

    def add(self, node, h):
        pass

    def repeated(self, node, succ):
        key = self.position(succ)
        found = []
        n = node
        while n >= 0:
            if self.position(self.result.states[n]) == key:
                found.append(n)
            n = self.result.parent[n][0]
        return hash(key), ((found[0], found[-1]) if found else None)


class _Graph:
    """Places 0..n-1 with random edges; some edges add 1 to a counter (bookkeeping `position` drops),
    capped so the search ends; a place without edges is an end."""

    def __init__(self, seed: int, places: int, cap: int):
        rng = random.Random(seed)
        self.cap = cap
        self.edges = {p: [(rng.randrange(places), rng.random() < 0.4) for _ in range(rng.choice((0, 1, 1, 2, 3)))]
                      for p in range(places)}

    def initial_state(self):
        return (0, 0)

    def actions(self, s):
        return tuple(range(len(self.edges[s[0]])))

    def step(self, s, a):
        place, grows = self.edges[s[0]][a]
        return (place, min(self.cap, s[1] + grows)), ()

    def position(self, s):
        return s[0]

    def outcome(self, s):
        return {"place": s[0], "loop": False}


def _explore(model, index):
    saved = bfs.PathIndex
    bfs.PathIndex = index
    try:
        return bfs.explore(model, Limits(max_states=50_000, max_seconds=60))
    finally:
        bfs.PathIndex = saved


@pytest.mark.parametrize("seed", range(12))
def test_the_index_finds_the_loops_the_walk_found(seed, monkeypatch):
    monkeypatch.setattr(bfs, "LOOP_CHECK_DEPTH", 3)   # shallow toy graphs: look from depth 3 on
    model = _Graph(seed, places=6 + seed % 5, cap=40)
    walked = _explore(model, _Walk)
    indexed = _explore(model, bfs.PathIndex)
    assert indexed.states == walked.states and indexed.parent == walked.parent
    assert indexed.loops == walked.loops
    assert indexed.transitions == walked.transitions


def test_the_toy_graphs_have_loops_of_both_kinds_and_positions_off_the_path(monkeypatch):
    """The comparison above is not vacuous: loops are found, forced and not, and the index meets
    positions it has seen on other branches (candidates a walk then finds off the path)."""
    monkeypatch.setattr(bfs, "LOOP_CHECK_DEPTH", 3)
    made = []

    class Counting(bfs.PathIndex):
        def __init__(self, *args):
            super().__init__(*args)
            made.append(self)

    loops = []
    for seed in range(12):
        loops += _explore(_Graph(seed, places=6 + seed % 5, cap=40), Counting).loops
    assert {loop.forced for loop in loops} == {True, False}
    assert sum(p.walks for p in made) > 0


class _Colliding(_Graph):
    """A `position_hash` hook that gives many positions one hash (the places' parity): the index must
    compare the positions themselves before it reports a loop."""

    def position_hash(self, s):
        return s[0] % 2


@pytest.mark.parametrize("seed", range(6))
def test_a_position_hash_that_collides_finds_the_same_loops(seed, monkeypatch):
    monkeypatch.setattr(bfs, "LOOP_CHECK_DEPTH", 3)
    walked = _explore(_Graph(seed, places=6 + seed % 5, cap=40), _Walk)
    hashed = _explore(_Colliding(seed, places=6 + seed % 5, cap=40), bfs.PathIndex)
    assert hashed.states == walked.states and hashed.parent == walked.parent
    assert hashed.loops == walked.loops
