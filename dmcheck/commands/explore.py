"""`dmcheck explore`: explore scenarios, list their outcomes, check their expectations; replay a key.

The report is the JSON of docs/scenario-format.md and the text a person reads.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from dmcheck.explorer.trace import parse_key
from dmcheck.model.errors import InputError
from dmcheck.model.lang import Names, tr
from dmcheck.properties.expectations import Verdict, check
from dmcheck.properties.verdict import VIOLATED

from ..cli import tally
from ..cli.exits import HELP, Exit, exit_code
from ..cli.graph_export import CUT_HINT, READABLE, cut, graph_format, write_graph
from ..cli.options import (
    FileResult,
    add_ci_options,
    add_jobs_option,
    add_search_options,
    expand,
    explore_scenario,
    input_error,
    load,
    loaded,
    overrides,
    replay_flags,
    report_files,
)
from ..cli.report import document, expect_text, expectation_json, mark, outcome_line, print_json, trace_text
from ..cli.shipped import PATHS_NOTE

EXAMPLES = """examples:
  dmcheck explore scenarios/rulings/          # a directory: its *.yaml files
  dmcheck explore scenarios/rulings/Q09_the_watch.yaml --rules 2023-01-01
  dmcheck explore scenarios/rulings/Q04_texas_storm.yaml --json
  dmcheck explore scenarios/rulings/Q06_winter_spiral.yaml --replay 0/0/0/0
  dmcheck explore scenarios/rulings/Q06_winter_spiral.yaml --replay 0/0 --json
"""


def add_parser(sub: Any) -> argparse.ArgumentParser:
    ex = sub.add_parser(
        "explore", help="explore every legal ordering of scenarios and check their expectations",
        description="Explore every legal way the attack of each scenario can go (its declaration, block, "
                    "battle, shield breaks and end; breadth first, states deduplicated), list the outcomes "
                    "and check the scenario's `expect` items; a failed item is shown with its shortest trace.",
        epilog=EXAMPLES + PATHS_NOTE + "\n" + HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    ex.add_argument("files", nargs="+", metavar="FILE", help="scenario YAML files, or directories of them")
    add_search_options(ex)
    ex.add_argument("--replay", metavar="KEY",
                    help="print the trace of a replay key (e.g. 0/2/1) step by step, the state it reaches and the "
                         "next choices (with --json: as one object)")
    ex.add_argument("--max-outcomes", type=_count, metavar="N",
                    help="list at most N outcomes per scenario and say how many were left out (default: all "
                         f"in JSON; {TEXT_OUTCOMES} in text, then the others counted by class)")
    ex.add_argument("--graph", metavar="OUT.dot|OUT.graphml",
                    help="also write the state graph: Graphviz DOT (.dot) or networkx GraphML (.graphml), each "
                         "state with a one-line summary and each edge with its action")
    cuts = ex.add_argument_group("cutting the --graph drawing to what you look at (several: what all keep)")
    cuts.add_argument("--graph-trace", metavar="KEY",
                      help="only the states along this replay key, and the state each other choice beside it leads to")
    cuts.add_argument("--graph-outcome", type=_positive, metavar="N",
                      help="only the states on the paths to outcome N (numbered as the report lists them)")
    cuts.add_argument("--graph-depth", type=_count, metavar="N", help="only the states within N steps of the start")
    ex.add_argument("--html", metavar="OUT.html",
                    help="also write one self-contained page (no network access): the scenario, outcomes, "
                         "verdicts, every trace step by step with its states, the state graph drawn, and a "
                         "click-through explorer (docs/html.md); one FILE only")
    add_watch_option(ex)
    ex.add_argument("--compact", action="store_true",
                    help="keep only a fingerprint and a parent link per state: the explored graph takes a third "
                         "to a seventh of the memory (a whole Kakumeijin L8 run about half its peak), the "
                         "search 2-4 times the CPU; states on a printed trace are rebuilt by replay. Not with "
                         "order expectations (docs/limits.md)")
    add_jobs_option(ex)
    add_ci_options(ex)
    ex.set_defaults(run=run)
    return ex


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    changes = overrides(args)
    if args.replay is not None:
        if len(args.files) != 1:
            raise InputError("--replay", None, "", "expected exactly one scenario file with --replay")
        scenario = load(args.files[0], changes)
        if args.json:
            print_json(document("replay", replay=replay_json(scenario, args.replay)), out)
            return Exit.OK
        return replay(scenario, args.replay, out)
    check_outputs(args)
    if args.graph or args.html:
        args.jobs = 1   # one file written: the same process explores every scenario
    return report_files("explore", _explore_file, args, out, err)


def check_outputs(args: argparse.Namespace) -> None:
    """Refuse `--graph`/`--html` values that cannot be written, before anything is explored."""
    if getattr(args, "graph", None):
        graph_format(args.graph)
    asked = [flag for flag in ("graph_trace", "graph_outcome", "graph_depth") if getattr(args, flag, None) is not None]
    if asked and not getattr(args, "graph", None):
        raise InputError("--" + asked[0].replace("_", "-"), None, "", "cuts the --graph drawing: expected --graph "
                                                                      "OUT.dot or OUT.graphml beside it")
    if getattr(args, "graph_trace", None) is not None:
        try:
            parse_key(args.graph_trace)
        except ValueError as exc:
            raise InputError("--graph-trace", None, "", str(exc)) from None
    if getattr(args, "watch", None):
        if not getattr(args, "html", None):
            raise InputError("--watch", None, "", "shows its values on the HTML page: expected --html OUT.html "
                                                  "beside it")
        from dmcheck.properties.property_file import watch_properties  # Z3 only for a page that watches

        watch_properties(args.watch)      # a formula that does not parse: before anything is explored
    if getattr(args, "html", None):
        if len(expand(args.files)) != 1:   # a directory counts as its files
            raise InputError("--html", None, args.html, "expected exactly one scenario FILE with --html")
        if getattr(args, "compact", False):
            raise InputError("--html", None, "--compact", "the page needs the full graph: drop --compact")


def write_outputs(args: argparse.Namespace, scenario, graph, verdicts, properties=None,
                  err: TextIO | None = None) -> None:
    """Write what `--graph` and `--html` ask for; a drawing too large to read still writes, with a hint
    on stderr naming the cuts."""
    if getattr(args, "graph", None):
        keep = cut(graph, getattr(args, "graph_trace", None), getattr(args, "graph_outcome", None),
                   getattr(args, "graph_depth", None))
        written = write_graph(graph, args.graph, verdicts, properties, keep)
        if written > READABLE and err is not None:
            print(f"dmcheck: {args.graph}: {written} states drawn, more than can be read ({READABLE}); {CUT_HINT}",
                  file=err)
    if getattr(args, "html", None):
        from dmcheck.properties.property_file import DEFAULT_WATCHES, watch_properties  # loads Z3

        from ..cli.html import write_page  # its watches are Z3 formulas

        watches = watch_properties(getattr(args, "watch", None) or DEFAULT_WATCHES)
        write_page(args.html, scenario, graph, verdicts, properties, replay_flags(args), tuple(watches))


def add_watch_option(p: argparse.ArgumentParser) -> None:
    """`--watch FORMULA` beside `--html` (explore and check)."""
    p.add_argument("--watch", action="append", metavar="FORMULA",
                   help="with --html: a state formula over the facts of docs/properties.md, shown true or false at "
                        "every step of the page's traces and of the explorer's path, like TLC's trace explorer "
                        "(repeatable; default: a break frame is open, an effect is pending, an effect is being "
                        "carried out, a shield check is under way, the turn is skipped, someone won)")


def _positive(text: str) -> int:
    """A number counted from 1 (an outcome's)."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number 1 or more, got {text!r}")
    return int(text)


def _count(text: str) -> int:
    """A `--max-outcomes N` value: a whole number, 0 or more."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number 0 or more, got {text!r}")
    return int(text)


def _explore_file(args: argparse.Namespace, file: str, err: TextIO) -> FileResult:
    """One scenario file explored and reported (in a worker process under --jobs)."""
    result = FileResult()
    try:
        for path, scenario in loaded([file], overrides(args), err, result.codes, result.errors):
            graph = explore_scenario(scenario, args, err, path)
            verdicts = [check(graph, item) for item in scenario.expect]
            write_outputs(args, scenario, graph, verdicts, err=err)
            if args.json:
                result.report = explore_json(scenario, graph, verdicts, args.max_outcomes)
            else:
                result.text = "\n".join(explore_text(scenario, graph, verdicts, max_outcomes=text_outcomes(args)))
            result.codes.append(exit_code(graph, [v.verdict for v in verdicts]))
            result.record = tally.record(scenario, result.codes[-1], verdicts)
    except InputError as exc:
        result.error = input_error(exc)
    return result


def _replayed(scenario, key: str):
    """The replay of a key through the API (dmcheck/api.py): a key is a path of the model itself, so it
    is replayed the same way whatever search printed it (`--no-reduce` changes nothing here)."""
    from .. import api

    wrapped = api.wrap(scenario)
    try:
        return wrapped, api.replay(wrapped, key)
    except InputError as exc:
        raise InputError("--replay", None, key, exc.expected) from None


def replay(scenario, key: str, out: TextIO) -> int:
    """Print the trace of a replay key step by step, then the outcome or the next choices."""
    _, done = _replayed(scenario, key)
    names = Names(scenario.pool)
    print(f"== {scenario.name}: " + tr("replay {key}", key=key), file=out)
    for n, step in enumerate(done.steps, 1):
        print(f"{n}. {step.narrated}", file=out)
        for text in step.lines:
            print(f"     - {text}", file=out)
    print("   " + tr("(replay key {key})", key=done.key), file=out)
    if done.state.terminal:
        o = done.state.outcome       # one state: every zone that holds a card is named
        print("   " + tr("terminal: ") + outcome_line(o, {(z, p) for z in _ZONES for p in ("A", "B") if o[z][p]},
                                                      names), file=out)
    else:
        print("   " + tr("next choices:"), file=out)
        for c in done.choices:
            print(f"     [{c.index}] {c.text}", file=out)
    return Exit.OK


def replay_json(scenario, key: str) -> dict[str, Any]:
    """A replay as data: the trace (each step's action and events), the state reached (the outcome
    keys, plus the abilities waiting), and the outcome or the next choices."""
    sc, done = _replayed(scenario, key)
    return {
        "scenario": sc.name, "file": sc.file, "rules": sc.rules_name,
        "interpretation": sc.interpretation, "key": done.key,
        "steps": [{"step": n, "index": s.index, "action": s.choice.text, "narrated": s.narrated,
                   "events": list(s.events)} for n, s in enumerate(done.steps, 1)],
        "trace": [dict(e, step=n) for n, s in enumerate(done.steps, 1) for e in s.events],
        "state": dict(done.state.facts, pending=[p["ability"] for p in done.state.pending],
                      fingerprint=done.state.fingerprint),
        "terminal": done.state.terminal,
        "outcome": done.state.outcome,
        "next": [] if done.state.terminal else [{"index": c.index, "action": c.text} for c in done.choices],
    }


# ---- the report ------------------------------------------------------------------------------------
_ZONES = ("hand", "battle", "graveyard", "mana", "deck_bottom")


def explore_json(scenario, graph, verdicts: list[Verdict], max_outcomes: int | None = None) -> dict[str, Any]:
    """One scenario's entry of `scenarios`; `outcomes_total` counts the outcomes `max_outcomes` left out too."""
    outcomes = graph.outcomes()
    shown = outcomes if max_outcomes is None else outcomes[:max_outcomes]
    return {
        "scenario": scenario.name,
        "file": scenario.file,
        "rules": graph.model.version.name,
        "interpretation": dict(graph.model.readings.pairs),
        "complete": graph.complete,
        "reason": graph.reason,
        "states": graph.count,
        "transitions": graph.transitions,
        "seconds": round(graph.seconds, 4),
        "frontier": graph.frontier,
        "depth": max(graph.depth, default=0),
        "search": graph.record.to_json(),
        "outcomes_all": graph.complete,
        "outcomes": [dict(o, count=c, trace_key=graph.key(n)) for o, c, n in shown],
        "outcomes_total": len(outcomes),
        "outcomes_left_out": len(outcomes) - len(shown),
        "expectations": [expectation_json(v) for v in verdicts],
        "loops": [loop_json(graph, loop) for loop in getattr(graph, "loops", ())],
    }


def loop_json(graph, loop) -> dict[str, Any]:
    """A cycle the search found (explorer/loops.py, A27): the trace to its first position and one round."""
    before = len(graph.trace(loop.entry).steps)
    trace = graph.trace(loop.entry, list(loop.path))
    return {"forced": loop.forced, "length": len(loop.path), "round_from_step": before,
            "replay": trace.key(), "trace": trace.to_json()}


def loop_lines(graph) -> list[str]:
    """One line per loop found: whether anyone can leave it, where it starts, how long a round is."""
    lines = []
    for loop in getattr(graph, "loops", ()):
        trace = graph.trace(loop.entry, list(loop.path))
        kind = "with no choice (an end of its own: outcome loop true)" if loop.forced else \
            "that a player can leave (only the choices that leave it are followed)"
        lines.append("   " + tr("loop {kind}: after step {step} the position comes back every {n} steps",
                                   kind=tr(kind), step=len(trace.steps) - len(loop.path), n=len(loop.path))
                     + "   " + tr("[replay {key}]", key=trace.key()))
    return lines


TEXT_OUTCOMES = 50   # outcomes a text report lists unless --max-outcomes says otherwise


def text_outcomes(args: argparse.Namespace) -> int:
    """How many outcomes a text report lists: a person reads a few dozen lines, not 30,000."""
    return TEXT_OUTCOMES if args.max_outcomes is None else args.max_outcomes


def outcome_classes(outcomes) -> list[str]:
    """The outcomes counted by what a judge asks first: who won, how many shields broke, whether the
    turn was skipped or the attack stopped (a summary of the outcomes a list left out)."""
    classes: dict[tuple, list[int]] = {}
    for o, count, _ in outcomes:
        key = (o["winner"], o["shields_broken"], o["turn_skipped"], o["attack_stopped"], o.get("loop", False))
        entry = classes.setdefault(key, [0, 0])
        entry[0] += 1
        entry[1] += count
    lines = []
    for (winner, broken, skipped, stopped, loop), (n, states) in sorted(classes.items(), key=lambda kv: -kv[1][1]):
        what = tr("; ").join([tr("winner {who}", who=tr("none") if winner == "none" else winner),
                              tr("shields broken {n}", n=broken)] + [tr(t) for on, t in (
                                  (skipped, "turn skipped"), (stopped, "attack stopped"), (loop, "loop")) if on])
        lines.append(f"       {n:>6} " + tr("outcome{s} ({states} terminal states): {what}",
                                             s="s" if n != 1 else " ", states=states, what=what))
    return lines


def explore_text(scenario, graph, verdicts: list[Verdict], show_outcomes: bool = True,
                 max_outcomes: int | None = None) -> list[str]:
    names = Names(scenario.pool)
    search = tr("complete") if graph.complete else tr("INCOMPLETE: {why}", why=graph.reason)
    lines = [f"== {scenario.name}  ({scenario.file})",
             "   " + tr("rules: {version}; search {search}; {states} states, {transitions} transitions, {seconds}s; "
                        "{record}", version=graph.model.version.name, search=search, states=graph.count,
                        transitions=graph.transitions, seconds=f"{graph.seconds:.2f}",
                        record=record_text(graph.record))]
    if show_outcomes:
        outcomes = graph.outcomes()
        # name only the zones that differ between outcomes, so each line says what sets it apart
        varying = {(z, p) for z in _ZONES for p in ("A", "B")
                   if len({tuple(o[z][p]) for o, _, _ in outcomes}) > 1}
        lines.append("   " + (tr("outcomes ({n}):", n=len(outcomes)) if graph.complete else
                              tr("outcomes found so far, not all ({n}; the search stopped with {frontier} states not "
                                 "expanded, at depth {depth}):", n=len(outcomes), frontier=graph.frontier,
                                 depth=max(graph.depth, default=0))))
        shown = outcomes if max_outcomes is None else outcomes[:max_outcomes]
        for o, count, node in shown:
            lines.append(f"     {count:>5} x  {outcome_line(o, varying, names)}   "
                         + tr("[replay {key}]", key=graph.key(node)))
        if len(shown) < len(outcomes):
            left = len(outcomes) - len(shown)
            lines.append("     " + tr("... {left} more outcome{s} left out (--max-outcomes N lists more; --json lists "
                                      "all); all {n} by class:", left=left, s="s" if left != 1 else "",
                                      n=len(outcomes)))
            lines.extend(outcome_classes(outcomes))
        lines.extend(loop_lines(graph))
    for v in verdicts:
        lines.append(f"   {mark(v.verdict)} {expect_text(v.expectation.raw)} — {v.reason}")
        if v.verdict == VIOLATED and v.trace is not None:
            lines.append("        " + tr("shortest trace:"))
            lines.extend("        " + line for line in trace_text(v.trace))
    return lines


def record_text(record) -> str:
    """What the search did (`reduction on, symmetry kept`), in the current language."""
    return tr("reduction {on}, symmetry {symmetry}", on=tr("on" if record.reduction else "off"),
              symmetry=tr(record.symmetry))
