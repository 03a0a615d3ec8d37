"""One measurement per fresh process: explore a benchmark scenario, or enumerate it naively, and report.

Why a process each. Peak memory is the high-water mark of a process's resident set (ru_maxrss); it
only goes up, so measuring several runs in one process would charge each with the largest before
it. Every measurement therefore runs in a child (`python benchmarks/measure.py ...`) that prints one
JSON object; `measure()` starts it and reads the object.

Modes:
- `unreduced`: `explorer.bfs.explore` (BFS, states deduplicated). Also counts, from the explored
  graph, the exact number of paths — what a naive enumerator would visit (see `graph_paths`).
- `reduced`: the same with `reduce=True`, when `explore` accepts that keyword (older checkouts do not); else null.
- `naive`: a depth-first search over the same model without deduplication: every order of the
  pending effects is walked to its end. Capped by time; a capped run says where it stopped.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import families  # noqa: E402  (puts the project root on sys.path too)

from dmcheck.explorer.bfs import explore  # noqa: E402
from dmcheck.explorer.limits import Limits  # noqa: E402
from dmcheck.model.procedure import BreakModel  # noqa: E402


def rss_mb() -> float:
    """Peak resident set of this process so far, in MB (ru_maxrss is in KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def explore_supports_reduce() -> bool:
    """Whether `explorer.bfs.explore` takes a `reduce` keyword (partial-order reduction and symmetry)."""
    return "reduce" in inspect.signature(explore).parameters


def naive_dfs(model, cap_seconds: float, max_depth: int = 10_000) -> dict:
    """Walk every path of the model without remembering states; stop at `cap_seconds`.

    `nodes` counts every state visited, the initial one included, once per path reaching it;
    `leaves` counts the terminal states reached, i.e. the complete orders enumerated.
    """
    start = time.perf_counter()
    init = model.initial_state()
    nodes, leaves, deepest = 1, 0, 0
    first = model.actions(init)
    stack: list[list] = [[init, first, 0]] if first else []
    if not first:
        leaves = 1
    complete, reason = True, ""
    while stack:
        top = stack[-1]
        state, acts, i = top
        if i == len(acts):
            stack.pop()
            continue
        top[2] = i + 1
        succ, _ = model.step(state, acts[i])
        nodes += 1
        nxt = model.actions(succ)
        if nxt:
            stack.append([succ, nxt, 0])
            if len(stack) > deepest:
                deepest = len(stack)
                if deepest > max_depth:
                    complete, reason = False, f"depth {max_depth} exceeded (a cycle?)"
                    break
        else:
            leaves += 1
        if nodes & 0xFF == 0 and time.perf_counter() - start > cap_seconds:
            complete, reason = False, f"time cap {cap_seconds:g}s reached"
            break
    return {"states": nodes, "transitions": nodes - 1, "leaves": leaves, "depth": deepest,
            "seconds": time.perf_counter() - start, "complete": complete, "reason": reason}


def graph_paths(result) -> dict | None:
    """Exact size of the naive enumeration, from the deduplicated graph: paths from the initial state.

    A naive DFS visits a state once per path that reaches it, so it visits sum(paths(v)) states and
    reaches sum(paths(t)) terminal states. Counted in topological order; None if the graph has a
    cycle (the naive enumeration would not end) or the exploration was incomplete.
    """
    if not result.complete:
        return None
    n = result.count
    indeg = [0] * n
    for out in result.edges:
        for _, target, _ in out:
            indeg[target] += 1
    paths = [0] * n
    paths[0] = 1
    ready = [v for v in range(n) if indeg[v] == 0]
    seen = 0
    while ready:
        v = ready.pop()
        seen += 1
        for _, target, _ in result.edges[v]:
            paths[target] += paths[v]
            indeg[target] -= 1
            if indeg[target] == 0:
                ready.append(target)
    if seen != n:
        return None
    return {"states": sum(paths), "leaves": sum(paths[t] for t in result.terminals)}


def run(family: str, size: int, mode: str, cap: float) -> dict:
    """The measurement itself (in the child process)."""
    scenario = families.build(family, size)
    model = BreakModel(scenario)
    base = rss_mb()
    if mode == "naive":
        out = naive_dfs(model, cap)
    else:
        kwargs = {}
        if mode == "reduced":
            if not explore_supports_reduce():
                return {"skipped": "explorer.bfs.explore has no reduce keyword"}
            kwargs["reduce"] = True
        result = explore(model, Limits(max_seconds=cap), **kwargs)
        out = {"states": result.count, "transitions": result.transitions,
               "seconds": result.seconds, "complete": result.complete, "reason": result.reason,
               "terminals": len(result.terminals)}
        peak = rss_mb()
        if mode == "unreduced":
            out["outcomes"] = len(result.outcomes()) if result.complete else None
            out["paths"] = graph_paths(result)
        out["peak_mb"] = round(peak, 1)
    out.setdefault("peak_mb", round(rss_mb(), 1))
    out["base_mb"] = round(base, 1)
    out["search_mb"] = round(max(0.0, out["peak_mb"] - base), 1)
    out["states_per_s"] = out["states"] / out["seconds"] if out["seconds"] > 0 else None
    out["scenario"] = scenario.name
    return out


def run_child(cmd: list[str], timeout: float) -> tuple[str, str, int, float, float]:
    """Run a command; return stdout, stderr, exit status, wall seconds and its peak RSS in MB.

    The peak comes from wait4's rusage of that very process (compile steps run apart, so they do
    not count). A run past `timeout` is killed and reported with status -9.
    """
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    chunks: dict[str, list[str]] = {"out": [], "err": []}
    readers = [threading.Thread(target=lambda f=f, k=k: chunks[k].append(f.read()), daemon=True)
               for f, k in ((proc.stdout, "out"), (proc.stderr, "err"))]
    for t in readers:
        t.start()
    status, usage = None, None
    while status is None:
        pid, st, ru = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            status, usage = st, ru
            break
        if time.perf_counter() - start > timeout:
            proc.kill()
            _, st, ru = os.wait4(proc.pid, 0)
            status, usage = -9, ru
            break
        time.sleep(0.01)
    wall = time.perf_counter() - start
    proc.returncode = status if status == -9 else os.waitstatus_to_exitcode(status)
    for t in readers:
        t.join()
    global LAST_CPU
    LAST_CPU = usage.ru_utime + usage.ru_stime
    return "".join(chunks["out"]), "".join(chunks["err"]), proc.returncode, wall, usage.ru_maxrss / 1024


LAST_CPU = 0.0   # user + system seconds of the last process run_child waited for (its own rusage)


def measure(family: str, size: int, mode: str, cap: float) -> dict | None:
    """Run one measurement in a fresh Python process; None when the mode is not available."""
    cmd = [sys.executable, str(HERE / "measure.py"), "--family", family, "--size", str(size),
           "--mode", mode, "--cap", str(cap)]
    out, err, code, _, _ = run_child(cmd, timeout=cap * 3 + 120)
    if code != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({code}):\n{err[-2000:]}")
    data = json.loads(out)
    if "skipped" in data:
        return None
    data["process_cpu_seconds"] = round(LAST_CPU, 3)   # the whole process: start-up and set-up included
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="One benchmark measurement, printed as JSON (used by "
                                             "bench_explore.py and peer.py, each run in its own process).")
    ap.add_argument("--family", choices=sorted(families.FAMILIES), required=True)
    ap.add_argument("--size", type=int, required=True, help="k, or the Kakumeijin level")
    ap.add_argument("--mode", choices=["unreduced", "reduced", "naive"], required=True)
    ap.add_argument("--cap", type=float, default=60.0, help="time cap in seconds")
    args = ap.parse_args(argv)
    print(json.dumps(run(args.family, args.size, args.mode, args.cap)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
