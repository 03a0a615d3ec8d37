"""A stopped search, check or verify reports what it found, honestly labelled (docs/limits.md): the
states stored, the frontier and depth, the outcomes found so far, the verdicts already decided with
their traces, and the names of what was not finished. Limits are set by state counts and deadlines
already passed, so that nothing here depends on the machine's speed."""

from __future__ import annotations

import io
import json
import time

from conftest import ROOT, output, scenario_output

from dmcheck.explorer.bfs import explore
from dmcheck.explorer.limits import Limits
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.builtin import BUILTIN
from dmcheck.properties.checker import check as check_properties

L8 = ROOT / "benchmarks" / "scenarios" / "kakumeijin_L8.yaml"


def run(*argv: str) -> tuple[int, str, str]:
    from dmcheck.main import main

    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_a_stopped_explore_reports_its_frontier_depth_and_outcomes_found_so_far():
    code, out, _ = run("explore", str(L8), "--max-states", "3000", "--json")
    entry = scenario_output(out)
    assert code == 3 and not entry["complete"] and "state limit 3000" in entry["reason"]
    assert entry["states"] == 3000 and entry["frontier"] > 0 and entry["depth"] > 0
    assert entry["outcomes_all"] is False and entry["outcomes"], "a stopped search still lists what it found"
    code, text, _ = run("explore", str(L8), "--max-states", "3000")
    assert "outcomes found so far, not all" in text and "states not expanded" in text


def test_a_stopped_search_decides_what_it_already_can():
    """Q09 cut short: a `sometimes` with a witness already found holds; a `never` without a
    counterexample yet is undecided, never 'holds'."""
    from dmcheck.properties.expectations import check

    scenario = load_scenario(ROOT / "scenarios" / "rulings" / "Q09_the_watch.yaml")
    full = explore(BreakModel(scenario), reduce=True)
    # the shallowest terminal state: a search that stores everything down to its depth has a witness
    first = min(full.terminals, key=lambda n: full.depth[n])
    cut = explore(BreakModel(scenario), Limits(max_states=first + 1), reduce=True)
    assert not cut.complete and cut.terminals
    verdicts = {item.kind: check(cut, item).verdict for item in scenario.expect}
    assert verdicts["never"] in ("inconclusive", "violated")
    for item in scenario.expect:
        v = check(cut, item)
        if v.verdict == "holds":
            assert item.kind in ("sometimes", "possible_order") and v.trace is not None


def test_properties_not_decided_by_the_deadline_are_inconclusive_with_what_was_checked():
    scenario = load_scenario(ROOT / "scenarios" / "rulings" / "Q05_texas_storm_s_trigger.yaml")
    graph = explore(BreakModel(scenario), reduce=True)
    result = check_properties(graph, BUILTIN, deadline=time.monotonic() - 1)
    assert result.verdicts and all(v.verdict == "inconclusive" for v in result.verdicts)
    assert all("before the time limit stopped the check" in v.reason for v in result.verdicts)
    whole = check_properties(graph, BUILTIN)
    assert not any("time limit" in v.reason for v in whole.verdicts)


def test_verify_past_its_deadline_names_every_ruling_and_phase_it_did_not_finish():
    from dmcheck.rulings.verify import verify

    report = verify(deadline=time.monotonic() - 1)
    assert not report.complete() and report.exit_code() == 3
    rulings = [s for s in report.corpus.statements if s.scenarios]
    assert report.operational.rulings == []
    assert sorted(n for n in report.not_finished if n.startswith("ruling ")) \
        == sorted(f"ruling {s.ref}" for s in rulings)
    for phase in ("best readings and operational contradictions (Z3)", "declarative consistency (Z3)", "conformance",
                  "rules properties"):
        assert phase in report.not_finished


def test_the_json_of_a_command_cut_by_its_budget_is_one_whole_document():
    """A budget too small for the search and its report: one valid JSON document, marked incomplete."""
    code, out, _ = run("explore", str(L8), "--max-seconds", "0.5", "--json")
    doc = output(out)
    assert code == 3
    entries = doc.get("scenarios", [])
    assert doc.get("complete") is False or (entries and entries[0]["complete"] is False)
    assert out.count('"schema_version"') == 1
    json.loads(out)
