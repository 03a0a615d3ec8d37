"""Worker processes, for every command that has them (explore and check `--jobs`, verify's helper and
farm, export `--jobs`): forked, Ctrl-C left to the command's own process, and a worker that dies
noticed at once.

A worker killed from outside (the kernel's out-of-memory killer, a `kill -9`) takes its task with it;
multiprocessing.Pool replaces the process and waits for the task's answer forever (issue 36: verify
still waiting after 16 minutes). concurrent.futures' executor watches its processes instead: a dead
one breaks the pool, and every answer not yet given raises BrokenProcessPool at once (and one killed
while sending its answer, which the executor misses, is noticed by rulings/pools.py's `Watch`). So:
- `Workers` is that executor, forked, with `terminate()` (end the workers now) beside `close()`;
- `ordered(work, items, jobs)` maps a function over items in their order, a window of `jobs` tasks at a
  time, and redoes the tasks of a broken pool once in a fresh one; a task whose worker died again comes
  back as `Lost`, for the command to report as not finished (exit 3);
- every wait is made in short slices, so that Ctrl-C and the time budget's watchdog (an exception raised
  in this thread, dmcheck/cli/stop.py) are never held up by a wait inside a lock;
- no worker outlives the command. Ctrl-C can land anywhere, also inside the constructor of the object
  that would have owned a pool (verify's farm), which then never ends it: every pool is kept in `_LIVE`
  and `end_all()` ends what is left when the command returns (dmcheck/main.py); and a worker asks the
  kernel for SIGKILL when its parent dies (Linux), since an orphan holding the command's stdout keeps
  its reader waiting for the end of the output (a CI run waited 60 s so, 2026-12-06).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TextIO

from ..rulings.pools import Watch, die_with, end_pool

SLICE = 0.2          # seconds: how long a wait may hold the main thread before it looks up again
RETRIES = 1          # a task whose worker died is redone this many times before it is Lost


def _start_worker(parent: int) -> None:
    """A worker leaves Ctrl-C to the command's process (a terminal sends it to the whole group), which
    reports what was finished and ends the workers; and it ends when that process ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with(parent)


_LIVE: set[Workers] = set()     # every pool not yet shut down (see end_all), held until then


def end_all() -> None:
    """End the workers of every pool still alive: called when a command returns, so that a pool whose
    owner never got it (Ctrl-C inside a constructor) does not outlive the command."""
    for pool in list(_LIVE):
        pool.terminate()


class Workers(ProcessPoolExecutor):
    """n forked worker processes (they inherit what this process holds at the first task)."""

    def __init__(self, n: int):
        super().__init__(max_workers=n, mp_context=multiprocessing.get_context("fork"), initializer=_start_worker,
                         initargs=(os.getpid(),))
        self._open: set[Future] = set()     # the tasks not yet finished (see shutdown)
        _LIVE.add(self)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future = super().submit(fn, *args, **kwargs)
        self._open.add(future)
        future.add_done_callback(self._open.discard)
        return future

    def terminate(self) -> None:
        """End the workers now: Ctrl-C, the time budget, bad input, a broken pool (the executor itself can
        only wait for a running task)."""
        end_pool(self)

    def close(self) -> None:
        self.shutdown(wait=True)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """The executor's own shutdown (close, terminate and a `with` block all end in it); the pool is
        no longer one `end_all` must end. Waiting, the tasks still open are waited for in slices first: a
        pool left stuck by a worker killed while it sent a result (`Watch`) is ended instead, since the
        executor's own wait would never return."""
        if wait and not cancel_futures:
            _settle(self)
        super().shutdown(wait=wait, cancel_futures=cancel_futures)
        _LIVE.discard(self)

    def pids(self) -> list[int]:
        """The workers' process ids (for tests that kill one)."""
        return [p.pid for p in list((getattr(self, "_processes", None) or {}).values()) if p.pid]


def _settle(pool: Workers) -> None:
    """Wait for the pool's open tasks in slices; a stuck pool (`Watch`) is ended instead."""
    watch = Watch(pool)
    while pool._open:
        done, _ = wait(list(pool._open), timeout=SLICE)
        if not done and watch.stuck():
            end_pool(pool)
            return


def worker_pool(n: int) -> Workers:
    """A pool of n worker processes (see `Workers`)."""
    return Workers(n)


@dataclass(frozen=True)
class Lost:
    """A task not finished: its worker process died, and again when it was redone."""

    item: Any
    why: str = "its worker process died (killed: out of memory?), and again when its work was redone"


def ordered(work: Callable[[Any], Any], items: Iterable[Any], jobs: int, told: Callable[[str], None] | None = None,
            workers: Callable[[int], Workers] = worker_pool) -> Generator[Any, None, None]:
    """`work(item)` for every item in worker processes, yielded in the items' order (a `Lost` for one not
    finished; see the module docstring); `told(text)` hears of a broken pool. Closing the iterator ends
    the workers."""
    todo = list(items)
    results: dict[int, Any] = {}
    attempts = [0] * len(todo)
    queue: deque[int] = deque(range(len(todo)))
    pool: Workers | None = None
    watch: Watch | None = None
    flying: dict[Future, int] = {}
    try:
        for i in range(len(todo)):
            while i not in results:
                if pool is None:
                    pool = workers(jobs)
                    watch = Watch(pool)
                fed = _feed(pool, work, todo, queue, flying, jobs)
                done, _ = wait(list(flying), timeout=SLICE, return_when=FIRST_COMPLETED)
                broken = _collect(done, flying, results)
                # a dead worker: noticed by the executor, at a submit, or unnoticed (`Watch`)
                if broken or not fed or (not done and watch is not None and watch.stuck()):
                    pool.terminate()
                    pool = None
                    again = broken + list(flying.values())     # the whole pool is gone: all go again
                    flying.clear()
                    if told is not None:
                        told(f"a worker process died (killed: out of memory?); the {len(again)} "
                             f"task(s) it and the others had under way are done again")
                    for k in again:
                        attempts[k] += 1
                        if attempts[k] > RETRIES:
                            results[k] = Lost(todo[k])
                        else:
                            queue.append(k)
                    queue = deque(sorted(queue))
            yield results.pop(i)
    finally:
        if pool is not None:
            pool.terminate()


def _feed(pool: Workers, work: Callable[[Any], Any], todo: list[Any], queue: deque[int], flying: dict[Future, int],
          jobs: int) -> bool:
    """Submit queued tasks until `jobs` are in flight; False when the pool broke since the last wait (that
    task goes back to the queue: it never ran)."""
    while queue and len(flying) < jobs:
        k = queue.popleft()
        try:
            flying[pool.submit(work, todo[k])] = k
        except BrokenProcessPool:
            queue.appendleft(k)
            return False
    return True


def _collect(done: set, flying: dict[Future, int], results: dict[int, Any]) -> list[int]:
    """Move the finished futures' results into `results`; the items whose pool broke under them."""
    broken = []
    for future in done:
        k = flying.pop(future)
        try:
            results[k] = future.result()
        except BrokenProcessPool:
            broken.append(k)
    return broken



def mapper(err: TextIO) -> Callable[[Callable[[Any], Any], Iterable[Any], int], Generator[Any, None, None]]:
    """`ordered`, telling `err` of a broken pool: what engines/bundle.py's export_bundle takes."""
    return lambda work, items, jobs: ordered(work, items, jobs, lambda text: print(f"dmcheck: {text}", file=err))
