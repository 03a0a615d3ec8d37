"""`dmcheck export`: conformance bundles for engine developers (dmcheck/engines/bundle.py, docs/conform.md).

An engine's test suite keeps the bundle and replays it (or runs `dmcheck conform` against it): for
every scenario, every legal choice in every state and every legal outcome, labelled with the cards'
scenario names and the rulings each scenario stands for.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, TextIO

from dmcheck.model.errors import InputError

from ..cli import workers
from ..cli.exits import HELP, Exit
from ..cli.options import READINGS_HELP, add_memory_option, expand, positive_int, reading, rules_date
from ..cli.paths import check_not_inputs
from ..cli.shipped import PATHS_NOTE

EXAMPLES = """examples:
  dmcheck export --corpus --out dm-bundle.json      # every scenario run of the built-in corpus
  dmcheck export --corpus --out bundles/            # one bundle file per scenario run
  dmcheck export scenarios/rulings/Q09_the_watch.yaml > q09.json
  dmcheck export scenarios/attack/ --rules 2023-01-01 --out old-rules.json
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add `export` to the dmcheck subcommands."""
    p = subparsers.add_parser(
        "export", help="write a conformance bundle: every legal choice and outcome of scenarios, as data",
        description="Explore each scenario without reduction and write a conformance bundle (JSON, schema "
                    "dmcheck/engines/schemas/bundle-1.schema.json): the position, every state with its legal choices "
                    "(player, kind, decision, the cards by label) and the state each leads to, every legal "
                    "outcome with a shortest path, and the corpus rulings that name the scenario. The bytes "
                    "are the same on every run, machine and --jobs (docs/conform.md).",
        epilog=EXAMPLES + PATHS_NOTE + "\n" + HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="*", metavar="FILE|DIR", help="scenario YAML files, or directories of them")
    p.add_argument("--corpus", action="store_true",
                   help="every scenario run of the built-in corpus: each scenario a statement names, under the "
                        "rules of the statement's date")
    p.add_argument("--out", metavar="FILE|DIR",
                   help="write the bundle to FILE, or one bundle per scenario run into DIR (an existing "
                        "directory or a name ending in /); default: standard output")
    p.add_argument("--rules", metavar="DATE", help="export every scenario under the rules in force on DATE")
    p.add_argument("--interpretation", dest="readings", metavar="NAME=READING", action="append", default=[],
                   help="a reading for every scenario: " + READINGS_HELP)
    p.add_argument("--max-states", type=int, default=None, metavar="N",
                   help="stop a search after N states; the bundle says the scenario is incomplete (exit 3)")
    add_memory_option(p)
    p.add_argument("--jobs", type=positive_int, default=None, metavar="N",
                   help="explore up to N scenario runs at once, each in its own process (default: 1; the corpus's "
                        "runs are small, so more processes cost more than they save); the bytes are the same")
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..engines import bundle

    runs = _runs(args)
    to_dir = _target(args.out)
    rules = rules_date(args.rules).isoformat() if args.rules else None
    readings = dict(reading(item) for item in args.readings) or None
    limits = dict({"max_states": args.max_states} if args.max_states else {}, max_memory=args.max_memory)
    data = bundle.export_bundle(runs, rules=rules, interpretation=readings, limits=limits, jobs=args.jobs or 1,
                                workers=workers.mapper(err))
    try:
        written = _write(args, to_dir, data, out)
    except OSError as exc:     # a file where a folder of the bundles should go, a full disk, ...
        raise InputError("--out", None, "", f"cannot write {args.out} ({exc.strerror or exc}); expected a "
                                            f"file or folder dmcheck may write") from None
    entries = data["scenarios"]
    incomplete = [e["id"] for e in entries if not e["complete"]]
    summary = (f"dmcheck export: {len(entries)} scenario runs, {sum(len(e['nodes']) for e in entries)} states, "
               f"{sum(len(e['outcomes']) for e in entries)} outcomes; {written}")
    print(summary, file=err if args.out is None else out)
    for name in incomplete:
        print(f"dmcheck export: {name}: incomplete (a limit cut the search)", file=err)
    return Exit.INCOMPLETE if incomplete else Exit.OK


def _runs(args: argparse.Namespace) -> list:
    from ..engines import bundle

    if args.corpus and args.files:
        raise InputError("--corpus", None, "", "expected either --corpus or scenario files, not both")
    if args.corpus:
        return bundle.corpus_runs()
    if not args.files:
        raise InputError("export", None, "", "expected scenario files or directories, or --corpus")
    return expand(args.files)


def _target(out: str | None) -> bool:
    """Whether --out names a directory; refused before any work when it cannot be written."""
    if out is None:
        return False
    path = Path(out)
    to_dir = path.is_dir() or out.endswith(("/", "\\"))
    parent = path if to_dir else path.parent
    if not (parent.is_dir() or (to_dir and parent.parent.is_dir())):
        raise InputError("--out", None, "", f"the folder {parent} does not exist; expected a file or folder "
                                            "in an existing folder")
    return to_dir


def _write(args: argparse.Namespace, to_dir: bool, data: dict, stream: TextIO) -> str:
    """Write the bundle (or one per run into a folder); what was written, for the summary line."""
    from ..engines import bundle

    out = args.out
    if out is None:
        text = bundle.dumps(data)
        stream.write(text)
        return f"{len(text.encode('utf-8'))} bytes on standard output"
    if not to_dir:
        text = bundle.dumps(data)
        Path(out).write_bytes(text.encode("utf-8"))
        return f"{len(text.encode('utf-8'))} bytes written to {out}"
    total = 0
    parts = bundle.split(data)
    check_not_inputs("--out", [str(Path(out) / name) for name in parts], args)
    for name, part in parts.items():
        target = Path(out) / name
        target.parent.mkdir(parents=True, exist_ok=True)
        raw = bundle.dumps(part).encode("utf-8")
        target.write_bytes(raw)
        total += len(raw)
    return f"{len(data['scenarios'])} files, {total} bytes written under {out}"
