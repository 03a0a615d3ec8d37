"""A worker process killed from outside (issue 36, item 2): noticed at once, its work done again once,
and reported as not finished (exit 3) when it dies again; never a command waiting forever.

A worker kills itself with SIGKILL, as the out-of-memory killer would, from inside the function the pool
runs: the function is replaced by one that dies first (`_dying`), under the same module and name so that
the pool still pickles it by reference. The slow kill test (tests/test_kill_workers.py) kills workers
from outside at random moments.
"""

from __future__ import annotations

import datetime as dt
import io
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from conftest import DATA, ROOT, die_sending, output
from test_sweep_kill import _running

from dmcheck.cli import workers
from dmcheck.main import main

SMALL = DATA / "rulings" / "agreeing.yaml"      # two statements with orders, under one rules version: quick
Q = sorted((ROOT / "scenarios" / "rulings").glob("Q0*.yaml"))[:4]


def _killed() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _dying(real, marker: Path, times: int = 1, death=_killed):
    """`real`, in a worker process that kills itself the first `times` calls (counted in `marker`, shared
    by the forked workers; never in the test's own process), registered under `real`'s module and name.
    `death`: how it dies (`die_sending`: in the middle of sending a result)."""
    main = os.getpid()

    def dying(*args, **kwargs):
        count = len(marker.read_text()) if marker.exists() else 0
        if count < times and os.getpid() != main:
            marker.write_text("x" * (count + 1))
            death()
        return real(*args, **kwargs)
    dying.__module__, dying.__qualname__, dying.__name__ = real.__module__, real.__qualname__, real.__name__
    return dying


def _square(x: int) -> int:
    return x * x


def test_ordered_redoes_the_work_of_a_dead_worker_once(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "_square", _dying(_square, tmp_path / "m"))
    told: list[str] = []
    start = time.monotonic()
    got = list(workers.ordered(sys.modules[__name__]._square, range(8), 2, told.append))
    assert got == [x * x for x in range(8)] and len(told) == 1 and "worker process died" in told[0]
    assert time.monotonic() - start < 20


def test_ordered_redoes_the_work_of_a_worker_killed_while_it_sent_a_result(tmp_path, monkeypatch, short_grace):
    """The executor misses that death (it waits for the rest of the message): the pool is found stuck, not
    waited on forever."""
    monkeypatch.setattr(sys.modules[__name__], "_square", _dying(_square, tmp_path / "m", death=die_sending))
    told: list[str] = []
    start = time.monotonic()
    got = list(workers.ordered(sys.modules[__name__]._square, range(8), 2, told.append))
    assert got == [x * x for x in range(8)] and len(told) == 1 and "worker process died" in told[0]
    assert time.monotonic() - start < 20


class _BrokenAtFirstSubmit(workers.Workers):
    """A pool whose worker died between a wait and the next submit: the executor refuses the task."""

    refused = 0

    def submit(self, fn, /, *args, **kwargs):
        if _BrokenAtFirstSubmit.refused == 0:
            _BrokenAtFirstSubmit.refused += 1
            raise workers.BrokenProcessPool("a child process terminated abruptly")
        return super().submit(fn, *args, **kwargs)


def test_ordered_replaces_a_pool_that_refuses_a_task():
    told: list[str] = []
    got = list(workers.ordered(_square, range(6), 2, told.append, workers=_BrokenAtFirstSubmit))
    assert got == [x * x for x in range(6)] and _BrokenAtFirstSubmit.refused == 1 and len(told) == 1


def test_closing_a_pool_whose_worker_was_killed_while_it_sent_a_result_ends(tmp_path, monkeypatch, short_grace):
    """close() waits for the tasks still open, as the executor's shutdown does; that worker's never ends."""
    monkeypatch.setattr(sys.modules[__name__], "_square", _dying(_square, tmp_path / "m", death=die_sending))
    pool = workers.worker_pool(1)
    pool.submit(sys.modules[__name__]._square, 3)
    pids = pool.pids()
    start = time.monotonic()
    pool.close()
    assert time.monotonic() - start < 15 and pids and not any(_running(pid) for pid in pids)


def test_ordered_reports_a_task_whose_worker_dies_again_as_lost(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "_square", _dying(_square, tmp_path / "m", times=99))
    got = list(workers.ordered(sys.modules[__name__]._square, range(3), 1))
    assert all(isinstance(g, workers.Lost) for g in got)       # every attempt dies: each is lost, none waits


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def test_explore_jobs_redoes_a_file_whose_worker_died(tmp_path, monkeypatch):
    import dmcheck.commands.explore as E
    code1, out1, _ = run("explore", *Q, "--jobs", "1", "--json")
    monkeypatch.setattr(E, "_explore_file", _dying(E._explore_file, tmp_path / "m"))
    start = time.monotonic()
    code2, out2, err = run("explore", *Q, "--jobs", "2", "--json")
    assert time.monotonic() - start < 30 and "worker process died" in err, err
    strip = lambda d: [{k: v for k, v in s.items() if k != "seconds"} for s in d["scenarios"]]  # noqa: E731
    assert code1 == code2 and strip(output(out1)) == strip(output(out2))


def test_explore_jobs_names_a_file_whose_worker_died_twice_not_finished(tmp_path, monkeypatch):
    import dmcheck.commands.explore as E
    monkeypatch.setattr(E, "_explore_file", _dying(E._explore_file, tmp_path / "m", times=99))
    code, out, err = run("explore", *Q[:2], "--jobs", "2", "--json")
    doc = output(out)
    assert code == 3 and doc["complete"] is False and doc["not_finished"] == [str(q) for q in Q[:2]], err
    assert "not finished: its worker process died" in err


def test_export_jobs_explores_a_run_whose_worker_died(tmp_path, monkeypatch):
    import dmcheck.engines.bundle as B
    code1, out1, _ = run("export", *Q, "--jobs", "1")
    monkeypatch.setattr(B, "_entry_job", _dying(B._entry_job, tmp_path / "m", times=99))
    code2, out2, err = run("export", *Q, "--jobs", "2")
    assert code1 == code2 == 0 and out1 == out2 and "worker process died" in err, err


@pytest.fixture
def small_corpus(monkeypatch):
    import dmcheck.rulings.verify as V
    from dmcheck.rulings.corpus import load_corpus
    corpus = load_corpus(SMALL, builtin=True)
    monkeypatch.setattr(V, "builtin_corpus", lambda: corpus)
    return V


def test_verify_does_the_work_of_its_dead_workers_itself(tmp_path, monkeypatch, small_corpus):
    """The helper dies loading the first scenario, a farm worker checking the first runs: the main process
    loads the scenarios, checks the declarative consistency, the agreement and the properties itself."""
    import dmcheck.rulings.farm as F
    monkeypatch.setattr(F, "_load", _dying(F._load, tmp_path / "helper"))
    monkeypatch.setattr(F, "_sound_of", _dying(F._sound_of, tmp_path / "farm"))
    start = time.monotonic()
    report = small_corpus.verify(rules=dt.date(2024, 6, 19), workers=workers.worker_pool, jobs=2)
    assert time.monotonic() - start < 120
    assert report.redone == ["declarative consistency (Z3)", "conformance", "rules properties",
                             "loading the scenarios"]
    assert not report.not_finished and report.agreement.complete and report.properties
    assert report.declarative.complete and report.declarative.witnesses


def test_verify_does_the_work_of_workers_killed_while_they_sent_a_result(tmp_path, monkeypatch, short_grace,
                                                                         small_corpus):
    import dmcheck.rulings.farm as F
    monkeypatch.setattr(F, "_load", _dying(F._load, tmp_path / "helper", death=die_sending))
    monkeypatch.setattr(F, "_sound_of", _dying(F._sound_of, tmp_path / "farm", death=die_sending))
    start = time.monotonic()
    report = small_corpus.verify(rules=dt.date(2024, 6, 19), workers=workers.worker_pool, jobs=2)
    assert time.monotonic() - start < 120
    assert "loading the scenarios" in report.redone and "conformance" in report.redone
    assert not report.not_finished and report.agreement.complete and report.properties
