"""The corpus agreement check's unreached pairs: an order the statements allow (the witness puts x before y)
that no run of the version shows, though a run shows both. Procedure milestones are asked; milestones
that happen wherever their cause happens (properties/milestones.py CAUSED) are not."""

from __future__ import annotations

from types import SimpleNamespace

from dmcheck.rulings.agreement import Agreement, _reachability
from dmcheck.rulings.consistency import Witness


def _run(*orders):
    """A stand-in for a run: its milestone orders, each a tuple of steps (tuples of milestones)."""
    paths = {tuple(tuple(step) for step in order): None for order in orders}
    return SimpleNamespace(orders=lambda: SimpleNamespace(paths=paths))


def _witness(points):
    return Witness(version="v", readings={}, points=points, active=("X@T",), mentions={"X@T": tuple(points)})


def test_a_procedure_order_the_model_never_shows_is_unreached():
    out = Agreement()
    # the statements allow the break before the shields are chosen; the run always chooses first
    _reachability(_witness({"break": (0, 0), "shields_chosen": (1, 1)}),
                  [_run([["shields_chosen"], ["break"]])], out)
    assert [(u.before, u.after) for u in out.unreached] == [("break", "shields_chosen")]


def test_a_caused_milestone_is_not_asked_for_every_order():
    out = Agreement()
    _reachability(_witness({"pile_left": (0, 0), "break": (1, 1)}),
                  [_run([["break"], ["pile_left"]])], out)
    assert out.unreached == [] and out.pairs_checked == 0
