"""The performance goals of `dmcheck sweep`, measured (a script, not a test; nothing here runs in CI).

    python benchmarks/bench_sweep.py [throughput] [ray] [memory] [workers] [--json]

- throughput: the same sweep (Kakumeijin, a hand of 0-2 of three spells, 1-2 shields of three
  kinds, no compare: 63 positions) with --jobs 1 and --jobs 2, fresh databases, in paired rounds
  (--rounds, default 3; the median of each); the goal is at least 1.7x on an idle two-core machine.
- ray: the same sweep on a local Ray instance (--jobs 2) against the local pool (--jobs 2), Ray's
  start-up included, in paired rounds; and a 3-position sweep on each (about the fixed cost of a
  backend before any position runs: for Ray, starting its instance).
- builtin: each built-in template of scenarios/sweeps/ with --jobs 1 and --jobs 2 in paired rounds,
  its wall time and what it finds (positions, violations, differences: docs/sweeps.md lists them).
- memory: a 10,000-position template (B's graveyard, 0-4 cards of nine, times 1-3 shields of two
  kinds: 715 x 14 = 10,010 positions) run through the whole harness — generation, the pool, the
  store — with a trivial task, so the harness's own memory is what is measured: the driver's peak
  RSS after about 1,000 and after 10,010 positions (bounded: about the same). The workers' memory
  with the real task: the largest worker's peak RSS after the positions started in 2 s and after all 63
  of the throughput sweep (a worker keeps no result; the graph of a position is freed after it).

Each measurement runs `dmcheck sweep` (or the harness) in a fresh process.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PY = sys.executable

THROUGHPUT = """name: bench Kakumeijin hand x shields
rules: 2024-06-19
turn: A
players:
  A: {battle: [Kakumeijin], mana: 5}
  B: {shields: 2}
attack: {attacker: Kakumeijin, player: B}
vary:
  A.hand: {from: [Boil Charger, Winter Spiral, Texas Storm], size: [0, 2], distinct: true}
  B.shields: {from: [Vanilla, Terror Pit, Gushat Shield], size: [1, 2]}
"""
MEMORY = """name: bench 10,000 positions
rules: 2024-06-19
turn: A
players:
  A: {battle: [Vanilla W-breaker]}
  B: {shields: 2}
attack: {attacker: Vanilla W-breaker, player: B}
vary:
  B.graveyard: {from: [Vanilla, Terror Pit, Gushat Shield, Boil Charger, Winter Spiral, Texas Storm,
                       Kobo Magical Shocker, The Watch, Bucket Bucket], size: [0, 4]}
  B.shields: {from: [Vanilla, Terror Pit], size: [1, 4]}
"""

_HARNESS = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
from dmcheck.main import parser
from dmcheck.commands import sweep as command

def trivial(template, position, limits, timeout_ms):
    return {{"index": position.index, "key": position.key, "cards": position.cards,
            "zones": {{z: list(n) for z, n in position.names}}, "status": "ok", "complete": True,
            "states": 1, "seconds": 0.0, "findings": []}}

peaks = []
for seconds in ({first}, None):
    argv = ["sweep", {template!r}, "--db", {db!r}, "--jobs", "2", "--json"]
    import io
    out = io.StringIO()
    args = parser().parse_args(argv + (["--max-seconds", str(seconds)] if seconds else []))
    command.run(args, out, io.StringIO(), task=trivial)
    s = json.loads(out.getvalue())
    peaks.append({{"done": s["done"], "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}})
print(json.dumps(peaks))
"""


ROUNDS = 3   # paired rounds (each setting once per round, alternating): the median is reported
SMALL = THROUGHPUT.replace("size: [0, 2], distinct: true", "size: [0, 0]").replace("size: [1, 2]", "size: [1, 1]")


def _sweep(template: Path, db: Path, *extra: str) -> dict:
    db.unlink(missing_ok=True)
    load = os.getloadavg()[0]
    start = time.perf_counter()
    proc = subprocess.run([PY, "-m", "dmcheck", "sweep", str(template), "--db", str(db), "--json", *extra],
                          cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"sweep failed ({proc.returncode}): {proc.stderr}")
    s = json.loads(proc.stdout)
    return {"positions": s["done"], "seconds": round(wall, 2), "per_second": round(s["done"] / wall, 2),
            "load_before": round(load, 2)}


def _paired(template: Path, tmp: Path, settings: dict[str, list[str]], rounds: int) -> dict:
    """Each setting run `rounds` times, alternating, so that a change in the machine's load falls on
    all of them alike; per setting the runs and the median wall time."""
    runs: dict[str, list[dict]] = {name: [] for name in settings}
    for _ in range(rounds):
        for name, extra in settings.items():
            runs[name].append(_sweep(template, tmp / f"{name}.sqlite", *extra))
    return {name: {"median_seconds": statistics.median(r["seconds"] for r in rs), "runs": rs}
            for name, rs in runs.items()}


def throughput(tmp: Path, rounds: int = ROUNDS) -> dict:
    template = tmp / "throughput.yaml"
    template.write_text(THROUGHPUT)
    out = _paired(template, tmp, {"jobs1": ["--jobs", "1"], "jobs2": ["--jobs", "2"]}, rounds)
    return dict(out, speedup=round(out["jobs1"]["median_seconds"] / out["jobs2"]["median_seconds"], 2))


def ray(tmp: Path, rounds: int = ROUNDS) -> dict:
    """The 63-position sweep on the local pool and on a local Ray instance (both --jobs 2, start-up
    included), and a 3-position sweep on each: about what each costs before any position runs."""
    results = {}
    for name, text in (("sweep63", THROUGHPUT), ("sweep3", SMALL)):
        template = tmp / f"{name}.yaml"
        template.write_text(text)
        out = _paired(template, tmp, {"local": ["--jobs", "2"], "ray": ["--jobs", "2", "--backend", "ray"]}, rounds)
        results[name] = dict(out, ratio=round(out["ray"]["median_seconds"] / out["local"]["median_seconds"], 2))
    return results


def builtin(tmp: Path, rounds: int = 1) -> dict:
    """Each built-in template, --jobs 1 and --jobs 2 (paired), with what it finds."""
    out = {}
    for template in sorted((ROOT / "scenarios" / "sweeps").glob("*.yaml")):
        runs = _paired(template, tmp, {"jobs1": ["--jobs", "1"], "jobs2": ["--jobs", "2"]}, rounds)
        proc = subprocess.run([PY, "-m", "dmcheck", "sweep", str(template), "--db", str(tmp / "jobs2.sqlite"),
                               "--json"], cwd=ROOT, capture_output=True, text=True)
        s = json.loads(proc.stdout)
        out[template.stem] = dict(runs, positions=s["positions"], violations=s["violations"],
                                  differences=s["differences"],
                                  speedup=round(runs["jobs1"]["median_seconds"] / runs["jobs2"]["median_seconds"], 2))
    return out


def memory(tmp: Path) -> dict:
    template = tmp / "memory.yaml"
    template.write_text(MEMORY)
    code = _HARNESS.format(root=str(ROOT), template=str(template), db=str(tmp / "memory.sqlite"), first=1.0)
    proc = subprocess.run([PY, "-c", code], cwd=ROOT, capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(proc.stderr)
    return {"steps": json.loads(proc.stdout.strip().splitlines()[-1])}


_WORKERS = r"""
import io, json, resource, sys
sys.path.insert(0, {root!r})
from dmcheck.main import parser
from dmcheck.commands import sweep as command
args = parser().parse_args(["sweep", {template!r}, "--db", {db!r}, "--jobs", "2", "--json"] + {extra!r})
out = io.StringIO()
command.run(args, out, io.StringIO())
print(json.dumps({{"done": json.loads(out.getvalue())["done"],
                  "worker_peak_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}}))
"""


def workers(tmp: Path) -> dict:
    template = tmp / "throughput.yaml"
    template.write_text(THROUGHPUT)
    steps = []
    for n, extra in ((1, ["--max-seconds", "2"]), (63, [])):
        db = tmp / f"workers{n}.sqlite"
        code = _WORKERS.format(root=str(ROOT), template=str(template), db=str(db), extra=extra)
        proc = subprocess.run([PY, "-c", code], cwd=ROOT, capture_output=True, text=True)
        if proc.returncode:
            raise SystemExit(proc.stderr)
        steps.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return {"steps": steps}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", nargs="*", metavar="throughput|ray|builtin|memory|workers")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--rounds", type=int, default=ROUNDS, help="paired rounds of throughput and ray (default 3)")
    args = ap.parse_args()
    chosen = args.what or ["throughput", "ray", "builtin", "memory", "workers"]
    if set(chosen) - {"throughput", "ray", "builtin", "memory", "workers"}:
        ap.error("expected throughput, ray, builtin, memory or workers")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in chosen:
            work = {"throughput": throughput, "ray": ray, "builtin": builtin, "memory": memory,
                    "workers": workers}[name]
            if name in ("throughput", "ray", "builtin"):
                results[name] = work(Path(tmp), args.rounds)
            else:
                results[name] = work(Path(tmp))
            if not args.json:
                print(name, json.dumps(results[name]), flush=True)
    if args.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
