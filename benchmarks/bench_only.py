"""The rules editor's loop (issue 38, item 2): one edited statement re-checked by `verify --only`.

A user's rulings file (tests/data/rulings/contradicting.yaml, copied with its scenario into a scratch
folder) is verified whole once, which leaves the result cache; then one statement is edited and
`dmcheck verify --rulings FILE --only ID` is run as a user runs it (a fresh process, `--jobs 1`), its
wall and CPU seconds measured; a whole `verify` of the edited file gives the verdicts it must match.
Compared, for each statement asked for: its ruling's verdict under the default readings; every minimal
set holding it (declarative: members, rules versions, readings; operational: members); every corpus
agreement violation of its constraints (statement, constraint, scenario, rules version) and every one
its scenarios' traces show. The editions tried: X1's text, X2's order, and JD2's order.

    python benchmarks/bench_only.py                 # each edition: whole verify, then --only 5 times
    python benchmarks/bench_only.py --runs 3 --json

Target: under 5 s of wall time on a two-core machine (median of the runs). On a machine shared with
other work, the CPU seconds (user + system of the process) say what the command itself costs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "rulings"

EDITS = [   # (statement asked for, what is replaced, by what)
    ("X1", "never to the mana zone.", "and never into the mana zone."),
    ("X2", "order: [break < other_pending_resolved]",
     "order: [break < after_break_resolved, break < other_pending_resolved]"),
    ("JD2", "order: [battle < power_zero]", "order: [battle < power_zero, battle < end_of_attack]"),
]


def verdicts(report, refs: set[str]) -> dict:
    """What a report says of the statements `refs`, in a form two reports can be compared by."""
    op, dec, conf = report.operational, report.declarative, report.agreement
    mine = {p for s in report.corpus.statements if s.ref in refs for p in s.scenarios}
    return {
        "rulings": sorted((ref, op.default(ref).verdict) for ref in refs if ref in op.table),
        "declarative": sorted((c.refs, tuple(sorted(c.versions)), c.readings) for c in dec.conflicts
                              if set(c.refs) & refs),
        "operational": sorted(c.refs for c in op.conflicts if set(c.refs) & refs),
        "agreement": sorted({(v.statement.ref, str(v.constraint), v.run.file.name, v.run.version.name)
                             for v in conf.violations if v.statement.ref in refs or v.run.file in mine}),
    }


def whole(folder: Path) -> object:
    """A whole verify of the user's file, in this process (it writes the result cache too)."""
    from dmcheck.rulings.verify import verify
    return verify([str(folder / "contradicting.yaml")], None)


def only_in_process(folder: Path, sid: str):
    from dmcheck.rulings.only import verify_only
    return verify_only([str(folder / "contradicting.yaml")], [sid])


def only_timed(folder: Path, sid: str, env: dict) -> dict:
    """`dmcheck verify --rulings FILE --only ID --jobs 1` as a user runs it: wall and CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "dmcheck", "verify", "--rulings", "contradicting.yaml",
                           "--only", sid, "--jobs", "1", "--summary"], cwd=folder, env=env,
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cache = re.search(r"result cache: (\d+) other rulings' results read back, (\d+) worked out", done.stdout)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return {"wall": round(wall, 2), "cpu": round(cpu, 2),
            "exit": done.returncode, "reused": int(cache[1]) if cache else None,
            "worked_out": int(cache[2]) if cache else None}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="timed --only runs per edition (default 5)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    results = []
    with tempfile.TemporaryDirectory() as scratch:
        folder, cache = Path(scratch) / "repo", Path(scratch) / "cache"
        folder.mkdir()
        for name in ("contradicting.yaml", "kakumeijin_charger_bottom.yaml"):
            shutil.copy(DATA / name, folder / name)
        os.environ["DMCHECK_CACHE_DIR"] = str(cache)
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        whole(folder)                                     # the user's first whole run leaves the cache
        for sid, old, new in EDITS:
            path = folder / "contradicting.yaml"
            text = path.read_text(encoding="utf-8")
            assert old in text, old
            path.write_text(text.replace(old, new), encoding="utf-8")
            timed = [only_timed(folder, sid, env) for _ in range(args.runs)]
            full = whole(folder)
            ref = next(s.ref for s in full.corpus.statements if s.id == sid and not s.builtin)
            expected, got = verdicts(full, {ref}), verdicts(only_in_process(folder, sid), {ref})
            results.append({"statement": ref, "same": expected == got, "verdicts": expected,
                            "only": got if expected != got else "same",
                            "wall_median": round(statistics.median(t["wall"] for t in timed), 2),
                            "cpu_median": round(statistics.median(t["cpu"] for t in timed), 2), "runs": timed})
    if args.json:
        json.dump({"cores": os.cpu_count(), "load": os.getloadavg(), "results": results}, sys.stdout, indent=2)
        print()
    else:
        print(f"{os.cpu_count()} cores, load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
        for r in results:
            v = r["verdicts"]
            print(f"{r['statement']}: --only {r['wall_median']} s wall, {r['cpu_median']} s CPU (median of "
                  f"{len(r['runs'])}); same verdicts as a whole verify: {'yes' if r['same'] else 'NO'} "
                  f"(ruling {v['rulings'] or '-'}, {len(v['declarative'])} declarative and {len(v['operational'])} "
                  f"operational sets, {len(v['agreement'])} agreement violations)")
            if not r["same"]:
                print(f"    whole: {json.dumps(v, default=str)}\n    only:  {json.dumps(r['only'], default=str)}")
    return 0 if all(r["same"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
