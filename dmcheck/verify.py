"""The `dmcheck verify` command: the main job — the whole rulings corpus against itself and the model.

It exists so that a rules editor gets, in one run, which rulings hold, which statements cannot all
be true together (with the citations and the traces), which interpretation readings fit the most
rulings, whether the model follows the statements, and whether the rules properties hold — on the
built-in corpus (scenarios/corpus.yaml) with no arguments, plus their own rulings with `--rulings`.
The work is properties/verify.py; the wording dmcheck/verify_report.py. Exit codes: 0 nothing
found, 1 findings (a contradiction is one), 2 bad input, 3 inconclusive.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from explorer.limits import Limits
from model.errors import InputError
from model.rules import parse_date

EXAMPLES = """examples:
  dmcheck verify                              # the built-in corpus, every rules version
  dmcheck verify --rules 2023-01-01           # everything under the rules in force that day
  dmcheck verify --rulings my_rulings.yaml    # the built-in corpus plus your own statements
  dmcheck verify --json > report.json
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add `verify` to the dmcheck subcommands."""
    p = subparsers.add_parser(
        "verify", help="check the rulings corpus: contradictions, readings, conformance, properties (main job)",
        description="Check every rule statement and ruling of the corpus: run each ruling's scenarios under "
                    "every combination of interpretation readings (rules version of its date), find every "
                    "minimal set of rulings no reading satisfies and every minimal set of ordering constraints "
                    "that cannot hold together (Z3), the readings satisfying the most rulings, whether the "
                    "model's traces follow the constraints, and the built-in rules properties. A one-screen "
                    "summary comes first, the details (citations, traces) after.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rules", metavar="DATE", help="check everything under the rules in force on DATE (YYYY-MM-DD)")
    p.add_argument("--rulings", action="append", default=[], metavar="FILE",
                   help="also check the statements of this rulings file (the format of scenarios/corpus.yaml); "
                        "repeatable")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--summary", action="store_true", help="print only the one-screen summary")
    p.add_argument("--max-states", type=int, default=Limits().max_states, metavar="N")
    p.add_argument("--max-seconds", type=float, default=Limits().max_seconds, metavar="S",
                   help="bound each exploration; one that runs out is inconclusive")
    p.set_defaults(run=cmd_verify)
    return p


def cmd_verify(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from properties.verify import verify

    from .verify_report import detail_lines, report_json, summary_lines

    rules = None
    if args.rules:
        try:
            rules = parse_date(args.rules)
        except ValueError:
            raise InputError("--rules", None, "", f"expected a date YYYY-MM-DD, got {args.rules!r}") from None
    report = verify(args.rulings, rules, Limits(max_states=args.max_states, max_seconds=args.max_seconds))
    if args.json:
        json.dump(report_json(report), out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        print("\n".join(summary_lines(report)), file=out)
        if not args.summary:
            print("\n".join(detail_lines(report)), file=out)
    return report.exit_code()
