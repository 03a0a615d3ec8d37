"""Instructions per stored state of one warm search, counted by Valgrind's callgrind: a figure the
machine's load does not move, to compare two checkouts when CPU seconds are too noisy to tell 2 %.

    python benchmarks/instructions.py --base ../base kakumeijin:7 shield-check:10
    python benchmarks/instructions.py kakumeijin:7 --loop-depth 14     # this checkout alone

Each family member is searched once to warm the model's caches, then once more with callgrind's
instrumentation switched on around that search alone (`callgrind_control -i on/off` from inside the
process, started with `--instr-atstart=no`), so start-up, imports and the warm-up are not counted (the
switch itself is: about a million instructions, 1 % of a member of a thousand states, nothing on
Kakumeijin 7). About 40 times slower than a plain run: Kakumeijin 7 takes about a minute, L8 about ten.
Needs `valgrind` (Debian's package) and the checkout's own .venv, as bench_ratios.py does.

Why both: the issue's figures are CPU seconds (bench_ratios.py, paired runs); instructions leave out what
memory costs (a larger state misses the caches more), so a change may save instructions and not time.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEARCH = """
import os, subprocess, sys
sys.path.insert(0, "benchmarks")
import checkout; checkout.use(".")
import families
import dmcheck.explorer.bfs as bfs
from dmcheck.explorer.bfs import explore
from dmcheck.explorer.limits import Limits
from dmcheck.model.procedure import BreakModel
if sys.argv[3] != "-":
    bfs.LOOP_CHECK_DEPTH = int(sys.argv[3])
model = BreakModel(families.build(sys.argv[1], int(sys.argv[2])))
explore(model, Limits(max_states=10 ** 8), reduce=True)
switch = lambda how: subprocess.run(["callgrind_control", "-i", how, str(os.getpid())], capture_output=True, check=True)
switch("on")
graph = explore(model, Limits(max_states=10 ** 8), reduce=True)
switch("off")
print("states", len(graph.parent))
"""


def count(checkout: Path, family: str, size: int, loop_depth: int | None) -> tuple[int, int]:
    """(stored states, instructions) of one warm search of `family size` in `checkout`."""
    python = checkout / ".venv" / "bin" / "python"
    if not python.exists():
        raise SystemExit(f"{checkout}: no .venv/bin/python (make one: python3 -m venv .venv && "
                         f".venv/bin/pip install -e '.[test]')")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        run = subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
                              str(python), "-c", SEARCH, family, str(size), str(loop_depth or "-")],
                             cwd=checkout, capture_output=True, text=True)
        states = [line.split()[1] for line in run.stdout.splitlines() if line.startswith("states ")]
        totals = [line.split()[1] for line in out.read_text().splitlines() if line.startswith("totals:")] \
            if out.exists() else []
        if run.returncode or not states or not totals:
            raise SystemExit(f"the count of {family} {size} failed in {checkout}:\n{run.stdout}{run.stderr[-2000:]}")
    return int(states[0]), int(totals[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("members", nargs="+", metavar="FAMILY:SIZE", help="e.g. kakumeijin:7 shield-check:10")
    parser.add_argument("--base", type=Path, help="another checkout (with its own .venv) to count beside this one")
    parser.add_argument("--loop-depth", type=int, help="start the loop check at this depth (explorer/loops.py)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        raise SystemExit("valgrind and callgrind_control are needed (Debian: apt-get install valgrind)")
    sides = ([("A", args.base.resolve())] if args.base else []) + [("B", ROOT)]
    print("| member | " + " | ".join(f"{name}: instructions per stored state" for name, _ in sides)
          + (" | B / A |" if args.base else " |"))
    print("| --- " * (len(sides) + 1 + bool(args.base)) + "|")
    for member in args.members:
        family, _, size = member.partition(":")
        if not size.isdigit():
            raise SystemExit(f"{member!r}: expected FAMILY:SIZE, e.g. kakumeijin:7")
        per = []
        for _, checkout in sides:
            states, instructions = count(checkout, family, int(size), args.loop_depth)
            per.append((instructions / states, states))
        cells = [f"{round(p, -2):,.0f} ({s} states)" for p, s in per]
        ratio = f" | **{per[1][0] / per[0][0]:.3f}**" if args.base else ""
        print(f"| {family} {size} | " + " | ".join(cells) + ratio + " |")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
