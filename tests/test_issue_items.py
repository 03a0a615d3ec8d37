"""The "scenarios per item" criterion of issues 33 and 34, checked on the table docs/issue-items.yaml.

Issue 33 asks at least 3 scenarios for each of its nine items; issue 34 asks 5 for the turn (item 1), 2 for
each special card kind of chapter 8, seals and double-sided cards (item 3), and scenarios for the zones
(item 2) and the scenario format (item 4). Each scenario the table lists must exist, load with the project's
loader, and cite in `source:` a ruling or rule text with a date: a source whose corpus entry is dated
(scenarios/corpus.yaml, scenarios/corpus.d/), or a citation naming its date. The minimums are written here,
from the issues, not in the table, so that the table cannot lower them.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT

from dmcheck.model.scenario_file import load_scenario
from dmcheck.model.yamlio import load_yaml, plain
from dmcheck.rulings.corpus import builtin_corpus

TABLE = ROOT / "docs" / "issue-items.yaml"
SCENARIOS = ROOT / "scenarios"

# issue 33: items 1-9, three scenarios each
MIN_33 = {item: 3 for item in range(1, 10)}
# issue 34 item 3: two per special card kind (the key starts with its rule or its name)
KINDS = ("801", "802", "803", "804", "805", "806", "807", "808", "809", "810", "811", "812", "813", "814",
         "815", "816", "817", "818", "819", "116", "double-sided")
MIN_KIND = 2
MIN_TURN = 5              # issue 34 item 1: the turn structure (500-512)
ZONES = ("407", "408", "409", "410")   # issue 34 item 2 names these four zones; each needs a scenario
_DATE = re.compile(r"\b(19|20)\d\d-\d\d-\d\d\b")
_SOURCE = re.compile(r"\bS\d{3}\b")


def table() -> dict:
    return plain(load_yaml(TABLE))


@functools.cache
def dated_sources() -> frozenset[str]:
    """The source ids with a date: declared with one, or stated with one by some corpus statement."""
    corpus = builtin_corpus()
    return frozenset({s.id for s in corpus.declared if s.date is not None}
                     | {s.source for s in corpus.statements if s.date is not None})


@functools.cache
def problem(rel: str) -> str:
    """What keeps the scenario file from counting ("" when nothing does)."""
    path = SCENARIOS / rel
    if not path.is_file():
        return f"{rel}: no such scenario file"
    try:
        scenario = load_scenario(path)
    except Exception as e:   # noqa: BLE001 - any failure to load is the finding
        return f"{rel}: does not load: {e}"
    if not scenario.source:
        return f"{rel}: no `source:` citation"
    if scenario.rules is None:
        return f"{rel}: no `rules:` date"
    dated = [c for c in scenario.source
             if _DATE.search(c) or any(s in dated_sources() for s in _SOURCE.findall(c))]
    if not dated:
        return f"{rel}: `source:` {list(scenario.source)} names no dated ruling or rule text"
    return ""


def shortfalls(doc: Any) -> list[str]:
    """Every way the table misses the issues' counts, or lists a scenario that cannot count."""
    found: list[str] = []

    def count(where: str, files: Any, least: int) -> None:
        files = files if isinstance(files, list) else []
        good = sorted({f for f in files if isinstance(f, str) and not problem(f)})
        found.extend(f"{where}: {problem(f)}" for f in files if isinstance(f, str) and problem(f))
        if len(good) < least:
            found.append(f"{where}: {len(good)} scenario(s), the issue asks at least {least}")

    def parts(where: str, groups: Any, keys: tuple[str, ...], least: int) -> None:
        groups = groups if isinstance(groups, dict) else {}
        for key in keys:
            named = [g for g in groups if str(g).split(" ")[0] == key]
            if not named:
                found.append(f"{where}: no entry for {key}")
            for g in named:
                count(f"{where} {g}", groups[g], least)
        for g, files in groups.items():
            if str(g).split(" ")[0] not in keys:
                count(f"{where} {g}", files, 1)

    doc = doc if isinstance(doc, dict) else {}
    i33, i34 = doc.get("issue_33") or {}, doc.get("issue_34") or {}
    for item, least in MIN_33.items():
        count(f"issue 33 item {item}", (i33.get(item) or {}).get("scenarios"), least)
    count("issue 34 item 1", (i34.get(1) or {}).get("scenarios"), MIN_TURN)
    parts("issue 34 item 2", (i34.get(2) or {}).get("zones"), ZONES, 1)
    parts("issue 34 item 3", (i34.get(3) or {}).get("kinds"), KINDS, MIN_KIND)
    count("issue 34 item 4", (i34.get(4) or {}).get("scenarios"), 1)
    return found


def test_every_item_has_the_scenarios_its_issue_asks():
    assert shortfalls(table()) == []


def test_every_listed_scenario_is_a_path_under_scenarios():
    listed = re.findall(r"^\s*- (\S+\.yaml)", TABLE.read_text(encoding="utf-8"), re.M)
    assert listed and all(not Path(p).is_absolute() and ".." not in Path(p).parts for p in listed)


def test_a_short_item_a_missing_file_and_an_undated_source_are_caught():
    doc = table()
    doc["issue_33"][2]["scenarios"] = doc["issue_33"][2]["scenarios"][:2]
    doc["issue_34"][3]["kinds"]["802 NEO"] = ["piles/EV13_neo_creature_evolves_or_not.yaml",
                                              "piles/NO_SUCH_FILE.yaml"]
    del doc["issue_34"][3]["kinds"]["819 WD field"]
    doc["issue_33"][8]["scenarios"].append("piles/TW04_either_side_not_both.yaml")   # S223, undated
    found = "\n".join(shortfalls(doc))
    assert "issue 33 item 2: 2 scenario(s), the issue asks at least 3" in found
    assert "802 NEO: piles/NO_SUCH_FILE.yaml: no such scenario file" in found
    assert "802 NEO: 1 scenario(s)" in found
    assert "issue 34 item 3: no entry for 819" in found
    assert "TW04_either_side_not_both.yaml: `source:` ['S223'] names no dated ruling" in found


@pytest.mark.parametrize("cited, dated", [("S340 R110.4b", True), ("S000 Q&A 2023-09-15", True),
                                          ("S223", False), ("R509.4", False)])
def test_a_citation_is_dated_by_its_source_or_its_own_date(cited, dated):
    ok = bool(_DATE.search(cited) or any(s in dated_sources() for s in _SOURCE.findall(cited)))
    assert ok is dated
