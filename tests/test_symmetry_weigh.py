"""The symmetry pays for itself (issue 12, explorer/bfs.py `weigh_symmetry`): after a sample of
transitions the search keeps the canonical form only if it merged enough; it turns it off where it
renamed nothing, and starts again without it where it renamed states but merged next to nothing.
Toy models (the explorer knows no game): a walk on a grid of N x N cells, one step right or up, that
ends on the far edge."""

from __future__ import annotations

from explorer.bfs import SYMMETRY_SAMPLE, explore
from explorer.limits import Limits

N = 120   # about 2 N^2 = 28,800 transitions: the sample is taken


class Grid:
    """(i, j): step right or up until either reaches N."""

    def __init__(self):
        self.calls = 0

    def initial_state(self):
        return (0, 0)

    def actions(self, s):
        return () if max(s) >= N else ("right", "up")

    def step(self, s, a):
        i, j = s
        return ((i + 1, j) if a == "right" else (i, j + 1)), ()


class Mirrored(Grid):
    """(i, j) and (j, i) are one state: the canonical form sorts them, about half the grid merges."""

    def canonical(self, s):
        self.calls += 1
        return s if s[0] <= s[1] else (s[1], s[0])


class Relabelled(Grid):
    """A canonical form that makes a new but equal object of every state: it renames (costs) and never
    merges anything."""

    def canonical(self, s):
        self.calls += 1
        return (s[0], s[1])   # a new tuple, equal to `s`


class Identity(Grid):
    """A canonical form that never renames (every class of identical cards inert, say)."""

    def canonical(self, s):
        self.calls += 1
        return s


def plain_count() -> int:
    return len(explore(Grid(), Limits(max_states=10 ** 6)).parent)


def test_the_toy_searches_are_big_enough_for_the_sample():
    result = explore(Grid(), Limits(max_states=10 ** 6))
    assert result.transitions > 4 * SYMMETRY_SAMPLE
    assert len(result.parent) == N * N + 2 * N   # the inner cells, then the edge cells i = N or j = N


def test_a_symmetry_that_merges_stays_on_and_keeps_merging():
    model = Mirrored()
    result = explore(model, Limits(max_states=10 ** 6), reduce=True)
    assert result.symmetry is not None
    # the cells with i <= j: half the inner ones and the diagonal, and one edge
    assert len(result.parent) == N * (N + 1) // 2 + N
    assert model.calls >= result.transitions   # it ran to the end


def test_a_symmetry_that_renames_but_never_merges_is_dropped_and_the_search_starts_again():
    model = Relabelled()
    result = explore(model, Limits(max_states=10 ** 6), reduce=True)
    assert result.symmetry is None and result.complete
    assert len(result.parent) == plain_count()
    # the sample, then nothing more: the second search asks no canonical form
    assert SYMMETRY_SAMPLE <= model.calls <= SYMMETRY_SAMPLE + 2


def test_a_symmetry_that_renames_nothing_is_turned_off_without_starting_again():
    model = Identity()
    result = explore(model, Limits(max_states=10 ** 6), reduce=True)
    assert result.symmetry is None
    assert len(result.parent) == plain_count()
    assert result.transitions == explore(Grid(), Limits(max_states=10 ** 6)).transitions   # not counted twice
    assert SYMMETRY_SAMPLE <= model.calls <= SYMMETRY_SAMPLE + 2


def test_a_trace_after_the_symmetry_was_dropped_replays_to_the_stored_state():
    result = explore(Relabelled(), Limits(max_states=10 ** 6), reduce=True)
    node = result.terminals[-1]
    assert result.state(node) == result._replay(result._path(node))[-1]
    assert len(result.trace(node).steps) == result.depth[node]
