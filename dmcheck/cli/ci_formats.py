"""`dmcheck verify` in CI: findings with stable ids, baselines of accepted findings, SARIF and JUnit.

The shipped corpus has findings by design (S001 and S002 disagree, and the corpus says so), so a CI
job needs to accept the known ones and fail on a new one: `--write-baseline FILE` records the
findings of a run, `--baseline FILE` reports only the findings not in it. A finding's id is its kind
and its members (the statement refs, plus the readings, scenario or rules version that tell two
findings of the same members apart), so it stays the same from run to run and across machines.
`--sarif OUT` writes SARIF 2.1.0 (one result per finding, located at the file and line of its
statement — a user's own statement when one of theirs caused it — with its citations), which
code-scanning tools show inline; `--junit OUT` writes
JUnit XML, each ruling a test case, then each finding. Neither needs anything beyond the stdlib.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dmcheck.model.errors import InputError
from dmcheck.properties.verdict import INCONCLUSIVE, VIOLATED
from dmcheck.rulings.findings import KINDS, Finding

from .output import visible
from .report import run_lines
from .shipped import replay_command, shipped_root

__all__ = ["KINDS", "Finding", "findings", "write_baseline", "read_baseline", "compare", "sarif", "junit",
           "write_xml"]

BASELINE_VERSION = 1


def findings(report) -> list[Finding]:
    """Every finding of a verify report, each once (rulings/findings.py): the list every output counts."""
    return report.finding_list()


# ---- XML ----------------------------------------------------------------------------------------------
_NOT_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")


def _xml_text(text: str) -> str:
    """Text XML 1.0 can hold: a control character (which no XML file may contain, escaped or not) or a
    lone surrogate written as a visible `\\uXXXX` instead (a card named with one made the file unreadable)."""
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", visible(text))


def write_xml(tree: ET.ElementTree, path: str) -> None:
    """Write a JUnit tree (every --junit of every command) as well-formed XML, whatever its texts hold."""
    for node in tree.iter():
        node.attrib = {_xml_text(k): _xml_text(v) for k, v in node.attrib.items()}
        if node.text:
            node.text = _xml_text(node.text)
        if node.tail:
            node.tail = _xml_text(node.tail)
    tree.write(path, encoding="utf-8", xml_declaration=True)


# ---- baselines ------------------------------------------------------------------------------------
def write_baseline(path: str, found: list[Finding]) -> None:
    data = {"dmcheck_baseline": BASELINE_VERSION,
            "findings": [{"id": f.id, "kind": f.kind, "message": f.message} for f in found]}
    Path(path).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def read_baseline(path: str) -> set[str]:
    """The finding ids a baseline file accepts; InputError when it is not one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(path, None, "--baseline", "file not found; write one with --write-baseline FILE") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(path, None, "--baseline", f"cannot be read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise InputError(path, exc.lineno, "(top)", f"expected a JSON baseline written by --write-baseline: "
                                                     f"{exc.msg}") from None
    if not isinstance(data, dict) or data.get("dmcheck_baseline") != BASELINE_VERSION:
        raise InputError(path, None, "dmcheck_baseline", f"expected {BASELINE_VERSION} (a file written by "
                                                          "dmcheck verify --write-baseline)")
    items = data.get("findings")
    if not isinstance(items, list) or not all(isinstance(i, dict) and isinstance(i.get("id"), str) for i in items):
        raise InputError(path, None, "findings", "expected a list of objects with a string `id`")
    return {i["id"] for i in items}


@dataclass
class Comparison:
    """The findings of a run against a baseline: new ones, known ones, and known ones now gone."""

    new: list[Finding] = field(default_factory=list)
    known: list[Finding] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)


def compare(found: list[Finding], accepted: set[str]) -> Comparison:
    ids = {f.id for f in found}
    return Comparison([f for f in found if f.id not in accepted], [f for f in found if f.id in accepted],
                      sorted(accepted - ids))


def replay_of(f: Finding) -> str:
    """The command that replays a finding's trace: its scenario file, rules date, readings and key."""
    return replay_command(f.scenario, f.rules, f.replay or "-", dict(f.readings))


# ---- SARIF 2.1.0 ----------------------------------------------------------------------------------
def relative(path: str) -> str:
    """A path relative to the working directory when it lies below it, else absolute."""
    p = Path(path).resolve()
    try:
        return p.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(p)


SHIPPED = "DMCHECK_SCENARIOS"   # the uriBaseId of files shipped with dmcheck (its corpus and scenarios)


def _artifact(path: str) -> dict[str, str]:
    """Where a file is, for code scanning: relative to the working directory when it lies below it (a
    user's own repository, or a checkout of dmcheck); relative to the shipped scenarios folder under
    the base id SHIPPED when it is one of dmcheck's installed files (the run says where that folder is,
    and a code-scanning tool leaves it out of the user's tree); else an absolute file URI."""
    p = Path(path).resolve()
    try:
        return {"uri": p.relative_to(Path.cwd().resolve()).as_posix()}
    except ValueError:
        pass
    try:
        return {"uri": p.relative_to(shipped_root()).as_posix(), "uriBaseId": SHIPPED}
    except ValueError:
        return {"uri": p.as_uri()}


def _location(file: str, line: int, text: str = "") -> dict[str, Any]:
    loc: dict[str, Any] = {"physicalLocation": {"artifactLocation": _artifact(file),
                                                "region": {"startLine": max(1, int(line or 1))}}}
    if text:
        loc["message"] = {"text": text}
    return loc


def sarif(found: list[Finding], version: str, accepted: set[str] | None = None,
          kinds: dict[str, str] | None = None, warnings: tuple[str, ...] = ("incomplete",)) -> dict[str, Any]:
    """A SARIF 2.1.0 log: one run of dmcheck, a rule per kind of finding (`kinds`: verify's unless
    given), a result per finding (level `error`, or `warning` for the kinds in `warnings`: what could
    not be decided)."""
    results = []
    for f in found:
        result: dict[str, Any] = {
            "ruleId": f.kind, "level": "warning" if f.kind in warnings else "error",
            "message": {"text": f.message + (f" Citations: {'; '.join(f.citations)}." if f.citations else "")},
            "locations": [_location(f.file, f.line)] if f.file else [],
            "partialFingerprints": {"dmcheckFindingId/v1": f.id},
            "properties": {"findingId": f.id, "citations": list(f.citations), "refs": list(f.refs),
                           **({"replay": f.replay} if f.replay else {}),
                           **({"scenario": relative(f.scenario)} if f.scenario else {}),
                           **({"rules": f.rules} if f.rules else {}),
                           **({"replayCommand": replay_of(f)} if f.replay and f.scenario else {})},
        }
        if f.related:
            result["relatedLocations"] = [dict(_location(file, line, ref), id=i)
                                          for i, (file, line, ref) in enumerate(f.related, 1)]
        if accepted is not None:
            result["baselineState"] = "unchanged" if f.id in accepted else "new"
        results.append(result)
    rules = [{"id": kind, "name": kind, "shortDescription": {"text": text}} for kind, text in (kinds or KINDS).items()]
    run: dict[str, Any] = {"tool": {"driver": {"name": "dmcheck", "version": version, "rules": rules}},
                           "results": results}
    if any(loc["physicalLocation"]["artifactLocation"].get("uriBaseId") == SHIPPED
           for r in results for loc in r["locations"] + r.get("relatedLocations", [])):
        run["originalUriBaseIds"] = {SHIPPED: {
            "uri": shipped_root().as_uri() + "/",
            "description": {"text": "the rulings corpus and scenarios installed with dmcheck (dmcheck examples)"}}}
    return {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": [run]}


# ---- JUnit XML ------------------------------------------------------------------------------------
def junit(report, found: list[Finding], accepted: set[str] | None = None) -> ET.ElementTree:
    """Each ruling a test case (failure: it does not hold; skipped: inconclusive), then each finding
    (failure, or skipped when the baseline accepts it)."""
    rulings = ET.Element("testsuite", name="rulings")
    known = accepted or set()
    for s in report.operational.rulings:
        v = report.operational.default(s.ref)
        case = ET.SubElement(rulings, "testcase", classname=f"rulings.{s.source}", name=s.ref,
                             file=relative(s.file), line=str(s.line))
        if v.verdict == VIOLATED:
            if f"failing_ruling:{s.ref}" in known:
                ET.SubElement(case, "skipped", message="a known finding: accepted by the baseline")
            else:
                failure = ET.SubElement(case, "failure", message=v.reason or "does not hold", type=VIOLATED)
                trace = run_lines(v.trace, v.run, v.combo) if v.trace is not None else []
                failure.text = "\n".join([f"{s.citation()}: {s.text}"] + trace)
        elif v.verdict == INCONCLUSIVE:
            ET.SubElement(case, "skipped", message=f"inconclusive: {v.reason}")
    others = ET.Element("testsuite", name="findings")
    for f in found:
        if f.kind == "failing_ruling":
            continue   # already a failing ruling above
        case = ET.SubElement(others, "testcase", classname=f"findings.{f.kind}", name=f.id,
                             file=relative(f.file) if f.file else "", line=str(f.line))
        if f.id in known:
            ET.SubElement(case, "skipped", message="a known finding: accepted by the baseline")
        else:
            failure = ET.SubElement(case, "failure", message=f.message, type=f.kind)
            failure.text = "\n".join([f.message, *(f"cites {c}" for c in f.citations),
                                      *([f"replay: {replay_of(f)}"] if f.replay and f.scenario else [])])
    root = ET.Element("testsuites", name="dmcheck verify")
    for suite in (rulings, others):
        cases = suite.findall("testcase")
        suite.set("tests", str(len(cases)))
        suite.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
        suite.set("skipped", str(sum(1 for c in cases if c.find("skipped") is not None)))
        suite.set("errors", "0")
        root.append(suite)
    for key in ("tests", "failures", "skipped", "errors"):
        root.set(key, str(sum(int(s.attrib[key]) for s in root)))
    return ET.ElementTree(root)
