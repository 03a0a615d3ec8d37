"""The `dmcheck check` command: explore each scenario, then check the rules properties on it with Z3.

It exists so the properties of `properties/` (built in, plus a user's `--properties FILE`) are run the
way `explore` runs expectations: per file, text for people or JSON for tools, the shortest
counterexample for every violated property, and the same exit codes (0 all hold, 1 a finding, 2 bad
input, 3 inconclusive). The parser is added to the main one by `add_parser`.
"""

from __future__ import annotations

import argparse
import contextlib
from typing import Any, TextIO

from dmcheck.model.cards import CardPool
from dmcheck.model.errors import InputError, did_you_mean
from dmcheck.model.lang import tr
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.builtin import BUILTIN
from dmcheck.properties.checker import QUERY_TIMEOUT_MS, VIOLATED, CheckResult, PropertyVerdict, check
from dmcheck.properties.expectations import check as check_expectation
from dmcheck.properties.facts import describe_vocabulary
from dmcheck.properties.property import Property
from dmcheck.properties.property_file import check_card_names, load_properties

from ..cli import stop, tally
from ..cli.exits import HELP, combine, exit_code
from ..cli.options import (
    FileResult,
    add_ci_options,
    add_jobs_option,
    add_search_options,
    expand,
    explore_scenario,
    input_error,
    loaded,
    overrides,
    report_files,
)
from ..cli.report import trace_text
from ..cli.shipped import PATHS_NOTE
from .explore import add_watch_option, check_outputs, explore_json, explore_text, write_outputs

EXAMPLES = """examples:
  dmcheck check scenarios/rulings/               # a directory: its *.yaml files
  dmcheck check scenarios/rulings/Q06_winter_spiral.yaml --property chosen-shields-still-break
  dmcheck check scenarios/rulings/ --properties scenarios/yours/properties.yaml --json
  dmcheck check --list
  dmcheck check --list scenarios/rulings/Q06_winter_spiral.yaml   # also the card names its formulas can use
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add `check` to the dmcheck subcommands."""
    p = subparsers.add_parser(
        "check", help="explore scenarios and check the rules properties on every ordering (Z3)",
        description="Explore every legal ordering of each scenario, then check each rules property that "
                    "applies to its rules version on every state, transition or outcome with Z3: holds, "
                    "violated (with the shortest counterexample and the Z3 model that witnessed it) or "
                    "inconclusive (the search hit a limit, or the solver said unknown). The scenario's own "
                    "`expect` items are checked too.",
        epilog=EXAMPLES + PATHS_NOTE + "\n" + HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="*", metavar="FILE", help="scenario YAML files, or directories of them")
    p.add_argument("--property", action="append", default=[], metavar="ID",
                   help="check only this property (repeatable); --list shows the ids")
    p.add_argument("--properties", action="append", default=[], metavar="FILE",
                   help="also check the properties of this YAML file (see docs/properties.md)")
    p.add_argument("--list", action="store_true",
                   help="list the properties and the fact vocabulary, and the card names a formula can use "
                        "in each FILE given, then exit")
    p.add_argument("--solver-timeout", type=int, default=QUERY_TIMEOUT_MS, metavar="MS",
                   help="bound each Z3 query; one that runs out makes its property inconclusive")
    p.add_argument("--html", metavar="OUT.html",
                   help="also write one self-contained page with the outcomes, expectation and property verdicts, "
                        "traces, the state graph and a click-through explorer (docs/html.md); one FILE only")
    add_watch_option(p)
    add_search_options(p)
    add_jobs_option(p)
    add_ci_options(p)
    p.set_defaults(run=run)
    return p


def _properties(args: argparse.Namespace) -> list[Property]:
    props = list(BUILTIN)
    for file in args.properties:
        props += load_properties(file, {p.id for p in props})
    if args.property:
        known = {p.id for p in props}
        for pid in args.property:
            if pid not in known:
                raise InputError("--property", None, pid, "unknown property id" + did_you_mean(pid, known)
                                 + "; expected one of " + ", ".join(sorted(known)))
        props = [p for p in props if p.id in args.property]
    return props


def _card_pools(props: list[Property], files: list[str]) -> list[CardPool]:
    """The pools a property's cards may come from: the built-in one, and when a formula names a card
    outside it, every scenario's own (a scenario that cannot be read is reported when its turn comes)."""
    builtin = CardPool.builtin()
    if all(builtin.resolve(c.partition("#")[0]) for p in props for c in p.cards):
        return [builtin]
    pools = [builtin]
    for file in expand(files):
        with contextlib.suppress(InputError):
            pools.append(load_scenario(file).pool)
    return pools


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    props = _properties(args)
    check_card_names(props, _card_pools(props, args.files))   # a card in no pool is a typo: before any work
    if args.list:
        print("\n".join(_list(props)), file=out)
        codes: list[int] = []
        for file, scenario in loaded(args.files, overrides(args), err, codes):
            print("\n".join(card_names(file, BreakModel(scenario))), file=out)
        return combine(codes)
    if not args.files:
        raise InputError("check", None, "", "expected at least one scenario FILE (or --list)")
    overrides(args)   # bad --rules / --interpretation values stop the command before any file
    check_outputs(args)
    return report_files("check", _check_file, args, out, err)


def _check_file(args: argparse.Namespace, file: str, err: TextIO) -> FileResult:
    """One scenario file explored and checked (in a worker process under --jobs: the properties are
    loaded there again, Z3 terms do not travel between processes)."""
    result = FileResult()
    try:
        props = _properties(args)
        for path, scenario in loaded([file], overrides(args), err, result.codes, result.errors):
            # the search gets half of what remains, the properties three quarters of what is left then,
            # the report the rest (docs/limits.md)
            graph = explore_scenario(scenario, args, err, path, props, share=0.5)
            expectations = [check_expectation(graph, item) for item in scenario.expect]
            checked = check(graph, props, args.solver_timeout, stop.deadline(0.75))
            write_outputs(args, scenario, graph, expectations, checked)
            if args.json:
                result.report = check_json(scenario, graph, expectations, checked)
            else:
                result.text = "\n".join(check_text(scenario, graph, expectations, checked))
            result.codes.append(exit_code(graph, [v.verdict for v in expectations]
                                          + [v.verdict for v in checked.verdicts]))
            result.record = tally.record(scenario, result.codes[-1], expectations, checked)
    except InputError as exc:
        result.error = input_error(exc)
    return result


# ---- reports ---------------------------------------------------------------------------------------
def _solver_json(counts) -> dict[str, Any]:
    return {"queries": counts.queries, "cache_hits": counts.cache_hits, "projections": counts.projections,
            "items": counts.items, "seconds": round(counts.seconds, 4)}


def verdict_json(v: PropertyVerdict) -> dict[str, Any]:
    p = v.property
    out: dict[str, Any] = {
        "id": p.id, "text": p.text, "citations": list(p.citations), "kind": p.kind, "over": p.over,
        "rules": p.rules_text(), "origin": p.origin, "verdict": v.verdict, "reason": v.reason,
        "trace": v.trace.to_json() if v.trace is not None and v.verdict == VIOLATED else None,
        "facts": list(v.symbols), "solver": _solver_json(v.counts),
    }
    if v.trace is not None:
        if v.verdict != VIOLATED:
            out["witness"] = v.trace.to_json()
        out["replay"] = v.trace.key()
        out["model"] = dict(v.witness)
    return out


def check_json(scenario, graph, expectations, result: CheckResult) -> dict[str, Any]:
    out = explore_json(scenario, graph, expectations)
    out["properties"] = [verdict_json(v) for v in result.verdicts]
    out["not_applicable"] = [{"id": p.id, "reason": why} for p, why in result.not_applicable]
    out["solver"] = dict(_solver_json(result.counts), facts_seconds=round(result.facts_seconds, 4))
    out["explore_seconds"] = round(graph.seconds, 4)
    out["check_seconds"] = round(result.seconds, 4)
    return out


_MARK = {"holds": "ok  ", "violated": "FAIL", "inconclusive": "??  ", "no example": "--  "}


def check_text(scenario, graph, expectations, result: CheckResult) -> list[str]:
    lines = explore_text(scenario, graph, expectations, show_outcomes=False)
    lines.append("   " + tr("properties ({n} checked, {na} not applicable):", n=len(result.verdicts),
                                na=len(result.not_applicable)))
    for v in result.verdicts:
        p = v.property
        lines.append(f"   {tr(_MARK[v.verdict])} {p.id} [{', '.join(p.citations)}] {tr(p.label)} — {v.reason}")
        if v.verdict == VIOLATED and v.trace is not None:
            lines.append(f"        {p.text}")
            lines.append("        " + tr("shortest counterexample:"))
            lines.extend("        " + line for line in trace_text(v.trace))
            lines.append("        " + tr("Z3 model: ") + "; ".join(f"{k} = {val}" for k, val in v.witness))
        elif v.trace is not None:
            lines[-1] += " " + tr("[replay {key}]", key=v.trace.key())
    for p, why in result.not_applicable:
        lines.append("   --   " + tr("{id}: not applicable ({why})", id=p.id, why=why))
    c = result.counts
    ratio = result.seconds / graph.seconds if graph.seconds > 0 else float("inf")
    lines.append(f"   solver: {c.projections} distinct projections of {c.items} items, {c.queries} answered now "
                 f"(the others known from this check or an earlier one of the same cards), {c.seconds:.3f}s; "
                 f"facts {result.facts_seconds:.3f}s; "
                 f"check {result.seconds:.3f}s vs explore {graph.seconds:.3f}s (x{ratio:.1f})")
    return lines


def card_names(file: str, model) -> list[str]:
    """The cards of a scenario as a formula names them (quoted symbols of sort Card), with each
    card's owner and starting zone, for `check --list FILE`."""
    start = model.initial_state()
    lines = [f"cards of {file} (write them in a formula as quoted symbols, e.g. (= (zone_of |X|) hand)):"]
    for inst in model.instances:
        where = start.zone(inst.owner).where(inst.id) or "nowhere"
        lines.append(f"  |{inst.label}| : Card — {model.name(inst.id)}, {inst.owner}'s, starts in {where}")
    return lines


def _list(props: list[Property]) -> list[str]:
    lines = ["properties:"]
    for p in props:
        lines.append(f"  {p.id} [{', '.join(p.citations)}] {p.label}, {p.rules_text()}"
                     + (f", needs {', '.join(p.needs)}" if p.needs else "")
                     + (f" ({p.origin})" if p.origin != "built-in" else ""))
        lines.append(f"      {p.text}")
    return lines + [""] + describe_vocabulary()
