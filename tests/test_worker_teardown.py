"""No worker outlives its command, and ending a pool never waits on a worker killed mid-answer.

CI (2026-12-06) once waited 60 s for `dmcheck verify --json` after Ctrl-C although its report was out:
Ctrl-C can land inside the constructor of what would own a pool (verify's farm), so nobody ended that
pool, and its workers, forked with the command's stdout, kept the reader waiting. And ending a pool
whose worker was killed while sending its result left the executor's thread waiting for the rest of
that message (the JOIN timeout, 5 s, on every such stop).
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import textwrap
import time

from dmcheck.cli import workers
from dmcheck.rulings import pools

_POOL: workers.Workers | None = None     # seen by the forked worker (fork copies this module's globals)


def _alive(pid: int) -> bool:
    """Whether the process runs (a zombie nobody reaped yet has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def _half_sent() -> None:
    """In the worker: the start of a result message, as a worker killed while sending leaves it; then wait."""
    assert _POOL is not None
    os.write(_POOL._result_queue._writer.fileno(), struct.pack("!i", 1_000_000) + b"partial")
    time.sleep(120)


def _sleep() -> None:
    time.sleep(120)


def test_terminate_does_not_wait_for_the_rest_of_a_half_sent_result():
    global _POOL
    _POOL = pool = workers.Workers(1)
    try:
        pool.submit(_half_sent)
        manager = pool._executor_manager_thread
        time.sleep(1.0)                 # the executor's thread is now reading the message that never ends
        start = time.monotonic()
        pool.terminate()
        took = time.monotonic() - start
    finally:
        _POOL = None
    assert took < pools.JOIN / 2, took
    assert manager is not None and not manager.is_alive()


def test_end_all_ends_a_pool_its_owner_never_got():
    pool = workers.Workers(2)
    pool.submit(_sleep)
    time.sleep(0.5)
    pids = pool.pids()
    assert len(pids) == 2 and all(_alive(p) for p in pids)
    del pool                             # the owner's constructor was interrupted: nobody holds the pool
    workers.end_all()
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(p) for p in pids)
    assert not workers._LIVE


def test_a_closed_pool_is_not_kept():
    pool = workers.Workers(1)
    assert pool.submit(abs, -3).result(timeout=30) == 3
    pool.close()
    assert pool not in workers._LIVE
    with workers.Workers(1) as other:       # a `with` block shuts it down too
        assert other.submit(abs, -4).result(timeout=30) == 4
        assert other in workers._LIVE
    assert other not in workers._LIVE


def test_workers_end_with_the_process_that_started_them():
    """The parent leaves at once (os._exit, as `dmcheck` does) without ending its pool: the kernel kills
    the workers (prctl's parent-death signal), so nothing holds the parent's output open."""
    program = textwrap.dedent("""
        import os, sys, time
        from dmcheck.cli import workers
        pool = workers.Workers(2)
        pool.submit(time.sleep, 120)
        time.sleep(0.5)
        print(" ".join(map(str, pool.pids())), flush=True)
        os._exit(0)
    """)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    pids = [int(p) for p in done.stdout.split()]
    assert len(pids) == 2, done.stderr
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(p) for p in pids)
