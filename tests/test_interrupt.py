"""Ctrl-C and the time budget: every command stops with exit 130 (Ctrl-C) or 3 (time), no
traceback, and what was found so far reported as incomplete (valid JSON with `complete: false`).

Each test starts dmcheck in a subprocess, waits until it is working, and sends SIGINT as a terminal
would. The child gets SIGINT's default disposition back (a shell may start background jobs with it
ignored, and Python then never raises KeyboardInterrupt).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from conftest import DATA, ROOT, output

# slow: timing-based: real signals and time budgets on subprocesses (about a minute); CI runs it (pytest -m slow)
pytestmark = pytest.mark.slow

LONG = str(DATA / "long" / "pending18.yaml")
Q09 = str(ROOT / "scenarios" / "rulings" / "Q09_the_watch.yaml")


def _start(args: list[str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "dmcheck", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _interrupt(args: list[str], after: float = 4.0) -> tuple[int, str, str, float]:
    """Run dmcheck, send SIGINT after `after` seconds; its exit code, output and how long it took to stop."""
    proc = _start(args)
    time.sleep(after)
    assert proc.poll() is None, "dmcheck finished before it could be interrupted: " + proc.stderr.read()
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err, time.monotonic() - sent


@pytest.mark.parametrize("command", [
    ["explore", Q09, LONG, "--no-reduce"],
    ["check", Q09, LONG, "--no-reduce"],
    ["diff", LONG, "--rules", "2023-01-01", "--rules", "2024-06-19"],
    ["verify"],
], ids=["explore", "check", "diff", "verify"])
def test_ctrl_c_exits_130_with_json_marked_incomplete(command):
    code, out, err, took = _interrupt(command + ["--json"])
    assert code == 130, err
    assert "Traceback" not in err, err
    assert "interrupted" in err
    report = output(out)          # valid JSON of the published schema, not truncated
    assert report["complete"] is False and report["stopped"] == "interrupted"
    assert took < 15, took


def test_ctrl_c_keeps_the_files_finished_before_it():
    """Q09 is finished long before the interrupt; its report is kept, and the long file's search under way
    is reported with what it had explored, marked interrupted (not complete)."""
    # one job: the search under way is this process's own (workers of --jobs report only when done)
    code, out, err, _ = _interrupt(["explore", Q09, LONG, "--no-reduce", "--json", "--jobs", "1"], after=8.0)
    report = output(out)
    assert code == 130
    assert [r["file"] for r in report["scenarios"]] == [Q09, LONG]
    finished, stopped = report["scenarios"]
    assert finished["complete"] is True
    assert stopped["complete"] is False and stopped["reason"] == "interrupted" and stopped["states"] > 0
    assert report["not_finished"] == [] and report["complete"] is False
    assert "interrupted" in err and "incomplete" in err


def test_ctrl_c_in_text_mode_prints_finished_files_then_says_incomplete():
    code, out, err, _ = _interrupt(["explore", Q09, LONG, "--no-reduce"])
    assert code == 130
    assert "Q09" in out or "The Watch" in out
    assert LONG in out and "search INCOMPLETE: interrupted" in out
    assert "Traceback" not in err
    assert "incomplete" in err


def test_ctrl_c_inside_a_z3_query_stops_the_run():
    """Z3 cancels a query on SIGINT and returns `unknown` (the run would go on); under dmcheck.cli.stop the
    query is interrupted and KeyboardInterrupt reaches Python."""
    script = textwrap.dedent("""
        import sys, types, z3
        from dmcheck.cli import stop
        with stop.guarded(types.SimpleNamespace()):
            xs = [z3.Int(f"x{i}") for i in range(40)]
            s = z3.Solver()
            s.set("timeout", 60000)
            s.add(z3.Sum([v * v * v for v in xs]) == 123456789013, *[v > 1 for v in xs])
            print("solving", flush=True)
            try:
                s.check()
            except KeyboardInterrupt:
                print("stopped", flush=True)
                sys.exit(130)
            print("went on", flush=True)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout.readline().strip() == "solving"
    time.sleep(1.5)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130, out
    assert "stopped" in out
    assert time.monotonic() - sent < 10


def test_max_seconds_bounds_the_whole_command():
    """Three long files under a 4 s budget: the command stops within 1.5 x 4 + 5 s (plus start-up),
    exit 3, and says which files it did not get to."""
    start = time.monotonic()
    proc = _start(["explore", LONG, LONG, LONG, "--no-reduce", "--max-seconds", "4", "--json"])
    out, err = proc.communicate(timeout=120)
    took = time.monotonic() - start
    assert proc.returncode == 3, err
    assert "Traceback" not in err
    assert took < 1.5 * 4 + 5 + 5, took      # + start-up of a Python process on a loaded machine
    report = output(out)
    assert report["complete"] is False
    # each file is either named not finished or reported with its search cut by the budget
    assert len(report["scenarios"]) + len(report["not_finished"]) == 3
    assert all(not s["complete"] and "time limit" in s["reason"] for s in report["scenarios"])


@pytest.mark.parametrize("command", [
    ["check", LONG, "--no-reduce"],
    ["diff", LONG, "--rules", "2023-01-01", "--rules", "2024-06-19"],
    ["verify"],
], ids=["check", "diff", "verify"])
def test_max_seconds_bounds_every_command(command):
    """Checking with Z3, the two searches of diff and the many of verify all stay within the budget."""
    start = time.monotonic()
    proc = _start(command + ["--max-seconds", "4", "--json"])
    out, err = proc.communicate(timeout=120)
    took = time.monotonic() - start
    assert proc.returncode == 3, err
    assert "Traceback" not in err
    assert took < 1.5 * 4 + 5 + 5, took
    assert _incomplete(output(out))


def _incomplete(doc: dict) -> bool:
    """Whether a document says its run is incomplete: stopped as a whole, or each part's search cut."""
    if doc.get("complete") is False:
        return True
    parts = doc.get("scenarios") or ([doc["summary"]] if "summary" in doc else [doc])
    return bool(parts) and all(p.get("complete") is False for p in parts)


@pytest.mark.skipif(os.name != "posix", reason="signals")
def test_no_interrupt_no_change():
    """Without Ctrl-C a finished run's JSON is the usual report (not the incomplete wrapper): nothing
    stopped it, it is complete and nothing is left unfinished."""
    proc = _start(["explore", Q09, "--json"])
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    report = output(out)
    assert "stopped" not in report and report["complete"] is True and report["not_finished"] == []
    assert report["scenarios"][0]["complete"] is True


def test_ctrl_c_in_a_sweep_prints_its_summary_marked_incomplete(tmp_path):
    """A sweep under --json interrupted by Ctrl-C prints the summary of a finished run, with
    `complete: false`, the positions finished so far (in the database) and nothing left claimed."""
    import sqlite3
    db = tmp_path / "k.sqlite"
    template = str(ROOT / "scenarios" / "sweeps" / "kakumeijin_nested.yaml")
    code, out, err, took = _interrupt(["sweep", template, "--db", str(db), "--json", "--jobs", "2"], after=5.0)
    assert code == 130 and "Traceback" not in err and "interrupted" in err, err
    report = output(out)
    assert report["complete"] is False and report["stopped"] == "interrupted" and report["positions"] == 133
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT COUNT(*) FROM positions").fetchone() == (report["done"],)
        assert c.execute("SELECT COUNT(*) FROM claims").fetchone() == (0,)
    assert took < 15, took
