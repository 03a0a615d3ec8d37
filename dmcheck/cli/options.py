"""The options commands share, parsed once: rules dates, readings, search limits, loading scenarios."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import datetime as dt
import functools
import io
import math
import os
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any, TextIO

from dmcheck.explorer.bfs import explore
from dmcheck.explorer.limits import Limits
from dmcheck.model.errors import InputError, ModelError, did_you_mean
from dmcheck.model.procedure import BreakModel
from dmcheck.model.readings import CHOICES
from dmcheck.model.rules import parse_date, rules_date_problem
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.expectations import observer as expectation_observer

from . import output, stop, workers
from .exits import Exit, combine
from .paths import INPUT_FLAGS, check_paths
from .progress import progress_printer
from .report import document, errors_json, locate_model_error, print_errors, print_json
from .shipped import resolve_shipped

READINGS_HELP = "; ".join(f"{c.name}={'|'.join(r for r, _ in c.readings)}" for c in CHOICES)


def rules_date(text: str) -> dt.date:
    """A `--rules DATE` value."""
    try:
        day = parse_date(text)
    except ValueError:
        raise InputError("--rules", None, "", f"expected a date YYYY-MM-DD, got {text!r}") from None
    if rules_date_problem(day):
        raise InputError("--rules", None, "", rules_date_problem(day))   # never run under newer rules
    return day


def reading(item: str) -> tuple[str, str]:
    """A `--interpretation NAME=READING` value."""
    name, sep, value = item.partition("=")
    choice = next((c for c in CHOICES if c.name == name), None)
    if not sep or choice is None or value not in [r for r, _ in choice.readings]:
        hint = did_you_mean(value, [r for r, _ in choice.readings]) if choice is not None else \
            did_you_mean(name, [c.name for c in CHOICES])
        raise InputError("--interpretation", None, item, f"expected NAME=READING{hint} with " + READINGS_HELP)
    return name, value


def add_limit_options(p: argparse.ArgumentParser, depth: bool = True, seconds_help: str | None = None) -> None:
    p.add_argument("--max-states", type=int, default=Limits().max_states, metavar="N",
                   help="stop a search after N states; it is then incomplete (exit 3) (default: %(default)s)")
    if depth:
        p.add_argument("--max-depth", type=int, default=Limits().max_depth, metavar="N",
                       help="do not follow a trace past N steps; a search cut so is incomplete (default: %(default)s)")
    p.add_argument("--max-seconds", type=float, default=Limits().max_seconds, metavar="S",
                   help=seconds_help or "stop a search after S seconds; it is then incomplete (default: %(default)s)")
    add_memory_option(p)


def add_memory_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-memory", type=memory_size, default=Limits().max_memory, metavar="SIZE",
                   help=f"stop a search once the process holds SIZE of memory (e.g. 2G, 500M); it is then "
                        f"incomplete (exit 3), and the command stops at {stop.MEMORY_MARGIN:g} times SIZE "
                        f"wherever it is (default: {memory_text(Limits().max_memory)}; docs/limits.md)")


_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}


def memory_size(text: str) -> int:
    """A `--max-memory` value: bytes, or a number with K, M, G or T (powers of 1024)."""
    t = text.strip().upper().removesuffix("B").removesuffix("I")
    unit = t[-1:] if t[-1:] in _UNITS and t[-1:] else ""
    try:
        value = float(t[:len(t) - len(unit)]) * _UNITS[unit]
    except ValueError:
        value = -1
    if not (math.isfinite(value) and value >= 1024**2):
        raise argparse.ArgumentTypeError(f"expected a size of at least 1M such as 4G or 500M, got {text!r}")
    return int(value)


def memory_text(n: int) -> str:
    """A size as --max-memory takes it: 4G, 500M."""
    for unit in ("T", "G", "M", "K"):
        if n % _UNITS[unit] == 0:
            return f"{n // _UNITS[unit]}{unit}"
    return str(n)


SEARCH_SHARE = 0.8   # of what remains of the command's budget, given to a search (explore)


def limits(args: argparse.Namespace, share: float = SEARCH_SHARE) -> Limits:
    """The search limits. A search gets `share` of what remains of the command's budget, the rest kept
    for the work on its graph (outcomes, checks, output: docs/limits.md), so that a stopped search is
    reported, with what it found, before the budget's watchdog must cut it; a slow start-up does not
    starve it (stop.search_seconds)."""
    seconds = min(args.max_seconds, stop.search_seconds(share))
    return Limits(args.max_states, getattr(args, "max_depth", Limits().max_depth), seconds,
                  getattr(args, "max_memory", Limits().max_memory), stop.interrupted)


def _whole(name: str, value, least: int) -> None:
    if value is not None and (not isinstance(value, int) or value < least):
        raise InputError(name, None, "", f"expected a whole number >= {least}, got {value}")


def shipped_inputs(args: argparse.Namespace, err: TextIO) -> None:
    """Read an input path `scenarios/X` that is not in the current folder from dmcheck's shipped copy
    (dmcheck/cli/shipped.py), so that the help examples and the docs work from any install; stderr says so.
    `args.shipped` maps each path replaced to the path as typed."""
    args.shipped = {}
    for name in INPUT_FLAGS:
        value = getattr(args, name, None)
        items = [value] if isinstance(value, str) else list(value or [])
        found = [resolve_shipped(item) for item in items]
        if not any(found):
            continue
        for item, path in zip(items, found):
            if path is not None:
                args.shipped[str(path)] = item
                print(f"dmcheck: {item} is not in this folder: reading dmcheck's built-in copy {path} "
                      f"(dmcheck examples --copy DIR copies them out)", file=err)
        changed = [str(path) if path is not None else item for item, path in zip(items, found)]
        setattr(args, name, changed[0] if isinstance(value, str) else changed)


def check_flags(args: argparse.Namespace) -> None:
    """Flags every command shares, checked before any work: limits, the solver timeout, output paths."""
    _whole("--max-states", getattr(args, "max_states", None), 1)
    _whole("--max-depth", getattr(args, "max_depth", None), 0)
    _whole("--solver-timeout", getattr(args, "solver_timeout", None), 1)
    seconds = getattr(args, "max_seconds", None)
    if seconds is not None and not (math.isfinite(seconds) and seconds > 0):
        raise InputError("--max-seconds", None, "", f"expected a number of seconds > 0, got {seconds}")
    check_paths(args)


def add_search_options(p: argparse.ArgumentParser) -> None:
    """The options `explore` and `check` share: output, rules version, readings, limits, reduction."""
    p.add_argument("--json", action="store_true",
                   help="print one JSON object: {schema_version, command, scenarios, errors} (docs/scenario-format.md)")
    p.add_argument("--rules", metavar="DATE", help="use the rules in force on DATE (YYYY-MM-DD)")
    p.add_argument("--interpretation", dest="readings", metavar="NAME=READING", action="append", default=[],
                   help="choose a reading of an interpretation choice: " + READINGS_HELP)
    add_limit_options(p)
    p.add_argument("--no-reduce", action="store_true",
                   help="explore every order of commuting effects and every symmetric state (reduction is on "
                        "by default; outcomes, verdicts and shortest traces are the same either way)")


def add_ci_options(p: argparse.ArgumentParser) -> None:
    """`--junit` and `--sarif` for commands that run many scenarios (dmcheck/cli/tally.py, docs/ci.md)."""
    ci = p.add_argument_group("CI (docs/ci.md)")
    ci.add_argument("--junit", metavar="OUT", help="also write JUnit XML: each scenario file a test case (a failure "
                                                   "when a check is violated, an error when undecided or unreadable)")
    ci.add_argument("--sarif", metavar="OUT", help="also write SARIF 2.1.0: each check that did not hold, at its line "
                                                   "(the `expect` item, or a property file's property)")


def overrides(args: argparse.Namespace) -> dict:
    """What `--rules` and `--interpretation` change in every scenario loaded."""
    out: dict = {}
    if args.rules:
        out["rules"] = rules_date(args.rules)
    chosen = dict(reading(item) for item in args.readings)
    if chosen:
        out["readings"] = chosen
    return out


def replay_flags(args: argparse.Namespace) -> str:
    """The options a replay needs to mean what this run meant (the model's, not the search's): the
    rules date and the readings given on the command line, as they would be typed again."""
    flags = f" --rules {args.rules}" if getattr(args, "rules", None) else ""
    return flags + "".join(f" --interpretation {item}" for item in getattr(args, "readings", ()) or ())


def load(file: str, changes: dict):
    scenario = load_scenario(file)
    if "readings" in changes:
        changes = dict(changes, readings={**scenario.readings, **changes["readings"]})
    return dataclasses.replace(scenario, **changes)


def expand(files: list[str]) -> list[str]:
    """The FILE arguments with each directory replaced by its `*.yaml` files, in name order."""
    out = []
    for file in files:
        path = Path(file)
        if path.is_dir():
            found = sorted(str(p) for p in path.glob("*.yaml") if p.is_file())
            if not found:
                raise InputError(file, None, "", "a directory with no *.yaml file; expected scenario files")
            out += found
        else:
            out.append(file)
    return out


def loaded(files: list[str], changes: dict, err: TextIO, codes: list[int],
           errors: list[dict] | None = None) -> Iterator:
    """Each file's scenario (a directory: its *.yaml); a bad file is reported on `err` (and in
    `errors`, for the JSON), counted as bad input and skipped."""
    for file in expand(files):
        if stop.remaining() <= 0 and stop.startup() is not None:
            # the budget is spent after a search: say which files remain, and stop (the first search
            # is begun anyway: start-up may not starve it, stop.search_seconds)
            raise stop.TimeUp()
        try:
            scenario = load(file, changes)
        except InputError as exc:
            print_errors(exc, err)
            codes.append(Exit.BAD_INPUT)
            if errors is not None:
                errors += errors_json(exc)
            stop.finished(file)
            continue
        yield file, scenario
        stop.finished(file)


def _property_observer(model, properties):
    """What the properties observe (properties/visibility.py, which builds on Z3: imported only when a
    command checks properties, so that explore does not load Z3)."""
    if not properties:
        return None
    from dmcheck.properties.visibility import observer
    return observer(model, properties)


def explore_scenario(scenario, args: argparse.Namespace, err: TextIO, file: str, properties=(),
                     share: float = SEARCH_SHARE):
    """Explore one scenario as the command line asks: limits, progress, reduction kept blind to
    nothing the expectations or properties observe."""
    model = BreakModel(scenario)
    reduce = not getattr(args, "no_reduce", False)
    observe = None
    if reduce:
        seen = [o for o in (expectation_observer(scenario.expect), _property_observer(model, properties)) if o]
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
    printer = progress_printer(err, file)
    # the symmetry takes identical cards for one another: off where a check names one copy, and where
    # the whole graph is written out (--html, --graph), so that every path through it is a real one
    symmetry = reduce and not (getattr(args, "graph", None) or getattr(args, "html", None)
                               or names_a_copy(scenario.expect, properties))

    def progress(states: int, frontier: int, depth: int, seconds: float) -> None:
        stop.searching(file, states, frontier, depth, seconds)     # what Ctrl-C reports of this file
        if printer:
            printer(states, frontier, depth, seconds)
    with stop.stoppable():         # Ctrl-C ends the search, whose findings so far are reported
        try:
            graph = explore(model, limits(args, share), progress, reduce=reduce, observe=observe,
                            keep_graph=not compact, symmetry=symmetry)
        except ModelError as exc:
            locate_model_error(exc, model, file)
            raise
    stop.search_done()
    started = stop.startup()
    if not graph.complete and graph.reason.startswith("time limit") and started is not None:
        graph.reason += f" (of the command's {args.max_seconds:g}s, start-up took {started:.2g}s)"
    return graph


def names_a_copy(expect, properties=()) -> bool:
    """Whether an expectation's pattern or a property's formula names one copy of a card the scenario
    has several of (`Vanilla#2`): states that differ only by which copy is where are not alike then."""
    def strings(value) -> list[str]:
        if isinstance(value, str):
            return [value]
        if isinstance(value, dict):
            return [t for v in value.values() for t in strings(v)]
        if isinstance(value, (list, tuple)):
            return [t for v in value for t in strings(v)]
        return []
    named = [t for item in expect for t in strings(item.value)] + [c for p in properties for c in p.cards]
    return any("#" in name for name in named)


# ---- --jobs: scenarios in worker processes, results in the files' order ----------------------------
def add_jobs_option(p: argparse.ArgumentParser, what: str = "scenario files") -> None:
    p.add_argument("--jobs", type=positive_int, default=None, metavar="N",
                   help=f"work on up to N {what} at once, each in its own process (default: the number of "
                        "cores); the output is the same as with --jobs 1")


def positive_int(text: str) -> int:
    """A `--jobs N` value."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return value


def jobs(args: argparse.Namespace) -> int:
    return getattr(args, "jobs", None) or os.cpu_count() or 1


@dataclasses.dataclass
class FileResult:
    """What one scenario file gave: its text or JSON report, its exit code, what it wrote on stderr,
    and the input error that stopped the command there (as fields: an InputError does not pickle)."""

    text: str | None = None
    report: Any = None
    codes: list = dataclasses.field(default_factory=list)
    errors: list = dataclasses.field(default_factory=list)   # files that could not be read, for the JSON
    err: str = ""
    record: Any = None             # the scenario's verdicts as plain data, for the tally, JUnit and SARIF (tally.py)
    time_up: bool = False          # the command's time budget ran out while this file was worked on
    error: tuple | None = None
    begun: bool = True             # False: Ctrl-C came before a worker began the file


def per_file(work: Callable[..., FileResult], args: argparse.Namespace, files: list[str],
             err: TextIO) -> Iterator[tuple[str, FileResult]]:
    """(file, `work(args, file, err)`) for every file, in the files' order. With one job (or one file) it runs
    here and writes on `err` as it goes; with more, files run in worker processes (dmcheck/cli/workers.py)
    and each one's stderr is replayed in order; a file whose worker died twice is named not finished.
    An input error is raised where the sequential run would have raised it. Ctrl-C stops the searches
    under way (stop.stoppable): their files are reported as far as they got, the others not begun, and
    then KeyboardInterrupt ends the command."""
    files = expand(files)
    stop.expecting(files)
    n = min(jobs(args), len(files))
    if n <= 1:
        results: Generator[Any, None, None] = (work(args, file, err) for k, file in enumerate(files)
                                               if k == 0 or not (stop.spent() or stop.interrupted()))
    else:
        results = workers.ordered(functools.partial(_captured, work, args), files, n,
                                  lambda text: print(f"dmcheck: {text}", file=err))
    try:
        with stop.stoppable() if n > 1 else contextlib.nullcontext():   # the workers' searches stop on Ctrl-C
            for file, result in zip(files, results):
                if isinstance(result, workers.Lost):
                    print(f"dmcheck: {file}: not finished: {result.why}", file=err)
                    continue            # left in stop.pending(): reported as not finished, exit 3
                if not result.begun:
                    continue            # Ctrl-C came first: not finished
                err.write(result.err)
                if result.time_up:
                    raise stop.TimeUp()      # the command's budget ran out in a worker
                if result.error is not None:
                    raise InputError(*result.error)
                stop.finished(file)
                yield file, result
        if stop.interrupted():
            raise KeyboardInterrupt      # the searches stopped, what they found is out: the command ends
    finally:
        results.close()      # Ctrl-C, a time limit, an input error: the workers end with it


def report_files(command: str, work: Callable[..., FileResult], args: argparse.Namespace, out: TextIO,
                 err: TextIO) -> int:
    """Run `work` on every scenario FILE (see `per_file`), print each file's text or the one JSON
    document of the command, end with the tally of the scenarios (text: when there are several), write
    --junit and --sarif, and return the combined exit code."""
    from . import tally

    reports, codes, errors, records = stop.reports(), [], [], []   # stop.py prints the reports on Ctrl-C
    for file, result in per_file(work, args, args.files, err):
        codes += result.codes
        errors += result.errors
        records += tally.unreadable(file, result.errors)
        if result.record is not None:
            records.append(result.record)
        if result.report is not None:
            reports.append(result.report)
        if result.text is not None:
            with output.writing():
                print(result.text, file=out)
    left = stop.pending()
    # a file the time budget left unbegun is counted, and reported to CI, as incomplete
    records += [{"file": f, "scenario": "", "status": "incomplete", "checks": []} for f in left]
    counts = tally.tally(records)
    tally.write_ci(args, records, _version())
    if args.json:
        # one flag for tools: every file finished and every search complete
        complete = not left and all(r.get("complete", True) for r in reports)
        print_json(document(command, errors, scenarios=reports, complete=complete, not_finished=left,
                            tally=counts), out)
    else:
        if counts["scenarios"] > 1:
            with output.writing():
                print(tally.tally_line(counts), file=out)
        if left:
            print(f"dmcheck: the time budget was spent: the results are incomplete; not finished: "
                  f"{', '.join(left)}", file=err)
    output.written()
    if left:
        codes.append(Exit.INCOMPLETE)
    return combine(codes)


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("dmcheck-rules")
    except metadata.PackageNotFoundError:
        return "unknown"


def _captured(work: Callable[..., FileResult], args: argparse.Namespace, file: str) -> FileResult:
    if stop.interrupted():
        return FileResult(begun=False)   # Ctrl-C came before this file was begun
    buffer = io.StringIO()
    try:
        result = work(args, file, buffer)
    except stop.TimeUp:
        result = FileResult(time_up=True)   # the budget is shared: the main process stops the command
    result.err = buffer.getvalue() + result.err
    return result


def input_error(exc: InputError) -> tuple:
    return (exc.file, exc.line, exc.key, exc.expected)
