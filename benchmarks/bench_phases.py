"""What a report costs beside the search that made it: the CPU seconds of each phase of `explore`.

Phases: the search; the outcomes (each terminal state's outcome, grouped); the replay keys of the
outcomes' shortest traces (read off the parent links); the expectations of the scenario; the text
report; the JSON report (made and serialised). Each later phase should cost less than the search.

    python benchmarks/bench_phases.py                       # every family at its default size
    python benchmarks/bench_phases.py kakumeijin 8 --json
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import families  # noqa: E402  (puts the project root on sys.path too)

from dmcheck.explorer.bfs import explore  # noqa: E402
from dmcheck.model.procedure import BreakModel  # noqa: E402
from dmcheck.properties.expectations import check  # noqa: E402

SIZES = [("kakumeijin", 7), ("kakumeijin", 8), ("shield-check", 10), ("two-player", 16), ("watched", 16),
         ("independent", 14)]


def phases(family: str, size: int) -> dict:
    from dmcheck.commands.explore import explore_json, explore_text

    scenario = families.build(family, size)
    gc.disable()   # as the command line runs (dmcheck/main.py)
    out: dict = {"family": family, "size": size}

    def timed(name, work):
        start = time.process_time()
        value = work()
        out[name] = round(time.process_time() - start, 3)
        return value

    graph = timed("search", lambda: explore(BreakModel(scenario), reduce=True))
    out["states"] = graph.count
    outcomes = timed("outcomes", graph.outcomes)
    out["outcome_count"] = len(outcomes)
    timed("keys", lambda: [graph.key(node) for _, _, node in outcomes])
    verdicts = timed("expectations", lambda: [check(graph, item) for item in scenario.expect])
    timed("text", lambda: explore_text(scenario, graph, verdicts, max_outcomes=50))
    timed("json", lambda: json.dumps(explore_json(scenario, graph, verdicts)))
    gc.enable()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("family", nargs="?", choices=sorted(families.FAMILIES))
    ap.add_argument("size", nargs="?", type=int)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = [phases(args.family, args.size)] if args.family else [phases(f, n) for f, n in SIZES]
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    for r in rows:
        later = {k: r[k] for k in ("outcomes", "keys", "expectations", "text", "json")}
        worst = max(later, key=later.get)
        print(f"{r['family']:>12} {r['size']:>2}: {r['states']:>7} states, {r['outcome_count']:>6} outcomes; search "
              f"{r['search']:.2f}s; " + ", ".join(f"{k} {v:.2f}s" for k, v in later.items())
              + f"; costliest later phase {worst} = {later[worst] / max(r['search'], 1e-9):.2f} of the search")
    return 0


if __name__ == "__main__":
    sys.exit(main())
