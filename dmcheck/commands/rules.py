"""`dmcheck rules`: how much of the comprehensive rules the model covers, read from its rules table.

The table (model/data/rules_index.yaml, model/rules_index.py) has one row per numbered rule of
Ver.1.48. This command prints it by chapter and section with the modelled share, the rules not
modelled grouped by the feature they need, or the rows under a number (`dmcheck rules 509`). The
README's list of what is not modelled is this command's `--markdown`, so it cannot drift.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from dmcheck.model.errors import InputError
from dmcheck.model.rules_index import (
    CHAPTERS,
    MODELLED,
    NOT_MODELLED,
    STATUSES,
    RuleRow,
    RulesIndex,
    load_index,
    share,
    sort_key,
)

from ..cli.exits import HELP, Exit
from ..cli.report import document, print_json

EXAMPLES = """examples:
  dmcheck rules                          # counts by chapter and section, and what is not modelled by feature
  dmcheck rules 509                      # the rows of section 509 (509, 509.1, ... 509.6)
  dmcheck rules 703.4c                   # one rule: its status, code site and tests
  dmcheck rules --status not_modelled --feature turn_structure
  dmcheck rules --json                   # the whole table as data
"""
_SHORT = {MODELLED: "modelled", NOT_MODELLED: "not modelled", "out_of_scope": "out of scope",
          "not_applicable": "n/a"}


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add `rules` to the dmcheck subcommands."""
    p = subparsers.add_parser(
        "rules", help="show how much of the comprehensive rules (Ver.1.48) the model covers, rule by rule",
        description="Print the rules table (model/data/rules_index.yaml): every numbered rule of the comprehensive "
                    "rules Ver.1.48 (2025-12-17) with its status — modelled (the code that implements it and a test "
                    "that fails if it breaks), not modelled (the feature it needs), out of scope or not applicable. "
                    "Without NUMBER: counts by chapter and section and the rules not modelled grouped by feature.",
        epilog=EXAMPLES + "\n" + HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("numbers", nargs="*", metavar="NUMBER",
                   help="a rule or the start of one (509, 509.4, 509.4a): list those rows with their details")
    p.add_argument("--status", choices=STATUSES, help="list only the rows of this status")
    p.add_argument("--feature", metavar="ID", help="list only the not-modelled rows needing this feature")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object: {schema_version, command, edition, counts, chapters, features, "
                        "rules, errors}")
    p.add_argument("--markdown", action="store_true",
                   help="print the README's section on what is not modelled, made from the table")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    index = load_index()
    if args.feature is not None and args.feature not in index.features:
        raise InputError("--feature", None, "", f"unknown feature {args.feature!r}; expected one of "
                                                f"{', '.join(sorted(index.features))}")
    for number in args.numbers:
        if not any(_under(r.rule, number) for r in index.rows):
            raise InputError("NUMBER", None, "", f"no rule {number!r} in Ver.{index.edition}; expected a number such "
                                                 f"as 509 or 703.4c")
    rows = _selected(index, args)
    if args.json:
        print_json(document("rules", **as_json(index, rows)), out)
    elif args.markdown:
        print(markdown(index), file=out, end="")
    elif args.numbers or args.status or args.feature:
        print("\n".join(row_lines(rows)), file=out)
    else:
        print("\n".join(summary_lines(index)), file=out)
    return Exit.OK


def _under(rule: str, prefix: str) -> bool:
    """509.4a is under 509 and 509.4 (and itself), never under 50 or 509.1."""
    return rule == prefix or rule.startswith(prefix + ".") or (
        "." in prefix and rule.startswith(prefix) and rule[len(prefix):].isalpha())


def _selected(index: RulesIndex, args: argparse.Namespace) -> list[RuleRow]:
    rows = list(index.rows)
    if args.numbers:
        rows = [r for r in rows if any(_under(r.rule, n) for n in args.numbers)]
    if args.status:
        rows = [r for r in rows if r.status == args.status]
    if args.feature:
        rows = [r for r in rows if r.status == NOT_MODELLED and r.needs == args.feature]
    return rows


def _percent(counts: dict[str, int]) -> str:
    scope = counts[MODELLED] + counts[NOT_MODELLED]
    return f"{round(100 * share(counts))} %" if scope else "-"


def summary_lines(index: RulesIndex) -> list[str]:
    """Counts by chapter and section, the total, and the not-modelled rules by feature."""
    titles = {r.rule: r.title for r in index.rows if "." not in r.rule}
    head = f"{'':52}{'modelled':>9}{'not mod.':>9}{'out':>5}{'n/a':>5}{'share':>7}"
    lines = [f"The comprehensive rules Ver.{index.edition} ({index.date}): {len(index.rows)} rules "
             f"(model/data/rules_index.yaml)", "", head]
    for chapter, title in CHAPTERS.items():
        rows = [r for r in index.rows if r.chapter == chapter]
        if not rows:
            continue
        lines.append(_count_line(f"{chapter} {title}", index.counts(rows)))
        for section in sorted({r.section for r in rows}, key=int):
            srows = [r for r in rows if r.section == section]
            lines.append(_count_line(f"  {section} {titles.get(section, '')}", index.counts(srows)))
    total = index.counts()
    lines += [_count_line("all chapters", total), "",
              f"in scope (modelled or not): {total[MODELLED] + total[NOT_MODELLED]}; modelled {total[MODELLED]} "
              f"({_percent(total)})", "", "not modelled, by the feature each rule needs:"]
    for fid, rows in _by_feature(index):
        lines.append(f"  {fid} ({len(rows)}): {index.features[fid].title}")
        lines.append(f"      {_numbers(rows)}")
    lines.append("`dmcheck rules NUMBER` shows a rule's row; `--feature ID` the rules a feature needs")
    return lines


def _count_line(label: str, counts: dict[str, int]) -> str:
    label = label if len(label) <= 50 else label[:49] + "…"
    return (f"{label:52}{counts[MODELLED]:>9}{counts[NOT_MODELLED]:>9}{counts['out_of_scope']:>5}"
            f"{counts['not_applicable']:>5}{_percent(counts):>7}")


def _by_feature(index: RulesIndex) -> list[tuple[str, list[RuleRow]]]:
    """The features with the rules needing them, most rules first."""
    found: dict[str, list[RuleRow]] = {}
    for r in index.rows:
        if r.status == NOT_MODELLED:
            found.setdefault(r.needs, []).append(r)
    return sorted(found.items(), key=lambda kv: (-len(kv[1]), kv[0]))


def _numbers(rows: list[RuleRow], limit: int = 12) -> str:
    shown = [r.rule for r in rows[:limit]]
    return ", ".join(shown) + (f" and {len(rows) - limit} more" if len(rows) > limit else "")


def row_lines(rows: list[RuleRow]) -> list[str]:
    """Each row with its details."""
    lines = []
    for r in sorted(rows, key=lambda r: sort_key(r.rule)):
        lines.append(f"{r.rule}  {r.title}  [{_SHORT[r.status]}]")
        for key in ("code", "tests", "limits", "needs", "reason", "eras"):
            value = getattr(r, key)
            if value:
                lines.append(f"    {key}: {', '.join(value) if isinstance(value, tuple) else value}")
    lines.append(f"{len(rows)} rule{'s' if len(rows) != 1 else ''}")
    return lines


def as_json(index: RulesIndex, rows: list[RuleRow]) -> dict[str, Any]:
    titles = {r.rule: r.title for r in index.rows if "." not in r.rule}
    chapters = []
    for chapter, title in CHAPTERS.items():
        crows = [r for r in index.rows if r.chapter == chapter]
        sections = [{"section": s, "title": titles.get(s, ""),
                     "counts": index.counts([r for r in crows if r.section == s])}
                    for s in sorted({r.section for r in crows}, key=int)]
        chapters.append({"chapter": chapter, "title": title, "counts": index.counts(crows), "sections": sections})
    total = index.counts()
    return {"edition": index.edition, "date": index.date, "counts": total,
            "modelled_share": round(share(total), 4), "chapters": chapters,
            "features": [{"id": fid, "title": index.features[fid].title, "rules": [r.rule for r in frows]}
                         for fid, frows in _by_feature(index)],
            "rules": [r.as_json() for r in rows]}


def markdown(index: RulesIndex) -> str:
    """The README's section on what is not modelled (between its `rules-table` markers)."""
    total = index.counts()
    lines = [f"Of the {len(index.rows)} numbered rules of the comprehensive rules Ver.{index.edition} "
             f"({index.date}), {total[MODELLED] + total[NOT_MODELLED]} can matter to a game position; the model "
             f"implements {total[MODELLED]} of them ({_percent(total)}). By chapter (`dmcheck rules`):", "",
             "| chapter | modelled | not modelled | out of scope | not applicable | share |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for chapter, title in CHAPTERS.items():
        c = index.counts([r for r in index.rows if r.chapter == chapter])
        lines.append(f"| {chapter} {title} | {c[MODELLED]} | {c[NOT_MODELLED]} | {c['out_of_scope']} | "
                     f"{c['not_applicable']} | {_percent(c)} |")
    lines += ["", "Not modelled, by the feature each rule needs (`dmcheck rules --feature ID` lists them):", ""]
    for fid, rows in _by_feature(index):
        lines.append(f"- `{fid}` ({len(rows)} rule{'s' if len(rows) != 1 else ''}: {_numbers(rows, 6)}): "
                     f"{index.features[fid].title}")
    return "\n".join(lines) + "\n"
