"""The Python API (`import dmcheck`, dmcheck/api.py): what it returns agrees with the model it wraps,
replay keys lead where the graph says, and importing dmcheck loads none of it until asked."""

from __future__ import annotations

import doctest
import subprocess
import sys

import pytest
from conftest import ROOT

import dmcheck

Q09 = ROOT / "scenarios" / "rulings" / "Q09_the_watch.yaml"


@pytest.fixture(scope="module")
def q09():
    sc = dmcheck.load(Q09)
    return sc, dmcheck.explore(sc)


def test_load_gives_the_position_with_labels_and_the_rules_used():
    sc = dmcheck.load(Q09, rules="2023-01-01")
    assert sc.rules < "2023-04-19" and sc.name.startswith("Q09")
    assert sc.position["turn"] == "A" and sc.position["attack"] == {"attacker": "Kakumeijin", "player": "B"}
    # the file gives B two shields and The Watch in the battle zone
    assert len(sc.position["zones"]["B"]["shields"]) == 2 and sc.position["zones"]["B"]["battle"] == ["The Watch"]
    assert sc.cards["the_watch"]["name"] == "The Watch"


def test_outcomes_follow_the_scenarios_expectations(q09):
    _sc, graph = q09
    assert graph.complete and graph.search["reduction"] is False
    outcomes = [o.outcome for o in graph.outcomes()]
    # Q09: the skipped turn breaks nothing; otherwise both shields break
    assert {(o["turn_skipped"], o["shields_broken"]) for o in outcomes} == {(True, 0), (False, 2)}
    assert all(v.verdict == "holds" for v in graph.verdicts())


def test_every_outcome_key_replays_to_that_outcome(q09):
    sc, graph = q09
    for o in graph.outcomes():
        done = dmcheck.replay(sc, o.key)
        assert done.state.terminal and done.state.outcome == o.outcome and done.choices == ()
        assert done.state.fingerprint == graph.state(o.node).fingerprint


def test_walking_the_graph_gives_states_choices_and_events(q09):
    _sc, graph = q09
    seen_events = set()
    for node, state, edges in graph.walk():
        legal = graph.choices(node)
        assert [c.index for c, _ in edges] == [c.index for c in legal]    # unreduced: every choice followed
        assert state.terminal == (not legal)
        for _choice, succ in edges:
            assert graph.parent(succ)[0] <= node or graph.depth(succ) <= graph.depth(node) + 1
            steps = graph.trace(succ)
            assert len(steps) == graph.depth(succ)
            seen_events.update(e["event"] for s in steps for e in s.events)
    assert {"choose_shields", "trigger", "resolve", "skip_turn", "break"} <= seen_events


def test_choices_are_labelled_by_player_decision_and_cards(q09):
    sc, graph = q09
    first = graph.choices(0)
    assert len(first) == 1
    c = first[0]
    assert (c.player, c.kind, c.decision) == ("A", "choose_shields", "choose_shields")
    assert sorted(c.cards) == sorted(sc.position["zones"]["B"]["shields"])
    resolve = graph.choices(graph.successors(0)[0][1])[0]
    assert resolve.kind == "resolve" and resolve.what[0]["ability"] == "Kakumeijin/before_break"
    assert resolve.key == dmcheck.Choice(9, "A", "resolve", "resolve", resolve.what, (), "other words").key


def test_a_key_that_leaves_the_legal_choices_is_an_input_error_naming_the_step(q09):
    sc, _ = q09
    with pytest.raises(dmcheck.InputError) as caught:
        dmcheck.replay(sc, "0/5")
    assert "step 2" in str(caught.value) and "below 1" in str(caught.value)


def test_importing_dmcheck_loads_no_api_module_until_a_name_is_used():
    code = ("import sys, dmcheck; before = 'dmcheck.api' in sys.modules or 'dmcheck.model.procedure' in sys.modules; "
            "dmcheck.load; print(before, 'dmcheck.api' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.split() == ["False", "True"]
    with pytest.raises(AttributeError):
        _ = dmcheck.no_such_name


def test_the_api_page_examples_run(monkeypatch):
    """docs/api.md: every `>>>` example gives the output the page shows (run from the repository's root)."""
    monkeypatch.chdir(ROOT)
    failures, tried = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False,
                                       optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert tried >= 10 and failures == 0


def test_the_api_names_are_not_shadowed_by_the_command_modules():
    """`dmcheck.explore` is the function even once the command line (dmcheck.main) is imported: no
    module of the package is named like an API name (the explore command is dmcheck/commands/explore.py)."""
    import pkgutil

    import dmcheck.main

    modules = {m.name for m in pkgutil.iter_modules(dmcheck.__path__)}
    assert not modules & set(dmcheck.__all__)
    assert callable(dmcheck.explore) and dmcheck.explore.__module__ == "dmcheck.api"
