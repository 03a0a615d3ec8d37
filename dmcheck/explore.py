"""`dmcheck explore`: explore scenarios, list their outcomes, check their expectations; replay a key.

The report is the JSON of docs/scenario-format.md and the text a person reads.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from explorer.trace import Step, Trace
from model.errors import InputError
from model.procedure import BreakModel
from properties.expectations import Verdict, check

from .exits import HELP, Exit, combine, exit_code
from .options import (FileResult, add_jobs_option, add_search_options, explore_scenario, input_error, load,
                      loaded, overrides, per_file)
from .report import expect_text, expectation_json, outcome_line

EXAMPLES = """examples:
  dmcheck explore scenarios/rulings/*.yaml
  dmcheck explore scenarios/rulings/Q09_the_watch.yaml --rules 2023-01-01
  dmcheck explore scenarios/rulings/Q04_texas_storm.yaml --json
  dmcheck explore scenarios/rulings/Q06_winter_spiral.yaml --replay 0/0/0/0
"""


def add_parser(sub: Any) -> argparse.ArgumentParser:
    ex = sub.add_parser(
        "explore", help="explore every legal ordering of scenarios and check their expectations",
        description="Explore every legal way the direct attack step of each scenario can go (breadth "
                    "first, states deduplicated), list the outcomes and check the scenario's `expect` "
                    "items; a failed item is shown with its shortest trace.",
        epilog=EXAMPLES + "\n" + HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    ex.add_argument("files", nargs="+", metavar="FILE", help="scenario YAML files")
    add_search_options(ex)
    ex.add_argument("--replay", metavar="KEY", help="print the trace of a replay key (e.g. 0/2/1) step by step")
    ex.add_argument("--graph", metavar="FILE.graphml", help="also write the state graph (networkx GraphML)")
    ex.add_argument("--compact", action="store_true",
                    help="keep only a fingerprint and a parent link per state (about a tenth of the memory, "
                         "slower); states on a printed trace are rebuilt by replay. Not with order expectations")
    add_jobs_option(ex)
    ex.set_defaults(run=run)
    return ex


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    changes = overrides(args)
    if args.replay is not None:
        if len(args.files) != 1:
            raise InputError("--replay", None, "", "expected exactly one scenario file with --replay")
        return replay(load(args.files[0], changes), args.replay, out, not args.no_reduce)
    if args.graph:
        args.jobs = 1   # every scenario writes the same --graph file: the last one must win
    reports, codes = [], []
    for result in per_file(_explore_file, args, args.files, err):
        codes += result.codes
        if result.report is not None:
            reports.append(result.report)
        if result.text is not None:
            print(result.text, file=out)
    if args.json:
        json.dump(reports[0] if len(reports) == 1 else reports, out, indent=2, ensure_ascii=False)
        out.write("\n")
    return combine(codes)


def _explore_file(args: argparse.Namespace, file: str, err: TextIO) -> FileResult:
    """One scenario file explored and reported (in a worker process under --jobs)."""
    result = FileResult()
    try:
        for file, scenario in loaded([file], overrides(args), err, result.codes):
            graph = explore_scenario(scenario, args, err, file)
            verdicts = [check(graph, item) for item in scenario.expect]
            if args.graph:
                import networkx as nx
                nx.write_graphml(graph.to_networkx(), args.graph)
            if args.json:
                result.report = explore_json(scenario, graph, verdicts)
            else:
                result.text = "\n".join(explore_text(scenario, graph, verdicts))
            result.codes.append(exit_code(graph, [v.verdict for v in verdicts]))
    except InputError as exc:
        result.error = input_error(exc)
    return result


def replay(scenario, key: str, out: TextIO, reduce: bool = True) -> int:
    """Print the trace of a replay key step by step, then the outcome or the next choices."""
    model = BreakModel(scenario)
    # keys printed by a reduced search were taken on canonical states: replay the same way
    canonical = model.canonical if reduce else (lambda s: s)
    state = canonical(model.initial_state())
    steps = []
    parts = [p for p in key.strip().split("/") if p not in ("", "-")]
    for n, part in enumerate(parts, 1):
        actions = model.actions(state)
        if not part.isdigit() or int(part) >= len(actions):
            raise InputError("--replay", None, key,
                             f"step {n}: expected an action index below {len(actions)}, got {part!r}")
        action = actions[int(part)]
        state, events = model.step(state, action)
        state = canonical(state)
        steps.append(Step(int(part), action, events))
    print(f"== {scenario.name}: replay {key}", file=out)
    print("\n".join(Trace(tuple(steps), model.narrate).lines()), file=out)
    if model.is_terminal(state):
        print("   terminal: " + json.dumps(model.outcome(state), ensure_ascii=False), file=out)
    else:
        print("   next choices:", file=out)
        for i, action in enumerate(model.actions(state)):
            print(f"     [{i}] {action.text}", file=out)
    return Exit.OK


# ---- the report ------------------------------------------------------------------------------------
_ZONES = ("hand", "battle", "graveyard", "mana", "deck_bottom")


def explore_json(scenario, graph, verdicts: list[Verdict]) -> dict[str, Any]:
    return {
        "scenario": scenario.name,
        "file": scenario.file,
        "rules": graph.model.version.name,
        "interpretation": dict(graph.model.interpretation.readings),
        "complete": graph.complete,
        "reason": graph.reason,
        "states": graph.count,
        "transitions": graph.transitions,
        "seconds": round(graph.seconds, 4),
        "outcomes": [dict(o, count=c, trace_key=graph.trace(n).key()) for o, c, n in graph.outcomes()],
        "expectations": [expectation_json(v) for v in verdicts],
    }


def explore_text(scenario, graph, verdicts: list[Verdict], show_outcomes: bool = True) -> list[str]:
    lines = [f"== {scenario.name}  ({scenario.file})",
             f"   rules: {graph.model.version.name}; search {'complete' if graph.complete else 'INCOMPLETE: ' + graph.reason}; "
             f"{graph.count} states, {graph.transitions} transitions, {graph.seconds:.2f}s"]
    if show_outcomes:
        outcomes = graph.outcomes()
        # name only the zones that differ between outcomes, so each line says what sets it apart
        varying = {(z, p) for z in _ZONES for p in ("A", "B")
                   if len({tuple(o[z][p]) for o, _, _ in outcomes}) > 1}
        lines.append(f"   outcomes ({len(outcomes)}):")
        for o, count, node in outcomes:
            lines.append(f"     {count:>5} x  {outcome_line(o, varying)}   [replay {graph.trace(node).key()}]")
    for v in verdicts:
        mark = {"holds": "ok  ", "violated": "FAIL", "inconclusive": "??  "}[v.verdict]
        lines.append(f"   {mark} {expect_text(v.expectation.raw)} — {v.reason}")
        if v.verdict == "violated" and v.trace is not None:
            lines.append("        shortest trace:")
            lines.extend("        " + line for line in v.trace.lines())
    return lines
