"""`verify --jobs N` gives the report of `--jobs 1`, byte for byte apart from the timings.

Each run is a fresh process: Z3's answers that have a choice (the witness orders of consistency.py,
and the unreached pairs derived from them) depend on what the process asked Z3 before, so two
`verify` calls in one process may differ whatever the jobs. A default test runs a small corpus
(scenarios/corpus.d/attack.yaml alone, standing in for the built-in corpus); a slow one the real
command on the whole corpus, text and JSON.
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
ALONE = ("import sys; from pathlib import Path; import rulings.verify as V; from rulings.corpus import load_corpus; "
         "V.builtin_corpus = lambda: load_corpus(Path(sys.argv[1]), builtin=True); "
         "from dmcheck.main import main; sys.exit(main(sys.argv[2:]))")


def _run(args: list[str], corpus: Path | None = None) -> tuple[int, str]:
    command = ([sys.executable, "-c", ALONE, str(corpus)] if corpus else [sys.executable, "-m", "dmcheck"]) + args
    proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout


def _untimed_text(text: str) -> str:
    return re.sub(r"solver [0-9.]+s; total [0-9.]+s", "solver Xs; total Xs", text)


def _untimed_json(text: str) -> dict:
    def strip(o):
        if isinstance(o, dict):
            return {k: strip(v) for k, v in o.items() if k not in ("seconds", "solver_seconds")}
        if isinstance(o, list):
            return [strip(x) for x in o]
        return _untimed_text(o) if isinstance(o, str) else o
    return strip(output(text))


def _same(corpus: Path | None) -> None:
    code1, text1 = _run(["verify", "--jobs", "1"], corpus)
    code2, text2 = _run(["verify", "--jobs", "2"], corpus)
    assert code1 == code2 and code1 in (0, 1)
    assert "figures:" in text1 and _untimed_text(text1) == _untimed_text(text2)
    code1, json1 = _run(["verify", "--json", "--jobs", "1"], corpus)
    code2, json2 = _run(["verify", "--json", "--jobs", "2"], corpus)
    assert code1 == code2
    assert _untimed_json(json1) == _untimed_json(json2)


def test_jobs_give_the_report_of_one_job_on_a_small_corpus():
    _same(SMALL)


@pytest.mark.slow
def test_jobs_give_the_report_of_one_job_on_the_whole_corpus():
    _same(None)


def test_the_pool_does_each_runs_conformance_and_properties(monkeypatch):
    """With workers the checks of the runs really go to the pool: every run's conformance, and the
    properties of every run of the default readings, each asked once."""
    import rulings.verify as V
    from dmcheck.options import worker_pool
    from rulings.corpus import load_corpus

    monkeypatch.setattr(V, "builtin_corpus", lambda: load_corpus(SMALL, builtin=True))
    asked: list[tuple[str, int]] = []

    def workers():
        pool = worker_pool(2)
        real = pool.map_async

        def spy(fn, items, chunksize=None):
            items = list(items)
            asked.append((fn.__name__, len(items)))
            return real(fn, items, chunksize=chunksize)

        pool.map_async = spy
        return pool

    report = V.verify(workers=workers)
    assert asked == [("_sound_of", len(report.runner.runs())), ("_search_of", len(report.properties))]
    assert report.properties and all(p.result.verdicts for p in report.properties)
    assert V._WORK is None        # the pool is closed and what it was given let go


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
    "stuck.__module__, stuck.__qualname__ = 'rulings.verify', '_search_of'; V._search_of = stuck; "
    "farm = V._Farm.__init__; "
    "V._Farm.__init__ = lambda self, *a: (farm(self, *a), print('POOL', file=sys.stderr, flush=True))[0]; "
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
    assert "Traceback" not in err and "time limit" in err
    assert output(out)["complete"] is False
    assert _gone(pids), "a worker outlived the command"
