"""The SPIN peer: the same pending-effect family in Promela and in dmcheck, counted by both.

Why a peer. A state count is only worth comparing against a tool whose counting is trusted. SPIN
explores benchmarks/peer/pending.pml — the two-player family written from the rules (R509.3,
R509.4a-b, R603.7a), independently of dmcheck's code — and its "states stored" must equal the
number of distinct states dmcheck's unreduced explorer finds on the equivalent scenario
(benchmarks/families.py). What each counts, and why they can be equal:

- dmcheck stores one state per decision point: `BreakModel.step` runs everything automatic until
  someone has a choice, a forced single choice included. The initial state and the terminal state
  are states.
- In pending.pml every action is one d_step (SPIN stores nothing inside it) and the only process
  waits at its loop head between actions, so SPIN stores one state per decision point too, the
  initial and the terminal (blocked, labelled end) states included. Partial-order reduction is
  compiled out (-DNOREDUCE), so SPIN's count is unreduced as well.
- SPIN's "transitions (= stored+matched)" counts the initial state once as if reached by a
  transition, so it is dmcheck's transition count plus one.

Each family is also written with one process per pending effect (peer/procs.pml for `independent`,
peer/procs2.pml for `two-player`) and run unreduced and with SPIN's own partial-order reduction
(`spin_procs`, `spin_procs_reduced`): reduced against reduced, where pending.pml's single process
gives SPIN's reduction nothing to prune. Their counts are not dmcheck's (processes and channels add
states of their own), so procs2.pml is checked another way up to k = ORDERS_MAX_K: compiled with a
ghost record of the order in which the effects resolved, SPIN's unreduced search must end in as many
distinct orders as dmcheck's state graph has complete paths, all with the one outcome dmcheck finds
(`check_orders`).

In the same run the script times a naive enumeration (a depth-first walk of dmcheck's model that
remembers nothing), dmcheck unreduced, dmcheck reduced (when `explorer.bfs.explore` accepts
`reduce=True`; null otherwise) and SPIN. Each runs in its own process so its peak memory is its own.

    python benchmarks/peer.py --setup            # install spin if missing (apt-get, as root)
    python benchmarks/peer.py --k 10 --json      # one size: {k, naive, unreduced, reduced, spin}
    python benchmarks/peer.py --table            # k = 4..14 with ratios, naive while it takes < 1 min
    python benchmarks/peer.py --check-orders     # procs2.pml's legal orders against dmcheck's, small splits
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import families  # noqa: E402
import measure as measure_mod  # noqa: E402
from measure import explore_supports_reduce, measure, run_child  # noqa: E402

PML = HERE / "peer" / "pending.pml"
PROCS_PML = {"independent": HERE / "peer" / "procs.pml",    # one process per pending effect
             "two-player": HERE / "peer" / "procs2.pml"}
ORDERS_MAX_K = 8   # check_orders up to this k: 5,040 orders at k = 8, 483,840 at k = 10
FAMILY_SPLIT = {"two-player": families.two_player_split, "independent": lambda k: (0, k, 0)}


# ---- setup -----------------------------------------------------------------------------------
def setup(quiet: bool = False) -> bool:
    """Make sure `spin` and `gcc` are on PATH, installing the Debian package `spin` when it is missing
    and this runs as root. False (with a note on stderr) when SPIN cannot be run: dmcheck is then
    measured alone and the SPIN columns stay empty."""
    if shutil.which("spin") is None:
        if os.geteuid() != 0:
            print("spin is not installed (as root: apt-get install -y spin); measuring dmcheck alone",
                  file=sys.stderr)
            return False
        print("installing spin (apt-get install -y spin) ...", file=sys.stderr)
        cmd = ["apt-get", "install", "-y", "-qq", "spin"]
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        if subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL).returncode != 0:
            subprocess.run(["apt-get", "update", "-qq"], env=env, stdout=subprocess.DEVNULL)
            if subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL).returncode != 0:
                print("could not install spin; measuring dmcheck alone", file=sys.stderr)
                return False
    if shutil.which("gcc") is None:
        print("gcc is needed to compile SPIN's verifier (apt-get install -y gcc); measuring dmcheck alone",
              file=sys.stderr)
        return False
    if not quiet:
        version = subprocess.run(["spin", "-V"], capture_output=True, text=True).stdout.strip()
        print(f"{version}; gcc at {shutil.which('gcc')}", file=sys.stderr)
    return True


# ---- SPIN ------------------------------------------------------------------------------------
def _grab(pattern: str, text: str, cast=int):
    m = re.search(pattern, text)
    return cast(m.group(1)) if m else None


SPIN_HASH_W = 20   # pan -w20: a hash table of 2^20 slots (8 MB); pan's default -w24 zeroes 128 MB first


def run_spin(t: int, n: int, s: int, timeout: float = 600.0, hash_w: int = SPIN_HASH_W,
             reduce: bool = False) -> dict:
    """Generate, compile and run SPIN's verifier for sizes T, N, S; parse what it reports.

    The hash table size only changes speed, never the count: pan stores states exactly (no -DBITSTATE
    or -DHC), chaining on collisions. `reduce` compiles pan with SPIN's own partial-order reduction
    (no -DNOREDUCE); the model has one process, so it has little to prune, but it is SPIN's default.
    """
    return run_pan(PML, [f"-DT={t}", f"-DN={n}", f"-DS={s}"], timeout, hash_w, reduce)


def run_pan(pml: Path, defines: list[str], timeout: float = 600.0, hash_w: int = SPIN_HASH_W,
            reduce: bool = False, spin_opts: tuple[str, ...] = (), cc_opts: tuple[str, ...] = (),
            keep_output: bool = False) -> dict:
    """`spin -a` one Promela model with its sizes, compile pan, run it, parse what it reports.

    `spin_opts` and `cc_opts` go to spin and gcc; `keep_output` adds pan's standard output (`output`)."""
    with tempfile.TemporaryDirectory(prefix="dmcheck-spin-") as tmp:
        start = time.perf_counter()
        subprocess.run(["spin", *spin_opts, *defines, "-a", str(pml)], cwd=tmp, check=True, capture_output=True)
        flags = ["-DSAFETY"] if reduce else ["-DNOREDUCE", "-DSAFETY"]
        subprocess.run(["gcc", "-O2", *flags, *cc_opts, "-o", "pan", "pan.c"], cwd=tmp, check=True,
                       capture_output=True)
        compile_s = time.perf_counter() - start
        out, err, code, wall, peak = run_child([os.path.join(tmp, "pan"), "-m100000", f"-w{hash_w}"], timeout)
    if code not in (0, 1) or "states, stored" not in out:
        raise RuntimeError(f"pan failed ({code}):\n{out[-2000:]}\n{err[-2000:]}")
    return {
        "states": _grab(r"(\d+) states, stored", out),
        "matched": _grab(r"(\d+) states, matched", out),
        "transitions": _grab(r"(\d+) transitions \(= stored\+matched\)", out),
        "errors": _grab(r"errors: (\d+)", out),
        "depth": _grab(r"depth reached (\d+)", out),
        "seconds": wall,                      # the verifier's run, process start included
        "process_cpu_seconds": round(measure_mod.LAST_CPU, 3),   # pan's user + system seconds
        "pan_seconds": _grab(r"elapsed time ([\d.e+-]+) seconds", out, float),   # pan's own search time
        "reduce": reduce,
        "compile_seconds": compile_s,         # spin -a and gcc
        "peak_mb": round(peak, 1),            # peak RSS of pan
        "pan_total_mb": _grab(r"([\d.]+)\s+total actual memory usage", out, float),
        "complete": code == 0 and "Full statespace search" in out,
        **({"output": out} if keep_output else {}),
    }


def expected_orders(t: int, n: int, s: int) -> int:
    """The legal orders of pending_family(t, n, s), counted by hand from the rules.

    A's T shielders go first (R509.4a), in any of T! orders. Then B chooses among the N - S drawers,
    the S echoers and, once B has cast a spell, the First Spell watcher; each echo's Responder goes
    next (R509.4b) and is no choice. So B orders N + 1 effects (N without echoers: N!) in which First
    Spell comes after at least one echoer: it is first among itself and the S echoers in 1 order of
    S + 1, so (N + 1)! * S / (S + 1).
    """
    from math import factorial

    b = factorial(n + 1) * s // (s + 1) if s else factorial(n)
    return factorial(t) * b


def check_orders(t: int, n: int, s: int, timeout: float = 120.0) -> dict:
    """The orders and outcomes peer/procs2.pml reaches, to set beside dmcheck's state graph.

    Compiled with -DHISTORY, every resolution appends its effect's number to a ghost sequence and the
    end prints it with the final counts (pan -DPRINTF prints during the search). `spin -o2` keeps the
    sequence in the state although the model only prints it (SPIN hides write-only variables
    otherwise, and the orders would merge). Unreduced, every legal order reaches the end in a state of
    its own, so the distinct sequences printed are the legal orders; the distinct final counts are
    the outcomes.
    """
    res = run_pan(PROCS_PML["two-player"], [f"-DT={t}", f"-DN={n}", f"-DS={s}", "-DHISTORY"], timeout,
                  spin_opts=("-o2",), cc_opts=("-DPRINTF",), keep_output=True)
    ends = [line.split(" order ") for line in res["output"].splitlines() if line.startswith("END ")]
    return {"orders": len({order for _, order in ends}), "outcomes": len({counts for counts, _ in ends}),
            "errors": res["errors"], "complete": res["complete"], "states": res["states"]}


# ---- one size --------------------------------------------------------------------------------
def _brief(m: dict | None) -> dict | None:
    """The {states, seconds, peak_mb} triple, keeping the other fields after it."""
    if m is None:
        return None
    head = {"states": m["states"], "seconds": m["seconds"], "peak_mb": m["peak_mb"]}
    return {**head, **{k: v for k, v in m.items() if k not in head}}


def run_k(k: int, family: str = "two-player", naive_cap: float | None = 60.0,
          explore_cap: float = 600.0, spin: bool = True) -> dict:
    """Every tool on size k; naive_cap None skips the naive enumeration, spin False skips SPIN."""
    t, n, s = FAMILY_SPLIT[family](k)
    unreduced = measure(family, k, "unreduced", explore_cap)
    reduced = measure(family, k, "reduced", explore_cap) if explore_supports_reduce() else None
    naive = measure(family, k, "naive", naive_cap) if naive_cap is not None else None
    plain = run_spin(t, n, s) if spin else None
    por = run_spin(t, n, s, reduce=True) if spin else None
    # the family also as one process per pending effect, with and without SPIN's reduction
    procs = procs_por = orders = None
    if spin:
        sizes = [f"-DN={n}"] if family == "independent" else [f"-DT={t}", f"-DN={n}", f"-DS={s}"]
        procs = run_pan(PROCS_PML[family], sizes, explore_cap)
        procs_por = run_pan(PROCS_PML[family], sizes, explore_cap, reduce=True)
        if family == "two-player" and k <= ORDERS_MAX_K:
            orders = check_orders(t, n, s)
    agree = {
        "dmcheck_one_outcome": unreduced.get("outcomes") == 1,
        "formula": unreduced["states"] == families.expected_states(t, n, s),
    }
    if plain is not None:
        agree.update({
            "states": unreduced["complete"] and plain["complete"] and unreduced["states"] == plain["states"],
            "transitions": plain["transitions"] == unreduced["transitions"] + 1,
            "spin_assertions_hold": plain["errors"] == 0 and por["errors"] == 0,
            "formula": agree["formula"] and plain["states"] == unreduced["states"],
            # no assertion fails and no process is left blocked, with or without SPIN's reduction
            "procs_end_states_valid": all(m["complete"] and m["errors"] == 0 for m in (procs, procs_por)),
        })
    if orders is not None:
        paths = unreduced.get("paths") or {}
        agree["procs_orders"] = (orders["complete"] and orders["errors"] == 0
                                 and orders["orders"] == paths.get("leaves") == expected_orders(t, n, s))
        agree["procs_outcomes"] = orders["outcomes"] == unreduced.get("outcomes")
    if naive and naive["complete"] and unreduced.get("paths"):
        agree["naive_equals_graph_paths"] = naive["states"] == unreduced["paths"]["states"]
    return {"k": k, "naive": _brief(naive), "unreduced": _brief(unreduced), "reduced": _brief(reduced),
            "spin": _brief(plain), "spin_reduced": _brief(por),
            "spin_procs": _brief(procs), "spin_procs_reduced": _brief(procs_por), "procs_orders": orders,
            "family": {"name": family, "T": t, "N": n, "S": s},
            "formula_states": families.expected_states(t, n, s), "agree": agree}


# ---- procs2.pml against dmcheck on small splits -----------------------------------------------
CHECK_SPLITS = ((1, 3, 1), (1, 3, 2), (0, 3, 3), (2, 4, 2), (1, 5, 3), (2, 5, 1), (0, 4, 0))


def dmcheck_orders(t: int, n: int, s: int) -> tuple[int | None, int | None]:
    """(complete orders, outcomes) of dmcheck's unreduced state graph of pending_family(t, n, s)."""
    from dmcheck.explorer.bfs import explore
    from dmcheck.model.procedure import BreakModel

    result = explore(BreakModel(families.pending_family(t, n, s)))
    paths = measure_mod.graph_paths(result) or {}
    return paths.get("leaves"), (len(result.outcomes()) if result.complete else None)


def orders_report(splits=CHECK_SPLITS) -> tuple[str, bool]:
    """procs2.pml's orders and outcomes beside dmcheck's and the hand count, split by split.

    The family's own splits have one echoer up to k = 9; these small ones have several (Responder
    after each echo, First Spell only after the first) and none (no First Spell at all)."""
    lines, ok = ["T/N/S   SPIN orders  dmcheck orders  by hand  outcomes (SPIN, dmcheck)  agree"], True
    for t, n, s in splits:
        spin_side = check_orders(t, n, s)
        dm_orders, dm_outcomes = dmcheck_orders(t, n, s)
        hand = expected_orders(t, n, s)
        good = (spin_side["complete"] and spin_side["errors"] == 0 and spin_side["orders"] == dm_orders == hand
                and spin_side["outcomes"] == dm_outcomes == 1)
        ok = ok and good
        lines.append(f"{t}/{n}/{s}".ljust(8) + f"{spin_side['orders']:>11,}  {dm_orders:>14,}  {hand:>7,}  "
                     f"{spin_side['outcomes']:>9}, {dm_outcomes:<14}  {'yes' if good else 'NO'}")
    return "\n".join(lines), ok


# ---- the table -------------------------------------------------------------------------------
def _t(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def _r(a: float | None, b: float | None) -> str:
    if a is None or b is None or b == 0:
        return "-"
    q = a / b
    return f"{q:,.0f}" if q >= 100 else f"{q:.2f}"


def _procs_lines(rows: list[dict]) -> list[str]:
    """One line per size run with the one-process-per-effect model: SPIN's counts and times with and
    without its reduction, dmcheck's reduced search, and the order check where it ran."""
    extra = []
    for r in rows:
        pp, rd, po = r.get("spin_procs_reduced"), r["reduced"], r.get("procs_orders")
        if pp is not None:
            sp = r["spin_procs"]
            line = (f"k={r['k']} one process per effect (peer/{PROCS_PML[r['family']['name']].name}): SPIN stores "
                    f"{sp['states']:,} unreduced (pan {_t(sp['pan_seconds'])} s, process "
                    f"{_t(sp['process_cpu_seconds'])} s), {pp['states']:,} with its reduction (pan "
                    f"{_t(pp['pan_seconds'])} s, process {_t(pp['process_cpu_seconds'])} s)")
            if rd:
                line += (f"; dmcheck reduced {rd['states']:,} (search {_t(rd['seconds'])} s, process "
                         f"{_t(rd.get('process_cpu_seconds'))} s)")
            if po is not None:
                f, leaves = r["family"], (r["unreduced"].get("paths") or {}).get("leaves")
                line += (f"; orders: SPIN {po['orders']:,}, dmcheck {'-' if leaves is None else f'{leaves:,}'}, "
                         f"by hand {expected_orders(f['T'], f['N'], f['S']):,} (outcomes {po['outcomes']} and "
                         f"{r['unreduced'].get('outcomes')})")
            extra.append(line)
    return extra


def table(rows: list[dict]) -> str:
    """Like for like: dmcheck unreduced against pan -DNOREDUCE, dmcheck reduced against pan with SPIN's
    own reduction; each as search time (dmcheck's explore, pan's "elapsed time") and as the whole
    process's CPU seconds (start-up, loading and hash-table set-up included; compilation not)."""
    head = ["k", "T/N/S", "naive states", "naive s", "unreduced", "unred s", "unred proc", "reduced", "red s",
            "red proc", "SPIN stored", "pan s", "pan proc", "SPIN-POR stored", "pan-POR s", "pan-POR proc",
            "agree", "naive/unred", "unred/red", "unred/pan s", "unred/pan proc", "red/pan-POR s",
            "red/pan-POR proc"]
    lines = []
    for r in rows:
        nv, un, rd, sp, sr, f = r["naive"], r["unreduced"], r["reduced"], r["spin"], r.get("spin_reduced"), r["family"]
        if nv is None:
            nv_states, nv_s = "not run", "-"
        elif nv["complete"]:
            nv_states, nv_s = f"{nv['states']:,}", _t(nv["seconds"])
        else:
            nv_states, nv_s = f"{nv['states']:,} (stopped)", f">{_t(nv['seconds'])}"
        total = un.get("paths", {}) or {}
        agree = "yes" if all(r["agree"].values()) else "NO " + ",".join(k for k, v in r["agree"].items() if not v)

        def get(m, key):
            return None if m is None else m.get(key)

        lines.append([
            str(r["k"]), f"{f['T']}/{f['N']}/{f['S']}", nv_states, nv_s,
            f"{un['states']:,}", _t(un["seconds"]), _t(get(un, "process_cpu_seconds")),
            f"{rd['states']:,}" if rd else "-", _t(get(rd, "seconds")), _t(get(rd, "process_cpu_seconds")),
            f"{sp['states']:,}" if sp else "-", _t(get(sp, "pan_seconds")), _t(get(sp, "process_cpu_seconds")),
            f"{sr['states']:,}" if sr else "-", _t(get(sr, "pan_seconds")), _t(get(sr, "process_cpu_seconds")),
            agree,
            _r(total.get("states"), un["states"]) + ("" if nv and nv["complete"] else "*"),
            _r(un["states"], rd["states"]) if rd else "-",
            _r(un["seconds"], get(sp, "pan_seconds")),
            _r(get(un, "process_cpu_seconds"), get(sp, "process_cpu_seconds")),
            _r(get(rd, "seconds"), get(sr, "pan_seconds")),
            _r(get(rd, "process_cpu_seconds"), get(sr, "process_cpu_seconds"))])
    widths = [max(len(head[i]), *(len(line[i]) for line in lines)) for i in range(len(head))]
    out = ["  ".join(h.ljust(w) for h, w in zip(head, widths))]
    out += ["  ".join(c.rjust(w) for c, w in zip(line, widths)) for line in lines]
    out.append("naive/unred: size of the naive enumeration (= paths in the state graph, exact) over distinct "
               "states; * = the naive walk was not run to the end there, the ratio is still exact.\n"
               "unred s, red s: dmcheck's search (explore's own seconds); pan s: pan's own 'elapsed time' "
               "(-DNOREDUCE), pan-POR s: with SPIN's reduction. proc: the whole process's CPU seconds "
               "(user + system: Python start-up and loading, or pan's start-up and hash table); SPIN's "
               "compilation is not counted. '-' where a figure is 0 or was not measured.")
    return "\n".join(out + _procs_lines(rows))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="Compare dmcheck's explorer with SPIN on the pending-effect family; see the module "
                    "docstring and benchmarks/README.md.")
    ap.add_argument("--setup", action="store_true", help="install spin if missing, then exit")
    ap.add_argument("--k", type=int, help="run one size and print its result")
    ap.add_argument("--json", action="store_true", help="print JSON")
    ap.add_argument("--table", action="store_true", help="run k = --from .. --to and print a table")
    ap.add_argument("--from", dest="k_from", type=int, default=4)
    ap.add_argument("--to", dest="k_to", type=int, default=14)
    ap.add_argument("--family", choices=sorted(FAMILY_SPLIT), default="two-player")
    ap.add_argument("--naive-cap", type=float, default=60.0, metavar="S",
                    help="time cap of the naive enumeration (default 60 s); in --table, sizes after the "
                         "first one that does not finish are not run")
    ap.add_argument("--no-naive", action="store_true")
    ap.add_argument("--check-orders", action="store_true",
                    help="check peer/procs2.pml's legal orders against dmcheck's on small splits, then exit")
    args = ap.parse_args(argv)

    spin = setup(quiet=args.json)
    if args.setup:
        return 0 if spin else 1
    if args.check_orders:
        if not spin:
            return 1
        text, ok = orders_report()
        print(text)
        return 0 if ok else 1
    if args.k is None and not args.table:
        ap.error("give --k K, --table or --setup")
    naive_cap = None if args.no_naive else args.naive_cap
    if args.k is not None:
        row = run_k(args.k, args.family, naive_cap, spin=spin)
        print(json.dumps(row, indent=1) if args.json else table([row]))
        return 0 if all(row["agree"].values()) else 1
    rows = []
    start = time.perf_counter()
    for k in range(args.k_from, args.k_to + 1):
        print(f"[{time.perf_counter() - start:6.1f}s] k={k} ...", file=sys.stderr, flush=True)
        rows.append(run_k(k, args.family, naive_cap, spin=spin))
        if naive_cap is not None and not rows[-1]["naive"]["complete"]:
            naive_cap = None   # it took over a minute: larger sizes would too
    if args.json:
        print(json.dumps({"rows": rows, "seconds": time.perf_counter() - start}, indent=1))
    else:
        print(table(rows))
        print(f"whole run: {time.perf_counter() - start:.0f} s")
    return 0 if all(all(r["agree"].values()) for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
