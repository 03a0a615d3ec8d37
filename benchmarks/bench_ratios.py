"""Issue 39's figures as ratios against a pinned earlier commit, from paired, interleaved runs.

Every measurement is a whole process started here; its CPU seconds (user + system) and peak resident
set come from the kernel's accounting of that child (os.wait4: the figures getrusage(RUSAGE_CHILDREN)
adds up, taken per child and covering its own children, e.g. verify's workers). A pair runs the
pinned checkout and this one back to back, the order swapped every other pair, so that a change in
the machine's load falls on both sides; each line gives the median of the pairs' ratios and their
range, and the load average seen meanwhile (the machine is shared: read the ranges).

    git worktree add /tmp/base 2015380 && python3 -m venv /tmp/base/.venv \\
        && /tmp/base/.venv/bin/pip install -q -e /tmp/base          # once: the pinned checkout
    .venv/bin/python benchmarks/bench_ratios.py --base /tmp/base        # every figure, 5 pairs
    .venv/bin/python benchmarks/bench_ratios.py --base /tmp/base --only search,defaults --pairs 7
    .venv/bin/python benchmarks/bench_ratios.py --base /tmp/base --json > ratios.json

The figures (`--only`, comma-separated):
- `search`: search CPU per stored state with the defaults (the search's own CPU in a fresh process,
  start-up aside, as benchmarks/run_family.py times it), Kakumeijin L7 and L8 and shield check n = 10;
- `verify`: `dmcheck verify` (default --jobs) whole: CPU of the process and its workers, peak memory;
- `defaults`: the default search against `--no-reduce` (this checkout, and the pinned one beside it),
  every family of benchmarks/families.py at its largest benchmark size;
- `budget`: `explore kakumeijin_L8.yaml --max-seconds 5` beside two busy processes: the search's
  seconds (its `seconds` in the JSON) and the whole run's wall time;
- `startup`: a small scenario explored whole (`explore Q09_the_watch.yaml`: mostly start-up), and
  what `dmcheck explore` imports before it reads its file;
- `compact`: `explore kakumeijin_L8.yaml --json` with and without `--compact` (this checkout alone:
  A is the full store, B `--compact`): peak memory and CPU of the whole run, and the explored
  graph's own memory per state.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PINNED = "2015380"
L8 = "benchmarks/scenarios/kakumeijin_L8.yaml"
SMALL = "scenarios/rulings/Q09_the_watch.yaml"
SEARCH = [("kakumeijin", 7), ("kakumeijin", 8), ("shield-check", 10)]
FAMILIES = [("independent", 12), ("two-player", 12), ("watched", 12), ("kakumeijin", 7), ("kakumeijin", 8),
            ("shield-check", 8), ("shield-check", 10)]
FAMILY = """
import sys, time
sys.path.insert(0, "benchmarks")
import checkout; checkout.use(".")
import families
from dmcheck.explorer.bfs import explore
from dmcheck.explorer.limits import Limits
from dmcheck.model.procedure import BreakModel
model = BreakModel(families.build(sys.argv[1], int(sys.argv[2])))
reduce = "--no-reduce" not in sys.argv
spent, runs = 0.0, 0
while runs == 0 or spent < 0.5 and spent / runs < 0.2:
    start = time.process_time()
    graph = explore(model, Limits(max_states=10 ** 8), reduce=reduce)
    spent += time.process_time() - start
    runs += 1
print(len(graph.parent), spent / runs)
"""
BUSY = "import time\nend = time.monotonic() + 120\nwhile time.monotonic() < end: pass\n"
GRAPH = """
import gc, sys
sys.path.insert(0, "benchmarks")
import checkout; checkout.use(".")
import families
from dmcheck.explorer.bfs import explore
from dmcheck.explorer.limits import Limits
from dmcheck.model.procedure import BreakModel
def hwm():
    return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM")) * 1024
model = BreakModel(families.build(sys.argv[1], int(sys.argv[2])))
gc.collect()
before = hwm()
graph = explore(model, Limits(max_states=10 ** 8), reduce=True, keep_graph=sys.argv[3] == "full")
print(len(graph.parent), hwm() - before)
"""


class Run:
    """One finished child: its output, CPU seconds, peak memory (MB), wall seconds, the load meanwhile."""

    def __init__(self, argv: list[str], cwd: Path):
        load = os.getloadavg()[0]
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            start = time.monotonic()
            proc = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=err)
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            self.wall = time.monotonic() - start
            out.seek(0)
            err.seek(0)
            self.stdout, self.stderr = out.read().decode(), err.read().decode()
        self.code = proc.returncode
        self.cpu = usage.ru_utime + usage.ru_stime
        self.peak_mb = usage.ru_maxrss / 1024
        self.load = max(load, os.getloadavg()[0])


def _python(checkout: Path) -> str:
    found = checkout / ".venv" / "bin" / "python"
    return str(found) if found.exists() else sys.executable


def _family(checkout: Path, family: str, size: int, *extra: str) -> tuple[int, float, Run]:
    """(states, the search's CPU seconds, the run): one family member searched in a fresh process of
    `checkout` (FAMILY below); a search under a fifth of a second is repeated in that process until
    they add up to half a second, and the mean taken."""
    run = Run([_python(checkout), "-c", FAMILY, family, str(size), *extra], checkout)
    found = re.fullmatch(r"(\d+) ([\d.e-]+)\n", run.stdout)
    if run.code != 0 or found is None:
        raise SystemExit(f"the search of {family} {size} failed in {checkout}:\n{run.stdout}{run.stderr}")
    return int(found.group(1)), float(found.group(2)), run


def _dmcheck(checkout: Path, *args: str) -> Run:
    return Run([_python(checkout), "-m", "dmcheck", *args], checkout)


def _pairs(n: int, first, second) -> list[tuple]:
    """n pairs (first(), second()), the order swapped every other pair."""
    out = []
    for i in range(n):
        if i % 2 == 0:
            a = first()
            b = second()
        else:
            b = second()
            a = first()
        out.append((a, b))
    return out


class Line:
    """One figure: the pinned side, this side and their ratio, each as median [range]."""

    def __init__(self, name: str, unit: str, base: list[float], new: list[float], ratios: list[float],
                 loads: list[float], note: str = ""):
        self.name, self.unit, self.note = name, unit, note
        self.base, self.new, self.ratios, self.loads = base, new, ratios, loads

    def json(self) -> dict:
        return {"name": self.name, "unit": self.unit, "base": self.base, "new": self.new, "ratios": self.ratios,
                "ratio_median": _median(self.ratios), "load": [min(self.loads), max(self.loads)],
                "note": self.note}

    def row(self) -> str:
        return (f"| {self.name} | {_span(self.base, self.unit)} | {_span(self.new, self.unit)} | "
                f"**{_median(self.ratios):.2f}** ({min(self.ratios):.2f}–{max(self.ratios):.2f}) | "
                f"{min(self.loads):.1f}–{max(self.loads):.1f} |" + (f" {self.note}" if self.note else ""))


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _span(values: list[float], unit: str) -> str:
    if not values:
        return "–"
    digits = 0 if unit == "MB" or max(values) >= 100 else 2 if max(values) < 10 else 1
    return f"{_median(values):.{digits}f} ({min(values):.{digits}f}–{max(values):.{digits}f}) {unit}"


def search(base: Path, pairs: int) -> list[Line]:
    lines = []
    for family, size in SEARCH:
        got = _pairs(pairs, partial(_family, base, family, size), partial(_family, ROOT, family, size))
        old = [cpu / states * 1e6 for states, cpu, _ in (a for a, _ in got)]
        new = [cpu / states * 1e6 for states, cpu, _ in (b for _, b in got)]
        states = {a[0] for a, _ in got} | {b[0] for _, b in got}
        lines.append(Line(f"search CPU per stored state, defaults: {family} {size}", "µs", old, new,
                          [n / o for o, n in zip(old, new)], [r.load for a, b in got for r in (a[2], b[2])],
                          f"states {' / '.join(map(str, sorted(states)))}"))
    return lines


def verify(base: Path, pairs: int) -> list[Line]:
    got = _pairs(pairs, lambda: _dmcheck(base, "verify", "--json"), lambda: _dmcheck(ROOT, "verify", "--json"))
    loads = [r.load for a, b in got for r in (a, b)]
    return [Line("verify (default --jobs), CPU of the whole run", "s", [a.cpu for a, _ in got], [b.cpu for _, b in got],
                 [b.cpu / a.cpu for a, b in got], loads),
            Line("verify (default --jobs), peak memory", "MB", [a.peak_mb for a, _ in got],
                 [b.peak_mb for _, b in got], [b.peak_mb / a.peak_mb for a, b in got], loads)]


def defaults(base: Path, pairs: int) -> list[Line]:
    lines = []
    for family, size in FAMILIES:
        got = {}
        for side in (base, ROOT):
            got[side] = _pairs(pairs, partial(_family, side, family, size),
                               partial(_family, side, family, size, "--no-reduce"))
        ratios = {side: [d[1] / n[1] for d, n in got[side]] for side in got}
        lines.append(Line(f"default search / `--no-reduce` (A, B: that ratio): {family} {size}", "x", ratios[base],
                          ratios[ROOT], [n / o for o, n in zip(ratios[base], ratios[ROOT])],
                          [r[2].load for side in got for pair in got[side] for r in pair]))
    return lines


def _budgeted(checkout: Path) -> Run:
    busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(2)]
    try:
        time.sleep(0.3)
        return _dmcheck(checkout, "explore", L8, "--max-seconds", "5", "--json")
    finally:
        for p in busy:
            p.kill()
            p.wait()


def _searched(run: Run) -> float:
    try:
        scenarios = json.loads(run.stdout).get("scenarios") or []
    except ValueError:
        return 0.0
    return scenarios[0]["seconds"] if scenarios else 0.0


def budget(base: Path, pairs: int) -> list[Line]:
    got = _pairs(pairs, lambda: _budgeted(base), lambda: _budgeted(ROOT))
    loads = [r.load for a, b in got for r in (a, b)]
    old, new = [_searched(a) for a, _ in got], [_searched(b) for _, b in got]
    return [Line("`--max-seconds 5` beside two busy processes: seconds of search", "s", old, new,
                 [n / max(o, 1e-3) for o, n in zip(old, new)], loads, "the Kakumeijin L8 search under way"),
            Line("`--max-seconds 5` beside two busy processes: wall of the whole run", "s",
                 [a.wall for a, _ in got], [b.wall for _, b in got], [b.wall / a.wall for a, b in got], loads,
                 "the watchdog: 1.2 x 5 + 1.5 = 7.5 s")]


# what `dmcheck explore` imports before it reads its file: every command before (A), its own after (B)
IMPORTS = {"A": "import dmcheck.main", "B": "import dmcheck.main as m; m.parser(['explore'])"}


def startup(base: Path, pairs: int) -> list[Line]:
    got = _pairs(pairs, lambda: _dmcheck(base, "explore", SMALL), lambda: _dmcheck(ROOT, "explore", SMALL))
    imports = _pairs(pairs, lambda: Run([_python(base), "-c", IMPORTS["A"]], base),
                     lambda: Run([_python(ROOT), "-c", IMPORTS["B"]], ROOT))
    return [Line(f"start-up: `explore {Path(SMALL).name}` whole (12 states)", "s", [a.cpu for a, _ in got],
                 [b.cpu for _, b in got], [b.cpu / a.cpu for a, b in got], [r.load for a, b in got for r in (a, b)]),
            Line("start-up: what `dmcheck explore` imports (Python's own start included)", "s",
                 [a.cpu for a, _ in imports], [b.cpu for _, b in imports], [b.cpu / a.cpu for a, b in imports],
                 [r.load for a, b in imports for r in (a, b)])]


def _graph(mode: str) -> tuple[int, float, Run]:
    run = Run([_python(ROOT), "-c", GRAPH, "kakumeijin", "8", mode], ROOT)
    states, grown = run.stdout.split()
    return int(states), int(grown) / int(states), run


def compact(base: Path, pairs: int) -> list[Line]:
    got = _pairs(pairs, lambda: _dmcheck(ROOT, "explore", L8, "--json"),
                 lambda: _dmcheck(ROOT, "explore", L8, "--json", "--compact"))
    loads = [r.load for a, b in got for r in (a, b)]
    graph = _pairs(pairs, lambda: _graph("full"), lambda: _graph("compact"))
    return [Line("B `--compact` / A full store (B's checkout): explore L8 --json, peak memory", "MB",
                 [a.peak_mb for a, _ in got], [b.peak_mb for _, b in got], [b.peak_mb / a.peak_mb for a, b in got],
                 loads),
            Line("B `--compact` / A full store (B's checkout): explore L8 --json, CPU", "s", [a.cpu for a, _ in got],
                 [b.cpu for _, b in got], [b.cpu / a.cpu for a, b in got], loads),
            Line("B `--compact` / A full store (B's checkout): L8 search alone, memory per state", "B",
                 [a[1] for a, _ in graph], [b[1] for _, b in graph], [b[1] / a[1] for a, b in graph],
                 [r[2].load for a, b in graph for r in (a, b)])]


FIGURES = {"search": search, "verify": verify, "defaults": defaults, "budget": budget, "startup": startup,
           "compact": compact}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, type=Path,
                    help=f"a checkout of the pinned commit ({PINNED}) with its own .venv (see above)")
    ap.add_argument("--pairs", type=int, default=5, help="pairs per figure (default 5)")
    ap.add_argument("--only", default=",".join(FIGURES), help=f"figures, comma-separated: {', '.join(FIGURES)}")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    base = args.base.resolve()
    commit = subprocess.run(["git", "-C", str(base), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    if not commit or not PINNED.startswith(commit[:7]) and not commit.startswith(PINNED):
        print(f"bench_ratios: {base} is at {commit or 'no commit'}, not the pinned {PINNED}", file=sys.stderr)
    here = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    lines: list[Line] = []
    for name in args.only.split(","):
        if name not in FIGURES:
            ap.error(f"unknown figure {name!r}; expected some of {', '.join(FIGURES)}")
        found = FIGURES[name](base, args.pairs)
        lines += found
        if not args.json:
            for line in found:
                print(line.row(), file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps({"base": commit, "new": here, "pairs": args.pairs, "lines": [x.json() for x in lines]},
                         indent=1))
        return 0
    print(f"{args.pairs} pairs; A is {commit} and B {here} unless the figure says otherwise; medians (ranges); "
          "load average during the runs")
    print("| figure | A | B | B / A | load |")
    print("| --- | --- | --- | --- | --- |")
    for line in lines:
        print(line.row())
    return 0


if __name__ == "__main__":
    sys.exit(main())
