"""The explore command end to end: exit codes, the shortest counterexample, JSON, limits and replay."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from conftest import DATA, ROOT, RULINGS, scenario_output

from dmcheck.main import main


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.slow
def test_all_rulings_exit_zero():
    code, out, _ = run("explore", *map(str, RULINGS))
    assert code == 0
    assert "FAIL" not in out and out.count("ok  ") >= 30


def test_wrong_expectation_exits_1_with_shortest_trace():
    code, out, _ = run("explore", str(DATA / "wrong_expectation.yaml"))
    assert code == 1
    assert "FAIL always: {shields_broken: 1}" in out
    # the shortest complete trace: choose shields, then each before-break resolves and casts nothing
    # (5 decisions); both chosen shields break at the end (R509.4, R603.7a)
    trace = out[out.index("shortest trace:"):]
    steps = [line for line in trace.splitlines() if line.strip()[:2].rstrip(".").isdigit()]
    assert len(steps) == 5
    assert trace.count("is broken by Kakumeijin") == 2
    code, out, _ = run("explore", str(DATA / "wrong_expectation.yaml"), "--json")
    report = scenario_output(out)
    (item,) = report["expectations"]
    assert item["holds"] is False and item["verdict"] == "violated"
    assert [e["event"] for e in item["trace"]].count("break") == 2
    assert len(item["replay"].split("/")) == 5


def test_json_has_the_format_fields():
    code, out, _ = run("explore", str(RULINGS[0]), "--json")
    report = scenario_output(out)
    for key in ("scenario", "complete", "states", "transitions", "outcomes", "expectations"):
        assert key in report
    assert report["complete"] is True
    assert sum(o["count"] for o in report["outcomes"]) >= 1
    for outcome in report["outcomes"]:
        for key in ("winner", "attack_stopped", "turn_skipped", "shields_broken", "shields", "hand", "battle",
                    "graveyard", "mana", "deck_bottom", "uses", "count"):
            assert key in outcome


def test_limit_hit_is_incomplete_and_exits_3():
    q05 = next(p for p in RULINGS if p.name.startswith("Q05"))
    code, out, _ = run("explore", str(q05), "--max-states", "20", "--json")
    report = scenario_output(out)
    assert code == 3
    assert report["complete"] is False and "state limit" in report["reason"]
    # nothing that needs every path may be reported as holding
    assert all(not e["holds"] for e in report["expectations"]
               if next(iter(e["expect"])) in ("never_order", "always", "never"))


def test_replay_reproduces_an_outcome():
    q06 = next(p for p in RULINGS if p.name.startswith("Q06"))
    code, out, _ = run("explore", str(q06), "--json")
    bounced = next(o for o in scenario_output(out)["outcomes"] if o["hand"]["A"] == ["Kakumeijin"])
    code, out, _ = run("explore", str(q06), "--replay", bounced["trace_key"])
    assert code == 0
    assert "Winter Spiral" in out and "A hand: Kakumeijin" in out.split("terminal:")[1]
    code, _, err = run("explore", str(q06), "--replay", "0/9")
    assert code == 2 and "step 2: expected an action index below" in err


DUMP = """
import json, sys
from dmcheck.explorer.bfs import explore
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
out = []
for path in sys.argv[1:]:
    g = explore(BreakModel(load_scenario(path)))
    out.append({"states": [s.fingerprint() for s in g.states], "transitions": g.transitions,
                "traces": [g.trace(n).key() for n in g.terminals],
                "events": [[e.to_json() for e in g.trace(n).events()] for n in g.terminals]})
print(json.dumps(out))
"""


@pytest.mark.slow
def test_same_states_and_traces_under_any_hash_seed():
    results = []
    for seed in ("0", "1"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        proc = subprocess.run([sys.executable, "-c", DUMP, *map(str, RULINGS)], env=env, cwd=ROOT,
                              capture_output=True, text=True, check=True)
        results.append(json.loads(proc.stdout))
    assert results[0] == results[1]
    assert sum(len(r["states"]) for r in results[0]) > 100
