"""The `dmcheck diff` command: one scenario under two rules versions or two readings of an open choice.

It exists to show what a rule change or a reading changes in a concrete situation: whether the
outcomes and the procedure orders under the left setting are the same as under the right one, a
superset (broader), a subset (narrower) or neither, and, for everything only one side can produce,
the shortest trace that produces it. The comparison is rulings/diff.py. Exit codes: 0 the two
settings are equivalent on this scenario, 1 they differ, 2 bad input, 3 a search was incomplete.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from dmcheck.explorer.graph import freeze
from dmcheck.model.errors import InputError
from dmcheck.model.rules import version_on
from dmcheck.model.scenario_file import load_scenario
from dmcheck.rulings.diff import compare, order_text

from ..cli.exits import HELP, Exit
from ..cli.options import READINGS_HELP, add_limit_options, limits, reading, rules_date
from ..cli.progress import progress_printer
from ..cli.report import distinct_lines, document, expect_text, print_json
from ..cli.shipped import PATHS_NOTE

EXAMPLES = """examples:
  dmcheck diff scenarios/rulings/Q09_the_watch.yaml --rules 2023-01-01 --rules 2024-06-19
  dmcheck diff scenarios/rulings/Q11d_savark_saver.yaml \\
      --interpretation break_replacement_timing=at_break --interpretation break_replacement_timing=before_triggers
  dmcheck diff scenarios/rulings/Q03_kobo.yaml --rules 2023-01-01 --rules 2024-06-19 --json
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add `diff` to the dmcheck subcommands."""
    p = subparsers.add_parser(
        "diff", help="compare a scenario under two rules versions or two interpretation readings",
        description="Explore one scenario under two settings — `--rules A --rules B`, or `--interpretation "
                    "K=V1 --interpretation K=V2` — and compare what can happen: the outcomes, and the orders of "
                    "the procedure's milestones. Each is equivalent, broader, narrower or incomparable (left "
                    "against right); every outcome or order only one side has is shown with its shortest trace. "
                    "A setting given once applies to both sides.",
        epilog=EXAMPLES + PATHS_NOTE + "\n" + HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="FILE", help="a scenario YAML file")
    p.add_argument("--rules", action="append", default=[], metavar="DATE",
                   help="a rules date (YYYY-MM-DD); give it twice to compare two versions")
    p.add_argument("--interpretation", dest="readings", action="append", default=[], metavar="NAME=READING",
                   help="a reading; give two to compare them: " + READINGS_HELP)
    p.add_argument("--json", action="store_true",
                   help="print one JSON object with schema_version (docs/scenario-format.md)")
    add_limit_options(p, depth=False)
    p.set_defaults(run=run)
    return p


def _sides(args: argparse.Namespace) -> tuple[tuple, tuple]:
    if len(args.rules) > 2 or len(args.readings) > 2:
        raise InputError("diff", None, "", "expected at most two --rules and two --interpretation options "
                                           "(a left and a right setting)")
    dates = [rules_date(text) for text in args.rules]
    readings = [dict([reading(item)]) for item in args.readings]
    left_rules = dates[0] if dates else None
    right_rules = dates[-1] if dates else None
    left_reading = readings[0] if readings else {}
    right_reading = readings[-1] if readings else {}
    if left_rules == right_rules and left_reading == right_reading:
        raise InputError("diff", None, "", "expected two different settings to compare: --rules A --rules B, "
                                           "or --interpretation NAME=R1 --interpretation NAME=R2")

    def label(rules, reading) -> str:
        parts = []
        if rules is not None:
            parts.append(f"rules {rules.isoformat()} ({version_on(rules).name})")
        parts += [f"{k}={v}" for k, v in reading.items()]
        return ", ".join(parts) or "the scenario's own settings"

    return ((label(left_rules, left_reading), left_rules, left_reading),
            (label(right_rules, right_reading), right_rules, right_reading))


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    left, right = _sides(args)
    scenario = load_scenario(args.file)
    diff = compare(scenario, left, right, limits(args), progress=lambda label: progress_printer(err, label))
    if args.json:
        print_json(document("diff", **diff_json(diff, args.file)), out)
    else:
        print("\n".join(diff_text(diff, args.file, order_text)), file=out)
    if not diff.complete:
        return Exit.INCOMPLETE
    return Exit.OK if diff.relation == "equivalent" else Exit.FINDING


def _side_line(name: str, s) -> str:
    return (f"   {name}: {s.label} — {len(s.graph.states)} states, {len(s.outcomes)} outcomes, "
            f"{len(s.orders.paths)} milestone orders" + ("" if s.complete else " (INCOMPLETE)"))


def diff_text(diff, file: str, order_text) -> list[str]:
    lines = [f"== {diff.left.scenario.name}  ({file})", _side_line("left ", diff.left), _side_line("right", diff.right),
             f"   outcomes: left is {_rel(diff.outcomes)} right", f"   orders:   left is {_rel(diff.orders)} right"]
    for vl, vr in zip(diff.left.verdicts, diff.right.verdicts):
        lines.append(f"   expect {expect_text(vl.expectation.raw)}: left {vl.verdict}, right {vr.verdict}")
    told = _told_apart(diff)
    for name, s, items in (("left", diff.left, diff.only_left), ("right", diff.right, diff.only_right)):
        if not items:
            continue
        lines.append(f"   only under {name} ({s.label}):")
        for item in items:
            text = told[freeze(item.value)] if item.what == "outcome" else order_text(item.value)
            lines.append(f"     {item.what}: {text}")
            lines.extend("        " + line for line in item.trace.lines())
    lines.append(f"   result: {diff.relation}" + ("" if diff.complete else " (a search was incomplete)"))
    return lines


def _told_apart(diff) -> dict:
    """Each outcome only one side has, as a line naming only what sets it apart from the other such
    outcomes, so two listed outcomes never read the same (frozen outcome -> line)."""
    shown = [i.value for i in diff.only_left + diff.only_right if i.what == "outcome"]
    return {freeze(o): line for o, line in zip(shown, distinct_lines(shown))}


def _rel(relation: str) -> str:
    return {"equivalent": "equivalent to", "broader": "broader than", "narrower": "narrower than",
            "incomparable": "incomparable with"}[relation]


def diff_json(diff, file: str) -> dict[str, Any]:
    def side(s) -> dict[str, Any]:
        return {"label": s.label, "rules": s.graph.model.version.name,
                "interpretation": dict(s.graph.model.readings.pairs), "complete": s.complete,
                "states": len(s.graph.states), "outcomes": len(s.outcomes), "orders": len(s.orders.paths)}

    def only(items) -> list[dict[str, Any]]:
        return [{"what": i.what, "value": i.value if i.what == "outcome" else [list(g) for g in i.value],
                 "trace": {"replay": i.trace.key(), "events": i.trace.to_json()}} for i in items]

    return {"scenario": diff.left.scenario.name, "file": file, "left": side(diff.left), "right": side(diff.right),
            "outcomes": diff.outcomes, "orders": diff.orders, "relation": diff.relation,
            "only_left": only(diff.only_left), "only_right": only(diff.only_right),
            "expectations": [{"expect": vl.expectation.raw, "left": vl.verdict, "right": vr.verdict}
                             for vl, vr in zip(diff.left.verdicts, diff.right.verdicts)]}
