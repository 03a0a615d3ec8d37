"""The break-replacement timing choice (S002 D2-D3 against S001/Q11) changes what the rulings say.

Both readings run on the Shield Saver scenarios; the expected differences are written from the
sources: under S001 every chosen shield gets its before-break and a Saver destroyed by a
before-break cannot protect; under S002 the replacements are decided first, so a saved shield gets
no before-break and the decided replacement still happens when the Saver is gone.
"""

from __future__ import annotations

from dmcheck.properties.expectations import check

AT_BREAK = {"break_replacement_timing": "at_break"}
BEFORE = {"break_replacement_timing": "before_triggers"}


def _outcomes(graph):
    return [o for o, _, _ in graph.outcomes()]


def test_default_reading_is_at_break(ruling):
    _, model, _ = ruling("Q11c")
    assert model.readings.get("break_replacement_timing") == "at_break"


def test_saver_destroyed_by_before_break(ruling):
    # S001: destroyed by Jolly's before-break, it cannot protect: both chosen shields break
    _, _, graph = ruling("Q11c", readings=AT_BREAK)
    assert all(o["shields_broken"] == 2 for o in _outcomes(graph))
    # S002: its replacement was decided at D2 and still happens: one shield is saved
    _, _, graph = ruling("Q11c", readings=BEFORE)
    assert any(o["shields_broken"] == 1 and "Bucket Bucket" in o["graveyard"]["B"] for o in _outcomes(graph))


def test_number_of_before_break_triggers(ruling):
    # S001: the Dragon W-breaker's shield addition happens for both chosen shields, saved or not
    _, _, graph = ruling("Q11d", readings=AT_BREAK)
    assert {o["uses"]["Kirazeus Savark/before_break"] for o in _outcomes(graph)} == {2}
    # S002 D3: a shield whose break is replaced gets no before-break trigger
    _, _, graph = ruling("Q11d", readings=BEFORE)
    saved = [o for o in _outcomes(graph) if o["shields_broken"] == 1]
    assert saved and all(o["uses"].get("Kirazeus Savark/before_break") == 1 and o["shields"]["A"] == 6 for o in saved)


def test_cannot_be_broken_still_gets_its_before_break_only_under_at_break(ruling):
    scenario, _, graph = ruling("Q11e", readings=AT_BREAK)
    assert all(check(graph, e).holds for e in scenario.expect)
    scenario, _, graph = ruling("Q11e", readings=BEFORE)
    assert {o["uses"]["Kirazeus Savark/before_break"] for o in _outcomes(graph)} == {1}


def test_readings_give_different_outcome_sets(ruling):
    for prefix in ("Q11c", "Q11d", "Q11e"):
        _, _, a = ruling(prefix, readings=AT_BREAK)
        _, _, b = ruling(prefix, readings=BEFORE)
        assert {repr(sorted(o.items())) for o in _outcomes(a)} != {repr(sorted(o.items())) for o in _outcomes(b)}
