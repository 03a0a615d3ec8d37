"""Killing a worker process at random moments (issue 36, item 2), as the out-of-memory killer would: for
every process pool (verify's helper and farm, sweep, export --jobs, explore and check --jobs), RUNS runs
each get one worker SIGKILLed at a random moment of the run, and every run must end within 30 s of the
kill with a correct exit code: the uninterrupted run's (the work was done again, and the output is the
same) or 3 (not finished, said so). No worker may be left running. A slow test (CI's `-m slow`).

A run is a real command in its own process; a worker is a child of it (each pool forks its workers from
the command's process). The moment is drawn uniformly over the uninterrupted run's duration; when no
worker is alive then (before the pool's fork, after its end), the next one to appear is killed, and a run
in which none appears counts as a run without a kill (the figures say how many runs had one).
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from conftest import ROOT
from test_sweep_kill import _children, _descendants, _running

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads processes from /proc")]

RUNS = 20
WITHIN = 30.0          # seconds from the kill to the end of the run
SMALL = ROOT / "scenarios" / "corpus.d" / "attack.yaml"
# verify with the built-in corpus replaced by one rulings file (argv[1]), as tests/test_verify_jobs.py does
ALONE = ("import sys; from pathlib import Path; import dmcheck.rulings.verify as V; "
         "from dmcheck.rulings.corpus import load_corpus; "
         "V.builtin_corpus = lambda: load_corpus(Path(sys.argv[1]), builtin=True); "
         "from dmcheck.main import main; sys.exit(main(sys.argv[2:]))")
SWEEP = """name: killed while it runs
rules: 2024-06-19
turn: A
players:
  A: {battle: [Kakumeijin], mana: 5}
  B: {shields: 2}
attack: {attacker: Kakumeijin, player: B}
vary:
  A.hand: {from: [Boil Charger, Winter Spiral, Texas Storm], size: [0, 1], distinct: true}
  B.shields: {from: [Vanilla, Terror Pit], size: [1, 2]}
"""
RULINGS = sorted(str(p) for p in (ROOT / "scenarios" / "rulings").glob("*.yaml"))[:24]


def _untimed(value):
    """A JSON output without its timings and the solver's statistics (how many queries its cache of
    projections answered depends on what the process checked before: another worker, after a kill)."""
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if not k.endswith("seconds") and k not in ("db", "solver")}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    if isinstance(value, str):
        return re.sub(r"[0-9.]+s\b", "Xs", value)
    return value


def _run_killing(argv: list[str], moment: float, pick: random.Random) -> dict:
    """One run, one worker SIGKILLed at `moment` seconds (or the first to appear after it). Its output goes
    to files: a pipe nobody reads while the run goes on would stop it once full."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=out, stderr=err, text=True)
        found = _watch(proc, argv, moment, pick)
        out.seek(0)
        err.seek(0)
        return dict(found, out=out.read(), err=err.read())


def _watch(proc: subprocess.Popen, argv: list[str], moment: float, pick: random.Random) -> dict:
    start = time.monotonic()
    seen: set[int] = set()
    killed = None
    while proc.poll() is None:
        workers = [w for w in _children(proc.pid) if _running(w)]
        seen.update(workers)
        seen.update(d for w in workers for d in _descendants(w))
        if killed is None and workers and time.monotonic() - start >= moment:
            victim = pick.choice(workers)
            try:
                os.kill(victim, signal.SIGKILL)
            except ProcessLookupError:   # it ended between the listing and the kill: the next one is killed
                continue
            killed = time.monotonic()
        if killed is not None and time.monotonic() - killed > WITHIN:
            proc.kill()
            raise AssertionError(f"{argv}: still running {WITHIN} s after a worker was killed")
        time.sleep(0.02)
    ended = time.monotonic()
    time.sleep(0.3)
    left = [p for p in seen if _running(p)]
    assert not left, f"{argv}: workers left running: {left}"
    return {"code": proc.returncode, "killed": killed is not None,
            "after_kill": ended - killed if killed is not None else None, "seconds": ended - start}


def _kill_test(argv_of, same, seed: int) -> dict:
    """RUNS runs of the command `argv_of(run)` with a worker killed at a random moment; `same(reference,
    run)` says whether a run that exited as the reference gave the same output."""
    proc = subprocess.run(argv_of(-1), cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert "Traceback" not in proc.stderr, proc.stderr
    reference = {"code": proc.returncode, "out": proc.stdout}
    started = time.monotonic()
    subprocess.run(argv_of(-2), cwd=ROOT, capture_output=True, text=True, timeout=600)
    duration = time.monotonic() - started
    pick = random.Random(seed)
    figures = {"runs": 0, "kills": 0, "redone": 0, "not_finished": 0, "slowest_after_kill": 0.0}
    for k in range(RUNS):
        run = _run_killing(argv_of(k), pick.uniform(0.05, 0.95) * duration, pick)
        assert "Traceback" not in run["err"], run["err"]
        assert run["code"] in (reference["code"], 3), (run["code"], reference["code"], run["err"][-2000:])
        if run["code"] == reference["code"]:
            assert same(reference, run), run["err"][-2000:]
            figures["redone"] += run["killed"]
        else:
            assert "not finished" in run["err"], run["err"][-2000:]
            figures["not_finished"] += 1
        figures["runs"] += 1
        figures["kills"] += run["killed"]
        if run["killed"]:
            figures["slowest_after_kill"] = round(max(figures["slowest_after_kill"], run["after_kill"]), 2)
    print(f"\nkill test {' '.join(argv_of(0)[1:5])}...: {figures}, an uninterrupted run {duration:.1f} s")
    assert figures["kills"] >= RUNS // 2, figures       # most runs had a worker to kill
    return figures


def _same_json(reference: dict, run: dict) -> bool:
    return _untimed(json.loads(reference["out"])) == _untimed(json.loads(run["out"]))


def test_killing_a_verify_worker():
    """The helper (loading the scenarios, the declarative consistency) or a farm worker (agreement,
    properties): the main process does the work itself; the rulings' verdicts, the contradictions and
    the checks are those of the uninterrupted run (a witness order may be another of Z3's choices)."""
    def same(reference, run):
        def keep(d):
            return ([(r["ref"], r["verdict"]) for r in d["rulings"]], d["complete"],
                    sorted(json.dumps(c["ids"]) for c in d["contradictions"]), _untimed(d["properties"]),
                    len(d["conformance"]["violations"]))
        return keep(json.loads(reference["out"])) == keep(json.loads(run["out"]))
    _kill_test(lambda k: [sys.executable, "-c", ALONE, str(SMALL), "verify", "--json", "--jobs", "2", "--rules",
                          "2024-06-19"], same, 1)


def test_killing_a_sweep_worker(tmp_path):
    """A position whose worker died is retried (rulings/sweep/backends.py): the summary is the same."""
    template = tmp_path / "t.yaml"
    template.write_text(SWEEP)
    _kill_test(lambda k: [sys.executable, "-m", "dmcheck", "sweep", str(template), "--db",
                          str(tmp_path / f"{k + 2}.sqlite"), "--jobs", "2", "--json"], _same_json, 2)


def test_killing_an_export_worker():
    _kill_test(lambda k: [sys.executable, "-m", "dmcheck", "export", *RULINGS, "--jobs", "2"],
               lambda reference, run: reference["out"] == run["out"], 3)          # the same bytes


@pytest.mark.parametrize("command", ["explore", "check"])
def test_killing_an_explore_or_check_worker(command):
    _kill_test(lambda k: [sys.executable, "-m", "dmcheck", command, *RULINGS, "--jobs", "2", "--json"], _same_json, 4)
