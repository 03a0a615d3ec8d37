"""Many scenarios at once: the tally of `explore` and `check`, and their JUnit and SARIF (dmcheck/cli/tally.py).

A folder holds two scenarios that hold (Q04, Q06), one whose expectation is wrong (Q06 says both
chosen shields break; tests/data/wrong_expectation.yaml says one) and one file that is no scenario.
What each must give is known from those files, not from dmcheck's output.
"""

from __future__ import annotations

import io
import json
import shutil
import xml.etree.ElementTree as ET

import pytest
from conftest import DATA, ROOT, output

from dmcheck.main import main


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def folder(tmp_path):
    for name in ("Q04_texas_storm.yaml", "Q06_winter_spiral.yaml"):
        shutil.copy(ROOT / "scenarios" / "rulings" / name, tmp_path / name)
    shutil.copy(DATA / "wrong_expectation.yaml", tmp_path / "wrong.yaml")
    (tmp_path / "zbad.yaml").write_text("name: not a scenario\nturn: A\n")
    return tmp_path


def _line(path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


@pytest.mark.parametrize("command", ["explore", "check"])
def test_the_tally_counts_each_scenario_once(folder, command):
    code, out, err = run(command, str(folder), "--jobs", "1")
    assert code == 2                                     # a file could not be read
    assert out.rstrip().splitlines()[-1] == "4 scenarios: 2 hold, 1 fail, 1 could not be read"
    code, out, _ = run(command, str(folder), "--json", "--jobs", "2")
    assert output(out)["tally"] == {"scenarios": 4, "holds": 2, "fails": 1, "incomplete": 0, "unreadable": 1}
    code, out, _ = run(command, str(folder / "Q06_winter_spiral.yaml"))
    assert code == 0 and "scenario" not in out.rstrip().splitlines()[-1]   # one scenario: no tally line


def test_junit_has_a_case_per_scenario_and_the_tallys_counts(folder, tmp_path):
    xml = tmp_path / "out.xml"
    run("explore", str(folder), "--junit", str(xml))
    root = ET.parse(xml).getroot()
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("4", "1", "1")
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert set(cases) == {"Q04_texas_storm.yaml", "Q06_winter_spiral.yaml", "wrong.yaml", "zbad.yaml"}
    failure = cases["wrong.yaml"].find("failure")
    assert "always: {shields_broken: 1}" in failure.get("message") and "1. A chooses shields" in failure.text
    assert cases["zbad.yaml"].find("error").get("type") == "bad_input"
    assert cases["Q04_texas_storm.yaml"].find("failure") is None and cases["Q04_texas_storm.yaml"].find("error") is None


def test_sarif_points_at_the_expect_item_and_the_property(folder, tmp_path, monkeypatch):
    monkeypatch.chdir(folder)
    run("explore", ".", "--sarif", "out.sarif")
    results = json.loads((folder / "out.sarif").read_text())["runs"][0]["results"]
    where = {(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
              r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results}
    assert where == {("expectation", "wrong.yaml", _line(folder / "wrong.yaml", "always: {shields_broken: 1}")),
                     ("unreadable", "zbad.yaml", 1)}
    # a user's property that fails: located in the property file, at the property
    props = folder / "props.yaml"
    shutil.copy(DATA / "properties" / "false_property.yaml", props)
    run("check", "Q06_winter_spiral.yaml", "--properties", "props.yaml", "--property", "nothing-breaks",
        "--sarif", "out.sarif")
    (result,) = json.loads((folder / "out.sarif").read_text())["runs"][0]["results"]
    loc = result["locations"][0]["physicalLocation"]
    assert result["ruleId"] == "property" and loc["artifactLocation"]["uri"] == "props.yaml"
    assert loc["region"]["startLine"] == _line(props, "id: nothing-breaks")
    assert result["properties"]["replay"]


def test_an_incomplete_scenario_is_an_error_and_a_warning(folder, tmp_path):
    xml, sarif = tmp_path / "out.xml", tmp_path / "out.sarif"
    code, out, _ = run("explore", str(folder / "Q06_winter_spiral.yaml"), str(folder / "Q04_texas_storm.yaml"),
                       "--max-states", "3", "--junit", str(xml), "--sarif", str(sarif))
    assert code == 3 and out.rstrip().splitlines()[-1] == "2 scenarios: 0 hold, 0 fail, 2 incomplete"
    assert ET.parse(xml).getroot().get("errors") == "2"
    results = json.loads(sarif.read_text())["runs"][0]["results"]
    assert results and {r["level"] for r in results} == {"warning"} and {r["ruleId"] for r in results} == {"incomplete"}


@pytest.mark.parametrize("command", ["explore", "check"])
def test_a_scenario_whose_card_file_has_a_mistake_is_one_unreadable_scenario(tmp_path, command):
    """Its mistakes name two files (the card file's, and the scenario's card that file did not give), yet
    one scenario could not be read: one record, in the tally and in JUnit."""
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "c.yaml").write_text(
        "cards:\n  - id: p\n    name: P Probe\n    type: spell\n    cost: many\n    civilizations: [Water]\n")
    (tmp_path / "s.yaml").write_text(
        "name: s\nrules: 2024-06-19\ncards: [cards/c.yaml]\nturn: A\nplayers:\n  A: {battle: [Vanilla]}\n"
        "  B: {shields: [P Probe]}\nattack: {attacker: Vanilla, player: B}\n")
    code, out, err = run(command, str(tmp_path / "s.yaml"), "--json", "--junit", str(tmp_path / "j.xml"))
    doc = output(out)
    assert code == 2 and {e["file"] for e in doc["errors"]} == {str(tmp_path / "cards" / "c.yaml"),
                                                                 str(tmp_path / "s.yaml")}, err
    assert doc["tally"] == {"scenarios": 1, "holds": 0, "fails": 0, "incomplete": 0, "unreadable": 1}
    root = ET.parse(tmp_path / "j.xml").getroot()
    assert (root.get("tests"), root.get("errors")) == ("1", "1")
    assert [c.get("name") for c in root.iter("testcase")] == ["s.yaml"]
    # SARIF points at the first mistake where it is: the card file's line
    run(command, str(tmp_path / "s.yaml"), "--sarif", str(tmp_path / "out.sarif"))
    (result,) = json.loads((tmp_path / "out.sarif").read_text())["runs"][0]["results"]
    loc = result["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"].endswith("cards/c.yaml") and loc["region"]["startLine"] == 5


def test_a_card_file_among_scenarios_is_named_as_one(tmp_path):
    shutil.copy(ROOT / "scenarios" / "rulings" / "Q04_texas_storm.yaml", tmp_path / "Q04.yaml")
    (tmp_path / "c.yaml").write_text("cards:\n  - id: p\n    name: P Probe\n    type: spell\n    cost: 0\n")
    code, out, err = run("check", str(tmp_path))
    assert code == 2 and out.rstrip().splitlines()[-1] == "2 scenarios: 1 hold, 0 fail, 1 could not be read"
    assert f"{tmp_path / 'c.yaml'}:1: (top): a card file (only `cards:`), not a scenario" in err, err
