"""The symmetry pays for itself (explorer/bfs.py `_weigh`): the search runs a sample of transitions
without it, then brings a search with it to the same depth, and keeps the symmetry only if it stored
at most 1 - SYMMETRY_MIN_SAVED of the states there; otherwise the search without it goes on (a
symmetry that renamed nothing is 'unused', one that saved too little 'dropped').
Toy models (the explorer knows no game): a walk on a grid of N x N cells, one step right or up, that
ends on the far edge."""

from __future__ import annotations

from dmcheck.explorer.bfs import SYMMETRY_SAMPLE, explore
from dmcheck.explorer.limits import Limits

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
    assert result.symmetry is not None and result.record.symmetry == "kept"
    # the cells with i <= j: half the inner ones and the diagonal, and one edge
    assert len(result.parent) == N * (N + 1) // 2 + N
    assert model.calls >= result.transitions   # it ran to the end


def test_a_symmetry_that_renames_but_never_merges_is_dropped_and_the_plain_search_goes_on():
    model = Relabelled()
    result = explore(model, Limits(max_states=10 ** 6), reduce=True)
    assert result.symmetry is None and result.complete and result.record.symmetry == "dropped"
    assert len(result.parent) == plain_count()
    # the search with it went only as deep as the sample: the rest asks no canonical form
    assert 0 < model.calls <= SYMMETRY_SAMPLE + 2
    assert result.transitions == explore(Grid(), Limits(max_states=10 ** 6)).transitions   # not counted twice


def test_a_symmetry_that_renames_nothing_is_unused():
    model = Identity()
    result = explore(model, Limits(max_states=10 ** 6), reduce=True)
    assert result.symmetry is None and result.record.symmetry == "unused"
    assert len(result.parent) == plain_count()
    assert 0 < model.calls <= SYMMETRY_SAMPLE + 2


def test_a_search_shorter_than_the_sample_never_needs_the_symmetry():
    class Small(Mirrored):
        def actions(self, s):
            return () if max(s) >= 10 else ("right", "up")

    model = Small()
    result = explore(model, Limits(max_states=10 ** 6), reduce=True)
    assert result.transitions < SYMMETRY_SAMPLE
    assert model.calls == 0 and result.record.symmetry == "unused"


def test_weigh_false_keeps_the_symmetry_from_the_start():
    model = Relabelled()
    result = explore(model, Limits(max_states=10 ** 6), reduce=True, weigh=False)
    assert result.record.symmetry == "kept" and model.calls >= result.transitions


def test_a_trace_of_a_kept_symmetry_is_a_real_path_of_the_toy():
    """Stored states are as their parent links reach them: (i, j) with i > j stays as the steps made it."""
    result = explore(Mirrored(), Limits(max_states=10 ** 6), reduce=True)
    for node in result.terminals[:50]:
        assert result.state(node) == result._replay(result._path(node))[-1]
        assert len(result.trace(node).steps) == result.depth[node]


class Counted(Grid):
    """Counts the model's steps and action lists, per state."""

    def __init__(self):
        super().__init__()
        self.steps: dict = {}
        self.asked: dict = {}

    def actions(self, s):
        self.asked[s] = self.asked.get(s, 0) + 1
        return super().actions(s)

    def step(self, s, a):
        self.steps[s, a] = self.steps.get((s, a), 0) + 1
        return super().step(s, a)


class CountedMirrored(Counted, Mirrored):
    pass


class CountedRelabelled(Counted, Relabelled):
    pass


def test_the_weighing_asks_the_model_nothing_twice():
    """The search with the symmetry, brought to the sample's depth, expands only states the sample
    expanded: it reads their actions and steps there. Every step is then asked once however the
    symmetry is decided, and the graph is the one the model gives without any remembering."""
    for model, record in ((CountedMirrored(), "kept"), (CountedRelabelled(), "dropped")):
        result = explore(model, Limits(max_states=10 ** 6), reduce=True)
        assert result.record.symmetry == record
        assert max(model.steps.values()) == 1 and max(model.asked.values()) == 1
        fresh = explore(type(model)(), Limits(max_states=10 ** 6), reduce=True, weigh=False) if record == "kept" \
            else explore(Grid(), Limits(max_states=10 ** 6))
        assert result.states == fresh.states and result.edges == fresh.edges
