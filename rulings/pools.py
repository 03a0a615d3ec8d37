"""Ending worker processes: tied to their parent's end, and a pool ended at once whatever its workers
were doing. Shared by the command line's worker pools (dmcheck/cli/workers.py) and sweep's local
backend (rulings/sweep/backends.py), the two places that fork workers.

concurrent.futures' executor can only wait for a running task. Killing its processes ends the tasks,
but a worker killed while sending its result leaves the executor's own thread reading the rest of that
message; this process holds the other end of that pipe as well, so no end of file ever comes, and a
shutdown that waits for the thread waits forever (a sweep) or for its timeout (every Ctrl-C of verify
that landed so, 5 s; 2026-12-06).

The same holds when a worker is killed from outside in the middle of sending a result (the kernel's
out-of-memory killer, a `kill -9`): the executor's thread waits for the rest of the message, never
looks at its workers again, and the pool is never marked broken, so every answer not yet given is
waited for forever (a sweep whose worker was killed so hung in CI, 2026-12-07). `Watch` notices: a
worker that has been dead for GRACE seconds while its pool still runs means the pool is stuck, and
whoever waits on it ends it and treats it as broken.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor

_PR_SET_PDEATHSIG = 1      # prctl(2): the signal this process gets when its parent ends
JOIN = 5.0                 # seconds: the most ending a pool waits for the executor's own thread
GRACE = 2.0                # seconds a dead worker is given to be noticed by its executor


def die_with(parent: int) -> None:
    """End this process when `parent` ends, however it ends (SIGKILL included, which no handler sees):
    on Linux the kernel sends SIGKILL to a child whose parent died (prctl PR_SET_PDEATHSIG); if the
    parent is already gone, end now. Elsewhere a watcher thread polls the parent's pid. An orphan would
    hold the command's output open, and its reader would wait for the end of it."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)   # the C library already loaded (find_library forks)
        armed = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        armed = False
    if not armed:
        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(1)
            os._exit(1)
        threading.Thread(target=watch, daemon=True).start()
    if os.getppid() != parent:     # it died before the signal was armed
        os._exit(1)


def end_pool(pool: ProcessPoolExecutor, join: float = JOIN) -> None:
    """Kill the pool's workers, drop its queued tasks, and let its own thread end (waited for `join`
    seconds at most): see the module docstring."""
    manager = getattr(pool, "_executor_manager_thread", None)
    results = getattr(pool, "_result_queue", None)
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            process.kill()
        except (OSError, ValueError):    # already gone
            pass
    pool.shutdown(wait=False, cancel_futures=True)
    # the workers' copies of the result pipe's writing end died with them: close this process's, and a
    # read waiting for the rest of a message ends (end of file)
    writer = getattr(results, "_writer", None)
    if writer is not None:
        try:
            writer.close()
        except OSError:
            pass
    # The executor's thread closes its wake-up pipe as it ends; Python 3.11's exit hook may write to that
    # pipe at the same moment (a traceback on stderr at exit: a race in CPython 3.11). The workers are
    # dead, so the thread ends at once: wait for it, a bounded time.
    if manager is not None:
        manager.join(timeout=join)


class Watch:
    """Whether a pool is stuck: one of its workers died GRACE seconds ago or more and the executor has not
    noticed (see the module docstring). Asked between the slices of a wait; the caller then ends the pool
    (`end_pool`) and redoes what was in flight, as for a broken pool."""

    def __init__(self, pool: ProcessPoolExecutor, grace: float | None = None):
        self.pool = pool
        self.grace = GRACE if grace is None else grace
        self.since: float | None = None    # when a dead worker was first seen

    def stuck(self) -> bool:
        if getattr(self.pool, "_broken", False):      # noticed: the executor fails the futures itself
            return False
        processes = list((getattr(self.pool, "_processes", None) or {}).values())
        if not any(process.exitcode is not None for process in processes):
            self.since = None
            return False
        now = time.monotonic()
        if self.since is None:
            self.since = now
        return now - self.since >= self.grace
