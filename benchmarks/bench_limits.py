"""Does `--max-seconds S` bound the whole command on a loaded machine? (docs/limits.md: 1.2 S + 1.5 s)

Runs each command with `--max-seconds S --json`, K copies at once (three by default: a two-core
machine loaded past its cores), and prints per command the wall time of each copy from start to
exit, the bound, whether every copy ended within it, its exit code, and what the JSON reported: a
valid document, and for explore/check the states, the outcomes found so far and the properties
decided; for verify the rulings finished and the files not finished.

    python benchmarks/bench_limits.py                 # S = 20, three copies, every command
    python benchmarks/bench_limits.py --seconds 5 --copies 3 --json
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
L8 = str(HERE / "scenarios" / "kakumeijin_L8.yaml")
COMMANDS = {
    "explore": ["explore", L8],
    "check": ["check", L8],
    "verify": ["verify", "--jobs", "1"],
    "verify-jobs2": ["verify", "--jobs", "2"],
}


def run_copies(argv: list[str], copies: int) -> list[dict]:
    """Start `copies` processes at once; each one's wall time from its start to its exit, its code and output."""
    procs = []
    for _ in range(copies):
        procs.append((time.monotonic(), subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)))
    out = []
    for started, p in procs:
        data = p.stdout.read()
        p.wait()
        out.append({"wall": time.monotonic() - started, "code": p.returncode, "stdout": data})
    return out


def what_it_said(name: str, raw: bytes) -> str:
    try:
        doc = json.loads(raw)
    except ValueError:
        return "NOT JSON"
    if name in ("explore", "check"):
        parts = []
        for s in doc.get("scenarios", []):
            parts.append(f"{s['states']} states, {len(s['outcomes'])} outcomes"
                         + ("" if s["complete"] else " so far"))
            props = s.get("properties")
            if props is not None:
                decided = sum(p["verdict"] != "inconclusive" for p in props)
                parts.append(f"{decided}/{len(props)} properties decided")
        return "; ".join(parts) or f"no scenario finished; under way: {doc.get('search_under_way')}"
    rulings = doc.get("rulings", [])
    return (f"{sum(r['verdict'] != 'inconclusive' for r in rulings)} rulings decided, "
            f"{len(doc.get('not_finished', []))} named not finished")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--copies", type=int, default=3)
    ap.add_argument("--only", choices=sorted(COMMANDS), action="append")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    bound = 1.2 * args.seconds + 1.5
    rows = []
    for name in args.only or COMMANDS:
        argv = [sys.executable, "-m", "dmcheck", *COMMANDS[name], "--max-seconds", str(args.seconds), "--json"]
        runs = run_copies(argv, args.copies)
        rows.append({"command": name, "walls": [round(r["wall"], 2) for r in runs], "bound": bound,
                     "within": all(r["wall"] <= bound for r in runs), "codes": [r["code"] for r in runs],
                     "said": what_it_said(name, runs[0]["stdout"])})
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        for r in rows:
            print(f"{r['command']:<13} walls {r['walls']} bound {r['bound']:.1f} "
                  f"{'within' if r['within'] else 'OVER'} exit {r['codes']}: {r['said']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
