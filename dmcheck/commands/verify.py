"""The `dmcheck verify` command: the main job — the whole rulings corpus against itself and the model.

It exists so that a rules editor gets, in one run, which rulings hold, which statements cannot all
be true together (with the citations and the traces), which readings of the open choices fit the most
rulings, whether the model follows the statements, and whether the rules properties hold — on the
built-in corpus (scenarios/corpus.yaml) with no arguments, plus their own rulings with `--rulings`.
The work is rulings/verify.py; the wording is below (summary first, then details, or JSON). Exit codes: 0 nothing
found, 1 findings (a contradiction is one), 2 bad input, 3 inconclusive.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from importlib import metadata
from pathlib import Path
from typing import Any, TextIO

from dmcheck.model.lang import tr
from dmcheck.model.readings import CHOICES
from dmcheck.properties.milestones import show as show_order
from dmcheck.properties.verdict import VIOLATED
from dmcheck.rulings.consistency import defaults, set_aside
from dmcheck.rulings.only import verify_only
from dmcheck.rulings.operational import Combo, as_dict, default_combo, show
from dmcheck.rulings.verify import EVERYTHING, Sofar, verify

from ..cli import ci_formats, stop
from ..cli.exits import HELP, Exit
from ..cli.options import add_jobs_option, add_limit_options, jobs, limits, rules_date
from ..cli.progress import phase_printer
from ..cli.report import document, expect_text, print_json, run_lines
from ..cli.shipped import PATHS_NOTE
from ..cli.workers import worker_pool

EXAMPLES = """examples:
  dmcheck verify                              # the built-in corpus, every rules version
  dmcheck verify --rules 2023-01-01           # everything under the rules in force that day
  dmcheck verify --rulings scenarios/yours/rulings.yaml   # the built-in corpus plus your own statements
  dmcheck verify --rulings scenarios/yours/rulings.yaml --only Y1   # after editing Y1: Y1 alone, fast
  dmcheck verify --json > report.json
  dmcheck verify --write-baseline known.json  # accept today's findings ...
  dmcheck verify --baseline known.json --sarif out.sarif --junit out.xml   # ... and fail only on new ones
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add `verify` to the dmcheck subcommands."""
    p = subparsers.add_parser(
        "verify", help="check the rulings corpus: contradictions, readings, corpus agreement, properties (main job)",
        description="Check every rule statement and ruling of the corpus: run each ruling's scenarios under "
                    "every combination of interpretation readings (rules version of its date), find every "
                    "minimal set of rulings no reading satisfies and every minimal set of ordering constraints "
                    "that cannot hold together (Z3), the readings satisfying the most rulings, whether the "
                    "model's traces follow the constraints, and the built-in rules properties. A one-screen "
                    "summary comes first, then the findings, each with the command that replays its trace; "
                    "--details adds every ruling with its citations and traces.",
        epilog=EXAMPLES + PATHS_NOTE + "\n" + HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rules", metavar="DATE", help="check everything under the rules in force on DATE (YYYY-MM-DD)")
    p.add_argument("--rulings", action="append", default=[], metavar="FILE",
                   help="also check the statements of this rulings file (the format of scenarios/corpus.yaml); "
                        "repeatable")
    p.add_argument("--only", action="append", default=[], metavar="ID-or-PATTERN",
                   help="check only these statements (an id, ID@SOURCE or a pattern like 'X*'; repeatable): "
                        "their rulings, their contradictions with the corpus, their corpus agreement and properties, "
                        "everything else read from the result cache a whole verify leaves (DMCHECK_CACHE_DIR; "
                        "docs/corpus.md)")
    p.add_argument("--json", action="store_true",
                   help="print the report as one JSON object with schema_version (docs/scenario-format.md)")
    p.add_argument("--summary", action="store_true", help="print only the one-screen summary, not the findings")
    p.add_argument("--details", action="store_true",
                   help="after the findings, every ruling with its citations and traces, every contradiction, "
                        "reading and property (always in --json)")
    add_limit_options(p, depth=False, seconds_help="bound each exploration; one that runs out is inconclusive")
    add_jobs_option(p, "runs' checks (corpus agreement, properties) beside one process that loads the scenarios "
                       "and checks the declarative consistency; Z3's questions about the readings stay in "
                       "the main process")
    ci = p.add_argument_group("CI (docs/ci.md)")
    ci.add_argument("--baseline", metavar="FILE",
                    help="accept the findings recorded in FILE: report only new ones, exit 0 when none is new "
                         "(3 if something could not be checked)")
    ci.add_argument("--write-baseline", metavar="FILE", help="record this run's findings in FILE (JSON)")
    ci.add_argument("--sarif", metavar="OUT", help="also write the findings as SARIF 2.1.0 (code scanning)")
    ci.add_argument("--junit", metavar="OUT", help="also write JUnit XML: each ruling a test case, then each finding")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    rules = rules_date(args.rules) if args.rules else None
    accepted = ci_formats.read_baseline(args.baseline) if args.baseline else None   # bad file: before the work
    n = jobs(args)
    sofar = Sofar()
    stop.when_stopped(lambda out, err, why: stopped(args, sofar, out, err, why))
    # the work gets 85 % of what remains of the budget, the report the rest (docs/limits.md)
    if args.only:
        report = verify_only(args.rulings, args.only, rules, limits(args), progress=phase_printer(err, "verify"),
                             deadline=stop.deadline(0.85))
    else:
        report = verify(args.rulings, rules, limits(args), progress=phase_printer(err, "verify"),
                        workers=worker_pool if n > 1 else None, jobs=n, deadline=stop.deadline(0.85), sofar=sofar)
    if report.redone:
        print(f"dmcheck: a worker process died (killed: out of memory?); this process did its work again: "
              f"{', '.join(report.redone)}", file=err)
    found = ci_formats.findings(report)
    comparison = ci_formats.compare(found, accepted) if accepted is not None else None
    code = exit_of(args, report, comparison)
    if args.json:
        data = report_json(report, code)
        if comparison is not None:
            data["baseline"] = baseline_json(args.baseline, comparison)
        print_json(document("verify", **data), out)
    else:
        lines = summary_lines(report, code)
        if comparison is not None:
            lines += baseline_lines(args.baseline, comparison)
        elif not args.summary:
            lines += finding_lines(found)
        if args.details:
            lines += detail_lines(report)
        print("\n".join(lines), file=out)
    write_ci_files(args, report, found, accepted)
    return code


def exit_of(args: argparse.Namespace, report, comparison) -> int:
    """The exit status, which every line that prints one prints: with --write-baseline the findings are
    recorded as accepted (only an incomplete run is news); with --baseline only new ones count."""
    if args.write_baseline:
        return Exit.OK if report.complete() else Exit.INCOMPLETE
    if comparison is None:
        return report.exit_code()
    return Exit.FINDING if comparison.new else Exit.OK if report.complete() else Exit.INCOMPLETE


def stopped(args: argparse.Namespace, sofar: Sofar, out: TextIO, err: TextIO, why: str) -> bool:
    """Ctrl-C or the time budget's watchdog stopped verify in the middle: the report of what it finished
    (the rulings run with their verdicts, the contradictions of the phases done), naming every ruling and
    phase not finished (all of them before the corpus was read)."""
    report = sofar.report()
    left = list(report.not_finished) if report is not None else list(EVERYTHING)
    if args.json:
        data = report_json(report) if report is not None else {}
        print_json(document("verify", **dict(data, complete=False, stopped=why, not_finished=left)), out)
    elif report is not None:
        print("\n".join(summary_lines(report)), file=out)
    print(f"dmcheck: {why}: the results are incomplete; not finished: {', '.join(left)}", file=err)
    return True


def finding_lines(found) -> list[str]:
    """Every finding, a few lines each: what it is, where, and the command that replays its trace."""
    lines = ["", "== " + tr("Findings ({n}; --details gives each ruling with its citations and traces)", n=len(found))]
    for f in found:
        lines.append(f"* {f.kind}: {f.message}")
        if f.file:
            lines.append("    " + tr("at {where}", where=f"{ci_formats.relative(f.file)}:{f.line}"))
        if f.replay and f.scenario:
            lines.append("    " + tr("replay: {command}", command=ci_formats.replay_of(f)))
    return lines


def write_ci_files(args: argparse.Namespace, report, found, accepted) -> None:
    if args.write_baseline:
        ci_formats.write_baseline(args.write_baseline, found)
    if args.sarif:
        data = ci_formats.sarif(found, _version(), accepted)
        Path(args.sarif).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.junit:
        ci_formats.write_xml(ci_formats.junit(report, found, accepted), args.junit)


def _version() -> str:
    try:
        return metadata.version("dmcheck-rules")
    except metadata.PackageNotFoundError:
        return "unknown"


def baseline_lines(path: str, c) -> list[str]:
    """What a baseline changes: the new findings in full, how many are known, which are gone."""
    lines = ["", f"== Baseline {path}: {len(c.new)} new finding{'s' if len(c.new) != 1 else ''}, "
                 f"{len(c.known)} known, {len(c.gone)} gone"]
    for f in c.new:
        lines.append(f"NEW {f.id}")
        lines.append(f"    {f.message}")
        if f.file:
            lines.append(f"    at {ci_formats.relative(f.file)}:{f.line}")
        if f.replay and f.scenario:
            lines.append(f"    replay: {ci_formats.replay_of(f)}")
    lines += [f"gone (in the baseline, not found now): {gid}" for gid in c.gone]
    return lines


def baseline_json(path: str, c) -> dict[str, Any]:
    return {"file": path, "new": [{"id": f.id, "kind": f.kind, "message": f.message} for f in c.new],
            "known": [f.id for f in c.known], "gone": list(c.gone)}


# ---- the report -------------------------------------------------------------------------------------

# ---- shared wording -------------------------------------------------------------------------------
def _sources(refs) -> list[str]:
    return sorted({r.split("@", 1)[1] for r in refs})


def _default_aside() -> set[str]:
    return set_aside(as_dict(default_combo()))


def _best_text(op) -> str:
    """The best combinations, compactly: per choice the readings they use."""
    if not op.best:
        return "none (the optimisation was inconclusive)"
    parts = []
    product = 1
    for i, c in enumerate(CHOICES):
        used = sorted({combo[i] for combo in op.best}, key=[r for r, _ in c.readings].index)
        product *= len(used)
        if len(used) == len(c.readings):
            parts.append(f"{c.name}: any")
        else:
            parts.append(f"{c.name}={'|'.join(used)}")
    if product != len(op.best):
        return "; ".join(show(b) for b in op.best)
    return "; ".join(parts)


def _group_conflicts(report) -> dict[tuple, list]:
    """Conflicts by the readings they arise under and what the default readings set aside of them."""
    aside = _default_aside()
    groups: dict[tuple, list] = defaultdict(list)
    for c in report.declarative.conflicts:
        groups[(c.readings, tuple(sorted(set(c.refs) & aside)))].append(c)
    return groups


def _versions_text(versions) -> str:
    return ", ".join(short(v) for v in versions)


def short(version_name: str) -> str:
    """`2023-04-19` for "2023-04-19 before-break may be interrupted"; other names as they are."""
    head = version_name.split(" ", 1)[0]
    return head if head[:1].isdigit() else version_name


def compress(refs) -> str:
    """`R509.3@S000|S001, D2@S002` for R509.3@S000, R509.3@S001, D2@S002."""
    by_id: dict[str, list[str]] = {}
    for ref in refs:
        sid, _, source = ref.partition("@")
        by_id.setdefault(sid, []).append(source)
    return ", ".join(f"{sid}@{'|'.join(sorted(sources))}" for sid, sources in by_id.items())


# ---- the summary ----------------------------------------------------------------------------------
def compress_names(names: list[str]) -> str:
    """`ruling A, ruling B, conformance` as `rulings A, B; conformance` (a line, not a column)."""
    refs = [n.removeprefix("ruling ") for n in names if n.startswith("ruling ")]
    phases = [n for n in names if not n.startswith("ruling ")]
    parts = ([f"{len(refs)} ruling{'s' if len(refs) != 1 else ''} ({compress(refs)})"] if refs else []) + phases
    return "; ".join(parts)


def _conflict_group_lines(report) -> list[str]:
    """The declarative sets by the readings they arise under and what the defaults set aside, a line each."""
    lines = []
    for (readings, resolved), members in _group_conflicts(report).items():
        refs = sorted({r for c in members for r in c.refs})
        versions = sorted({v for c in members for v in c.versions}, key=[v.name for v in report.versions].index)
        under = f" under {show(dict(readings), only_changed=False)}" if readings else ""
        off_default = [f"{k}={v}" for k, v in dict(readings).items() if v != defaults().get(k)]
        note = (tr("does not arise under the default readings") if off_default
                else tr("set aside by the default readings: {refs}", refs=", ".join(resolved)) if resolved
                else tr("NOT resolved by the default readings"))
        lines.append("  " + tr("declarative{under}, {versions}: {n} set{s} ({sources}) among {refs} — {note}",
                                under=tr(" under {readings}", readings=under[7:]) if under else "",
                                versions=_versions_text(versions), n=len(members), s="s" if len(members) > 1 else "",
                                sources=" vs ".join(_sources(refs)), refs=compress(refs), note=note))
    return lines


def summary_lines(report, code: int | None = None) -> list[str]:
    """The one-screen summary; `code` is the exit status the command returns (the report's own if not given)."""
    op = report.operational
    lines = _heading(report) + [_rulings_line(report)] + _unposed_summary(report)
    phases = (("declarative", "declarative consistency (Z3)"),
              ("operational", "best readings and operational contradictions (Z3)"))
    unchecked = [what for what, phase in phases if phase in report.not_finished]
    dec = report.declarative
    lines.append(tr("contradictions{holding}: {n} minimal sets ({d} declarative, {o} operational)",
                    holding=tr(" holding them") if report.only else "", n=len(dec.conflicts) + len(op.conflicts),
                    d=len(dec.conflicts), o=len(op.conflicts))
                 + (tr("; not looked for: {what} (the time limit came first)", what=", ".join(unchecked))
                    if unchecked else ""))
    lines += _conflict_group_lines(report)
    if op.conflicts:
        lines.append("  " + tr("operational: {sets} ({sources}): no combination of readings satisfies a set together",
                                sets="; ".join(" + ".join(c.refs) for c in op.conflicts),
                                sources=" vs ".join(_sources({r for c in op.conflicts for r in c.refs}))))
    lines += _readings_and_agreement(report)
    pc = report.property_counts()
    lines.append(tr("properties: {runs} runs x built-in properties: {holds} hold, {violated} violated, {unsure} "
                    "inconclusive, {none} without an example ({na} not applicable)", runs=len(report.properties),
                    holds=pc["holds"], violated=pc["violated"], unsure=pc["inconclusive"], none=pc["no example"],
                    na=pc["not_applicable"]))
    n_scen = len(report.scenario_files())
    lines.append(tr("figures: {scenarios} scenarios; {runs} runs (each ruling's scenarios x {combos} combinations of "
                    "readings), {explored} of them explored ({states} states), the others reused; Z3 {z3}s of CPU "
                    "(all processes); total {wall}s wall", scenarios=n_scen, runs=report.runner.lookups,
                    combos=len(op.table[next(iter(op.table))]) if op.table else 0,
                    explored=report.runner.explorations, states=report.states(), z3=f"{report.solver_seconds:.2f}",
                    wall=f"{report.seconds:.2f}"))
    incomplete = [why for ok, why in ((op.complete, op.reason), (dec.complete, dec.reason),
                                      (report.agreement.complete, report.agreement.reason)) if not ok]
    if report.not_finished:
        lines.append(tr("not finished (the time limit came first): {what}", what=compress_names(report.not_finished)))
    elif incomplete:
        lines.append(tr("inconclusive: ") + "; ".join(incomplete))
    return lines + yours_lines(report) + [_result_line(report, code)]


def _heading(report) -> list[str]:
    corpus = report.corpus
    versions = _versions_text([v.name for v in report.versions])
    files = tr(" (with {files})", files=", ".join(report.extra_files)) if report.extra_files else ""
    if report.only is None:
        return ["dmcheck verify: " + tr("{n} statements from {sources}{files}; rules versions: {versions}",
                                        n=len(corpus.statements), sources=", ".join(corpus.sources()), files=files,
                                        versions=versions)]
    only = report.only
    return ["dmcheck verify --only: " + tr("{refs}, against the {n} statements of the corpus{files}; rules versions: "
                                          "{versions}", refs=compress(only.refs), n=len(corpus.statements),
                                          files=files, versions=versions),
            tr("result cache: {reused} other rulings' results read back, {worked} worked out now ({where})",
               reused=only.reused, worked=only.worked_out,
               where=only.cache + ("" if only.saved or only.cache == "off" else tr(", not written")))]


def _rulings_line(report) -> str:
    rulings, failing, unsure = report.operational.rulings, report.failing(), report.unsure()
    line = tr("rulings (default readings): {held} of {n} hold", held=len(rulings) - len(failing) - len(unsure),
              n=len(rulings))
    if failing:
        line += tr("; FAIL: {refs}", refs=", ".join(s.ref for s in failing))
    if unsure:
        line += tr("; inconclusive: {refs}", refs=", ".join(s.ref for s in unsure))
    return line


def _readings_and_agreement(report) -> list[str]:
    op, conf = report.operational, report.agreement
    lines = []
    if report.only is not None:
        lines.append(tr("best readings, witness orders: not asked with --only (they are about the whole corpus)"))
    elif not op.solved:
        lines.append(tr("best readings: not finished (the time limit came first)"))
    else:
        lines.append(tr("best readings (every combination counted): {count} of {n} rulings hold under {k} "
                        "combination{s}{defaults}: {best}", count=op.best_count, n=len(op.rulings), k=len(op.best),
                        s="s" if len(op.best) != 1 else "",
                        defaults=tr(" (the defaults among them)") if default_combo() in op.best else "",
                        best=_best_text(op)))
    runs = len(report.runner.runs()) + (len(report.only.records) if report.only is not None else 0)
    witness = "" if report.only is not None else tr("; witness orders: {seen} pairs shown by the model, {never} never "
                                                    "in the witness's order", seen=conf.pairs_seen,
                                                    never=len(conf.unreached))
    lines.append(tr("corpus agreement: {orders} milestone orders of {runs} runs, {checks} constraint checks: {n} "
                    "violation{s}{witness}", orders=conf.orders_checked, runs=runs, checks=conf.constraints_checked,
                    n=len(conf.violations), s="s" if len(conf.violations) != 1 else "", witness=witness))
    return lines


def _result_line(report, code: int | None) -> str:
    code = report.exit_code() if code is None else code
    found, reported = report.findings(), report.exit_code()
    if reported == 1 and code != 1:      # --write-baseline accepts them; --baseline knows them all
        return tr("result: {n} findings, accepted by the baseline (exit {code})", n=found, code=code)
    if reported == 1:
        return tr("result: {n} findings (exit {code})", n=found, code=1)
    return tr({0: "result: nothing found (exit {code})",
               3: "result: nothing found, but not everything could be checked (exit {code})"}[reported], code=code)


def unposed(report) -> list:
    """The statements no scenario poses: checked by their ordering constraints alone, or not at all
    (with --only, among those asked for)."""
    return [s for s in report.corpus.statements
            if not s.scenarios and (report.only is None or s.ref in report.only.refs)]


def _unposed_summary(report) -> list[str]:
    found = unposed(report)
    if not found:
        return []
    declarative = sum(1 for s in found if s.declarative())
    return [tr("not checked: no scenario: {n} statements ({d} checked only by their ordering constraints: Z3 and "
               "corpus agreement; {u} unchecked, each with its reason{which})", n=len(found), d=declarative,
               u=len(found) - declarative,
               which=tr("; --details lists them") if len(found) > 3 else ": " + ", ".join(s.ref for s in found))]


def _why_unposed(s) -> str:
    return tr("its ordering constraints only") if s.declarative() else tr("unchecked: {why}", why=s.unchecked)


def yours_lines(report) -> list[str]:
    """The findings a user's own statements (--rulings) cause, one line each: what their CI is about."""
    if not report.extra_files:
        return []
    mine = {s.ref for s in report.corpus.statements if not s.builtin}
    found = [f for f in report.finding_list() if f.refs and f.refs[0] in mine]
    alone = ["  " + tr("not checked: no scenario: {ref} ({why})", ref=s.ref, why=_why_unposed(s))
             for s in unposed(report) if s.ref in mine]
    files = ", ".join(report.extra_files)
    if not found:
        return [tr("your statements ({files}): no finding", files=files)] + alone
    return ([tr("your statements ({files}): {n} of the findings", files=files, n=len(found))]
            + [f"  {f.kind}: {f.message}" for f in found] + alone)


# ---- the details ----------------------------------------------------------------------------------
def _expect(verdict) -> str:
    return expect_text(verdict.expectation.raw)


def _indent(lines, n: int) -> list[str]:
    return [" " * n + line for line in lines]


def _statement_lines(report, ref: str, readings: dict | None = None) -> list[str]:
    s = report.corpus.get(ref)
    if s is None:
        return [f"- {ref}"]
    out = [f"- {s.citation()}: {s.text}"]
    cs = s.constraints(readings)
    if cs:
        out.append(f"    constraints: {'; '.join(map(str, cs))}")
    return out


def detail_lines(report) -> list[str]:
    """Everything behind the summary, section by section, with citations and traces."""
    out: list[str] = []
    for section in (_ruling_lines, _unposed_lines, _declarative_lines, _operational_lines, _readings_lines,
                    _witness_lines, _agreement_lines, _property_lines):
        out += section(report)
    return out


def _ruling_lines(report) -> list[str]:
    op = report.operational
    out = ["", "== " + tr("Rulings under the default readings (each in the rules version of its date)")]
    for s in op.rulings:
        v = op.default(s.ref)
        version = s.run_version(report.rules)
        where = version.name if version else "the scenario's own rules"
        mark = tr({"holds": "ok  ", "violated": "FAIL", "inconclusive": "??  "}[v.verdict])
        out.append(f"{mark} {s.ref} [{where}] {s.text}")
        if v.verdict != "holds" and v.failed is not None:
            out.append(f"     {v.run.file.name}: {_expect(v.failed)} — {v.failed.reason}")
            if v.trace is not None:
                out.append("     " + (tr("shortest trace:") if v.failed.trace is not None else
                                      tr("(an absence has no counterexample; the shortest complete trace:)")))
                out.extend(_indent(run_lines(v.trace, v.run, v.combo), 7))
    return out


def _unposed_lines(report) -> list[str]:
    found = unposed(report)
    out = ["", "== " + tr("Not checked: no scenario poses these {n} statements", n=len(found))]
    out += [f"- {s.ref}: {_why_unposed(s)}" for s in found]
    return out


def _declarative_lines(report) -> list[str]:
    dec = report.declarative
    aside = _default_aside()
    out = ["", "== " + tr("Declarative contradictions ({n} minimal sets of ordering constraints)",
                          n=len(dec.conflicts))]
    for c in dec.conflicts:
        under = f" under {show(dict(c.readings), only_changed=False)}" if c.readings else ""
        out.append(f"* {' + '.join(c.refs)}{under} — in {_versions_text(c.versions)}; "
                   + ("the default readings set aside " + ", ".join(sorted(set(c.refs) & aside))
                      if set(c.refs) & aside else "not resolved by the default readings"))
        for ref in c.refs:
            out.extend(_indent(_statement_lines(report, ref, dict(c.readings) or None), 2))
        played = report.played.get(c.refs, [])
        for p in played:
            out.append(f"  how it plays out: the model breaks {p.ref} in {p.run.file.name} "
                       f"({p.run.version.name}): {show_order(p.groups)}")
            out.extend(_indent(run_lines(p.run.graph.trace_of(p.path), p.run, default_combo()), 6))
        if not played:
            out.append("  how it plays out: no trace of the scenarios breaks a member "
                       "(no scenario shows the situation)")
    return out


def _operational_lines(report) -> list[str]:
    op = report.operational
    out = ["", "== " + tr("Operational contradictions ({n} minimal sets of rulings)", n=len(op.conflicts))]
    for c in op.conflicts:
        out.append(f"* {' + '.join(c.refs)}: no combination of readings satisfies them together")
        for ref in c.refs:
            out.extend(_indent(_statement_lines(report, ref), 2))
        for f in c.failures:
            out.append(f"  {f.statement.ref} fails under {show(f.combo)} (which satisfy the others): "
                       f"{f.run.file.name}: " + (f"{_expect(f.failed)} — {f.failed.reason}" if f.failed else f.reason))
            if f.trace is not None:
                out.extend(_indent(run_lines(f.trace, f.run, f.combo), 6))
    return out


def _readings_lines(report) -> list[str]:
    op = report.operational
    out = ["", "== " + tr("Interpretation readings")]
    for i, c in enumerate(CHOICES):
        out.append(f"- {c.name}: {c.question}")
        for r, why in c.readings:
            best = max((op.count(k) for k in op.table[next(iter(op.table))] if k[i] == r), default=0) if op.table else 0
            mark = " (default)" if r == c.default else ""
            out.append(f"    {r}{mark}: at most {best} of {len(op.rulings)} rulings — {why}")
        out.append(f"    why the default: {c.why_default}")
    out.append(f"  best (every combination counted, {op.best_count} of {len(op.rulings)}): "
               + "; ".join(show(b) for b in op.best))
    return out


def _witness_lines(report) -> list[str]:
    dec = report.declarative
    out = ["", "== " + tr("Witness orders (one order satisfying what the default readings follow, per version)")]
    for w in dec.witnesses:
        out.append(f"- {w.version}: {w.text() or '(no ordering constraint in force)'}")
        if w.set_aside:
            out.append(f"    set aside by the default readings: {', '.join(w.set_aside)}")
        if w.dropped:
            out.append(f"    dropped to stay satisfiable (Optimize): {', '.join(w.dropped)}")
    return out


def _agreement_lines(report) -> list[str]:
    conf = report.agreement
    default = default_combo()
    out = ["", "== " + tr("Corpus agreement: {n} violations, {u} unreached witness pairs", n=len(conf.violations),
                          u=len(conf.unreached))]
    for v in conf.violations:
        readings = ("the default readings" if default in v.combos
                    else f"{len(v.combos)} combinations, e.g. {show(v.combos[0])}")
        out.append(f"* {v.statement.ref}: {v.constraint} broken in {v.run.file.name} "
                   f"({v.run.version.name}; {readings})")
        out.append(f"    milestones: {show_order(v.groups)}")
        out.extend(_indent(run_lines(v.trace(), v.run, v.combos[0]), 4))
    for u in conf.unreached:
        out.append(f"* {u.version}: the statements allow {u.before} before {u.after}; the model never does "
                   f"(e.g. {u.run.file.name}: {show_order(u.groups)})")
        out.extend(_indent(run_lines(u.trace(), u.run, default_combo()), 4))
    return out


def _property_lines(report) -> list[str]:
    out = ["", "== " + tr("Rules properties (dmcheck check) on every run under the default readings")]
    per: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    bad = []
    for p in report.properties:
        for v in p.result.verdicts:
            per[v.property.id][v.verdict] += 1
            if v.verdict != "holds":
                bad.append((p, v))
        for prop, _ in p.result.not_applicable:
            per[prop.id]["not applicable"] += 1
    for pid, counts in per.items():
        out.append(f"- {pid}: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
    for p, v in bad:
        out.append(f"* {v.property.id} {v.verdict} on {p.run.file.name} ({p.run.version.name}): {v.reason}")
        if v.trace is not None and v.verdict == VIOLATED:
            out.extend(_indent(run_lines(v.trace, p.run, default_combo()), 4))
    return out


# ---- JSON -----------------------------------------------------------------------------------------
def _trace_json(trace) -> dict[str, Any] | None:
    if trace is None:
        return None
    return _trace_fields(trace)


def _trace_fields(trace) -> dict[str, Any]:
    return {"replay": trace.key(), "events": trace.to_json()}


def report_json(report, code: int | None = None) -> dict[str, Any]:
    """The whole report as data (the keys README and docs/corpus.md describe); `code`: the exit status
    the command returns."""
    combos = list(report.operational.table[next(iter(report.operational.table))]) if report.operational.table else []
    return {
        "rulings": _rulings_json(report),
        "contradictions": _declarative_json(report) + _operational_json(report),
        "readings": _readings_json(report, combos),
        "properties": _properties_json(report),
        "conformance": _agreement_json(report),   # the JSON key keeps its name
        "witnesses": [{"rules": w.version, "order": w.order(), "set_aside": list(w.set_aside),
                       "dropped": list(w.dropped), "verdict": w.verdict} for w in report.declarative.witnesses],
        "summary": _summary_json(report, combos, report.exit_code() if code is None else code),
        "complete": report.complete(),
        "not_finished": list(report.not_finished),
    }


def _rulings_json(report) -> list[dict[str, Any]]:
    op, dec = report.operational, report.declarative
    default = default_combo()
    in_conflict: dict[str, list[str]] = defaultdict(list)
    for c in dec.conflicts:
        for ref in c.refs:
            in_conflict[ref].append("declarative")
    for c in op.conflicts:
        for ref in c.refs:
            in_conflict[ref].append("operational")
    rulings = []
    for s in report.corpus.statements:
        v = op.table.get(s.ref, {}).get(default) if s.scenarios else None
        version = s.run_version(report.rules)
        rulings.append({
            "id": s.id, "source": s.source, "ref": s.ref, "date": s.date.isoformat() if s.date else None,
            "text": s.text,
            "holds": None if v is None else (v.verdict == "holds" if v.verdict != "inconclusive" else None),
            "verdict": None if v is None else v.verdict,
            "rules": version.name if version else None,
            "scenarios": [p.name for p in s.scenarios],
            "constraints": [str(c) for c in s.constraints()],
            "trace": _trace_json(v.trace) if v is not None and v.verdict == VIOLATED else None,
            "failed_expectation": v.failed.expectation.raw if v is not None and v.failed is not None else None,
            "reason": v.reason if v is not None else (s.unchecked or ("declarative only" if s.declarative() else "")),
            "contradictions": sorted(set(in_conflict.get(s.ref, []))),
        })
    return rulings


def _constraints_sentence(report, ref: str, readings: dict[str, str] | None) -> str:
    """The statement's constraints under the readings, as one sentence led by its reference."""
    return f"{ref}: {'; '.join(map(str, report.corpus.get(ref).constraints(readings)))}."


def _declarative_json(report) -> list[dict[str, Any]]:
    aside = _default_aside()
    out = []
    for c in report.declarative.conflicts:
        out.append({
            "kind": "declarative", "ids": list(c.refs), "sources": _sources(c.refs), "versions": list(c.versions),
            "readings": dict(c.readings),
            "resolved_by_default_readings": bool(set(c.refs) & aside)
            or any(v != defaults().get(k) for k, v in dict(c.readings).items()),
            "set_aside_by_default": sorted(set(c.refs) & aside),
            "explanation": " ".join(_constraints_sentence(report, ref, dict(c.readings) or None) for ref in c.refs)
            + " These constraints cannot hold together.",
            "statements": [{"ref": ref, "text": report.corpus.get(ref).text} for ref in c.refs],
            "traces": [{"ref": p.ref, "scenario": p.run.file.name, "rules": p.run.version.name,
                        "milestones": show_order(p.groups), **_trace_fields(p.run.graph.trace_of(p.path))}
                       for p in report.played.get(c.refs, [])],
        })
    return out


def _operational_json(report) -> list[dict[str, Any]]:
    return [{
        "kind": "operational", "ids": list(c.refs), "sources": _sources(c.refs),
        "explanation": "no combination of interpretation readings satisfies these rulings together; each "
                       "trace shows one failing under readings that satisfy the others",
        "statements": [{"ref": ref, "text": report.corpus.get(ref).text} for ref in c.refs],
        "traces": [{"ref": f.statement.ref, "readings": as_dict(f.combo), "scenario": f.run.file.name,
                    "expectation": f.failed.expectation.raw if f.failed else None,
                    "reason": f.failed.reason if f.failed else f.reason,
                    **(_trace_json(f.trace) or {})} for f in c.failures],
    } for c in report.operational.conflicts]


def _readings_json(report, combos: list) -> dict[str, Any]:
    op = report.operational
    default = default_combo()
    counts = {k: op.count(k) for k in combos}    # each combination counted once, not once per reading
    return {
        "best": [{"readings": as_dict(b), "satisfied": op.best_count, "of": len(op.rulings)} for b in op.best],
        "default": {"readings": as_dict(default), "satisfied": op.count(default) if op.table else 0},
        "choices": [{"name": c.name, "question": c.question, "default": c.default, "why_default": c.why_default,
                     "readings": [{"reading": r, "sources": why, "sets_aside": list(c.set_aside(r)),
                                   "best_satisfied": max((counts[k] for k in combos if k[i] == r), default=0)}
                                  for r, why in c.readings]} for i, c in enumerate(CHOICES)],
        "combinations": [{"readings": as_dict(k), "satisfied": counts[k]} for k in combos],
    }


def _properties_json(report) -> list[dict[str, Any]]:
    def entry(prop) -> dict[str, Any]:
        return per.setdefault(prop.id, {"id": prop.id, "citations": list(prop.citations), "holds": 0,
                                        "violated": 0, "inconclusive": 0, "no example": 0, "not_applicable": 0,
                                        "violations": []})

    per: dict[str, dict[str, Any]] = {}
    for p in report.properties:
        for v in p.result.verdicts:
            found = entry(v.property)
            found[v.verdict] += 1
            if v.verdict == VIOLATED:
                found["violations"].append({"scenario": p.run.file.name, "rules": p.run.version.name,
                                            "reason": v.reason, "trace": _trace_json(v.trace)})
        for prop, _ in p.result.not_applicable:
            entry(prop)["not_applicable"] += 1
    return list(per.values())


def _agreement_json(report) -> dict[str, Any]:
    conf = report.agreement
    default = default_combo()
    return {
        "violations": [{"ref": v.statement.ref, "constraint": str(v.constraint), "scenario": v.run.file.name,
                        "rules": v.run.version.name, "default_readings": default in v.combos,
                        "readings": [as_dict(k) for k in v.combos], "milestones": show_order(v.groups),
                        "trace": _trace_json(v.trace())} for v in conf.violations],
        "unreached": [{"rules": u.version, "before": u.before, "after": u.after, "scenario": u.run.file.name,
                       "milestones": show_order(u.groups), "trace": _trace_json(u.trace())}
                      for u in conf.unreached],
        "orders_checked": conf.orders_checked, "constraints_checked": conf.constraints_checked,
        "pairs_checked": conf.pairs_checked, "pairs_seen": conf.pairs_seen,
    }


def _summary_json(report, combos: list, code: int) -> dict[str, Any]:
    op, dec, conf = report.operational, report.declarative, report.agreement
    return {
        "statements": len(report.corpus.statements), "sources": report.corpus.sources(),
        "rulings": len(op.rulings), "rulings_holding": len(op.rulings) - len(report.failing()) - len(report.unsure()),
        "rulings_failing": [s.ref for s in report.failing()],
        "not_checked_no_scenario": [s.ref for s in unposed(report)],
        "contradictions": {"declarative": len(dec.conflicts), "operational": len(op.conflicts)},
        "conformance_violations": len(conf.violations), "unreached_pairs": len(conf.unreached),
        "properties": report.property_counts(),
        "scenarios": len(report.scenario_files()), "explorations": report.runner.explorations,
        "runs": report.runner.lookups, "combinations": len(combos), "states": report.states(),
        "solver_seconds": round(report.solver_seconds, 3), "seconds": round(report.seconds, 3),
        "findings": report.findings(), "complete": report.complete(), "exit": code,
        "lines": summary_lines(report, code),
    }


__all__ = ["summary_lines", "detail_lines", "report_json", "Combo"]
