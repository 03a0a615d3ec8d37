"""Memory per stored state: the full store (states and edges kept) against the compact one
(fingerprints and parent links only), and what reduction adds, measured in one run.

    python benchmarks/bench_store.py [--json]

Each measurement runs in a fresh process (tracemalloc peak of the search alone).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

CASES = [("two-player", 12), ("kakumeijin", 5), ("kakumeijin", 6), ("kakumeijin", 7)]
MODES = [("full", dict(keep_graph=True)), ("compact", dict(keep_graph=False)),
         ("compact+reduced", dict(keep_graph=False, reduce=True))]


def one(family: str, size: int, mode: str) -> dict:
    import time
    import tracemalloc

    import families

    from dmcheck.explorer.bfs import explore
    from dmcheck.model.procedure import BreakModel

    model = BreakModel(families.build(family, size))
    options = dict(MODES)[mode]
    tracemalloc.start()
    start = time.perf_counter()
    graph = explore(model, **options)
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"family": family, "size": size, "mode": mode, "states": graph.count, "seconds": round(seconds, 3),
            "peak_mb": round(peak / 2**20, 1), "bytes_per_state": round(peak / max(graph.count, 1)),
            "outcomes": len(graph.outcomes())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--one", nargs=3, metavar=("FAMILY", "SIZE", "MODE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one[0], int(args.one[1]), args.one[2])))
        return 0
    rows = []
    for family, size in CASES:
        for mode, _ in MODES:
            proc = subprocess.run([sys.executable, __file__, "--one", family, str(size), mode],
                                  capture_output=True, text=True, check=True)
            rows.append(json.loads(proc.stdout))
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'case':<16}{'mode':<18}{'states':>9}{'seconds':>9}{'peak MB':>9}{'B/state':>9}{'vs full':>9}")
    full = {}
    for r in rows:
        case = f"{r['family']} {r['size']}"
        if r["mode"] == "full":
            full[case] = r["bytes_per_state"]
        ratio = full[case] / max(r["bytes_per_state"], 1)
        print(f"{case:<16}{r['mode']:<18}{r['states']:>9}{r['seconds']:>9}{r['peak_mb']:>9}"
              f"{r['bytes_per_state']:>9}{ratio:>8.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
