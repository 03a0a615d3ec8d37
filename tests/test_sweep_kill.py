"""A sweep killed with SIGKILL leaves no worker running (rulings/sweep/backends.py, `die_with`).

SIGKILL reaches no handler, so the driver cannot end its workers itself: each worker asks the kernel
to end it when the driver ends (Linux: PR_SET_PDEATHSIG). The test starts a real `dmcheck sweep` in
its own process, waits for its two workers, kills the driver and looks at the workers' processes.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads processes from /proc")

TEMPLATE = """name: long enough to be killed while it runs
rules: 2024-06-19
turn: A
players:
  A: {battle: [Kakumeijin], mana: 5}
  B: {shields: 2}
attack: {attacker: Kakumeijin, player: B}
vary:
  A.hand: {from: [Boil Charger, Winter Spiral, Texas Storm], size: [0, 2], distinct: true}
  B.shields: {from: [Vanilla, Terror Pit, Gushat Shield], size: [1, 2]}
"""


def _status(pid: int) -> dict[str, str]:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return {}
    return dict(line.split(":\t", 1) for line in text.splitlines() if ":\t" in line)


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _status(int(entry.name)).get("PPid") == str(pid):
            out.append(int(entry.name))
    return out


def _running(pid: int) -> bool:
    """Alive and not a zombie (a dead orphan waits for pid 1 to reap it; it runs nothing)."""
    state = _status(pid).get("State", "")
    return bool(state) and not state.startswith(("Z", "X"))


def test_sigkill_of_the_driver_ends_its_workers(tmp_path):
    template = tmp_path / "t.yaml"
    template.write_text(TEMPLATE, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    workers: list[int] = []
    driver = subprocess.Popen([sys.executable, "-m", "dmcheck", "sweep", str(template), "--db", str(tmp_path / "t.sqlite"),
                               "--jobs", "2"], cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while len(workers) < 2 and time.monotonic() < deadline and driver.poll() is None:
            time.sleep(0.2)
            workers = [w for w in _children(driver.pid) if _running(w)]
        assert len(workers) == 2, "the sweep's two workers never started"
        time.sleep(1.0)                     # the workers are at work on positions
        os.kill(driver.pid, signal.SIGKILL)
        driver.wait(timeout=30)
        deadline = time.monotonic() + 15
        while any(_running(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [w for w in workers if _running(w)], "workers still run after their driver was killed"
    finally:                                # whatever happened, nothing of this test keeps running
        for pid in [driver.pid, *workers]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
