"""What the defaults pay beyond the search itself (explorer/reduction.py, explorer/bfs.py): the
reduction's test is worked out once per tuple of actions, the visibility test's steps are not made
twice, and the symmetry is not weighed where no card is interchangeable. Toy models (no game), and
the benchmark families where these costs showed."""

from __future__ import annotations

import sys

from conftest import ROOT

from dmcheck.explorer.bfs import SYMMETRY_SAMPLE, explore
from dmcheck.explorer.limits import Limits
from dmcheck.explorer.reduction import Reducer
from dmcheck.model.procedure import BreakModel

sys.path.insert(0, str(ROOT / "benchmarks"))
import families  # noqa: E402


class Pending:
    """k commuting effects resolved in any order: a state is the set of those resolved."""

    def __init__(self, k: int):
        self.k = k
        self.independent_calls = 0
        self.steps = 0

    def initial_state(self):
        return frozenset()

    def actions(self, s):
        return tuple(("resolve", i) for i in range(self.k) if i not in s)

    def step(self, s, a):
        self.steps += 1
        return s | {a[1]}, (a,)

    def is_order(self, a):
        return a[0] == "resolve"

    def simple(self, a):
        return True

    def independent(self, a, b):
        self.independent_calls += 1
        return True


def test_the_reduction_asks_the_model_once_per_tuple_of_actions():
    model = Pending(8)
    reducer = Reducer(model)
    actions = model.actions(frozenset())
    assert reducer.candidate(actions) == 0
    asked = model.independent_calls
    assert asked > 0
    for _ in range(5):
        assert reducer.candidate(actions) == 0
        assert reducer.candidate(list(actions)) == 0      # a list of the same actions: the same answer
    assert model.independent_calls == asked


def test_actions_that_cannot_be_hashed_are_asked_every_time():
    model = Pending(3)
    reducer = Reducer(model)
    actions = [["resolve", 0], ["resolve", 1]]
    model.is_order = lambda a: a[0] == "resolve"          # lists: unhashable
    assert reducer.candidate(actions) == 0 and reducer.candidate(actions) == 0
    assert model.independent_calls == 2


def test_the_reduced_search_keeps_one_order_and_steps_each_kept_action_once():
    model = Pending(6)
    reduced = explore(model, reduce=True)
    assert len(reduced.parent) == 7 and model.steps == 6          # a chain: one order of six effects
    # with an observer (C2), every alternative is stepped once to be compared, and the one kept is
    # not stepped again: 6 + 5 + ... + 1 steps
    model = Pending(6)
    observed = explore(model, reduce=True, observe=lambda pre, action, events, post: "same")
    assert len(observed.parent) == 7 and model.steps == 21
    # an observer that tells the effects apart prunes nothing; each step is still made once
    model = Pending(4)
    full = explore(model, reduce=True, observe=lambda pre, action, events, post: action)
    assert len(full.parent) == 16 and model.steps == full.transitions


class Cells:
    """A walk right or up on an N x N grid (as tests/test_symmetry_weigh.py), with a canonical form that
    counts its calls and an `interchangeable` hook."""

    def __init__(self, interchangeable: bool):
        self.calls = 0
        self._interchangeable = interchangeable

    def initial_state(self):
        return (0, 0)

    def actions(self, s):
        return () if max(s) >= 120 else ("right", "up")

    def step(self, s, a):
        i, j = s
        return ((i + 1, j) if a == "right" else (i, j + 1)), ()

    def canonical(self, s):
        self.calls += 1
        return s if s[0] <= s[1] else (s[1], s[0])

    def interchangeable(self):
        return self._interchangeable


def test_no_interchangeable_cards_no_sample_of_the_symmetry():
    quiet = Cells(interchangeable=False)
    result = explore(quiet, Limits(max_states=10 ** 6), reduce=True)
    assert result.transitions > 4 * SYMMETRY_SAMPLE
    assert quiet.calls == 0 and result.symmetry is None and result.record.symmetry == "unused"
    loud = Cells(interchangeable=True)
    kept = explore(loud, Limits(max_states=10 ** 6), reduce=True)
    assert loud.calls > 0 and kept.record.symmetry == "kept" and len(kept.parent) < len(result.parent)


def test_the_shield_check_family_has_no_interchangeable_card_and_kakumeijin_has():
    """Shield check: only the vanilla cards of B's deck and shields are alike, and they are inert
    (model/symmetry.py), so its sample is skipped (issue 39: its defaults cost 1.34x `--no-reduce`)."""
    assert not BreakModel(families.shield_check(8)).interchangeable()
    assert BreakModel(families.kakumeijin(6)).interchangeable()
    model = BreakModel(families.shield_check(6))
    calls = []
    model.canonical = lambda s: calls.append(s) or s
    result = explore(model, reduce=True)
    assert calls == [] and result.record.symmetry == "unused"
