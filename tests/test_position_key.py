"""The cheaper hash of a position (model/position_key.py): two states with one position (procedure.py
`position`: the counts of resolutions dropped, spells cast capped at two) always hash equal, on every
state of searches that find loops and of a deep benchmark; the loops found are those `hash(position)`
finds."""

from __future__ import annotations

import sys

import pytest
from conftest import ROOT

from dmcheck.explorer.bfs import explore
from dmcheck.explorer.limits import Limits
from dmcheck.model.position_key import position_hash
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.model.state import replace

sys.path.insert(0, str(ROOT / "benchmarks"))
import families  # noqa: E402

LOOPING = ["attack/A27_forced_loop.yaml", "attack/LP01_power_zero_that_stays_loops.yaml"]


def _states(model):
    return explore(model, Limits(max_states=30_000), reduce=True).states


@pytest.mark.parametrize("scenario", LOOPING)
def test_states_with_one_position_hash_equal(scenario):
    model = BreakModel(load_scenario(ROOT / "scenarios" / scenario))
    by_position: dict = {}
    for s in _states(model):
        assert by_position.setdefault(model.position(s), position_hash(s)) == position_hash(s)


def test_the_counts_a_position_drops_change_no_hash():
    model = BreakModel(families.kakumeijin(5))
    states = [s for s in _states(model) if s.uses]
    assert states
    for s in states[:200]:
        more = replace(s, uses=s.uses + (("Another/ability", 3),), spells_cast=(s.spells_cast[0] + 3, 4))
        capped = replace(s, spells_cast=(s.spells_cast[0] + 5, 7))
        assert model.position(more) == model.position(capped)
        assert position_hash(more) == position_hash(capped)
        assert model.position(more) != model.position(s) or position_hash(more) == position_hash(s)


@pytest.mark.parametrize("scenario", LOOPING)
def test_the_loops_found_with_the_cheaper_hash_are_the_loops_found_without(scenario):
    class Plain(BreakModel):
        position_hash = None   # type: ignore[assignment]  # the explorer hashes `position` itself

    made = load_scenario(ROOT / "scenarios" / scenario)
    cheap, plain = explore(BreakModel(made), reduce=True), explore(Plain(made), reduce=True)
    assert cheap.loops and cheap.loops == plain.loops
    assert cheap.states == plain.states and cheap.parent == plain.parent
