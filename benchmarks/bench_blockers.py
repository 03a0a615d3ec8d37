"""Benchmark of the block step with many identical Blockers (issue 35, item 13).

Why: since 2021-09-07 the non-turn player may use any set of his Blockers at once (R507.1a) and the one
resolved last blocks, so n Blockers give 2^n sets. Identical Blockers are interchangeable, and the block
step builds its sets over classes of identical cards (model/attack.py `_block_sets`): n identical
Blockers give n sets and the graph n + 4 states. Before, every set of cards was built and then merged,
doubling the time per Blocker (16 took 13 s, 40 never ended). This script measures the search's CPU time
per size, several runs each (the least is reported), for this checkout or another one:

    python benchmarks/bench_blockers.py                       # n = 8, 12, 16, 40
    python benchmarks/bench_blockers.py --n 8,12,14 --checkout /tmp/base   # an older checkout
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import checkout  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "scenarios" / "attack" / "cards" / "touch.yaml"


def scenario_text(n: int) -> str:
    """A's attack on B, who has n identical Blockers (Wall Probe: Blocker, 3000) and two shields."""
    walls = ", ".join(["Wall Probe"] * n)
    return (f"name: {n} identical Blockers\nsource: [S153]\nrules: 2024-06-19\ncards: [{CARDS}]\nturn: A\n"
            f"players:\n  A:\n    battle: [Vanilla W-breaker]\n  B:\n    battle: [{walls}]\n    shields: 2\n"
            f"attack: {{attacker: Vanilla W-breaker, player: B}}\n")


def run(n: int, repeat: int) -> tuple[int, int, float]:
    from dmcheck.explorer.bfs import explore
    from dmcheck.model.procedure import BreakModel
    from dmcheck.model.scenario_file import load_scenario
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "blockers.yaml"
        path.write_text(scenario_text(n), encoding="utf-8")
        scenario = load_scenario(path)
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        graph = explore(BreakModel(scenario), reduce=True)
        best = min(best, time.process_time() - start)
    return graph.count, graph.transitions, best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", default="8,12,16,40", help="numbers of identical Blockers, comma-separated")
    ap.add_argument("--repeat", type=int, default=3, help="runs per size (the least CPU time is reported)")
    ap.add_argument("--checkout", type=Path, default=ROOT, help="the checkout to measure (default: this one)")
    opts = ap.parse_args(argv)
    checkout.use(opts.checkout)
    print(f"{'n':>4} {'states':>7} {'transitions':>12} {'CPU s':>8}   ({opts.checkout})")
    for n in (int(x) for x in opts.n.split(",")):
        states, transitions, seconds = run(n, opts.repeat)
        print(f"{n:>4} {states:>7} {transitions:>12} {seconds:>8.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
