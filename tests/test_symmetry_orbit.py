"""The symmetry's orbits (model/symmetry.py `orbit`, explorer/bfs.py `_orbits_over`).

An orbit names every member of a ranked class of identical cards by one id. Two states that the
canonical form makes equal must have one orbit; then the number of orbits among the sample's states
bounds the symmetric search's states from below, and the weighing drops a symmetry that cannot save
enough without running the second search. Checked on every state of real searches, and on the
decision itself: with the orbit hook or without it, the same symmetry record and the same states.
"""

from __future__ import annotations

import sys

import pytest
from conftest import ROOT
from test_symmetry_weigh import Mirrored, Relabelled, plain_count  # the toy grids of the weighing's tests

from dmcheck.explorer.bfs import explore
from dmcheck.explorer.limits import Limits
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario

sys.path.insert(0, str(ROOT / "benchmarks"))
import families  # noqa: E402

CASES = [lambda: families.kakumeijin(5), lambda: families.kakumeijin(6),
         lambda: load_scenario(ROOT / "scenarios" / "rulings" / "Q09_the_watch.yaml")]


class NoOrbit(BreakModel):
    """The model as a search without the orbit hook sees it: the weighing runs the symmetric search."""

    orbit = None   # type: ignore[assignment]


@pytest.mark.parametrize("make", CASES)
def test_states_with_one_canonical_form_have_one_orbit(make):
    model = BreakModel(make())
    states = explore(model, Limits(max_states=20_000), reduce=True, symmetry=False).states
    orbit_of: dict = {}
    for s in states:
        form = model.canonical(s)
        assert orbit_of.setdefault(form, model.orbit(s)) == model.orbit(s)
    assert len(set(orbit_of.values())) <= len(orbit_of)


def test_an_orbit_forgets_which_twin_is_where():
    model = BreakModel(families.kakumeijin(5))
    states = explore(model, Limits(max_states=5_000), reduce=True, symmetry=False).states
    renamed = [s for s in states if model.canonical(s) != s]
    assert renamed, "the family has states the symmetry renames"
    for s in renamed[:50]:
        assert model.orbit(s) == model.orbit(model.canonical(s))
        assert model.orbit(s) != s   # members named by their class's first id


@pytest.mark.parametrize("size", [6, 7])
def test_the_orbits_decide_as_the_symmetric_search_does(size):
    """Kakumeijin renames nearly every state and merges none: dropped, told by the orbits alone."""
    with_orbit = explore(BreakModel(families.kakumeijin(size)), reduce=True)
    without = explore(NoOrbit(families.kakumeijin(size)), reduce=True)
    assert with_orbit.record.symmetry == without.record.symmetry == "dropped"
    assert with_orbit.states == without.states and with_orbit.edges == without.edges


def test_a_symmetry_that_merges_is_not_dropped_by_the_orbits():
    """A symmetry that saves enough is never dropped early: its orbits are few."""
    class MirroredOrbit(Mirrored):
        def orbit(self, s):
            return tuple(sorted(s))

    result = explore(MirroredOrbit(), Limits(max_states=10 ** 6), reduce=True)
    assert result.record.symmetry == "kept"


def test_a_symmetry_with_more_orbits_than_it_may_keep_is_dropped_without_its_search():
    """Every state its own orbit: the sample's states already tell that the symmetric search would store
    too many; only whether it renames anything is asked (one canonical form here)."""
    class RelabelledOrbit(Relabelled):
        def orbit(self, s):
            return s

    model = RelabelledOrbit()
    result = explore(model, Limits(max_states=10 ** 6), reduce=True)
    assert result.record.symmetry == "dropped" and len(result.parent) == plain_count()
    assert model.calls <= 2   # the symmetric search's initial state, and the first state `_renames` asks
