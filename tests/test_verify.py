"""`dmcheck verify` end to end: the S002-versus-S001 conflict with traces, users' rulings, exit codes.

The expectations come from the sources: S002 (D2-D3) decides break replacements before the
before-break abilities trigger, S001 (Q11) after their effects, so the two must be reported as a
minimal set naming both sources, declaratively and operationally, each with traces. A made-up
ruling that contradicts Q02 (Charger) and R603.7a is found when added and gone when removed; a
made-up ruling that agrees with the corpus adds no conflict.
"""

from __future__ import annotations

import io
import json

import pytest
from conftest import DATA, output

from dmcheck.main import main
from dmcheck.rulings.verify import verify

pytestmark = pytest.mark.slow   # every test here runs the whole corpus (tens of seconds each)

CONTRA = str(DATA / "rulings" / "contradicting.yaml")
AGREE = str(DATA / "rulings" / "agreeing.yaml")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def full():
    code, out, err = run("verify", "--json")
    return code, output(out)


def test_verify_json_has_the_issue_fields(full):
    code, report = full
    assert code == 1   # a contradiction is a finding
    for key in ("rulings", "contradictions", "readings", "properties", "summary"):
        assert key in report
    q09 = next(r for r in report["rulings"] if r["ref"] == "Q09@S000")
    assert q09["holds"] is True and q09["source"] == "S000" and q09["trace"] is None
    d3 = next(r for r in report["rulings"] if r["ref"] == "D3@S002")
    assert d3["holds"] is False and d3["trace"]["events"]
    for c in report["contradictions"]:
        assert c["kind"] in ("declarative", "operational")
        assert c["ids"] and c["sources"] and c["explanation"]
    assert report["summary"]["seconds"] >= 0   # speed is measured by benchmarks, not by a timed test


def test_s002_against_s001_is_reported_with_both_sources_and_traces(full):
    _, report = full
    both = [c for c in report["contradictions"] if {"S001", "S002"} <= set(c["sources"])]
    kinds = {c["kind"] for c in both}
    assert kinds == {"declarative", "operational"}
    operational = next(c for c in both if c["kind"] == "operational" and set(c["ids"]) == {"D3@S002", "Q11d@S001"})
    assert {t["ref"] for t in operational["traces"]} == {"D3@S002", "Q11d@S001"}
    for t in operational["traces"]:
        assert t["events"] and t["replay"]
    declarative = next(c for c in both if c["kind"] == "declarative" and set(c["ids"]) == {"D3@S002", "Q11f@S001"})
    assert declarative["set_aside_by_default"] == ["D3@S002"]
    # how it plays out: the model (S001's reading) decides the Saver after the before-break effect
    assert declarative["traces"] and declarative["traces"][0]["ref"] == "D3@S002"


def test_best_readings_and_properties_are_reported(full):
    _, report = full
    best = report["readings"]["best"]
    assert best and all(b["readings"]["break_replacement_timing"] == "at_break" for b in best)
    assert any(b["readings"] == report["readings"]["default"]["readings"] for b in best)
    names = {c["name"] for c in report["readings"]["choices"]}
    assert {"nested_other_pending", "break_replacement_timing", "charger_cast_destination"} <= names
    assert report["properties"] and all(p["violated"] == 0 for p in report["properties"])
    assert report["summary"]["properties"]["holds"] > 100


def test_text_output_summary_first():
    code, out, _ = run("verify", "--summary")
    lines = out.splitlines()
    assert code == 1 and lines[0].startswith("dmcheck verify:")
    assert len(lines) < 25 and lines[-1].startswith("result:")
    assert any("D3@S002 + Q11d@S001" in line for line in lines)


@pytest.fixture(scope="module")
def baseline():
    return verify(properties=False)


def _conflicts(report) -> set[tuple[str, ...]]:
    return {c.refs for c in report.declarative.conflicts} | {c.refs for c in report.operational.conflicts}


def test_a_contradicting_ruling_is_found_and_removing_it_clears_it(baseline):
    with_it = verify([CONTRA], properties=False)
    added = _conflicts(with_it) - _conflicts(baseline)
    # X1 (the spell goes under the deck) holds only where Q02 (Charger: mana 4) fails
    assert ("Q02@S000", "X1@TEST") in {c.refs for c in with_it.operational.conflicts}
    # X2 (the triggered effects wait for the break) against R603.7a of both sources
    assert ("R603.7a@S000", "X2@TEST") in {c.refs for c in with_it.declarative.conflicts}
    assert all(any(r.endswith("@TEST") for r in refs) for refs in added)
    assert with_it.exit_code() == 1
    # the model does not follow X2 either: the corpus agreement check shows traces breaking it
    assert any(v.statement.ref == "X2@TEST" for v in with_it.agreement.violations)
    assert not any(r.endswith("@TEST") for refs in _conflicts(baseline) for r in refs)


def test_rulings_that_agree_add_no_conflict(baseline):
    with_them = verify([AGREE], properties=False)
    # they agree with what the default readings follow: a set they add can only pit them against a voice the
    # defaults set aside (A2, Q06's situation, against MB01@S166's 2017 order, as Q06 is)
    from dmcheck.model.readings import CHOICES
    aside = {r for c in CHOICES for r in c.set_aside(c.default)}
    added = _conflicts(with_them) - _conflicts(baseline)
    assert all(set(refs) & aside for refs in added)
    assert _conflicts(baseline) <= _conflicts(with_them)
    assert with_them.operational.default("A1@TEST").holds and with_them.operational.default("A2@TEST").holds
    assert not [v for v in with_them.agreement.violations if v.statement.ref.endswith("@TEST")]


def test_rules_option_runs_everything_under_one_version():
    code, out, _ = run("verify", "--rules", "2023-01-01", "--json")
    report = output(out)
    # before 2023-04-19 Q09's skip comes after the break: the ruling fails with its trace
    q09 = next(r for r in report["rulings"] if r["ref"] == "Q09@S000")
    assert q09["holds"] is False and q09["trace"]["events"]
    # in force on 2023-01-01
    assert {w["rules"] for w in report["witnesses"]} == {"2022-08-10 Ninja Strike's mana on resolution"}
    code, _, err = run("verify", "--rules", "soon")
    assert code == 2 and "--rules" in err


def test_limits_make_it_inconclusive_never_a_pass():
    code, out, _ = run("verify", "--max-states", "5", "--json")
    report = output(out)
    assert report["summary"]["complete"] is False
    unsure = [r for r in report["rulings"] if r["verdict"] == "inconclusive"]
    assert unsure and all(r["holds"] is None for r in unsure)
    # what needs every path is never reported as holding on a cut search
    assert not any(r["holds"] for r in report["rulings"] if r["ref"] in ("Q09@S000", "Q06@S000"))


SAME = """
import json, sys
from dmcheck.rulings.verify import verify
from dmcheck.commands.verify import report_json
r = report_json(verify(properties=False))
print(json.dumps({"contradictions": [(c["kind"], c["ids"], [t.get("replay") for t in c["traces"]])
                                     for c in r["contradictions"]],
                  "rulings": [(x["ref"], x["verdict"], (x["trace"] or {}).get("replay")) for x in r["rulings"]],
                  "best": r["readings"]["best"], "witnesses": r["witnesses"]}))
"""


def test_the_report_is_the_same_under_any_hash_seed():
    import os
    import subprocess
    import sys

    from conftest import ROOT

    outs = []
    for seed in ("0", "1"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        proc = subprocess.run([sys.executable, "-c", SAME], env=env, cwd=ROOT, capture_output=True, text=True,
                              check=True)
        outs.append(json.loads(proc.stdout))
    assert outs[0] == outs[1]
    assert len(outs[0]["contradictions"]) > 10
