"""Many scenarios at once: `explore` and `check` end with a tally, and write JUnit and SARIF like `verify`.

A rules or engine repository runs dozens of scenario files in one command; its CI needs one line that
says how many hold ("76 scenarios: 74 hold, 2 fail"), a test report per scenario (JUnit) and each
check that failed located at its `expect` item or property (SARIF, through dmcheck/cli/ci_formats.py).
A scenario *holds* when every expectation (and with `check`, every property) holds on a complete
search; it *fails* when one is violated; it is *incomplete* when a limit or the solver left one
undecided; a file that could not be read is *unreadable*. The records are plain data, made where the
scenario was explored (a worker process under --jobs).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from dmcheck.properties.verdict import INCONCLUSIVE, VIOLATED

from . import ci_formats
from .exits import Exit
from .report import expect_text

STATUS = {Exit.OK: "holds", Exit.FINDING: "fails", Exit.INCOMPLETE: "incomplete", Exit.BAD_INPUT: "unreadable"}
KINDS = {
    "expectation": "An `expect` item of a scenario does not hold",
    "property": "A rules property is violated on a scenario",
    "incomplete": "A scenario's search or check could not be completed (a limit, or the solver)",
    "unreadable": "A scenario file could not be read",
}


def record(scenario, code: int, expectations, properties=None) -> dict[str, Any]:
    """One scenario's verdicts as plain data: its status and every check that did not hold."""
    checks = []
    for n, v in enumerate(expectations, 1):
        if v.verdict in (VIOLATED, INCONCLUSIVE):
            checks.append({"id": f"expect:{n}", "kind": "expectation", "verdict": v.verdict,
                           "text": expect_text(v.expectation.raw), "reason": v.reason, "file": scenario.file,
                           "line": v.expectation.line or 1, "citations": list(scenario.source),
                           **_trace(v.trace if v.verdict == VIOLATED else None)})
    for v in properties.verdicts if properties is not None else ():
        if v.verdict in (VIOLATED, INCONCLUSIVE):
            file, _, line = v.property.origin.rpartition(":") if v.property.origin != "built-in" else ("", "", "")
            checks.append({"id": f"property:{v.property.id}", "kind": "property", "verdict": v.verdict,
                           "text": f"{v.property.id}: {v.property.text}", "reason": v.reason,
                           "file": file or scenario.file, "line": int(line) if line.isdigit() else 1,
                           "citations": list(v.property.citations),
                           **_trace(v.trace if v.verdict == VIOLATED else None)})
    return {"file": scenario.file, "scenario": scenario.name, "status": STATUS[Exit(code)], "checks": checks}


def _trace(trace) -> dict[str, Any]:
    return {"replay": trace.key(), "trace": trace.lines()} if trace is not None else {"replay": None, "trace": []}


def unreadable(file: str, errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The scenario `file`, when it could not be read (`errors`: the JSON's entries for it, which may name
    the card files it reads as well): one record, with its first mistake. One scenario is one record,
    however many files its mistakes are in."""
    if not errors:
        return []
    return [{"file": file, "scenario": "", "status": "unreadable", "error": errors[0], "checks": []}]


def tally(records: list[dict[str, Any]]) -> dict[str, int]:
    counts = {"scenarios": len(records)}
    for status in STATUS.values():
        counts[status] = sum(r["status"] == status for r in records)
    return counts


def tally_line(counts: dict[str, int]) -> str:
    """`76 scenarios: 74 hold, 2 fail` (and incomplete or unreadable ones when there are)."""
    n = counts["scenarios"]
    words = {"holds": "hold" if n != 1 else "holds", "fails": "fail" if n != 1 else "fails",
             "incomplete": "incomplete", "unreadable": "could not be read"}
    parts = [f"{counts['holds']} {words['holds']}", f"{counts['fails']} {words['fails']}"]
    parts += [f"{counts[k]} {words[k]}" for k in ("incomplete", "unreadable") if counts[k]]
    return f"{n} scenario{'s' if n != 1 else ''}: " + ", ".join(parts)


# ---- JUnit and SARIF ---------------------------------------------------------------------------------
def junit(records: list[dict[str, Any]], command: str) -> ET.ElementTree:
    """A test case per scenario file: a failure when a check is violated, an error when it could not be
    decided or read; the counts are the tally's."""
    suite = ET.Element("testsuite", name=f"dmcheck {command}")
    for r in records:
        folder = Path(ci_formats.relative(r["file"])).parent.as_posix().strip("./").replace("/", ".") or "scenarios"
        case = ET.SubElement(suite, "testcase", classname=f"{command}.{folder}", name=Path(r["file"]).name,
                             file=ci_formats.relative(r["file"]))
        if r["status"] == "fails":
            bad = [c for c in r["checks"] if c["verdict"] == VIOLATED]
            failure = ET.SubElement(case, "failure", type="violated",
                                    message="; ".join(f"{c['text']} — {c['reason']}" for c in bad))
            failure.text = "\n".join(line for c in bad for line in _check_lines(c))
        elif r["status"] == "incomplete":
            undecided = [c for c in r["checks"] if c["verdict"] == INCONCLUSIVE]
            ET.SubElement(case, "error", type="incomplete", message="; ".join(
                f"{c['text']} — {c['reason']}" for c in undecided) or "the search was incomplete")
        elif r["status"] == "unreadable":
            ET.SubElement(case, "error", type="bad_input", message=r["error"]["message"])
    counts = tally(records)
    for key, value in (("tests", counts["scenarios"]), ("failures", counts["fails"]),
                       ("errors", counts["incomplete"] + counts["unreadable"]), ("skipped", 0)):
        suite.set(key, str(value))
    root = ET.Element("testsuites", {"name": f"dmcheck {command}",
                                     **{k: suite.attrib[k] for k in ("tests", "failures", "errors", "skipped")}})
    root.append(suite)
    return ET.ElementTree(root)


def _check_lines(c: dict[str, Any]) -> list[str]:
    head = [f"{c['file']}:{c['line']}: {c['text']} — {c['reason']}"]
    return head + [f"  {line}" for line in c["trace"]] + ([f"  (replay key {c['replay']})"] if c["replay"] else [])


def findings(records: list[dict[str, Any]]) -> list[ci_formats.Finding]:
    """Every check that did not hold, and every file that could not be used, as a finding at its line."""
    out = []
    for r in records:
        name = Path(r["file"]).name
        if r["status"] == "unreadable":
            e = r["error"]
            where = e.get("file") or r["file"]       # the mistake may be in a card file the scenario reads
            said = e["message"] if where == r["file"] else f"in {where}: {e['message']}"
            out.append(ci_formats.Finding(f"unreadable:{name}", "unreadable", f"{r['file']}: {said}",
                                          file=where, line=e["line"] or 1))
        for c in r["checks"]:
            kind = c["kind"] if c["verdict"] == VIOLATED else "incomplete"
            out.append(ci_formats.Finding(f"{c['id']}:{name}", kind, f"{r['scenario']}: {c['text']} — {c['reason']}",
                                          citations=tuple(c["citations"]), file=c["file"], line=c["line"],
                                          replay=c["replay"], scenario=r["file"]))
        if r["status"] == "incomplete" and not r["checks"]:
            out.append(ci_formats.Finding(f"incomplete:{name}", "incomplete",
                                          f"{r['scenario']}: the search was incomplete", file=r["file"],
                                          scenario=r["file"]))
    return out


def write_ci(args, records: list[dict[str, Any]], version: str) -> None:
    """What `--junit` and `--sarif` ask for."""
    if getattr(args, "junit", None):
        ci_formats.write_xml(junit(records, args.command), args.junit)
    if getattr(args, "sarif", None):
        data = ci_formats.sarif(findings(records), version, kinds=KINDS)
        Path(args.sarif).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
