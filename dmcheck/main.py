"""The `dmcheck` command: thin wrappers that load files, call the packages and print reports.

Each subcommand is a function taking parsed arguments and output streams and returning the exit
code, so tests call it directly. Exit codes: 0 everything holds, 1 a finding, 2 bad input,
3 inconclusive (a search limit was hit).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import TextIO

from explorer.bfs import explore
from explorer.limits import Limits
from model.errors import InputError
from model.interpretations import CHOICES
from model.procedure import BreakModel
from model.rules import parse_date
from model.scenario_file import load_scenario
from properties.expectations import check

from .progress import progress_printer
from .report import explore_json, explore_text

OK, FINDING, BAD_INPUT, INCONCLUSIVE = 0, 1, 2, 3

EXAMPLES_EXPLORE = """examples:
  dmcheck explore scenarios/rulings/*.yaml
  dmcheck explore scenarios/rulings/Q09_the_watch.yaml --rules 2023-01-01
  dmcheck explore scenarios/rulings/Q04_texas_storm.yaml --json
  dmcheck explore scenarios/rulings/Q06_winter_spiral.yaml --replay 0/0/0/0
"""


def _parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="dmcheck",
        description="Model-check the Duel Masters break procedure and its rulings: explore every legal "
                    "ordering of a scenario and check what its rulings say must come out.",
        epilog="run 'dmcheck COMMAND --help' for a command's options and examples",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    ex = sub.add_parser(
        "explore", help="explore every legal ordering of scenarios and check their expectations",
        description="Explore every legal way the direct attack step of each scenario can go (breadth "
                    "first, states deduplicated), list the outcomes and check the scenario's `expect` "
                    "items; a failed item is shown with its shortest trace.",
        epilog=EXAMPLES_EXPLORE, formatter_class=argparse.RawDescriptionHelpFormatter)
    ex.add_argument("files", nargs="+", metavar="FILE", help="scenario YAML files")
    add_search_options(ex)
    ex.add_argument("--replay", metavar="KEY", help="print the trace of a replay key (e.g. 0/2/1) step by step")
    ex.add_argument("--graph", metavar="FILE.graphml", help="also write the state graph (networkx GraphML)")
    ex.add_argument("--compact", action="store_true",
                    help="keep only a fingerprint and a parent link per state (about a tenth of the memory, "
                         "slower); states on a printed trace are rebuilt by replay. Not with order expectations")
    ex.set_defaults(run=cmd_explore)
    __import__("dmcheck.cmd_check", fromlist=["add_parser"]).add_parser(sub)  # `dmcheck check`
    __import__("dmcheck.cmd_verify", fromlist=["add_parser"]).add_parser(sub)  # `dmcheck verify`
    __import__("dmcheck.cmd_diff", fromlist=["add_parser"]).add_parser(sub)  # `dmcheck diff`
    return top


def add_search_options(p: argparse.ArgumentParser) -> None:
    """The options `explore` and `check` share: output, rules version, readings, limits, reduction."""
    p.add_argument("--json", action="store_true", help="print JSON (an object per file; a list for several)")
    p.add_argument("--rules", metavar="DATE", help="use the rules in force on DATE (YYYY-MM-DD)")
    p.add_argument("--interpretation", metavar="NAME=READING", action="append", default=[],
                   help="choose a reading of an interpretation choice: " +
                        "; ".join(f"{c.name}={'|'.join(r for r, _ in c.readings)}" for c in CHOICES))
    p.add_argument("--max-states", type=int, default=Limits().max_states, metavar="N")
    p.add_argument("--max-depth", type=int, default=Limits().max_depth, metavar="N")
    p.add_argument("--max-seconds", type=float, default=Limits().max_seconds, metavar="S")
    p.add_argument("--no-reduce", action="store_true",
                   help="explore every order of commuting effects and every symmetric state (reduction is on "
                        "by default; outcomes, verdicts and shortest traces are the same either way)")


def explore_scenario(scenario, args: argparse.Namespace, err: TextIO, file: str, properties=()):
    """Explore one scenario as the command line asks: limits, progress, reduction kept blind to
    nothing the expectations or properties observe."""
    from properties.expectations import observer as expectation_observer
    from properties.visibility import observer as property_observer

    model = BreakModel(scenario)
    limits = Limits(args.max_states, args.max_depth, args.max_seconds)
    reduce = not getattr(args, "no_reduce", False)
    observe = None
    if reduce:
        seen = [o for o in (expectation_observer(scenario.expect), property_observer(model, properties)) if o]
        if len(seen) == 1:
            observe = seen[0]
        elif seen:
            observe = lambda *t: tuple(o(*t) for o in seen)  # noqa: E731
    compact = getattr(args, "compact", False)
    if compact and any(item.kind not in ("always", "never", "sometimes") for item in scenario.expect):
        raise InputError(file, None, "--compact", "order expectations (in_order, possible_order, never_order) "
                                                   "need the full graph: drop --compact")
    if compact and getattr(args, "graph", None):
        raise InputError(file, None, "--compact", "--graph needs the full graph: drop --compact")
    return explore(model, limits, progress_printer(err, file), reduce=reduce, observe=observe, keep_graph=not compact)


def exit_code(graph, verdicts: list[str]) -> int:
    """A file's exit code: an incomplete search first (3), then a violation (1)."""
    if not graph.complete:
        return INCONCLUSIVE
    if "violated" in verdicts:
        return FINDING
    if "inconclusive" in verdicts:
        return INCONCLUSIVE
    return OK


def _overrides(args: argparse.Namespace) -> dict:
    out: dict = {}
    if args.rules:
        try:
            out["rules"] = parse_date(args.rules)
        except ValueError:
            raise InputError("--rules", None, "", f"expected a date YYYY-MM-DD, got {args.rules!r}") from None
    chosen = {}
    for item in args.interpretation:
        name, sep, reading = item.partition("=")
        choice = next((c for c in CHOICES if c.name == name), None)
        if not sep or choice is None or reading not in [r for r, _ in choice.readings]:
            raise InputError("--interpretation", None, item, "expected NAME=READING with " + "; ".join(
                f"{c.name}={'|'.join(r for r, _ in c.readings)}" for c in CHOICES))
        chosen[name] = reading
    if chosen:
        out["interpretation"] = chosen
    return out


def load(file: str, overrides: dict):
    scenario = load_scenario(file)
    if "interpretation" in overrides:
        overrides = dict(overrides, interpretation={**scenario.interpretation, **overrides["interpretation"]})
    return dataclasses.replace(scenario, **overrides)


def loaded(files: list[str], overrides: dict, err: TextIO, codes: list[int]):
    """Each file's scenario; a bad file is reported on `err`, counted as bad input and skipped."""
    for file in files:
        try:
            scenario = load(file, overrides)
        except InputError as exc:
            print(f"dmcheck: {exc}", file=err)
            codes.append(BAD_INPUT)
            continue
        yield file, scenario


def cmd_explore(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    overrides = _overrides(args)
    if args.replay is not None:
        if len(args.files) != 1:
            raise InputError("--replay", None, "", "expected exactly one scenario file with --replay")
        return _replay(load(args.files[0], overrides), args.replay, out, not args.no_reduce)
    reports, codes = [], []
    for file, scenario in loaded(args.files, overrides, err, codes):
        graph = explore_scenario(scenario, args, err, file)
        verdicts = [check(graph, item) for item in scenario.expect]
        if args.graph:
            import networkx as nx
            nx.write_graphml(graph.to_networkx(), args.graph)
        if args.json:
            reports.append(explore_json(scenario, graph, verdicts))
        else:
            print("\n".join(explore_text(scenario, graph, verdicts)), file=out)
        codes.append(exit_code(graph, [v.verdict for v in verdicts]))
    if args.json:
        json.dump(reports[0] if len(reports) == 1 else reports, out, indent=2, ensure_ascii=False)
        out.write("\n")
    return combine(codes)


def combine(codes: list[int]) -> int:
    """One exit code for several files: bad input first, then a finding, then inconclusive."""
    for code in (BAD_INPUT, FINDING, INCONCLUSIVE):
        if code in codes:
            return code
    return OK


def _replay(scenario, key: str, out: TextIO, reduce: bool = True) -> int:
    from model.outcome import outcome
    from model.trace import Step, Trace

    from model.canonical import Symmetry

    model = BreakModel(scenario)
    # keys printed by a reduced search were taken on canonical states: replay the same way
    symmetry = None if reduce is False else Symmetry(model)
    state = model.initial_state()
    if symmetry is not None:
        state = symmetry.canonical(state)
    steps = []
    parts = [p for p in key.strip().split("/") if p not in ("", "-")]
    for n, part in enumerate(parts, 1):
        actions = model.actions(state)
        if not part.isdigit() or int(part) >= len(actions):
            raise InputError("--replay", None, key,
                             f"step {n}: expected an action index below {len(actions)}, got {part!r}")
        action = actions[int(part)]
        state, events = model.step(state, action)
        if symmetry is not None:
            state = symmetry.canonical(state)
        steps.append(Step(int(part), action, events))
    print(f"== {scenario.name}: replay {key}", file=out)
    print("\n".join(Trace(tuple(steps)).lines()), file=out)
    if state.over:
        o = outcome(model, state)
        print("   terminal: " + json.dumps(o, ensure_ascii=False), file=out)
    else:
        print("   next choices:", file=out)
        for i, action in enumerate(model.actions(state)):
            print(f"     [{i}] {action.text}", file=out)
    return OK


def main(argv: list[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    args = _parser().parse_args(argv)
    try:
        return args.run(args, out, err)
    except InputError as exc:
        print(f"dmcheck: {exc}", file=err)
        return BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
