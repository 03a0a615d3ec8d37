"""The `dmcheck sweep` command: every position a template generates, checked, results in SQLite.

It exists to answer, over every small position a card pool allows, where a rules property fails
and where two readings or two rules versions disagree (where a ruling would be needed). The
template, the database and the JSON are the contract of docs/sweeps.md; the work is rulings/sweep/.
The report gives, for each kind of finding, the smallest position (fewest cards, then by name) with
its trace. Exit codes: 0 nothing found, 1 findings, 2 bad input, 3 incomplete, 130 interrupted.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any, TextIO

from dmcheck.explorer.limits import Limits
from dmcheck.model.errors import InputError
from dmcheck.properties.checker import QUERY_TIMEOUT_MS
from dmcheck.rulings.sweep.backends import Job, Run, run_local, run_ray
from dmcheck.rulings.sweep.positions import count, positions
from dmcheck.rulings.sweep.store import SCHEMA_VERSION, Store
from dmcheck.rulings.sweep.template import Template, load_template

from ..cli import stop
from ..cli.exits import HELP, Exit
from ..cli.options import add_memory_option
from ..cli.paths import check_output
from ..cli.report import document, outcome_line, print_json
from ..cli.shipped import PATHS_NOTE

EXAMPLES = """examples:
  dmcheck sweep scenarios/sweeps/kakumeijin_nested.yaml
  dmcheck sweep scenarios/sweeps/kakumeijin_nested.yaml --db /tmp/k.sqlite --jobs 2 --json
  dmcheck sweep scenarios/sweeps/rules_2023_04_19.yaml --backend ray --ray-address auto
"""


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add `sweep` to the dmcheck subcommands."""
    p = subparsers.add_parser(
        "sweep", help="check every position a template generates (properties, expect, compare)",
        description="Generate every position of a sweep template (a scenario plus `vary` and optionally "
                    "`compare`, docs/sweeps.md), and for each explore it, check the built-in properties and "
                    "the template's `expect`, and compare the outcome sets of the compared readings or rules "
                    "versions. Results go to SQLite as each position finishes; running again on the same "
                    "database skips the positions done.",
        epilog=EXAMPLES + PATHS_NOTE + "\n" + HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("template", metavar="TEMPLATE", help="a sweep template YAML file")
    p.add_argument("--db", metavar="FILE.sqlite", help="the results database (default: the template's path "
                                                       "with .sqlite)")
    p.add_argument("--jobs", type=int, default=_cores(), metavar="N",
                   help="worker processes, or Ray CPUs for a local Ray instance (default: the number of cores)")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local process pool (default) or Ray (needs pip install 'dmcheck[ray]')")
    p.add_argument("--ray-address", metavar="ADDR", help="a Ray cluster to join (default: start a local one)")
    p.add_argument("--max-seconds", type=float, metavar="S",
                   help="stop starting positions after S seconds; those left run next time (exit 3)")
    p.add_argument("--max-states", type=int, default=Limits().max_states, metavar="N",
                   help="bound each position's search; a position that hits it is incomplete")
    add_memory_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object (docs/sweeps.md)")
    p.set_defaults(run=run)
    return p


def _bar(err: TextIO, total: int, initial: int, findings: int):
    if not getattr(err, "isatty", lambda: False)():
        return None
    from tqdm import tqdm
    bar = tqdm(total=total, initial=initial, unit=" positions", file=err, leave=False, dynamic_ncols=True,
               desc="sweep")
    bar.set_postfix_str(f"findings {findings}")
    return bar


def _check_args(args: argparse.Namespace) -> None:
    if args.jobs < 1:
        raise InputError("--jobs", None, "", f"expected a number of workers >= 1, got {args.jobs}")
    if args.max_states < 1:
        raise InputError("--max-states", None, "", f"expected a number >= 1, got {args.max_states}")
    if args.max_seconds is not None and args.max_seconds <= 0:
        raise InputError("--max-seconds", None, "", f"expected a number of seconds > 0, got {args.max_seconds}")
    if args.ray_address and args.backend != "ray":
        raise InputError("--ray-address", None, "", "expected --backend ray with --ray-address")


def _check_default_db(args: argparse.Namespace) -> None:
    """The default database, beside the template, must be writable too (an explicit --db is checked
    with every output path, dmcheck/cli/options.py)."""
    if args.db is None:
        try:
            check_output("--db", database_path(args), database=True)
        except InputError as exc:
            raise InputError("--db", None, "", f"{exc.expected} (the default database, beside the template; "
                                               f"give --db FILE.sqlite elsewhere)") from None


def database_path(args: argparse.Namespace) -> str:
    """--db, else the template's path with .sqlite (in the current folder for a built-in template read
    from the installed package, never inside it)."""
    if args.db:
        return args.db
    typed = getattr(args, "shipped", {}).get(args.template)
    return str(Path(typed or args.template).with_suffix(".sqlite").name if typed else
               Path(args.template).with_suffix(".sqlite"))


def execute(args: argparse.Namespace, template: Template, store: Store, err: TextIO, done: set[int],
            task=None) -> Run:
    """Run the positions not yet in the store, each claimed first (a position another live sweep on the
    same database has claimed is left to it)."""
    todo = (p for p in positions(template) if p.index not in done and store.claim(p.index))
    job = Job(template, Limits(max_states=args.max_states, max_memory=args.max_memory), QUERY_TIMEOUT_MS)
    if task is not None:
        job.task = task
    findings = [store.counts()["finding"]]
    bar = _bar(err, count(template), len(done), findings[0])

    def record(result: dict) -> bool:
        new = store.record(result)
        if bar is not None:
            findings[0] += new and bool(result["findings"])
            bar.update(1)
            bar.set_postfix_str(f"findings {findings[0]}")
        return new

    deadline = time.monotonic() + args.max_seconds if args.max_seconds else None
    if args.backend == "ray" and not args.ray_address:
        print("dmcheck: --backend ray without --ray-address starts a Ray instance on this machine first (10 to 20 s "
              "measured) and is then no faster than the local pool, the default; Ray pays off across the machines "
              "of a cluster (docs/sweeps.md, Performance)", file=err)
    try:
        if args.backend == "ray":
            return run_ray(job, todo, record, args.jobs, deadline, args.ray_address)
        return run_local(job, todo, record, args.jobs, deadline)
    finally:
        if bar is not None:
            bar.close()


def run(args: argparse.Namespace, out: TextIO, err: TextIO, task=None) -> int:
    _check_args(args)
    start = time.perf_counter()
    template = load_template(args.template)
    _check_default_db(args)
    db = database_path(args)
    store = Store(db, template.file, template.digest, count(template))
    done = store.done()
    try:
        try:
            backend = execute(args, template, store, err, done, task)
        except (KeyboardInterrupt, stop.TimeUp) as exc:     # Ctrl-C, or the whole command's time limit
            with stop.caught():
                return _report(args, template, store, Run(stopped=why_stopped(args, exc)), len(done), start,
                               out, err, exc)
        return _report(args, template, store, backend, len(done), start, out, err)
    finally:
        store.release()      # claims of positions not finished go back (stopped, failed)
        store.close()


def why_stopped(args: argparse.Namespace, exc: BaseException) -> str:
    """What stopped the sweep, in the words of dmcheck/cli/stop.py's reports for the other commands."""
    if isinstance(exc, KeyboardInterrupt):
        return "interrupted"
    return f"time limit {args.max_seconds:g}s of the whole command reached"


def _report(args: argparse.Namespace, template: Template, store: Store, backend: Run, resumed: int, start: float,
            out: TextIO, err: TextIO, interrupted: BaseException | None = None) -> int:
    """The summary, as JSON or text: the same for a finished run and one that Ctrl-C or the whole
    command's time limit stopped (`interrupted`; then marked incomplete, its positions finished so far
    counted from the database)."""
    summary = summary_json(template, store, backend, resumed, time.perf_counter() - start, database_path(args))
    summary["backend"] = {"name": args.backend, "jobs": args.jobs, "address": args.ray_address}
    if interrupted:
        summary.update(complete=False, not_finished=[template.file])
    if args.json:   # the one object every command prints (the store's schema_version is the same 1)
        print_json(document("sweep", **{k: v for k, v in summary.items() if k != "schema_version"}), out)
    else:
        print("\n".join(summary_text(template, summary)), file=out)
    if interrupted:
        print(f"dmcheck: {backend.stopped}: the results are incomplete; every finished position is in "
              f"{summary['db']}: run the same command again to go on", file=err)
        out.flush()
        return Exit.INTERRUPTED if isinstance(interrupted, KeyboardInterrupt) else Exit.INCOMPLETE
    return exit_code(summary)


def exit_code(summary: dict) -> Exit:
    if summary["violations"] or summary["differences"]:
        return Exit.FINDING
    if summary["done"] < summary["positions"] or summary["incomplete"]:
        return Exit.INCOMPLETE
    return Exit.OK


def summary_json(template: Template, store: Store, run: Run, resumed: int, seconds: float, db: str) -> dict[str, Any]:
    counts, done = store.snapshot()
    smallest = []
    for kind, n, result in store.smallest():
        finding = next(f for f in result["findings"] if f["kind"] == kind)
        smallest.append({"kind": kind, "what": finding["what"], "count": n, "position": result["key"],
                         "cards": result["cards"], "zones": result["zones"], "finding": finding})
    return {"schema_version": SCHEMA_VERSION, "template": template.file, "name": template.scenario.name,
            "db": db, "compare": template.compare_text or None, "positions": count(template),
            "done": counts["done"], "resumed": resumed, "violations": counts["violations"],
            "differences": counts["differences"], "incomplete": counts["incomplete"],
            "failed": [{"position": key, "why": why} for key, why in run.failed],
            "held_elsewhere": _held(store, done), "complete": counts["done"] == count(template),
            "stopped": run.stopped or None, "smallest": smallest, "seconds": round(seconds, 3)}


def _held(store: Store, done: set[int]) -> dict[str, Any] | None:
    """The positions this run left to another sweep running on the same database and not `done`, if any."""
    held = {i: p for i, p in store.held_elsewhere.items() if i not in done}
    if not held:
        return None
    return {"positions": len(held), "pids": sorted(set(held.values()))}


def _finding_lines(item: dict) -> list[str]:
    f = item["finding"]
    head = f"   {item['kind']}: {item['count']} position(s); smallest: {item['position']} ({item['cards']} cards)"
    lines = [head, f"      {f['detail']}"]
    if f["what"] == "violation":
        if f.get("trace"):
            lines.append("      shortest trace:")
            lines.extend("        " + line for line in f["trace"]["lines"])
        return lines
    for side in f["sides"]:
        for only in side["only"]:
            lines.append(f"      only under {side['label']}: {outcome_line(only['outcome'])}")
            lines.extend("        " + line for line in only["trace"]["lines"])
    return lines


def summary_text(template: Template, s: dict) -> list[str]:
    done = (f"   positions: {s['positions']} generated, {s['done']} done ({s['resumed']} found done in "
            f"{s['db']}), {s['seconds']:.1f}s")
    lines = [f"== {s['name']}  ({s['template']})", done,
             f"   violations: {s['violations']} position(s); differences: {s['differences']} position(s)"
             + (f" ({s['compare']})" if s["compare"] else " (nothing compared)")
             + f"; incomplete: {s['incomplete']}"]
    for item in s["smallest"]:
        lines.extend(_finding_lines(item))
    for failed in s["failed"]:
        lines.append(f"   NOT DONE {failed['position']}: {failed['why']}")
    if s["held_elsewhere"]:
        held = s["held_elsewhere"]
        lines.append(f"   left to another sweep on this database (pid {', '.join(map(str, held['pids']))}): "
                     f"{held['positions']} position(s) it was running; run again once it has finished")
    if s["stopped"]:
        lines.append(f"   stopped: {s['stopped']}; run the same command again to go on")
    return lines
