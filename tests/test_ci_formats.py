"""`dmcheck verify` for CI: stable finding ids, baselines, SARIF 2.1.0 and JUnit XML.

The corpus is verified once for the module (about 40 s); the command-line runs reuse that report
(`dmcheck.commands.verify.verify` is replaced by a function returning it), so each checks only what the
options do with it. The known findings come from the sources: S002's D3 (break replacements decided
before the before-break abilities trigger) contradicts S001's Q11 rulings (tests/test_verify.py).
"""

from __future__ import annotations

import io
import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import DATA, output

import dmcheck.commands.verify as verify_cmd
from dmcheck.cli import ci_formats
from dmcheck.main import main
from dmcheck.rulings.verify import verify

# the module's fixture verifies the whole corpus (about 40 s): CI runs it with the slow tests
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def report():
    return verify([], None)


@pytest.fixture
def cli(report, monkeypatch):
    """`dmcheck verify ...` on the module's report."""
    monkeypatch.setattr(verify_cmd, "verify", lambda *a, **k: report)

    def run(*argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        code = main(["verify", *argv], out, err)
        return code, out.getvalue(), err.getvalue()
    return run


def test_findings_are_those_the_report_counts_with_stable_ids(report):
    found = ci_formats.findings(report)
    assert len(found) == report.findings() > 0
    # the corpus's own minimal sets are one finding each, the failing rulings one each
    assert report.findings() == (len(report.failing()) + len(report.declarative.conflicts)
                                 + len(report.operational.conflicts) + len({(v.statement.ref, str(v.constraint))
                                                                             for v in report.agreement.violations})
                                 + len(report.agreement.unreached) + report.property_counts()["violated"])
    ids = [f.id for f in found]
    assert len(set(ids)) == len(ids)
    assert ids == [f.id for f in ci_formats.findings(report)]   # the same on every computation
    assert "failing_ruling:D3@S002" in ids
    assert "operational:D3@S002+Q11d@S001" in ids
    for f in found:
        assert f.id.startswith(f.kind + ":") and f.kind in ci_formats.KINDS
        if f.kind in ("failing_ruling", "declarative", "operational"):
            assert f.refs and f.citations and f.file and f.line >= 1


def test_a_baseline_accepts_known_findings_and_reports_a_new_one(cli, report, tmp_path):
    base = tmp_path / "base.json"
    code, out, _ = cli("--summary", "--write-baseline", str(base))
    assert code == (0 if report.complete() else 3)     # recording the findings accepts them
    assert cli("--summary")[0] == 1                    # without a baseline, findings still fail
    written = json.loads(base.read_text())
    assert {f["id"] for f in written["findings"]} == {f.id for f in ci_formats.findings(report)}
    code, out, _ = cli("--summary", "--baseline", str(base))
    assert code == (0 if report.complete() else 3)
    assert "0 new findings" in out
    # drop one accepted finding: it is new again, named, and fails the run
    dropped = written["findings"].pop(0)
    written["findings"].append({"id": "declarative:X@S9+Y@S9", "kind": "declarative", "message": "fixed since"})
    base.write_text(json.dumps(written))
    code, out, _ = cli("--summary", "--baseline", str(base))
    assert code == 1
    assert f"NEW {dropped['id']}" in out and out.count("NEW ") == 1
    assert "gone (in the baseline, not found now): declarative:X@S9+Y@S9" in out
    code, out, _ = cli("--json", "--baseline", str(base))
    assert [f["id"] for f in output(out)["baseline"]["new"]] == [dropped["id"]]   # validated by the schema


@pytest.mark.parametrize("text,expected", [
    (None, "file not found"),
    ("{not json", ":1: (top): expected a JSON baseline"),
    ('{"findings": []}', "dmcheck_baseline"),
    ('{"dmcheck_baseline": 1, "findings": [{"kind": "x"}]}', "findings: expected a list of objects"),
])
def test_a_bad_baseline_is_bad_input_before_any_work(tmp_path, monkeypatch, text, expected):
    def fail(*a, **k):
        raise AssertionError("verify ran despite a bad baseline")
    monkeypatch.setattr(verify_cmd, "verify", fail)
    base = tmp_path / "base.json"
    if text is not None:
        base.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    assert main(["verify", "--baseline", str(base)], out, err) == 2
    assert str(base) in err.getvalue() and expected in err.getvalue(), err.getvalue()


def test_sarif_has_the_required_structure_and_points_at_the_statement(cli, report, tmp_path, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)   # locations relative to the checkout
    out = tmp_path / "out.sarif"
    cli("--summary", "--sarif", str(out))
    log = json.loads(out.read_text())
    assert log["version"] == "2.1.0" and "$schema" in log
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "dmcheck" and isinstance(driver["version"], str)
    rule_ids = {r["id"] for r in driver["rules"]}
    assert len(run["results"]) == report.findings()
    for result in run["results"]:
        assert {"ruleId", "message", "locations"} <= set(result)
        assert result["ruleId"] in rule_ids and result["message"]["text"]
        for loc in result["locations"] + result.get("relatedLocations", []):
            phys = loc["physicalLocation"]
            assert phys["region"]["startLine"] >= 1 and Path(phys["artifactLocation"]["uri"]).is_file()
    d3 = next(r for r in run["results"] if r["partialFingerprints"]["dmcheckFindingId/v1"] == "failing_ruling:D3@S002")
    loc = d3["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "scenarios/corpus.yaml"   # the corpus file ...
    line = Path(loc["artifactLocation"]["uri"]).read_text().splitlines()[loc["region"]["startLine"] - 1]
    assert line.strip() == "- id: D3"                                  # ... at the statement's line
    assert "D3 (S002" in d3["message"]["text"] and d3["properties"]["citations"]
    # (a set of one, a statement failing under every reading such as R507.1a.v138@S104, has no related location)
    conflict = next(r for r in run["results"] if r["ruleId"] == "operational" and len(r["properties"]["refs"]) > 1)
    assert len(conflict["relatedLocations"]) == len(conflict["properties"]["refs"]) - 1


def test_sarif_marks_baseline_state(cli, report, tmp_path):
    base, out = tmp_path / "base.json", tmp_path / "out.sarif"
    cli("--summary", "--write-baseline", str(base))
    written = json.loads(base.read_text())
    dropped = written["findings"].pop()
    base.write_text(json.dumps(written))
    cli("--summary", "--baseline", str(base), "--sarif", str(out))
    states = {r["partialFingerprints"]["dmcheckFindingId/v1"]: r["baselineState"]
              for r in json.loads(out.read_text())["runs"][0]["results"]}
    assert states.pop(dropped["id"]) == "new" and set(states.values()) == {"unchanged"}


def test_junit_has_each_ruling_as_a_test_case(cli, report, tmp_path):
    out = tmp_path / "out.xml"
    cli("--summary", "--junit", str(out))
    root = ET.parse(out).getroot()
    assert root.tag == "testsuites"
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    rulings = suites["rulings"].findall("testcase")
    assert [c.get("name") for c in rulings] == [s.ref for s in report.operational.rulings]
    by_name = {c.get("name"): c for c in rulings}
    assert by_name["D3@S002"].find("failure") is not None      # S002's D3 fails in the model (S001 Q11)
    assert by_name["Q09@S000"].find("failure") is None and by_name["Q09@S000"].find("skipped") is None
    for suite in suites.values():
        cases = suite.findall("testcase")
        assert int(suite.get("tests")) == len(cases)
        assert int(suite.get("failures")) == sum(c.find("failure") is not None for c in cases)
    assert int(root.get("failures")) == report.findings()   # one failure per finding, the ruling's included
    # with a baseline accepting everything, nothing fails
    base = tmp_path / "base.json"
    cli("--summary", "--write-baseline", str(base))
    cli("--summary", "--baseline", str(base), "--junit", str(out))
    root = ET.parse(out).getroot()
    assert root.get("failures") == "0" and int(root.get("skipped")) == report.findings()


# ---- a user's rulings repository: findings at the user's statements, one count everywhere -------------
@pytest.fixture(scope="module")
def user_repo(tmp_path_factory):
    """A rulings repository of a user's own (outside dmcheck's files): the made-up statements of
    tests/data/rulings/contradicting.yaml (X1 against Q02, X2 against R603.7a and the break's order),
    verified once with the built-in corpus."""
    repo = tmp_path_factory.mktemp("user_repo")
    for name in ("contradicting.yaml", "kakumeijin_charger_bottom.yaml"):
        shutil.copy(DATA / "rulings" / name, repo / name)
    return repo, verify([str(repo / "contradicting.yaml")], None)


@pytest.fixture
def user_cli(user_repo, monkeypatch):
    repo, report = user_repo
    monkeypatch.setattr(verify_cmd, "verify", lambda *a, **k: report)
    monkeypatch.chdir(repo)          # CI runs in the user's checkout

    def run(*argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        code = main(["verify", "--rulings", "contradicting.yaml", *argv], out, err)
        return code, out.getvalue(), err.getvalue()
    return run


def _statement_line(path: Path, sid: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if line.strip() == f"- id: {sid}")


def test_sarif_of_a_users_statement_points_at_the_users_file(user_repo, user_cli):
    repo, report = user_repo
    user_cli("--summary", "--sarif", "out.sarif")
    log = json.loads((repo / "out.sarif").read_text())
    (run,) = log["runs"]
    mine = [r for r in run["results"] if any(ref.endswith("@TEST") for ref in r["properties"]["refs"])]
    assert {r["ruleId"] for r in mine} == {"failing_ruling", "contradiction", "conformance"}
    for r in mine:
        loc = r["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"] == {"uri": "contradicting.yaml"}      # relative to the user's checkout
        sid = r["properties"]["refs"][0].split("@")[0]
        assert loc["region"]["startLine"] == _statement_line(repo / "contradicting.yaml", sid)
    # the corpus's own findings point into dmcheck's installed files, named by a base id the run defines
    base = run["originalUriBaseIds"][ci_formats.SHIPPED]["uri"]
    for r in run["results"]:
        if r not in mine:
            art = r["locations"][0]["physicalLocation"]["artifactLocation"]
            assert art["uriBaseId"] == ci_formats.SHIPPED
            assert Path(base.removeprefix("file://"), art["uri"]).is_file()


def test_one_new_statement_is_one_finding_with_its_members(user_repo, user_cli):
    repo, report = user_repo
    sets = [c for c in report.declarative.conflicts + report.operational.conflicts if "X2@TEST" in c.refs]
    members = {r for c in sets for r in c.refs} - {"X2@TEST"}
    assert len(sets) > 1 and len(members) > 1
    found = [f for f in ci_formats.findings(report) if "X2@TEST" in f.refs and f.kind == "contradiction"]
    assert len(found) == 1
    (x2,) = found
    assert x2.id == "contradiction:X2@TEST" and set(x2.refs[1:]) == members
    assert x2.message.startswith(f"X2@TEST contradicts {len(members)} statements: ")
    assert not [f for f in ci_formats.findings(report) if f.kind in ("declarative", "operational")
                and any(r.endswith("@TEST") for r in f.refs)]
    # the model breaks X2's order in several scenarios: one finding naming them
    broken = {v.run.file.name for v in report.agreement.violations if v.statement.ref == "X2@TEST"}
    (conf,) = [f for f in ci_formats.findings(report) if f.kind == "conformance"]
    assert len(broken) > 1 and f"in {len(broken)} scenarios" in conf.message
    _, out, _ = user_cli("--summary")
    assert f"X2@TEST contradicts {len(members)} statements" in out


def test_every_output_counts_the_same_findings(user_repo, user_cli):
    repo, report = user_repo
    code, out, _ = user_cli("--summary", "--write-baseline", "base.json", "--sarif", "out.sarif",
                            "--junit", "out.xml")
    assert code == (0 if report.complete() else 3)                 # --write-baseline accepts them
    n = int(re.search(r"^result: (\d+) findings", out, re.M).group(1))
    assert len(json.loads((repo / "base.json").read_text())["findings"]) == n
    assert len(json.loads((repo / "out.sarif").read_text())["runs"][0]["results"]) == n
    assert int(ET.parse(repo / "out.xml").getroot().get("failures")) == n
    code, out, _ = user_cli("--json")
    assert output(out)["summary"]["findings"] == n == report.findings()


# ---- findings that say what they mean (issue 38, item 3) -------------------------------------------
def test_statements_of_theirs_that_contradict_only_each_other_are_said_to(user_repo, user_cli):
    repo, report = user_repo
    (jd,) = [f for f in ci_formats.findings(report) if f.kind == "contradiction" and "JD2@TEST" in f.refs]
    assert jd.refs == ("JD2@TEST", "JD3@TEST")
    assert jd.message.startswith("JD2@TEST + JD3@TEST contradict each other ")
    assert "0 statements" not in jd.message
    _, out, _ = user_cli("--summary")
    assert "JD2@TEST + JD3@TEST contradict each other" in out


def test_a_statement_no_scenario_poses_is_listed_as_not_checked(user_repo, user_cli):
    _, out, _ = user_cli("--summary")
    for ref in ("X2@TEST", "JD2@TEST", "JD3@TEST"):    # ordering constraints, no scenario
        assert f"  not checked: no scenario: {ref} (its ordering constraints only)" in out
    assert "  not checked: no scenario: X1@TEST" not in out        # X1 has its scenario
    assert re.search(r"^not checked: no scenario: \d+ statements", out, re.M)
    _, details, _ = user_cli("--details")
    assert "== Not checked: no scenario poses these" in details
    assert "- JD3@TEST: its ordering constraints only" in details


REPLAY = re.compile(r"dmcheck explore (?P<file>\S+) --rules (?P<rules>\d{4}-\d\d-\d\d)"
                    r"(?P<flags>(?: --interpretation \S+)*) --replay (?P<key>[0-9/]+|-)")


def test_every_replay_key_names_its_scenario_file_and_rules_date(user_repo, user_cli):
    repo, report = user_repo
    code, out, _ = user_cli()
    assert "== Findings (" in out and "== Rulings under the default readings" not in out   # details: --details
    replays = [line for line in out.splitlines() if line.startswith("    replay: ")]
    assert len(replays) >= 5
    for line in replays:
        m = REPLAY.fullmatch(line.removeprefix("    replay: "))
        assert m is not None, line
        assert (repo / m["file"]).is_file() or m["file"].startswith("scenarios/"), line
    # in the details every trace's replay key comes with the command too
    _, details, _ = user_cli("--details")
    keys = [line for line in details.splitlines() if "(replay key" in line]
    assert keys and all(REPLAY.search(line) for line in keys), [k for k in keys if not REPLAY.search(k)][:3]
    # and the command replays the trace: X1's failing ruling, in the user's checkout
    x1 = next(line for line in replays if "kakumeijin_charger_bottom.yaml" in line)
    m = REPLAY.fullmatch(x1.removeprefix("    replay: "))
    out2, err2 = io.StringIO(), io.StringIO()
    argv = ["explore", m["file"], "--rules", m["rules"], *m["flags"].split(), "--replay", m["key"]]
    assert main(argv, out2, err2) in (0, 1) and f"(replay key {m['key']})" in out2.getvalue(), err2.getvalue()


def test_every_printed_exit_code_is_the_real_one(user_repo, user_cli):
    repo, report = user_repo
    code, out, _ = user_cli("--summary", "--write-baseline", "base.json")
    assert re.search(rf"^result: .*\(exit {code}\)$", out, re.M), out
    assert code in (0, 3) and "accepted by the baseline" in out
    code, out, _ = user_cli("--summary", "--baseline", "base.json")
    assert re.search(rf"^result: .*\(exit {code}\)$", out, re.M) and code in (0, 3)
    code, out, _ = user_cli("--json", "--write-baseline", "base.json")
    summary = output(out)["summary"]
    assert summary["exit"] == code and summary["lines"][-1].endswith(f"(exit {code})")
    code, out, _ = user_cli("--summary")
    assert code == 1 and out.rstrip().endswith("(exit 1)")
