"""A sweep killed with SIGKILL leaves no worker running.

SIGKILL reaches no handler, so the driver cannot end its workers itself: a local pool's worker asks
the kernel to end it when the driver ends (rulings/pools.py `die_with`: PR_SET_PDEATHSIG),
and a local Ray instance's processes are ended by a guardian process (rulings/sweep/guardian.py). The
tests start a real `dmcheck sweep` in its own process, wait until its workers are at work, kill the
driver and look at every process that was under it.
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


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        kids = _children(todo.pop())
        out += kids
        todo += kids
    return out


def _kill_while_working(tmp_path, *backend: str, ready) -> list[int]:
    """Start a sweep, wait until `ready(descendants)` says its workers are at work, SIGKILL the driver;
    the driver's descendants then, which the test expects to end."""
    template = tmp_path / "t.yaml"
    template.write_text(TEMPLATE, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    started: list[int] = []
    driver = subprocess.Popen([sys.executable, "-m", "dmcheck", "sweep", str(template),
                               "--db", str(tmp_path / "t.sqlite"),
                               "--jobs", "2", *backend], cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while not ready(started) and time.monotonic() < deadline and driver.poll() is None:
            time.sleep(0.2)
            started = [w for w in _descendants(driver.pid) if _running(w)]
        assert ready(started), "the sweep's workers never started"
        time.sleep(1.0)                     # the workers are at work on positions
        started = [w for w in _descendants(driver.pid) if _running(w)]
        os.kill(driver.pid, signal.SIGKILL)
        driver.wait(timeout=30)
        deadline = time.monotonic() + 20
        while any(_running(w) for w in started) and time.monotonic() < deadline:
            time.sleep(0.2)
        return [w for w in started if _running(w)]
    finally:                                # whatever happened, nothing of this test keeps running
        for pid in [driver.pid, *started]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _name(pid: int) -> str:
    return _status(pid).get("Name", "")


@pytest.mark.slow   # a few seconds: the default suite stays under 90 s
def test_sigkill_of_the_driver_ends_its_workers(tmp_path):
    left = _kill_while_working(tmp_path, ready=lambda procs: len(procs) >= 2)
    assert not left, f"still running after their driver was killed: {[(w, _name(w)) for w in left]}"


@pytest.mark.slow
def test_sigkill_of_a_ray_sweep_ends_its_local_ray_instance(tmp_path):
    pytest.importorskip("ray", reason="Ray is not installed: pip install -e '.[test,ray]'")
    # ready once Ray's workers run positions (`ray::_ray_work`); every process under the driver then —
    # Ray's own (GCS server, raylet, its agents) included — must end with it
    left = _kill_while_working(tmp_path, "--backend", "ray",
                               ready=lambda procs: sum("_ray_work" in _name(p) for p in procs) >= 2)
    assert not left, f"still running after their driver was killed: {[(w, _name(w)) for w in left]}"
