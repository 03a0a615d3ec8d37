"""Benchmark of the explorer on many simultaneous pending effects.

Why: R509.4a-b let each player resolve his pending effects in any order, so k effects waiting at once
have k! orders. The explorer deduplicates states, so k independent effects cost about 2^k states
(the sets of effects already resolved), not k!. This script measures that on three families
(benchmarks/families.py) — and a fourth, the shield check (S004), where declarations and their uses
multiply — and, in the same run, measures a naive enumerator — a depth-first walk of
the same model that remembers nothing and so visits every order — to give the ratio.

Each measurement runs in its own process (benchmarks/measure.py) so its peak memory is its own.
A naive run that hits its time cap is reported as stopped, with how far it got; the full size of
the naive enumeration is then still known exactly, because a naive walk visits each state once per
path reaching it, and the explorer's graph gives the number of paths (checked against the naive
walk wherever the walk finishes). Times are never extrapolated silently: an estimate says "est.".

    python benchmarks/bench_explore.py                   # the full run, about 5 minutes
    python benchmarks/bench_explore.py --k 4-8 --kakumeijin 1-5 --shield-check 1-6 --naive-cap 10
    python benchmarks/bench_explore.py --families shield-check      # the shield-check family alone
    python benchmarks/bench_explore.py --json > bench.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import families  # noqa: E402
from measure import explore_supports_reduce, measure  # noqa: E402


def parse_range(text: str) -> list[int]:
    """'4-12' or '4,6,8' or '10' into a list of ints."""
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "-" in part:
            lo, hi = part.split("-", 1)
            out += list(range(int(lo), int(hi) + 1))
        else:
            out.append(int(part))
    return out


def bench_one(family: str, size: int, args) -> dict:
    """Explore one scenario (and its naive enumeration, and the reduced search if available)."""
    row: dict = {"family": family, "size": size, "warnings": []}
    row["explore"] = measure(family, size, "unreduced", args.explore_cap)
    row["reduced"] = measure(family, size, "reduced", args.explore_cap) if explore_supports_reduce() else None
    row["naive"] = None if args.no_naive else measure(family, size, "naive", args.naive_cap)
    row["scenario"] = row["explore"]["scenario"]
    ex, nv = row["explore"], row["naive"]
    row["expected_states"] = families.expected(family, size)
    if row["expected_states"] is not None and ex["complete"] and ex["states"] != row["expected_states"]:
        row["warnings"].append(f"{ex['states']} states explored, {row['expected_states']} counted by hand "
                               f"(families.expected_states): a bug in the model or in the count")
    paths = ex.get("paths")
    ratio: dict = {}
    if paths:
        ratio["states"] = paths["states"] / ex["states"]   # exact: naive visits = paths in the graph
    if nv:
        if nv["complete"]:
            if paths and nv["states"] != paths["states"]:
                row["warnings"].append(f"naive walk visited {nv['states']} states, the graph has "
                                       f"{paths['states']} paths: a bug in the benchmark or the model")
            ratio["time"] = nv["seconds"] / ex["seconds"] if ex["seconds"] > 0 else None
        else:
            ratio["time_at_least"] = nv["seconds"] / ex["seconds"] if ex["seconds"] > 0 else None
            if paths and nv["states"]:
                rate = nv["states"] / nv["seconds"]
                nv["estimated_seconds"] = paths["states"] / rate
                nv["done_fraction"] = nv["states"] / paths["states"]
                ratio["time_estimated"] = nv["estimated_seconds"] / ex["seconds"]
    row["ratio"] = ratio
    return row


def _fmt_int(n) -> str:
    return "-" if n is None else f"{n:,}"


def _fmt_num(x, digits=2) -> str:
    if x is None:
        return "-"
    if x >= 1000:
        return f"{x:,.0f}"
    if x >= 100:
        return f"{x:.0f}"
    return f"{x:.{digits}f}"


def _fmt_time(s: float) -> str:
    if s >= 86400 * 2:
        return f"{s / 86400:,.0f} d"
    if s >= 7200:
        return f"{s / 3600:.1f} h"
    return f"{s:.2f} s" if s < 100 else f"{s:,.0f} s"


def table(rows: list[dict]) -> str:
    """The rows as a fixed-width table, with a legend of the naive columns."""
    head = ["family", "size", "states", "by hand", "transitions", "time", "states/s", "peak MB", "+search MB",
            "naive visited", "naive time", "naive total", "ratio states", "ratio time"]
    lines = []
    for r in rows:
        ex, nv, ratio = r["explore"], r["naive"], r["ratio"]
        paths = ex.get("paths")
        if nv is None:
            nv_visited, nv_time, rt = "not run", "-", "-"
        elif nv["complete"]:
            nv_visited, nv_time = _fmt_int(nv["states"]), _fmt_time(nv["seconds"])
            rt = _fmt_num(ratio.get("time"))
        else:
            nv_visited = f"{_fmt_int(nv['states'])} ({100 * nv.get('done_fraction', 0):.2g}%)"
            nv_time = f"stopped {_fmt_time(nv['seconds'])}"
            rt = f">={_fmt_num(ratio['time_at_least'])}"
            if "time_estimated" in ratio:
                rt += f" (est. {_fmt_num(ratio['time_estimated'])})"
        if not ex["complete"]:
            nv_total = "explore incomplete"
        else:
            nv_total = _fmt_int(paths["states"]) if paths else "cycle"
        lines.append([r["family"], str(r["size"]), _fmt_int(ex["states"]), _fmt_int(r["expected_states"]),
                      _fmt_int(ex["transitions"]),
                      _fmt_time(ex["seconds"]) + ("" if ex["complete"] else " (incomplete)"),
                      _fmt_num(ex["states_per_s"], 0), f"{ex['peak_mb']:.1f}", f"{ex['search_mb']:.1f}",
                      nv_visited, nv_time, nv_total, _fmt_num(ratio.get("states")), rt])
    widths = [max(len(head[i]), *(len(line[i]) for line in lines)) for i in range(len(head))] if lines else \
        [len(h) for h in head]
    out = ["  ".join(h.ljust(w) for h, w in zip(head, widths))]
    out += ["  ".join(c.rjust(w) if i > 1 else c.ljust(w) for i, (c, w) in enumerate(zip(line, widths)))
            for line in lines]
    reduced = [r for r in rows if r.get("reduced")]
    if reduced:
        out.append("")
        out.append("reduced explorer (reduce=True):")
        for r in reduced:
            red = r["reduced"]
            out.append(f"  {r['family']} {r['size']}: {red['states']:,} states, {_fmt_time(red['seconds'])}, "
                       f"{r['explore']['states'] / red['states']:.1f}x fewer states than unreduced")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="Benchmark the explorer on k simultaneous pending effects, on Kakumeijin attacks and on "
                    "shield checks, against a naive enumeration of every order measured in the same run.",
        epilog="columns are explained in benchmarks/README.md")
    ap.add_argument("--k", default="4-12", help="k values of the pending-effect families (default 4-12)")
    ap.add_argument("--kakumeijin", default="1-7", metavar="LEVELS",
                    help=f"Kakumeijin levels, 1-{len(families.KAKUMEIJIN_LEVELS)} (default 1-7; 8 takes "
                         "about 2 minutes and 2.3 GB, 9 does not finish in 10 minutes)")
    ap.add_argument("--shield-check", default="1-10", metavar="N",
                    help="sizes of the shield-check family: S-Trigger shields plus S-Back cards in hand "
                         "(default 1-10; 11 takes about 20 s, 12 does not finish in a minute)")
    ap.add_argument("--families", default="independent,two-player,kakumeijin,shield-check",
                    help="which families to run (comma-separated)")
    ap.add_argument("--naive-cap", type=float, default=20.0, metavar="S",
                    help="time cap of each naive enumeration in seconds (default 20)")
    ap.add_argument("--explore-cap", type=float, default=300.0, metavar="S",
                    help="time cap of each exploration in seconds (default 300)")
    ap.add_argument("--no-naive", action="store_true", help="skip the naive enumeration")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON instead of a table")
    args = ap.parse_args(argv)

    plan: list[tuple[str, int]] = []
    for family in [f.strip() for f in args.families.split(",") if f.strip()]:
        if family not in families.FAMILIES:
            ap.error(f"unknown family {family!r}; expected one of {', '.join(families.FAMILIES)}")
        sizes = parse_range({"kakumeijin": args.kakumeijin, "shield-check": args.shield_check}.get(family, args.k))
        plan += [(family, size) for size in sizes]
    start = time.perf_counter()
    rows = []
    for family, size in plan:
        print(f"[{time.perf_counter() - start:6.1f}s] {family} {size} ...", file=sys.stderr, flush=True)
        rows.append(bench_one(family, size, args))
        for warning in rows[-1]["warnings"]:
            print("WARNING:", warning, file=sys.stderr)
    total = time.perf_counter() - start
    if args.json:
        print(json.dumps({"rows": rows, "seconds": total, "naive_cap": args.naive_cap,
                          "reduce_available": explore_supports_reduce()}, indent=1))
    else:
        print(table(rows))
        print(f"\nwhole run: {total:.0f} s; naive runs capped at {args.naive_cap:g} s each")
    return 1 if any(r["warnings"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
