"""The `dmcheck coverage` command: how much of the rulings corpus the model can answer, by feature.

For each feature (a statement's `feature:`, else its corpus file's name) it counts the statements, those
that can be posed (they have scenarios) and, of those, how many hold under the default readings in the
rules version of their date (rulings/coverage.py), then names every posed statement that does not hold.
`--feature NAME` looks at one feature; `--rulings FILE` adds your statements as `verify` does.
Exit codes: 0 every posed statement holds, 1 one does not, 2 bad input, 3 one could not be decided.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from dmcheck.model.errors import InputError, did_you_mean
from dmcheck.properties.expectations import HOLDS, INCONCLUSIVE, VIOLATED
from dmcheck.rulings.corpus import builtin_corpus, check_sources, load_corpus
from dmcheck.rulings.coverage import NOT_POSED, Coverage, coverage, failing

from ..cli.exits import HELP, Exit
from ..cli.options import add_limit_options, limits
from ..cli.progress import phase_printer
from ..cli.report import document, print_json

EXAMPLES = """examples:
  dmcheck coverage                       # every feature of the built-in corpus
  dmcheck coverage --feature power       # one feature
  dmcheck coverage --rulings my_rulings.yaml --json
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add `coverage` to the dmcheck subcommands."""
    p = subparsers.add_parser(
        "coverage", help="how many corpus statements the model can answer and how many hold, by feature",
        description="Count, for each feature of the rulings corpus, the statements that can be posed to the "
                    "model (they have scenarios) and those of them that hold under the default readings, in the "
                    "rules version of their date; then list each posed statement that does not hold.",
        epilog=EXAMPLES + "\n" + HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--feature", metavar="NAME", help="only the statements of this feature")
    p.add_argument("--rulings", action="append", default=[], metavar="FILE",
                   help="also count the statements of this rulings file (repeatable)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object with schema_version (docs/scenario-format.md)")
    add_limit_options(p, depth=False, seconds_help="bound each exploration; one that runs out is inconclusive")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    corpus = builtin_corpus()
    for file in args.rulings:
        corpus = corpus.merged(load_corpus(file))
    check_sources(corpus)
    names = sorted({s.feature for s in corpus.statements})
    if args.feature is not None and args.feature not in names:
        raise InputError("--feature", None, "--feature", f"unknown feature {args.feature!r}"
                         f"{did_you_mean(args.feature, names)}; expected one of {', '.join(names)}")
    cov = coverage(corpus, limits(args), args.feature, progress=phase_printer(err, "coverage"))
    if args.json:
        print_json(document("coverage", **coverage_json(cov)), out)
    else:
        print("\n".join(coverage_text(cov)), file=out)
    if cov.total(VIOLATED):
        return Exit.FINDING
    return Exit.INCOMPLETE if cov.total(INCONCLUSIVE) else Exit.OK


def _percent(part: int, whole: int) -> str:
    return f"{100 * part // whole}%" if whole else "-"


def coverage_text(cov: Coverage) -> list[str]:
    width = max([len(f.name) for f in cov.features] + [7])
    head = f"{'feature':<{width}}  statements  posed  hold  fail  undecided  posed/all  hold/posed"
    lines = ["dmcheck coverage: corpus statements the model can answer (posed: they have scenarios), and how many "
             "hold under the default readings", head, "-" * len(head)]
    for f in cov.features:
        posed, hold = f.posed, f.count(HOLDS)
        lines.append(f"{f.name:<{width}}  {f.count():>10}  {posed:>5}  {hold:>4}  {f.count(VIOLATED):>4}  "
                     f"{f.count(INCONCLUSIVE):>9}  {_percent(posed, f.count()):>9}  {_percent(hold, posed):>10}")
    total, posed, hold = cov.total(), cov.posed, cov.total(HOLDS)
    lines.append("-" * len(head))
    lines.append(f"{'total':<{width}}  {total:>10}  {posed:>5}  {hold:>4}  {cov.total(VIOLATED):>4}  "
                 f"{cov.total(INCONCLUSIVE):>9}  {_percent(posed, total):>9}  {_percent(hold, posed):>10}")
    for r in failing(cov):
        lines.append(f"{r.verdict.upper():>12}: {r.statement.ref} [{r.statement.feature}] — {r.reason or 'see verify'}")
    lines.append(f"({cov.explorations} explorations)")
    return lines


def coverage_json(cov: Coverage) -> dict[str, Any]:
    def feature(f) -> dict[str, Any]:
        return {"feature": f.name, "statements": f.count(), "posed": f.posed, "hold": f.count(HOLDS),
                "violated": f.count(VIOLATED), "inconclusive": f.count(INCONCLUSIVE),
                "rows": [{"ref": r.statement.ref, "verdict": r.verdict, "reason": r.reason} for r in f.rows]}

    return {"features": [feature(f) for f in cov.features],
            "totals": {"statements": cov.total(), "posed": cov.posed, "hold": cov.total(HOLDS),
                       "violated": cov.total(VIOLATED), "inconclusive": cov.total(INCONCLUSIVE),
                       "not_posed": cov.total(NOT_POSED)},
            "explorations": cov.explorations}
