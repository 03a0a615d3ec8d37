"""`dmcheck verify` in CI: findings with stable ids, baselines of accepted findings, SARIF and JUnit.

The shipped corpus has findings by design (S001 and S002 disagree, and the corpus says so), so a CI
job needs to accept the known ones and fail on a new one: `--write-baseline FILE` records the
findings of a run, `--baseline FILE` reports only the findings not in it. A finding's id is its kind
and its members (the statement refs, plus the readings, scenario or rules version that tell two
findings of the same members apart), so it stays the same from run to run and across machines.
`--sarif OUT` writes SARIF 2.1.0 (one result per finding, located at the corpus file and line of its
first statement, with its citations), which code-scanning tools show inline; `--junit OUT` writes
JUnit XML, each ruling a test case, then each finding. Neither needs anything beyond the stdlib.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from model.errors import InputError
from properties.verdict import INCONCLUSIVE, VIOLATED

BASELINE_VERSION = 1
KINDS = {
    "failing_ruling": "A ruling does not hold in the model under the default interpretation readings",
    "declarative": "A minimal set of statements whose ordering constraints cannot hold together",
    "operational": "A minimal set of rulings no combination of interpretation readings satisfies together",
    "conformance": "A trace of the model breaks an ordering constraint of a statement",
    "unreached": "The statements allow an order of milestones the model never shows",
    "property": "A built-in rules property is violated on a scenario",
}


@dataclass(frozen=True)
class Finding:
    id: str                       # stable: kind + members (see the module docstring)
    kind: str                     # a key of KINDS
    message: str
    refs: tuple[str, ...] = ()    # the statements involved (ID@SOURCE)
    citations: tuple[str, ...] = ()
    file: str = ""                # where to point: the corpus file of the first statement, or a scenario
    line: int = 1
    related: tuple[tuple[str, int, str], ...] = ()   # (file, line, ref) of the other statements
    replay: str | None = None     # the replay key of a trace showing it, if any
    scenario: str = ""


# ---- findings -----------------------------------------------------------------------------------------
def findings(report) -> list[Finding]:
    """Every finding of a verify report (the ones `report.findings()` counts), each with a stable id."""
    out = (_failing(report) + _declarative(report) + _operational(report) + _conformance(report)
           + _properties(report))
    seen: dict[str, Finding] = {}
    for f in out:
        seen.setdefault(f.id, f)
    return list(seen.values())


def _where(report, refs) -> dict[str, Any]:
    """The location of the first statement and the others as related locations, with citations."""
    statements = [s for s in (report.corpus.get(r) for r in refs) if s is not None]
    if not statements:
        return {}
    first = statements[0]
    citations = tuple(dict.fromkeys(c for s in statements for c in (s.citation(), *s.cites)))
    return {"file": first.file, "line": first.line, "citations": citations,
            "related": tuple((s.file, s.line, s.ref) for s in statements[1:])}


def _readings(readings) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(dict(readings).items()))


def _failing(report) -> list[Finding]:
    out = []
    for s in report.failing():
        v = report.operational.default(s.ref)
        what = f"{v.run.file.name}: {v.reason}" if v.run is not None else v.reason
        out.append(Finding(f"failing_ruling:{s.ref}", "failing_ruling",
                           f"{s.citation()} does not hold under the default readings ({what}): {s.text}",
                           (s.ref,), replay=v.trace.key() if v.trace is not None else None,
                           scenario=str(v.run.file) if v.run is not None else "", **_where(report, [s.ref])))
    return out


def _declarative(report) -> list[Finding]:
    out = []
    for c in report.declarative.conflicts:
        readings = _readings(c.readings)
        under = f" under {readings}" if readings else ""
        why = " ".join(f"{ref}: {'; '.join(map(str, report.corpus.get(ref).constraints(dict(c.readings) or None)))}."
                       for ref in c.refs if report.corpus.get(ref) is not None)
        out.append(Finding(f"declarative:{'+'.join(sorted(c.refs))}" + (f"|{readings}" if readings else ""), "declarative",
                           f"{' + '.join(c.refs)} cannot hold together{under} (rules {', '.join(c.versions)}): {why}",
                           tuple(c.refs), **_where(report, c.refs)))
    return out


def _operational(report) -> list[Finding]:
    return [Finding(f"operational:{'+'.join(sorted(c.refs))}", "operational",
                    f"no combination of interpretation readings satisfies {' + '.join(c.refs)} together",
                    tuple(c.refs), replay=next((f.trace.key() for f in c.failures if f.trace is not None), None),
                    **_where(report, c.refs))
            for c in report.operational.conflicts]


def _conformance(report) -> list[Finding]:
    conf = report.conformance
    out = [Finding(f"conformance:{v.statement.ref}:{v.constraint}:{v.run.file.name}", "conformance",
                   f"{v.statement.ref}: {v.constraint} is broken in {v.run.file.name} ({v.run.version.name})",
                   (v.statement.ref,), replay=v.trace().key(), scenario=str(v.run.file),
                   **_where(report, [v.statement.ref]))
           for v in conf.violations]
    out += [Finding(f"unreached:{u.version}:{u.before}<{u.after}", "unreached",
                    f"{u.version}: the statements allow {u.before} before {u.after}; the model never does "
                    f"(e.g. {u.run.file.name})", file=str(u.run.file), scenario=str(u.run.file),
                    replay=u.trace().key())
            for u in conf.unreached]
    return out


def _properties(report) -> list[Finding]:
    out = []
    for p in report.properties:
        for v in p.result.verdicts:
            if v.verdict == VIOLATED:
                out.append(Finding(f"property:{v.property.id}:{p.run.file.name}:{p.run.version.name}", "property",
                                   f"{v.property.id} is violated on {p.run.file.name} ({p.run.version.name}): "
                                   f"{v.reason}", citations=tuple(v.property.citations), file=str(p.run.file),
                                   scenario=str(p.run.file),
                                   replay=v.trace.key() if v.trace is not None else None))
    return out


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


# ---- SARIF 2.1.0 ----------------------------------------------------------------------------------
def _rel(path: str) -> str:
    """A path relative to the working directory when it lies below it, else absolute."""
    p = Path(path).resolve()
    try:
        return p.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(p)


def _uri(path: str) -> str:
    """A path relative to the working directory when it lies below it (how CI checks out), else a file URI."""
    p = Path(path).resolve()
    try:
        return p.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return p.as_uri()


def _location(file: str, line: int, text: str = "") -> dict[str, Any]:
    loc: dict[str, Any] = {"physicalLocation": {"artifactLocation": {"uri": _uri(file)},
                                                "region": {"startLine": max(1, int(line or 1))}}}
    if text:
        loc["message"] = {"text": text}
    return loc


def sarif(found: list[Finding], version: str, accepted: set[str] | None = None,
          kinds: dict[str, str] | None = None) -> dict[str, Any]:
    """A SARIF 2.1.0 log: one run of dmcheck, a rule per kind of finding (`kinds`: verify's unless
    given), a result per finding."""
    results = []
    for f in found:
        result: dict[str, Any] = {
            "ruleId": f.kind, "level": "error",
            "message": {"text": f.message + (f" Citations: {'; '.join(f.citations)}." if f.citations else "")},
            "locations": [_location(f.file, f.line)] if f.file else [],
            "partialFingerprints": {"dmcheckFindingId/v1": f.id},
            "properties": {"findingId": f.id, "citations": list(f.citations), "refs": list(f.refs),
                           **({"replay": f.replay} if f.replay else {}),
                           **({"scenario": _rel(f.scenario)} if f.scenario else {})},
        }
        if f.related:
            result["relatedLocations"] = [dict(_location(file, line, ref), id=i)
                                          for i, (file, line, ref) in enumerate(f.related, 1)]
        if accepted is not None:
            result["baselineState"] = "unchanged" if f.id in accepted else "new"
        results.append(result)
    rules = [{"id": kind, "name": kind, "shortDescription": {"text": text}} for kind, text in (kinds or KINDS).items()]
    return {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
            "runs": [{"tool": {"driver": {"name": "dmcheck", "version": version, "rules": rules}},
                      "results": results}]}


# ---- JUnit XML ------------------------------------------------------------------------------------
def junit(report, found: list[Finding], accepted: set[str] | None = None) -> ET.ElementTree:
    """Each ruling a test case (failure: it does not hold; skipped: inconclusive), then each finding
    (failure, or skipped when the baseline accepts it)."""
    rulings = ET.Element("testsuite", name="rulings")
    known = accepted or set()
    for s in report.operational.rulings:
        v = report.operational.default(s.ref)
        case = ET.SubElement(rulings, "testcase", classname=f"rulings.{s.source}", name=s.ref,
                             file=_rel(s.file), line=str(s.line))
        if v.verdict == VIOLATED:
            if f"failing_ruling:{s.ref}" in known:
                ET.SubElement(case, "skipped", message="a known finding: accepted by the baseline")
            else:
                failure = ET.SubElement(case, "failure", message=v.reason or "does not hold", type=VIOLATED)
                failure.text = "\n".join([f"{s.citation()}: {s.text}"] + (v.trace.lines() if v.trace is not None else []))
        elif v.verdict == INCONCLUSIVE:
            ET.SubElement(case, "skipped", message=f"inconclusive: {v.reason}")
    others = ET.Element("testsuite", name="findings")
    for f in found:
        if f.kind == "failing_ruling":
            continue   # already a failing ruling above
        case = ET.SubElement(others, "testcase", classname=f"findings.{f.kind}", name=f.id,
                             file=_rel(f.file) if f.file else "", line=str(f.line))
        if f.id in known:
            ET.SubElement(case, "skipped", message="a known finding: accepted by the baseline")
        else:
            failure = ET.SubElement(case, "failure", message=f.message, type=f.kind)
            failure.text = "\n".join([f.message, *(f"cites {c}" for c in f.citations)])
    root = ET.Element("testsuites", name="dmcheck verify")
    for suite in (rulings, others):
        cases = suite.findall("testcase")
        suite.set("tests", str(len(cases)))
        suite.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
        suite.set("skipped", str(sum(1 for c in cases if c.find("skipped") is not None)))
        suite.set("errors", "0")
        root.append(suite)
    for key in ("tests", "failures", "skipped", "errors"):
        root.set(key, str(sum(int(s.get(key)) for s in root)))
    return ET.ElementTree(root)
