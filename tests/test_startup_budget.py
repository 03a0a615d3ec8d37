"""Start-up and the time budget (issue 39, item 6): a command imports what it needs only, and a slow
start-up counts against `--max-seconds` without starving the search (dmcheck/cli/stop.py)."""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import threading
import time

import pytest
from conftest import ROOT

from dmcheck.cli import stop
from dmcheck.main import main

L8 = str(ROOT / "benchmarks" / "scenarios" / "kakumeijin_L8.yaml")


def _loaded_after(argv: list[str]) -> set[str]:
    """The modules (of a few) loaded once `dmcheck ARGV` has run, in a fresh process."""
    code = ("import io, sys; from dmcheck.main import main; "
            f"main({argv!r}, io.StringIO(), io.StringIO()); "
            "print(' '.join(m for m in sys.modules if m in ('z3', 'networkx', 'ray') "
            "or m.startswith('dmcheck.commands.')))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return set(proc.stdout.split())


def test_explore_loads_neither_z3_nor_another_command():
    loaded = _loaded_after(["explore", "scenarios/rulings/Q09_the_watch.yaml"])
    assert loaded == {"dmcheck.commands.explore"}


def test_version_loads_no_command():
    code = ("import sys; from dmcheck.main import main\n"
            "try:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('dmcheck.commands.')))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.stdout.split("\n")[-2:] == ["[]", ""] and proc.stdout.startswith("dmcheck "), proc.stdout


def test_check_loads_z3_and_its_own_command_only():
    loaded = _loaded_after(["check", "scenarios/rulings/Q09_the_watch.yaml"])
    assert "z3" in loaded and {m for m in loaded if m.startswith("dmcheck.")} <= {
        "dmcheck.commands.check", "dmcheck.commands.explore"}   # check reuses explore's report


def test_z3_imported_during_a_command_has_its_own_ctrl_c_handler_off():
    code = ("import argparse, sys; from dmcheck.cli import stop\n"
            "with stop.guarded(argparse.Namespace()):\n"
            "    import z3\n"
            "    print(z3.get_param('ctrl_c'), 'z3' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.stdout.split() == ["false", "True"], proc.stderr


def _share(seconds: float, started_ago: float) -> tuple[float, float | None]:
    """stop.search_seconds(0.8) and the start-up measured, for a budget of `seconds` that began
    `started_ago` seconds ago (in a thread of its own: no watchdog is armed outside the main thread)."""
    found: list = []

    def run() -> None:
        with stop.guarded(argparse.Namespace(max_seconds=seconds), began=time.monotonic() - started_ago):
            found.extend((stop.search_seconds(0.8), stop.startup()))
    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    return found[0], found[1]


def test_the_search_share_after_a_quick_and_a_slow_start():
    quick, started = _share(10.0, 0.0)
    assert 7.5 < quick <= 8.0 and started is not None and started < 0.5    # 80 % of what remains
    slow, started = _share(10.0, 9.0)
    # 80 % of the 1 s left would be 0.8 s; the floor gives 0.75 x 0.8 x 10 = 6 s, cut to what the
    # watchdog (12 + 1.5 s after the start) leaves, with half as much again for the report: 4.5 / 1.5
    assert 2.7 < slow <= 3.0 and 8.9 < started < 9.5
    assert _share(10.0, 14.0)[0] == 0.001    # past the watchdog: nothing


@pytest.mark.slow   # a few seconds: the default suite stays under 90 s
def test_a_start_up_that_ate_the_budget_leaves_the_search_time_and_is_named():
    """The command 'began' 9.5 s before a 10 s budget: half a second remains, of which the search
    would get 80 % (less, after loading L8 on a loaded machine); it gets what the watchdog's margin
    (13.5 s after the start) leaves with room for the report, and its reason names the start-up."""
    out = io.StringIO()
    code = main(["explore", L8, "--max-seconds", "10", "--json"], out, io.StringIO(), began=time.monotonic() - 9.5)
    assert code == 3
    (report,) = json.loads(out.getvalue())["scenarios"]
    assert not report["complete"] and report["seconds"] >= 1.0 and report["states"] > 10
    assert "start-up took" in report["reason"] and report["reason"].startswith("time limit")
