"""The open choices found in the seeds: each reading does what its sources say.

- old_rules_waiting: before 2023-04-19 S001 has the *triggered* abilities wait for the break; the
  project's first English digest of S001 has the before-break abilities themselves resolve after it.
- charger_cast_destination: Q02 counts a Charger spell cast by Kakumeijin in the mana zone; read
  literally, Kakumeijin's own clause sends it to the bottom of the deck; or its owner picks.
- castle_other_shield: S002 D2 forbids only a shield another castle already took; the model's
  default keeps the castle's other shield out of the shields chosen for the same break.
Also: the model looks a reading up only where the readings would act differently, so a run that
never meets the situation does not depend on the choice.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from conftest import DATA, ROOT

from dmcheck.explorer.bfs import explore
from dmcheck.model.procedure import BreakModel
from dmcheck.model.readings import CHOICES, choice_named
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.expectations import check

OLD = dt.date(2023, 1, 1)


def _graph(ruling, prefix, **kw):
    return ruling(prefix, **kw)[2]


def _kinds(graph, node):
    return [(e.kind, e.get("ability")) for e in graph.trace(node).events()]


def test_every_choice_has_readings_sources_and_a_default_with_why():
    assert {"nested_other_pending", "break_replacement_timing", "old_rules_waiting", "charger_cast_destination",
            "castle_other_shield"} <= {c.name for c in CHOICES}
    for c in CHOICES:
        assert len(c.readings) >= 2 and c.default in [r for r, _ in c.readings]
        assert all(len(why) > 20 for _, why in c.readings) and len(c.why_default) > 20


def test_old_rules_triggered_effects_wait_but_before_break_effects_do_not(ruling):
    # S001 (default): under the old rules Bolshack Rider's Mechraids still happen before the break,
    # the summoned creature's enter ability after it
    graph = _graph(ruling, "Q01", rules=OLD)
    for node in graph.terminals:
        kinds = _kinds(graph, node)
        breaks = [i for i, k in enumerate(kinds) if k[0] == "break"]
        mechraids = [i for i, k in enumerate(kinds) if k == ("resolve", "Bolshack Rider/before_break")]
        assert mechraids and breaks and max(mechraids) < min(breaks)


def test_digest_reading_puts_the_before_break_effects_after_the_break(ruling):
    # the digest's reading: the before-break abilities resolved after the shields broke, uninterrupted
    graph = _graph(ruling, "Q01", rules=OLD, readings={"old_rules_waiting": "before_break_effects"})
    seen = 0
    for node in graph.terminals:
        kinds = _kinds(graph, node)
        breaks = [i for i, k in enumerate(kinds) if k[0] == "break"]
        mechraids = [i for i, k in enumerate(kinds) if k == ("resolve", "Bolshack Rider/before_break")]
        enters = [i for i, k in enumerate(kinds) if k == ("resolve", "Armored Scout/enters")]
        assert len(mechraids) == 2 and max(breaks) < min(mechraids)
        # uninterrupted: no enter ability resolves between the two before-break effects
        assert not any(mechraids[0] < i < mechraids[1] for i in enters)
        seen += bool(enters)
    assert seen
    # the reading changes nothing under the rules since 2023-04-19
    new_a = _graph(ruling, "Q01")
    new_b = _graph(ruling, "Q01", readings={"old_rules_waiting": "before_break_effects"})
    assert len(new_a.states) == len(new_b.states) and new_a.transitions == new_b.transitions


def test_charger_readings_on_q02(ruling):
    # Q02 counts Boil Charger in the mana zone (default); read literally, Kakumeijin sends it under the deck
    scenario, _, graph = ruling("Q02", readings={"charger_cast_destination": "cast_destination"})
    outcomes = [o for o, _, _ in graph.outcomes()]
    assert all(len(o["mana"]["A"]) == 3 for o in outcomes)
    assert any("Boil Charger" in o["deck_bottom"]["A"] for o in outcomes)
    assert not all(check(graph, e).holds for e in scenario.expect)
    # the owner choosing: both places are possible, and Q02 holds
    scenario, _, graph = ruling("Q02", readings={"charger_cast_destination": "owner_chooses"})
    outcomes = [o for o, _, _ in graph.outcomes()]
    assert any(len(o["mana"]["A"]) == 4 for o in outcomes)
    assert any("Boil Charger" in o["deck_bottom"]["A"] for o in outcomes)
    assert all(check(graph, e).holds for e in scenario.expect)


def test_castle_may_take_a_chosen_shield_only_under_not_used():
    scenario = load_scenario(DATA / "rulings" / "castle_takes_chosen.yaml")
    # a T-breaker chose all three shields: under unchosen_only there is no other shield for the castle to take
    sc = dataclasses.replace(scenario, readings={"castle_other_shield": "unchosen_only"})
    graph = explore(BreakModel(sc))
    assert {o["shields_broken"] for o, _, _ in graph.outcomes()} == {3}
    # by default (S164, S002 D2: only a shield another castle used is forbidden) the castle takes a chosen
    # shield, which goes to the hand instead of being broken, and the fortified shield stays
    assert choice_named("castle_other_shield").default == "not_used"
    graph = explore(BreakModel(scenario))
    saved = [o for o, _, _ in graph.outcomes() if o["shields_broken"] == 1]
    assert saved and all(o["shields"]["B"] == 1 and len(o["hand"]["B"]) + len(o["battle"]["B"]) == 2 for o in saved)
    assert any(o["shields_broken"] == 3 for o, _, _ in graph.outcomes())   # the castle is a "may"


class _Noting:
    """The model's readings, noting which choices the model looks up."""

    def __init__(self, inner):
        self.inner, self.names = inner, set()

    def get(self, name):
        self.names.add(name)
        return self.inner.get(name)


def _consulted(scenario):
    model = BreakModel(scenario)
    model.readings = _Noting(model.readings)
    explore(model)
    return model.readings.names


def test_readings_are_looked_up_only_where_they_matter(ruling):
    q01, _, _ = ruling("Q01")
    # no replacement, no nested break, no Charger spell; the attacker's before-break ability (S166)
    assert _consulted(q01) == {"before_break_order"}
    q11d, _, _ = ruling("Q11d")
    assert _consulted(q11d) == {"break_replacement_timing", "before_break_order"}
    q02, _, _ = ruling("Q02")
    assert _consulted(q02) == {"charger_cast_destination", "before_break_order"}
    a09 = dataclasses.replace(load_scenario(ROOT / "scenarios" / "attack" / "A09_block_dai_league.yaml"))
    assert _consulted(a09) == set()                 # no before-break ability, no replacement
    assert "old_rules_waiting" in _consulted(dataclasses.replace(q01, rules=OLD))
    assert choice_named("old_rules_waiting").default == "triggered_effects"
