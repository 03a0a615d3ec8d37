"""What checking the rules properties costs next to exploring: `dmcheck check`'s time ratio, measured.

The goal: checking every built-in property should cost no more than the exploration itself on the
benchmark families. This script explores each scenario, then checks the properties on the explored
graph, and prints states, transitions, the seconds of each and their ratio, and the solver figures:
queries (one per distinct projection), cache hits, the time spent reading facts and in Z3.

Scenarios: the ruling scenarios Q01-Q10 (tiny graphs, where Z3's fixed cost per scenario — a context,
a solver per property, a few dozen queries — dominates) and the families of `families.py`
(independent k, two-player k, kakumeijin L; see benchmarks/README.md).

Run: .venv/bin/python benchmarks/bench_check.py [--k 4-12] [--kakumeijin 1-7] [--repeat 3] [--json]
Each figure is the fastest of `--repeat` runs in this process. A script, not a test.
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import families  # noqa: E402  (puts the project root on sys.path too)

from dmcheck.explorer.bfs import explore  # noqa: E402
from dmcheck.model.procedure import BreakModel  # noqa: E402
from dmcheck.model.scenario_file import load_scenario  # noqa: E402
from dmcheck.properties.builtin import BUILTIN  # noqa: E402
from dmcheck.properties.checker import check  # noqa: E402


def _range(text: str) -> list[int]:
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(x) for x in text.split(",")]


def measure(scenario, repeat: int) -> dict:
    """Explore then check, `repeat` times; the fastest run's figures."""
    best = None
    for _ in range(repeat):
        graph = explore(BreakModel(scenario))
        start = time.perf_counter()
        result = check(graph, BUILTIN)
        seconds = time.perf_counter() - start
        row = {"scenario": scenario.name, "states": graph.count, "transitions": graph.transitions,
               "explore_seconds": graph.seconds, "check_seconds": seconds, "facts_seconds": result.facts_seconds,
               "solver_seconds": result.counts.seconds, "queries": result.counts.queries,
               "projections": result.counts.projections, "cache_hits": result.counts.cache_hits,
               "items": result.counts.items,
               "not_holding": [v.property.id for v in result.verdicts if v.verdict != "holds"]}
        if best is None or seconds + graph.seconds < best["check_seconds"] + best["explore_seconds"]:
            best = row
    best["ratio"] = best["check_seconds"] / best["explore_seconds"] if best["explore_seconds"] else None
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", default="4-12", help="sizes of the independent and two-player families")
    ap.add_argument("--kakumeijin", default="1-7", help="Kakumeijin levels")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    cards = families.pool()
    scenarios = [load_scenario(f) for f in sorted(glob.glob(str(families.ROOT / "scenarios" / "rulings" / "*.yaml")))]
    scenarios += [families.independent(k, cards) for k in _range(args.k)]
    scenarios += [families.two_player(k, cards) for k in _range(args.k)]
    scenarios += [families.kakumeijin(level, cards) for level in _range(args.kakumeijin)]
    rows = [measure(s, args.repeat) for s in scenarios]
    rulings = [r for r in rows if r["scenario"].startswith("Q")]
    together = sum(r["check_seconds"] for r in rulings) / sum(r["explore_seconds"] for r in rulings)
    if args.json:
        json.dump({"rows": rows, "rulings_ratio": together}, sys.stdout, indent=2)
        print()
    else:
        head = (f"{'scenario':<40} {'states':>7} {'trans':>7} {'explore s':>9} {'check s':>8} {'ratio':>6} "
                f"{'facts s':>8} {'solver s':>8} {'queries':>7} {'hits':>8}  not holding")
        print(head)
        print("-" * len(head))
        for r in rows:
            print(f"{r['scenario'][:40]:<40} {r['states']:>7} {r['transitions']:>7} {r['explore_seconds']:>9.4f} "
                  f"{r['check_seconds']:>8.4f} {r['ratio']:>6.2f} {r['facts_seconds']:>8.4f} "
                  f"{r['solver_seconds']:>8.4f} {r['queries']:>7} {r['cache_hits']:>8}  "
                  f"{', '.join(r['not_holding']) or '-'}")
        print(f"\nruling scenarios Q01-Q10 together: check / explore = {together:.1f}")
    return 1 if any(r["not_holding"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
