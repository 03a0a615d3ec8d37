"""What a finalizer raises while a command stops is not printed (dmcheck/cli/stop.py `_QuietUnraisable`):
the stop is reported once, as incomplete. Before the stop, a finalizer's error is printed as Python
prints it (nothing real is hidden)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
import types

import pytest
from conftest import ROOT

from dmcheck.cli import stop


def _unraisable(exc: BaseException):
    return types.SimpleNamespace(exc_type=type(exc), exc_value=exc, exc_traceback=None, err_msg=None, object=None)


def test_a_finalizer_error_is_passed_on_before_a_stop_and_dropped_during_one(monkeypatch):
    seen = []
    quiet = stop._QuietUnraisable(seen.append)
    monkeypatch.setattr(stop, "_stopping", False)
    quiet(_unraisable(ValueError("freed twice")))
    quiet(_unraisable(KeyboardInterrupt()))          # an interrupt landing in a finalizer: never printed
    assert [type(u.exc_value) for u in seen] == [ValueError]
    monkeypatch.setattr(stop, "_stopping", True)
    quiet(_unraisable(ValueError("context torn down")))
    assert len(seen) == 1


def test_a_new_command_starts_not_stopping(monkeypatch):
    monkeypatch.setattr(stop, "_stopping", True)
    args = types.SimpleNamespace(files=[], max_seconds=None)
    with stop.guarded(args):
        assert stop._stopping is False


def test_an_interrupt_raised_as_the_command_ends_is_withdrawn():
    """A watcher (memory, time, Ctrl-C) raising its interrupt just as the command ends must not land in
    what the caller runs next: ending withdraws it (seen once in the slow suite: a memory stop raised
    again after a slow report crashed the test worker that had called the command)."""
    main_id = threading.main_thread().ident
    done = threading.Event()

    def late() -> None:
        time.sleep(0.2)   # the main thread waits in join(), running no Python instruction
        assert stop._raise_in(main_id, stop.MemoryUp, done)
        stop._ended(main_id, [done])

    thread = threading.Thread(target=late)
    thread.start()
    try:
        thread.join()
        total = sum(range(10_000))   # instructions: an interrupt still pending would be raised here
    except stop.MemoryUp:
        pytest.fail("the interrupt raised as the command ended reached the caller")
    assert total == 49_995_000
    assert done.is_set() and not stop._raise_in(main_id, stop.MemoryUp, done)   # nothing raised once ended


def test_a_command_run_under_a_tracer_ends():
    """Ending a command withdraws an interrupt that may be pending. Withdrawing it with a NULL exception
    leaves CPython looking for a pending one at every call: under a tracer or a profiler (coverage, a
    debugger, cProfile) the next call then looped forever, after the command had printed its report."""
    code = ("import sys, runpy\n"
            "sys.settrace(lambda *a: None)\n"
            "sys.argv = ['dmcheck', 'explore', sys.argv[1]]\n"
            "runpy.run_module('dmcheck', run_name='__main__')\n")
    scenario = ROOT / "scenarios" / "rulings" / "Q09_the_watch.yaml"
    try:
        done = subprocess.run([sys.executable, "-c", code, str(scenario)], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("the command run under a tracer did not end")
    assert done.returncode == 0, done.stderr
    assert "Q09" in done.stdout
