"""Each ruling Q01-Q10 is a scenario whose `expect` items come from the ruling's text: all must hold.

The second half checks the 2023-04-19 rule change (S001): under the older rules the effects that
before-break abilities trigger wait until after the break, so Q01, Q03 and Q09 come out differently.
"""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import RULINGS

from dmcheck.properties.expectations import check

OLD_RULES = dt.date(2023, 1, 1)


def test_every_ruling_Q01_to_Q10_has_a_scenario():
    ids = {p.name[:3] for p in RULINGS}
    assert {f"Q{n:02d}" for n in range(1, 11)} <= ids


@pytest.mark.parametrize("path", RULINGS, ids=[p.stem for p in RULINGS])
def test_ruling_expectations_hold(path, ruling):
    scenario, model, graph = ruling(path.stem)
    assert graph.complete
    assert scenario.expect, "a ruling scenario must say what the ruling expects"
    for item in scenario.expect:
        verdict = check(graph, item)
        assert verdict.verdict == "holds", (item.raw, verdict.reason,
                                            verdict.trace.lines() if verdict.trace else None)


def test_Q09_old_rules_break_before_the_watch_skips(ruling):
    # S001: before 2023-04-19 triggered effects waited until the shields were broken,
    # so The Watch could only skip the turn after both shields broke.
    _, model, graph = ruling("Q09", rules=OLD_RULES)
    skipped = [o for o, _, _ in graph.outcomes() if o["turn_skipped"]]
    assert skipped and all(o["shields_broken"] == 2 for o in skipped)


def test_Q01_old_rules_cip_resolves_after_the_break(ruling):
    # S001: before 2023-04-19 the Armored Scout's "enters" (triggered by a before-break) waited for the
    # break. Some ending must summon a Scout (the mechraids may put it into the battle zone), and in
    # every ending that resolves its "enters", each resolution comes after the last break.
    _, _, graph = ruling("Q01", rules=OLD_RULES)
    orders = []
    for node in graph.terminals:
        kinds = [(e.kind, e.get("ability")) for e in graph.trace(node).events()]
        resolves = [i for i, k in enumerate(kinds) if k == ("resolve", "Armored Scout/enters")]
        if resolves:
            breaks = [i for i, k in enumerate(kinds) if k[0] == "break"]
            assert breaks, kinds
            orders.append(min(resolves) > max(breaks))
    assert orders, "no ending of Q01 resolves an Armored Scout's cip: the test would check nothing"
    assert all(orders)


def test_Q03_old_rules_kobo_resolves_after_the_break(ruling):
    _, _, graph = ruling("Q03", rules=OLD_RULES)
    orders = []
    for node in graph.terminals:
        kinds = [(e.kind, e.get("ability")) for e in graph.trace(node).events()]
        if ("resolve", "Kobo Magical Shocker/first_spell") in kinds:
            orders.append(kinds.index(("resolve", "Kobo Magical Shocker/first_spell")) >
                          max(i for i, k in enumerate(kinds) if k[0] == "break"))
    assert orders and all(orders)


def test_Q04_ability_used_three_times_and_third_shield_possible(ruling):
    # Q04: the nested break "may" choose an already chosen shield; it may also choose the third one.
    _, _, graph = ruling("Q04")
    broken = {(o["shields_broken"], o["uses"].get("Kakumeijin/before_break")) for o, _, _ in graph.outcomes()}
    assert (2, 3) in broken and (3, 3) in broken
    assert all(n <= 3 for n, _ in broken)


def test_Q10_no_win_even_when_the_shield_zone_empties(ruling):
    _, _, graph = ruling("Q10")
    assert all(o["winner"] == "none" for o, _, _ in graph.outcomes())
    assert any(o["attack_stopped"] and o["shields"]["B"] == 0 for o, _, _ in graph.outcomes())
