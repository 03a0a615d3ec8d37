"""`dmcheck conform`: an external engine checked against a conformance bundle (docs/conform.md).

The engine is a command speaking the conform protocol on its standard input and output (one JSON
object per line); dmcheck sets up each scenario, asks which choices the engine offers in every state,
applies them, and compares the outcomes (dmcheck/engines/runner.py). Every deviation comes with the
shortest dmcheck trace that exposes it and the rulings of its scenario. Output as text, `--json`,
`--junit OUT` and `--sarif OUT`, like `verify`. Exit: 0 conforms, 1 deviations, 2 bad input (a bundle
that is not one, an engine that does not start or speaks another protocol), 3 incomplete.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import json
import signal
import threading
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from dmcheck.model.errors import InputError

from ..cli import workers
from ..cli.exits import HELP
from ..cli.options import READINGS_HELP, expand, positive_int, reading, rules_date
from ..cli.report import document, print_json
from ..cli.shipped import PATHS_NOTE

EXAMPLES = """examples (ENGINE: the command that starts your engine, e.g. ENGINE="python3 my_engine.py"; \
docs/conform.md):
  dmcheck export --corpus --out dm-bundle.json
  dmcheck conform --engine "$ENGINE" --bundle dm-bundle.json
  dmcheck conform --engine "$ENGINE" --bundle dm-bundle.json --only 'rulings/Q0*' --timeout 30
  dmcheck conform --engine "$ENGINE" --bundle dm-bundle.json --maxfail 3 --scenario-budget 20
  dmcheck conform --engine "$ENGINE" scenarios/rulings/Q09_the_watch.yaml --json
  dmcheck conform --engine "$ENGINE" --corpus --junit conform.xml --sarif conform.sarif --log exchange.jsonl
"""
LABELS = {"missing_choice": "MISSING choice", "extra_choice": "EXTRA choice", "forbidden_outcome": "FORBIDDEN outcome",
          "unreached_outcome": "UNREACHED outcome", "refused_choice": "REFUSED choice", "crash": "CRASH",
          "timeout": "TIMEOUT", "garbage": "GARBAGE"}


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add `conform` to the dmcheck subcommands."""
    p = subparsers.add_parser(
        "conform", help="check an external engine against a conformance bundle (line-based JSON protocol)",
        description="Drive an engine over the conform protocol (one JSON object per line on its stdin and "
                    "stdout: hello, setup, choices, apply, state, bye; docs/conform.md) through every state of "
                    "every scenario of a bundle, and report each deviation with the shortest dmcheck trace "
                    "that exposes it: a choice the engine lacks or adds, an outcome it reaches that the rules "
                    "forbid, one it never reaches; a crash, a hang or an answer out of protocol.",
        epilog=EXAMPLES + PATHS_NOTE + "\n" + HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="*", metavar="FILE|DIR", help="scenarios to export and check (instead of --bundle)")
    p.add_argument("--engine", required=True, metavar="CMD", help="the engine's command line (split like a shell)")
    p.add_argument("--bundle", action="append", default=[], metavar="FILE",
                   help="a bundle written by dmcheck export (repeatable)")
    p.add_argument("--corpus", action="store_true", help="export every scenario run of the built-in corpus first")
    p.add_argument("--rules", metavar="DATE", help="with FILEs or --corpus: the rules in force on DATE")
    p.add_argument("--interpretation", dest="readings", metavar="NAME=READING", action="append", default=[],
                   help="with FILEs or --corpus: a reading: " + READINGS_HELP)
    p.add_argument("--only", action="append", default=[], metavar="PATTERN",
                   help="check only the scenario runs whose id (FILE@RULES) matches this shell pattern (repeatable)")
    p.add_argument("--timeout", type=float, default=10.0, metavar="S",
                   help="seconds the engine has to answer each message (default: %(default)s)")
    p.add_argument("--scenario-budget", type=float, default=None, metavar="S",
                   help="seconds one scenario run may take in all (its setup, every path, every answer); past it "
                        "the run is a timeout finding, the engine is ended and a fresh one starts the next run "
                        "(default: no budget)")
    p.add_argument("--maxfail", type=positive_int, default=None, metavar="N",
                   help="stop after N scenario runs with findings (deviations or engine failures); the runs left "
                        "are named as not checked")
    p.add_argument("--json", action="store_true", help="print one JSON object with schema_version")
    p.add_argument("--junit", metavar="OUT", help="also write JUnit XML: each scenario run a test case")
    p.add_argument("--sarif", metavar="OUT", help="also write the deviations as SARIF 2.1.0")
    p.add_argument("--log", metavar="FILE", help="also write every line exchanged with the engine (> sent, < received)")
    p.add_argument("--jobs", type=positive_int, default=None, metavar="N",
                   help="with FILEs or --corpus: export up to N scenario runs at once (default: 1)")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..cli import stop
    from ..engines.process import EngineFailure
    from ..engines.runner import check_engine

    for flag, value in (("--timeout", args.timeout), ("--scenario-budget", args.scenario_budget)):
        if value is not None and not (0 < value < 1e6):
            raise InputError(flag, None, "", f"expected a number of seconds > 0, got {value:g}")
    data = _bundle(args, err)
    _check_only(args.only, data)
    log = _log(args.log)
    only = (lambda e: any(fnmatch.fnmatchcase(e["id"], p) for p in args.only)) if args.only else None
    runs = [e["id"] for e in data["scenarios"] if only is None or only(e)]
    stop.expecting(runs)
    shown = _Shown(args, out, len(runs))
    try:
        with _terminated_as_interrupted():
            report = check_engine(args.engine, data, only=only, log=log, progress=shown, timeout=args.timeout,
                                  budget=args.scenario_budget, maxfail=args.maxfail)
    except EngineFailure as exc:
        raise InputError("--engine", None, args.engine, f"{exc}; expected an engine that answers "
                         '{"type": "hello", "protocol": "dmcheck-conform", "version": 1} (docs/conform.md)') from None
    finally:
        if log is not None:
            log.close()
    if args.json:
        print_json(document("conform", **report_json(report)), out)
    else:
        shown.end(report)
    _write_ci(args, report)
    return report.exit_code()


def _check_only(patterns: list[str], data: dict) -> None:
    """Each --only pattern names some scenario run: one matching nothing (a typo) would check nothing and
    pass."""
    ids = [e["id"] for e in data["scenarios"]]
    for pattern in patterns:
        if not any(fnmatch.fnmatchcase(i, pattern) for i in ids):
            example = f", e.g. {ids[0]!r}" if ids else ""
            raise InputError("--only", None, pattern, f"matches no scenario run of the bundle; expected a pattern "
                                                      f"matching some of its ids (FILE@RULES{example})")


class _Shown:
    """The text report printed as each scenario run ends (so Ctrl-C keeps what was printed); under --json,
    each run's JSON kept where an interrupted command's report lists it (dmcheck/cli/stop.py)."""

    def __init__(self, args: argparse.Namespace, out: TextIO, runs: int):
        self.json, self.out, self.runs, self.started = args.json, out, runs, False

    def __call__(self, engine: dict, result: Any) -> None:
        from ..cli import stop

        stop.finished(result.entry["id"])
        if self.json:
            stop.reports().append(scenario_json(result))
            return
        lines = [] if self.started else [header(engine, self.runs)]
        self.started = True
        print("\n".join(lines + scenario_lines(result)), file=self.out, flush=True)

    def end(self, report: Any) -> None:
        lines = [] if self.started else [header(report.engine, self.runs)]
        if report.stopped:
            lines.append(f"stopped: {report.stopped}; not checked: {_n(len(report.not_checked), 'scenario run')}")
        print("\n".join(lines + [summary_line(report)]), file=self.out)


@contextlib.contextmanager
def _terminated_as_interrupted() -> Iterator[None]:
    """SIGTERM and SIGHUP (a closed terminal, a `kill`) stop the run as Ctrl-C does, so that the engine's
    process group is ended on the way out instead of outliving dmcheck."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt(signal.Signals(signum).name)

    old = {sig: signal.signal(sig, interrupt) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def _bundle(args: argparse.Namespace, err: TextIO) -> dict:
    """The bundle to check: the --bundle files merged, or the FILEs or the corpus exported now."""
    from ..engines import bundle

    sources = bool(args.bundle) + bool(args.files) + bool(args.corpus)
    if sources != 1:
        raise InputError("conform", None, "", "expected exactly one of --bundle FILE, scenario FILEs or --corpus")
    if args.bundle:
        parts = [bundle.read_bundle(path) for path in args.bundle]
        cards = {k: v for part in parts for k, v in part["cards"].items()}
        return bundle.bundle([e for part in parts for e in part["scenarios"]], cards)
    runs = bundle.corpus_runs() if args.corpus else expand(args.files)
    readings = dict(reading(item) for item in args.readings) or None
    return bundle.export_bundle(runs, rules=rules_date(args.rules).isoformat() if args.rules else None,
                                interpretation=readings, jobs=args.jobs or 1, workers=workers.mapper(err))


class _Log:
    def __init__(self, path: str):
        self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115 (open for the whole run, closed by run)

    def __call__(self, way: str, line: str) -> None:
        self.file.write(f"{way} {line}\n")

    def close(self) -> None:
        self.file.close()


def _log(path: str | None) -> _Log | None:
    if path is None:
        return None
    if not Path(path).parent.is_dir():
        raise InputError("--log", None, "", f"the folder {Path(path).parent} does not exist")
    return _Log(path)


# ---- the report ------------------------------------------------------------------------------------
def replay_hint(entry: dict, key: str) -> str:
    """The command that replays a finding's trace in dmcheck (the scenario file, its rules and readings)."""
    from dmcheck.model.readings import CHOICES

    from ..engines.bundle import path_of

    path = path_of(entry["file"])
    shown = path.relative_to(Path.cwd()) if path.is_absolute() and path.is_relative_to(Path.cwd()) else path
    defaults = {c.name: c.default for c in CHOICES}
    readings = "".join(f" --interpretation {k}={v}" for k, v in sorted(entry["interpretation"].items())
                       if defaults.get(k) != v)
    return f"dmcheck explore {shown} --rules {entry['rules']}{readings} --replay {key}"


def finding_lines(f, entry: dict) -> list[str]:
    more = f"; the same at {f.count - 1} other state{'s' if f.count > 2 else ''}" if f.count > 1 else ""
    lines = [f"   {LABELS.get(f.kind, f.kind)}: {f.message}"]
    lines += narrated(entry, f.key) or [f"      {n}. {text}" for n, text in enumerate(f.steps, 1)]
    lines.append(f"      (replay key {f.key}: {replay_hint(entry, f.key)}{more})")
    return lines


_SCENARIOS: dict[str, Any] = {}


def narrated(entry: dict, key: str) -> list[str]:
    """The trace of a key narrated by dmcheck, each step with what it made happen, when the scenario
    file is at hand (a bundle read elsewhere may name a file this checkout lacks: then [])."""
    from .. import api
    from ..engines.bundle import path_of

    if entry["id"] not in _SCENARIOS:
        try:
            _SCENARIOS[entry["id"]] = api.load(path_of(entry["file"]), rules=entry["rules"],
                                               interpretation=entry["interpretation"])
        except (InputError, OSError):
            _SCENARIOS[entry["id"]] = None
    sc = _SCENARIOS[entry["id"]]
    if sc is None or (key != "-" and not all(p.isdigit() for p in key.split("/"))):
        return []
    try:
        done = api.replay(sc, key)
    except InputError:
        return []   # the file changed since the bundle was written
    lines = []
    for n, step in enumerate(done.steps, 1):
        lines.append(f"      {n}. {step.narrated}")
        lines += [f"           - {text}" for text in step.lines]
    return lines


def header(engine: dict, runs: int) -> str:
    name = engine.get("engine") or "the engine"
    return (f"dmcheck conform: {name} ({engine.get('protocol')} version {engine.get('version')}) "
            f"against {_n(runs, 'scenario run')}")


def scenario_lines(r) -> list[str]:
    """One scenario run's part of the text report: its status and figures, its rulings and findings."""
    e = r.entry
    if r.status == "unsupported":
        return [f"== {e['id']}: not run: the engine does not support it ({r.reason})"]
    figures = (f"{_n(r.nodes_checked, 'state')} asked, {_n(r.edges_followed, 'choice')} followed, "
               f"{_n(r.outcomes_compared, 'outcome')} compared")
    head = {"conforms": "conforms", "deviates": f"{len(r.findings)} deviation{'s' * (len(r.findings) != 1)}",
            "failed": "engine failure"}[r.status]
    lines = [f"== {e['id']}: {head} ({figures})"]
    if r.findings and e["rulings"]:
        lines.append("   rulings: " + "; ".join(f"{x['ref']} — {x['text']}" + (
            "" if x["rules"] == e["rules"] else f" (its statement runs the scenario under the {x['rules']} rules)")
            for x in e["rulings"]))
    for f in r.findings:
        lines += finding_lines(f, e)
    return lines


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def summary_line(report) -> str:
    counts = {s: sum(1 for r in report.results if r.status == s) for s in ("conforms", "deviates", "unsupported",
                                                                             "failed")}
    keys = sorted({k for r in report.results for k in r.compared_keys})
    return (f"result: {_n(len(report.findings()), 'finding')}; {counts['conforms']} scenario runs conform, "
            f"{counts['deviates']} deviate, {counts['failed']} engine failures, {counts['unsupported']} unsupported; "
            f"outcome keys compared: {', '.join(keys) or 'none'} (exit {report.exit_code()})")


def finding_json(f, entry: dict) -> dict[str, Any]:
    return {"id": f.id, "kind": f.kind, "message": f.message, "replay": f.key, "steps": f.steps,
            "count": f.count, "detail": f.detail, "rulings": [r["ref"] for r in entry["rulings"]],
            "command": replay_hint(entry, f.key)}


def scenario_json(r) -> dict[str, Any]:
    return {"id": r.entry["id"], "file": r.entry["file"], "rules": r.entry["rules"], "rulings": r.entry["rulings"],
            "status": r.status, "reason": r.reason, "states_asked": r.nodes_checked,
            "choices_followed": r.edges_followed, "outcomes_compared": r.outcomes_compared,
            "outcome_keys": sorted(r.compared_keys), "findings": [finding_json(f, r.entry) for f in r.findings]}


def report_json(report) -> dict[str, Any]:
    out = {"engine": report.engine, "scenarios": [scenario_json(r) for r in report.results],
           "summary": summary_line(report), "exit": report.exit_code()}
    if report.stopped:
        out.update(complete=False, stopped=report.stopped, not_finished=report.not_checked)
    return out


def _write_ci(args: argparse.Namespace, report) -> None:
    from ..cli import ci_formats
    from ..engines.bundle import path_of, version
    from ..engines.runner import KINDS

    if args.sarif:
        found = []
        for r in report.results:
            path = path_of(r.entry["file"])
            refs = tuple(x["ref"] for x in r.entry["rulings"])
            found += [ci_formats.Finding(f.id, f.kind, f"{r.entry['id']}: {f.message}", refs, refs, str(path), 1,
                                         replay=f.key, scenario=str(path), rules=str(r.entry["rules"]))
                      for f in r.findings]
        data = ci_formats.sarif(found, version(), kinds=KINDS)
        Path(args.sarif).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.junit:
        ci_formats.write_xml(junit(report), args.junit)


def junit(report) -> ET.ElementTree:
    """Each scenario run a test case: a failure when it deviates or the engine failed, skipped when the
    engine does not support it."""
    suite = ET.Element("testsuite", name="conform")
    for r in report.results:
        case = ET.SubElement(suite, "testcase", classname="conform." + r.entry["file"].rpartition("/")[0].replace(
            "/", "."), name=r.entry["id"])
        if r.status == "unsupported":
            ET.SubElement(case, "skipped", message=f"not supported by the engine: {r.reason}")
        elif r.findings:
            failure = ET.SubElement(case, "failure", message=f"{len(r.findings)} deviations", type=r.status)
            failure.text = "\n".join(line for f in r.findings for line in finding_lines(f, r.entry))
    cases = suite.findall("testcase")
    for key, n in (("tests", len(cases)), ("failures", sum(c.find("failure") is not None for c in cases)),
                   ("skipped", sum(c.find("skipped") is not None for c in cases)), ("errors", 0)):
        suite.set(key, str(n))
    root = ET.Element("testsuites", name="dmcheck conform")
    root.append(suite)
    for key in ("tests", "failures", "skipped", "errors"):
        root.set(key, suite.attrib[key])
    return ET.ElementTree(root)
