"""`dmcheck conform` against engine doubles (tests/engines/): the correct one conforms; each one with a
seeded rules bug is caught with the shortest dmcheck trace that exposes it; a hanging, crashing or
garbage-speaking engine is a finding, another protocol version or a missing command bad input."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest
from conftest import ROOT, output

import dmcheck
from dmcheck.main import main

ENGINES = ROOT / "tests" / "engines"
FILES = [ROOT / "scenarios" / "rulings" / name for name in
         ("Q03_kobo.yaml", "Q06_winter_spiral.yaml", "Q09_the_watch.yaml", "SC2_declare_then_use_in_any_order.yaml")]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("bundle") / "bundle.json"
    code, _, err = run("export", *map(str, FILES), "--out", str(path), "--jobs", "1")
    assert code == 0, err
    return str(path)


def engine(name: str, bundle: str) -> str:
    return f"{sys.executable} {ENGINES / name}.py {bundle}"


def conform(name: str, bundle: str, *extra: str) -> tuple[int, dict]:
    code, out, err = run("conform", "--engine", engine(name, bundle), "--bundle", bundle, "--json", *extra)
    assert "Traceback" not in err
    return code, output(out)


def findings(doc: dict, scenario: str) -> list[dict]:
    entry = next(s for s in doc["scenarios"] if scenario in s["id"])
    return entry["findings"]


def test_the_correct_engine_conforms_everywhere(bundle):
    code, doc = conform("correct", bundle)
    data = dmcheck.read_bundle(bundle)
    assert code == 0 and doc["exit"] == 0
    for result, entry in zip(doc["scenarios"], data["scenarios"]):
        assert result["status"] == "conforms" and result["findings"] == []
        assert result["states_asked"] >= len(entry["nodes"])          # every state asked at least once
        terminals = sum(1 for n in entry["nodes"] if "outcome" in n)
        assert result["outcomes_compared"] >= terminals
        assert {"winner", "shields_broken", "shields"} <= set(result["outcome_keys"])


def test_the_turn_players_effects_first_r509_4a(bundle):
    code, doc = conform("tp_order", bundle)
    assert code == 1
    q09 = findings(doc, "Q09_the_watch")
    extra = next(f for f in q09 if f["kind"] == "extra_choice")
    assert extra["detail"]["engine_choice"]["player"] == "B"
    assert extra["detail"]["engine_choice"]["what"][0]["ability"] == "The Watch/skip_turn"
    # the trace leads to a state where both players' effects wait and the rules let only A's resolve
    sc = dmcheck.load(FILES[2])
    there = dmcheck.replay(sc, extra["replay"])
    assert {p["controller"] for p in there.state.pending} == {"A", "B"}
    assert {c.player for c in there.choices} == {"A"} and all(c.kind == "resolve" for c in there.choices)
    missing = next(f for f in q09 if f["kind"] == "missing_choice")
    assert missing["replay"].startswith(extra["replay"] + "/") and "Kakumeijin/before_break" in missing["message"]
    assert "Q09@S000" in extra["rulings"]
    # scenarios where one player's effects wait alone are not affected
    assert findings(doc, "Q03_kobo") == [] and findings(doc, "Q06_winter_spiral") == []


def test_a_break_cancelled_when_the_attacker_leaves_r509_4c(bundle):
    code, doc = conform("break_cancelled", bundle)
    assert code == 1
    q06 = findings(doc, "Q06_winter_spiral")
    assert [f["kind"] for f in q06] == ["forbidden_outcome"]
    f = q06[0]
    assert f["detail"]["engine"]["shields_broken"] == 0 and f["detail"]["rules"]["shields_broken"] == 2
    assert f["detail"]["legal_elsewhere"] is False
    # the trace is a path on which Winter Spiral returns the attacking Kakumeijin, and the shields still break
    done = dmcheck.replay(dmcheck.load(FILES[1]), f["replay"])
    events = [e for s in done.steps for e in s.events]
    left = next(i for i, e in enumerate(events) if e.get("card") == "Kakumeijin" and e.get("from") == "battle")
    assert any(e["event"] == "break" for e in events[left:])
    assert done.state.outcome["shields_broken"] == 2


def test_an_s_trigger_creatures_enter_ability_resolved_at_once_sc5(bundle):
    code, doc = conform("cip_at_once", bundle)
    assert code == 1
    sc2 = findings(doc, "SC2_declare_then_use")
    extra = next(f for f in sc2 if f["kind"] == "extra_choice")
    assert extra["detail"]["engine_choice"]["what"][0]["ability"] == "Aqua Surfer/enters"
    there = dmcheck.replay(dmcheck.load(FILES[3]), extra["replay"])
    # the rules: the shield check goes on (Terror Pit's S-Trigger is used) while Aqua Surfer's ability waits
    assert [p["ability"] for p in there.state.pending] == ["Aqua Surfer/enters"]
    assert [c.decision for c in there.choices] == ["use"]
    assert any(f["kind"] == "missing_choice" and "Terror Pit" in f["message"] for f in sc2)


def test_a_hanging_engine_times_out_as_a_finding(bundle):
    start = time.monotonic()
    code, doc = conform("hangs", bundle, "--timeout", "0.5", "--only", "*Q09*")
    assert time.monotonic() - start < 20
    assert code == 1
    [f] = findings(doc, "Q09_the_watch")
    assert f["kind"] == "timeout" and "0.5s" in f["message"]


def test_a_crashing_engine_is_a_finding_with_its_last_words(bundle):
    code, doc = conform("crashes", bundle, "--only", "*Q09*", "--only", "*Q06*")
    assert code == 1
    for scenario in ("Q09", "Q06"):
        [f] = findings(doc, scenario)
        assert f["kind"] == "crash" and "RuntimeError: engine bug" in f["message"]


def test_an_engine_answering_garbage_is_told_what_was_expected(bundle):
    code, doc = conform("garbage", bundle, "--only", "*Q09*")
    [f] = findings(doc, "Q09_the_watch")
    assert code == 1 and f["kind"] == "garbage" and "expected one JSON object per line" in f["message"]


@pytest.mark.parametrize("command, expected", [
    ("other_version", "expected protocol 'dmcheck-conform' version 1, got 'dmcheck-conform' version 2"),
    ("no_such_engine_anywhere", "does not start"),
])
def test_an_engine_that_does_not_start_or_speaks_another_version_is_bad_input(bundle, command, expected):
    cmd = engine(command, bundle) if (ENGINES / f"{command}.py").exists() else command
    code, _out, err = run("conform", "--engine", cmd, "--bundle", bundle)
    assert code == 2 and expected in err and "Traceback" not in err


def test_bad_bundles_and_flags_exit_2(tmp_path, bundle):
    other = tmp_path / "v2.json"
    other.write_text(json.dumps({"bundle_version": 2}))
    code, _, err = run("conform", "--engine", "x", "--bundle", str(other))
    assert code == 2 and "bundle_version: expected 1" in err
    code, _, err = run("conform", "--engine", "x", "--bundle", bundle, str(FILES[0]))
    assert code == 2 and "exactly one of" in err
    code, _, err = run("conform", "--engine", "x", "--bundle", bundle, "--timeout", "0")
    assert code == 2 and "--timeout" in err


def test_text_junit_sarif_and_the_exchange_log(bundle, tmp_path):
    junit, sarif, log = tmp_path / "c.xml", tmp_path / "c.sarif", tmp_path / "c.log"
    code, out, _err = run("conform", "--engine", engine("tp_order", bundle), "--bundle", bundle,
                         "--junit", str(junit), "--sarif", str(sarif), "--log", str(log))
    assert code == 1
    assert "EXTRA choice: the engine offers 'B resolves The Watch/skip_turn'" in out
    assert "dmcheck explore scenarios/rulings/Q09_the_watch.yaml --rules 2024-06-19 --replay" in out
    suite = ET.parse(junit).getroot()
    assert suite.get("tests") == "4" and suite.get("failures") == "1"
    results = json.loads(sarif.read_text())["runs"][0]["results"]
    assert {r["ruleId"] for r in results} == {"extra_choice", "missing_choice", "unreached_outcome"}
    assert all(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("Q09_the_watch.yaml")
               for r in results)
    lines = log.read_text().splitlines()
    assert json.loads(lines[0][2:]) == {"type": "hello", "protocol": "dmcheck-conform", "version": 1}
    assert lines[1].startswith("< ") and json.loads(lines[1][2:])["engine"] == "tp-order-bug"


def test_scenarios_given_directly_are_exported_first():
    code, out, _err = run("conform", "--engine", f"{sys.executable} {ENGINES / 'unsupported_all.py'}",
                         str(FILES[2]))
    assert code == 3 and "not run: the engine does not support it" in out


def test_the_example_exchange_of_the_docs_is_a_real_one(tmp_path):
    """docs/conform.md shows the --log of the correct engine on A26's bundle: run it again, same lines."""
    bundle = tmp_path / "a26.json"
    code, _, err = run("export", str(ROOT / "scenarios" / "attack" / "A26_not_blocked.yaml"), "--out", str(bundle))
    assert code == 0, err
    log = tmp_path / "a26.log"
    code, _, _ = run("conform", "--engine", engine("correct", str(bundle)), "--bundle", str(bundle), "--log", str(log))
    assert code == 0
    page = (ROOT / "docs" / "conform.md").read_text(encoding="utf-8")
    shown = page.split("### A full exchange", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    assert shown == log.read_text(encoding="utf-8")


def test_an_engine_naming_other_copies_in_another_order_conforms(tmp_path):
    """Interchangeable copies (a state's `copies`) and the order of a set-like choice's items do not matter."""
    bundle = tmp_path / "copies.json"
    files = [ROOT / "scenarios" / "rulings" / "answers" / "G17_breaker_must_be_used.yaml",
             ROOT / "scenarios" / "attack" / "A09_block_dai_league.yaml"]
    code, _, err = run("export", *map(str, files), "--out", str(bundle))
    assert code == 0, err
    data = dmcheck.read_bundle(str(bundle))
    assert any(n.get("copies") for e in data["scenarios"] for n in e["nodes"])   # the test means something
    code, doc = conform("other_copies", str(bundle))
    assert code == 0 and all(s["status"] == "conforms" for s in doc["scenarios"])


def test_an_engine_refusing_a_choice_it_offered_is_a_finding(bundle):
    code, doc = conform("refuses", bundle, "--only", "*Q09*")
    refused = [f for f in findings(doc, "Q09_the_watch") if f["kind"] == "refused_choice"]
    assert code == 1 and len(refused) == 1
    assert refused[0]["replay"] == "0/0" and "Kakumeijin/before_break" in refused[0]["message"]


@pytest.fixture(scope="module")
def corpus_bundle(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("corpus") / "corpus.json"
    code, _, err = run("export", "--corpus", "--out", str(path))
    assert code == 0, err
    return str(path)


@pytest.mark.slow
def test_the_correct_engine_conforms_on_every_run_of_the_corpus(corpus_bundle):
    """Every scenario run of `export --corpus`: every state asked, every outcome compared, no finding;
    and every state's choices are told apart by their data (else an engine could not answer them)."""
    from dmcheck.engines.identity import same_data

    data = dmcheck.read_bundle(corpus_bundle)
    from dmcheck.engines.bundle import name_of

    assert {e["file"] for e in data["scenarios"]} == {name_of(r.path) for r in dmcheck.corpus_runs()}
    for entry in data["scenarios"]:
        for n in entry["nodes"]:
            assert not same_data(n["choices"], n.get("copies", [])), (entry["id"], n["key"])
    code, doc = conform("correct", corpus_bundle)
    assert code == 0
    for result, entry in zip(doc["scenarios"], data["scenarios"], strict=True):
        assert result["status"] == "conforms", (entry["id"], result["findings"][:1])
        assert result["states_asked"] >= len(entry["nodes"])


@pytest.mark.slow
@pytest.mark.parametrize("name, scenario, kind", [
    ("tp_order", "rulings/Q09_the_watch.yaml", "extra_choice"),
    ("break_cancelled", "rulings/Q06_winter_spiral.yaml", "forbidden_outcome"),
    ("cip_at_once", "rulings/SC2_declare_then_use_in_any_order.yaml", "extra_choice"),
    ("other_copies", None, None),
])
def test_each_buggy_engine_is_still_caught_on_the_whole_corpus(corpus_bundle, name, scenario, kind):
    """The seeded bugs are found where the four-file bundle finds them, and the engine that only names
    other copies conforms on every run of the corpus."""
    code, doc = conform(name, corpus_bundle)
    if scenario is None:
        assert code == 0
        return
    assert code == 1
    found = {(s["file"], f["kind"]) for s in doc["scenarios"] for f in s["findings"]}
    assert (scenario, kind) in found


# ---- no engine process outlives conform ------------------------------------------------------------
def _alive(pid: int) -> bool:
    """Whether a process runs (a zombie waiting for its parent to collect it does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _pids(path) -> list[int]:
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def _all_ended(pids: list[int]) -> bool:
    deadline = time.monotonic() + 5       # SIGKILL is immediate; the reaping of an orphan may lag a little
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not any(_alive(p) for p in pids)


@pytest.fixture
def pids(tmp_path, monkeypatch):
    path = tmp_path / "pids"
    monkeypatch.setenv("DMCHECK_TEST_PIDS", str(path))
    yield path
    for pid in _pids(path):          # whatever the test found, leave nothing running
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def spawning(mode: str, bundle: str) -> str:
    return f"{sys.executable} {ENGINES / 'spawns.py'} {bundle} {mode}"


@pytest.mark.parametrize("mode, extra, kind", [
    ("none", (), None),                           # the normal end: bye, and the engine exits
    ("hang", ("--timeout", "0.5"), "timeout"),    # a hung engine: ended at its timeout
    ("crash", (), "crash"),                       # the engine dies; its helper would live on
])
def test_no_engine_process_outlives_conform(bundle, pids, mode, extra, kind):
    code, out, err = run("conform", "--engine", spawning(mode, bundle), "--bundle", bundle, "--json",
                         "--only", "*Q09*", "--only", "*Q06*", *extra)
    assert "Traceback" not in err
    doc = output(out)
    started = _pids(pids)
    assert len(started) == (2 if kind is None else 4)     # a failed run's engine is replaced by a fresh one
    assert _all_ended(started)
    found = [f["kind"] for s in doc["scenarios"] for f in s["findings"]]
    assert (code, found) == ((0, []) if kind is None else (1, [kind, kind]))


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_or_a_kill_ends_the_engine_too(bundle, pids, how):
    """`dmcheck conform` stopped while the engine hangs: it exits 130 at once, and the engine and its
    helper are gone."""
    proc = subprocess.Popen([sys.executable, "-m", "dmcheck", "conform", "--engine", spawning("hang", bundle),
                             "--bundle", bundle, "--timeout", "600", "--only", "*Q09*"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    deadline = time.monotonic() + 30
    while len(_pids(pids)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)                 # the engine has been asked its choices, and hangs
    started = time.monotonic()
    proc.send_signal(how)
    _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and time.monotonic() - started < 5, err
    assert "interrupted" in err and "Traceback" not in err
    assert len(_pids(pids)) == 2 and _all_ended(_pids(pids))


def test_a_scenario_budget_stops_a_slow_engine_and_restarts_it_for_the_next_run(bundle, pids):
    """Each answer comes within --timeout, but the run as a whole takes longer than its budget: a timeout
    finding naming --scenario-budget, within about the budget; the next run gets a fresh engine."""
    began = time.monotonic()
    code, out, _err = run("conform", "--engine", spawning("slow", bundle), "--bundle", bundle, "--json",
                          "--timeout", "5", "--scenario-budget", "0.6", "--only", "*Q09*", "--only", "*Q03*")
    assert time.monotonic() - began < 8
    doc = output(out)
    assert code == 1 and [s["status"] for s in doc["scenarios"]] == ["failed", "failed"]
    for s in doc["scenarios"]:
        [f] = s["findings"]
        assert f["kind"] == "timeout" and "--scenario-budget" in f["message"]
    started = _pids(pids)
    assert len(started) == 4 and _all_ended(started)


def test_maxfail_stops_after_that_many_failing_runs(bundle):
    code, doc = conform("crashes", bundle, "--maxfail", "2")
    assert code == 1 and len(doc["scenarios"]) == 2 and doc["complete"] is False
    assert "--maxfail 2" in doc["stopped"] and len(doc["not_finished"]) == 2
    ran = {s["id"] for s in doc["scenarios"]}
    assert ran.isdisjoint(doc["not_finished"])
    code, out, _err = run("conform", "--engine", engine("crashes", bundle), "--bundle", bundle, "--maxfail", "1")
    assert code == 1 and "stopped: --maxfail 1: stopped after 1 scenario runs with findings; not checked: 3" in out
