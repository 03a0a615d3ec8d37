"""Output that stays well-formed (issue 36, item 7): names holding control characters and terminal escapes
(tests/data/hostile/control_names.yaml) reach no terminal as escapes and break no JUnit, SARIF or JSON."""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET

import pytest
from conftest import DATA

from dmcheck.cli.output import visible
from dmcheck.main import main

SCENARIO = DATA / "hostile" / "control_names.yaml"
ACTED_ON = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("command", ["explore", "check"])
def test_junit_stays_well_formed_with_control_characters_in_names(tmp_path, command):
    junit, sarif = tmp_path / "j.xml", tmp_path / "s.sarif"
    code, out, _ = run(command, SCENARIO, "--junit", junit, "--sarif", sarif, "--jobs", "1")
    assert code == 1
    root = ET.parse(junit).getroot()                  # ill-formed before: a raw \x01 in an attribute
    assert "Evil\\u001b]0;pwned\\u0007Card\\u0001" in ET.tostring(root, encoding="unicode")
    json.loads(sarif.read_text())


@pytest.mark.parametrize("command", [["explore"], ["check"], ["export"], ["cards", str(DATA / "hostile" /
                                                                                    "control_cards.yaml")]])
def test_terminal_output_shows_escapes_without_acting_on_them(command):
    argv = command + ([SCENARIO] if command[0] != "cards" else [])
    code, out, _ = run(*argv)
    assert code in (0, 1) and out
    assert not ACTED_ON.search(out), repr(ACTED_ON.search(out))
    assert "\\u001b" in out                     # shown, not dropped


def test_json_output_escapes_what_json_leaves_raw():
    code, out, _ = run("explore", SCENARIO, "--json")
    assert code == 1 and not ACTED_ON.search(out)       # json.dumps leaves DEL, C1 and bidi controls raw
    doc = json.loads(out)
    assert doc["scenarios"][0]["scenario"] == "a scenario \x1b[31mred\x1b[0m"     # the data is unchanged
    assert doc["scenarios"][0]["expectations"][0]["trace"][0]["card"] == "Evil\x1b]0;pwned\x07Card\x01\u202e\x9b"


def test_visible_keeps_text_and_layout():
    assert visible("plain text, tabs\tand\nnewlines; 日本語 é") == "plain text, tabs\tand\nnewlines; 日本語 é"
    assert visible("\x1b[2J\r\u202e") == "\\u001b[2J\\u000d\\u202e"
