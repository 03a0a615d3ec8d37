"""Explore one benchmark family member once and print what it stored: a command to time whole.

Run from a checkout's root (it imports the model of the current directory), so the same command
times two checkouts side by side:

    python benchmarks/run_family.py kakumeijin 7 --no-reduce
    python benchmarks/run_family.py shield-check 10
    python benchmarks/run_family.py kakumeijin 7 --profile     # cProfile, top 30 by own time
    python benchmarks/run_family.py kakumeijin 6 --until next_turn_start --attacks 2   # the whole turn

It prints `family size mode states transitions`, the search's own wall seconds and its CPU seconds.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # checkout.py, families.py beside this file
import checkout  # noqa: E402

checkout.use(os.getcwd())   # the checkout being measured: its packages are imported, whatever its layout

import families  # noqa: E402  (its own checkout.use comes second and changes nothing)

from dmcheck.explorer.bfs import explore  # noqa: E402
from dmcheck.explorer.limits import Limits  # noqa: E402
from dmcheck.model.procedure import BreakModel  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("family", choices=sorted(families.FAMILIES))
    ap.add_argument("size", type=int)
    ap.add_argument("--no-reduce", action="store_true", help="explore every order (no reduction, no symmetry)")
    ap.add_argument("--compact", action="store_true", help="keep only fingerprints (default: the full graph)")
    ap.add_argument("--profile", action="store_true", help="run under cProfile and print the top functions")
    ap.add_argument("--until", default=None, help="how far the turn is played (docs/scenario-format.md, The turn)")
    ap.add_argument("--attacks", type=int, default=None, help="the most attacks of the turn")
    args = ap.parse_args(argv)
    scenario = families.build(args.family, args.size)
    if args.until or args.attacks:
        import dataclasses
        scenario = dataclasses.replace(scenario, until=args.until or scenario.until, attacks=args.attacks)
    model = BreakModel(scenario)
    reduce = not args.no_reduce

    def run():
        return explore(model, Limits(max_states=10 ** 8), reduce=reduce, keep_graph=not args.compact)

    if args.profile:
        import cProfile
        import pstats
        prof = cProfile.Profile()
        result = prof.runcall(run)
        pstats.Stats(prof).sort_stats("tottime").print_stats(30)
    else:
        cpu = time.process_time()
        result = run()
        cpu = time.process_time() - cpu
    mode = "reduced" if reduce else "unreduced"
    import dmcheck.model as model_package
    print(os.path.dirname(os.path.dirname(model_package.__file__)), args.family, args.size, mode, len(result.parent),
          result.transitions,
          f"{result.seconds:.2f}s" + ("" if args.profile else f" cpu {cpu:.2f}s"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
