"""`verify --jobs N` gives the report of `--jobs 1`, byte for byte apart from the timings.

Each run is a fresh process: Z3's answers that have a choice (the witness orders of consistency.py,
and the unreached pairs derived from them) depend on what the process asked Z3 before, so two
`verify` calls in one process may differ whatever the jobs. Both comparisons are slow tests (each
`verify` is a few seconds even on a small corpus): a small corpus (scenarios/corpus.d/attack.yaml
alone, standing in for the built-in corpus), JSON only, and the real command on the whole corpus,
text and JSON. The default run keeps the tests of how the work is shared out.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, output

SMALL = ROOT / "scenarios" / "corpus.d" / "attack.yaml"
# the dmcheck command with the built-in corpus replaced by one rulings file (argv[1])
ALONE = ("import sys; from pathlib import Path; import dmcheck.rulings.verify as V; "
         "from dmcheck.rulings.corpus import load_corpus; "
         "V.builtin_corpus = lambda: load_corpus(Path(sys.argv[1]), builtin=True); "
         "from dmcheck.main import main; sys.exit(main(sys.argv[2:]))")


def _run(args: list[str], corpus: Path | None = None) -> tuple[int, str]:
    command = ([sys.executable, "-c", ALONE, str(corpus)] if corpus else [sys.executable, "-m", "dmcheck"]) + args
    proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout


def _untimed_text(text: str) -> str:
    return re.sub(r"Z3 [0-9.]+s of CPU \(all processes\); total [0-9.]+s wall", "Z3 Xs; total Xs", text)


def _untimed_json(text: str) -> dict:
    def strip(o):
        if isinstance(o, dict):
            return {k: strip(v) for k, v in o.items() if k not in ("seconds", "solver_seconds")}
        if isinstance(o, list):
            return [strip(x) for x in o]
        return _untimed_text(o) if isinstance(o, str) else o
    return strip(output(text))


def _same(corpus: Path | None, text: bool = True) -> None:
    if text:
        code1, text1 = _run(["verify", "--jobs", "1"], corpus)
        code2, text2 = _run(["verify", "--jobs", "2"], corpus)
        assert code1 == code2 and code1 in (0, 1)
        assert "figures:" in text1 and _untimed_text(text1) == _untimed_text(text2)
    code1, json1 = _run(["verify", "--json", "--jobs", "1"], corpus)
    code2, json2 = _run(["verify", "--json", "--jobs", "2"], corpus)
    assert code1 == code2 and code1 in (0, 1)
    assert _untimed_json(json1) == _untimed_json(json2)


@pytest.mark.slow
def test_jobs_give_the_report_of_one_job_on_a_small_corpus():
    _same(SMALL, text=False)   # the JSON holds what the text says; the whole-corpus test compares both


@pytest.mark.slow
def test_jobs_give_the_report_of_one_job_on_the_whole_corpus():
    _same(None)


@pytest.mark.slow   # a few seconds: the default suite stays under 90 s
def test_the_workers_load_the_scenarios_check_consistency_and_each_run(monkeypatch):
    """With workers the work really goes to them: a helper process (forked first) loads every scenario
    the tabulation needs and answers the declarative consistency, and the pool forked once the runs are
    explored checks every run's corpus agreement and the properties of every run of the default readings,
    each asked once. The scenarios the main process uses are the helper's (none loaded here)."""
    import dmcheck.rulings.farm as F
    import dmcheck.rulings.operational as R
    import dmcheck.rulings.verify as V
    from dmcheck.cli.workers import worker_pool
    from dmcheck.rulings.corpus import load_corpus

    corpus = load_corpus(SMALL, builtin=True)
    monkeypatch.setattr(V, "builtin_corpus", lambda: corpus)
    here: list = []
    monkeypatch.setattr(R, "load_scenario", lambda *a: here.append(a) or pytest.fail("loaded here"))
    asked: dict[tuple[int, str], int] = {}     # (pool size, function) -> items asked of it

    def workers(n):
        pool = worker_pool(n)
        real = pool.submit

        def spy(fn, *args):
            items = len(args[0]) if args and isinstance(args[0], list) else 1 if args else 0
            asked[n, fn.__name__] = asked.get((n, fn.__name__), 0) + items
            return real(fn, *args)
        pool.submit = spy
        return pool

    report = V.verify(workers=workers, jobs=2)
    scenarios = {p for s in corpus.statements for p in s.scenarios}
    assert len(scenarios) > 1 and not here
    assert asked == {(1, "_warm"): 0, (1, "_load"): len(scenarios), (1, "check"): 1,
                     (2, "_sound_of"): len(report.runner.runs()), (2, "_search_of"): len(report.properties)}
    assert report.properties and all(p.result.verdicts for p in report.properties)
    assert report.declarative.witnesses
    assert F._WORK is None        # the pool is closed and what it was given let go


@pytest.mark.slow   # a few seconds: the default suite stays under 90 s
def test_no_z3_context_exists_in_the_main_process_when_it_forks():
    """Both pools are forked (they inherit what the main process holds): Z3 must not have made its
    context there yet, so no child inherits a context in use, and the readings' questions, asked first
    after the forks, meet a fresh context as in one process. A fresh process, since a test process
    may have used Z3 before."""
    script = ("import sys; from pathlib import Path; import z3; import dmcheck.rulings.verify as V; "
              "from dmcheck.rulings.corpus import load_corpus; from dmcheck.cli.workers import worker_pool; "
              "V.builtin_corpus = lambda: load_corpus(Path(sys.argv[1]), builtin=True); seen = []; "
              "pool = lambda n: (seen.append((n, z3.z3._main_ctx is None)), worker_pool(n))[1]; "
              "V.verify(workers=pool, jobs=2); print(seen, z3.z3._main_ctx is None)")
    proc = subprocess.run([sys.executable, "-c", script, str(SMALL)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["[(1,", "True),", "(2,", "True)]", "False"]    # Z3 is used after them


def test_the_scenarios_come_in_the_order_the_tabulation_first_needs_them():
    """The helper loads the scenarios in the order of `first_needed`, so the main process waits only
    for the one it needs next: that order is the tabulation's own."""
    from dmcheck.rulings.corpus import load_corpus
    from dmcheck.rulings.farm import first_needed
    from dmcheck.rulings.operational import Runner, tabulate

    corpus = load_corpus(SMALL, builtin=True)
    asked: list = []
    runner = Runner(loaded=lambda path: asked.append(path))    # None: the runner loads it itself
    tabulate(runner, corpus)
    assert len(asked) > 1 and asked == first_needed(corpus)


def test_a_scenario_the_helper_cannot_load_is_the_error_of_one_job(tmp_path):
    """A bad scenario named by a ruling: with workers the main process meets the same input error, at
    the same point, as with one job (the helper hands it back unloaded), and ends the helper."""
    rulings = tmp_path / "r.yaml"
    rulings.write_text(
        "statements:\n"
        "  - {id: G1, source: TEST, date: 2024-01-10, text: a ruling whose scenario loads, scenarios: ["
        + str(ROOT / "scenarios" / "rulings" / "Q09_the_watch.yaml") + "]}\n"
        "  - {id: B1, source: TEST, date: 2024-01-10, text: a ruling whose scenario does not load, scenarios: ["
        + str(ROOT / "tests" / "data" / "bad" / "castle_not_castle.yaml") + "]}\n")
    seen = []
    for jobs in ("1", "2"):
        proc = subprocess.run([sys.executable, "-c", ALONE, str(rulings), "verify", "--summary", "--jobs", jobs],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        seen.append(proc.stderr.strip().splitlines()[-1])
    assert seen[0] == seen[1] and "castle_not_castle.yaml" in seen[0] and "expected a castle" in seen[0]


def test_jobs_is_an_option_of_verify():
    proc = subprocess.run([sys.executable, "-m", "dmcheck", "verify", "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert "--jobs N" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "dmcheck", "verify", "--jobs", "0"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2 and "at least 1" in proc.stderr


# the small corpus, with each worker's property check stuck (it records its pid and sleeps), and a
# line on stderr once the pool has its work: a stop must then come while the workers are busy
STUCK = ALONE.replace("from dmcheck.main import main;", (
    "import os, time; mark = sys.argv.pop(2); "
    "stuck = lambda i: (open(mark + '.' + str(os.getpid()), 'w').close(), time.sleep(120)); "
    "import dmcheck.rulings.farm as F; "
    "stuck.__module__, stuck.__qualname__ = 'dmcheck.rulings.farm', '_search_of'; F._search_of = stuck; "
    "farm = F.Farm.__init__; "
    "F.Farm.__init__ = lambda self, *a: (farm(self, *a), print('POOL', file=sys.stderr, flush=True))[0]; "
    "from dmcheck.main import main;"))


def _stuck(tmp_path: Path, extra: list[str]) -> tuple[subprocess.Popen, list[int]]:
    import signal
    marker = tmp_path / "worker"
    proc = subprocess.Popen([sys.executable, "-c", STUCK, str(SMALL), str(marker), "verify", "--json",
                             "--jobs", "2", *extra], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stderr.readline().strip() == "POOL"
    for _ in range(100):      # until a worker is in its (stuck) property check
        if list(tmp_path.glob("worker.*")):
            break
        time.sleep(0.1)
    return proc, [int(p.suffix[1:]) for p in tmp_path.glob("worker.*")]


def _gone(pids: list[int]) -> bool:
    time.sleep(1)
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        return False
    return True


@pytest.mark.slow
def test_ctrl_c_while_the_workers_check_reports_incomplete_and_ends_them(tmp_path):
    import signal
    proc, pids = _stuck(tmp_path, [])
    assert pids
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err
    report = output(out)
    assert report["complete"] is False and report["stopped"] == "interrupted"
    assert time.monotonic() - sent < 15
    assert _gone(pids), "a worker outlived the command"


@pytest.mark.slow
def test_the_time_budget_ends_the_workers_too(tmp_path):
    proc, pids = _stuck(tmp_path, ["--max-seconds", "4"])
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 3, err
    assert "Traceback" not in err
    report = output(out)
    assert report["complete"] is False
    # verify stops at its own deadline (85 % of the budget, docs/limits.md) and names the phase its stuck
    # workers never finished; only if it is still running at 1.2 times the budget plus 1.5 s (a loaded
    # machine) does the watchdog stop it, saying so on stderr
    assert "rules properties" in report.get("not_finished", []) or "time limit" in err, (report, err)
    assert _gone(pids), "a worker outlived the command"
