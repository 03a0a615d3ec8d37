"""Where the positions run: a local process pool (`--jobs`), or a Ray cluster (`--backend ray`).

Both take the positions lazily and keep only a small window in flight (twice the workers), so a
sweep of any size holds a bounded number of positions and results in memory: each result is handed
to `record` (the store) as soon as it arrives. Both retry a position whose worker died (a killed
process, an out-of-memory kill) up to RETRIES times; one that still fails is returned as *failed*,
never recorded, so the next run tries it again. The store ignores a position it already has, so a
position is never counted twice.

The worker function is `task` (rulings/sweep/task.py's `run_position` unless a caller passes
another with the same signature, as the tests do to kill a worker on purpose).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...model.errors import InputError
from ..pools import Watch, die_with, end_pool
from .guardian import start_guardian
from .positions import Position
from .task import run_position

RETRIES = 3
SLICE = 0.2          # seconds: the longest wait for a result before the pool is looked at
Task = Callable[..., dict]


@dataclass
class Run:
    """What a backend did: positions recorded now, and those that could not be finished."""

    recorded: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)    # (position key, why)
    stopped: str = ""                                               # why it stopped early, if it did


@dataclass
class Job:
    """Everything a worker needs besides the position: sent once per worker, not once per task."""

    template: Any
    limits: Any
    timeout_ms: int
    task: Task = run_position


_JOB: Job | None = None


def _init(job: Job, driver: int | None = None) -> None:
    """A worker: the job, Ctrl-C left to the driver (a terminal sends it to every process of the
    group; the driver reports and ends the workers, dmcheck/commands/sweep.py), and its end tied to the
    driver's (`driver`: the driver's pid)."""
    global _JOB
    _JOB = job
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if driver is not None:
        die_with(driver)


def _work(position: Position) -> dict:
    assert _JOB is not None
    return _JOB.task(_JOB.template, position, _JOB.limits, _JOB.timeout_ms)


class _Queue:
    """The positions to run: fresh ones lazily, retried ones first, with their attempts counted."""

    def __init__(self, todo: Iterable[Position]):
        self.fresh: Iterator[Position] = iter(todo)
        self.retry: deque[Position] = deque()
        self.attempts: dict[int, int] = {}

    def next(self) -> Position | None:
        if self.retry:
            return self.retry.popleft()
        return next(self.fresh, None)

    def again(self, position: Position, why: str, run: Run) -> None:
        self.attempts[position.index] = self.attempts.get(position.index, 0) + 1
        if self.attempts[position.index] > RETRIES:
            run.failed.append((position.key, f"{why} ({RETRIES + 1} attempts)"))
        else:
            self.retry.append(position)


def run_local(job: Job, todo: Iterable[Position], record: Callable[[dict], bool], jobs: int,
              deadline: float | None = None) -> Run:
    """Run the positions on `jobs` worker processes; a pool broken by a dead worker is replaced."""
    run, queue = Run(), _Queue(todo)
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    exhausted = False
    while not exhausted or queue.retry:
        pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_init,
                                   initargs=(job, os.getpid()))
        try:
            exhausted = _drain(pool, queue, record, run, 2 * jobs, deadline)
        except BaseException:
            end_pool(pool)      # Ctrl-C or the time limit: the positions under way are not waited for
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        if run.stopped:
            break
    return run


def _drain(pool, queue: _Queue, record, run: Run, window: int, deadline: float | None) -> bool:
    """Feed the pool until the positions run out (True) or the pool breaks (False); waits are made in
    slices, between which a stuck pool is looked for."""
    flying: dict = {}
    watch = Watch(pool)
    while True:
        while len(flying) < window and not run.stopped:
            if deadline is not None and time.monotonic() > deadline:
                run.stopped = "time limit reached"
                break
            position = queue.next()
            if position is None:
                break
            try:
                flying[pool.submit(_work, position)] = position
            except BrokenProcessPool:         # a worker died since the last wait: it never ran
                queue.retry.appendleft(position)
                break
        if not flying:
            return True
        finished, _ = wait(flying, timeout=SLICE, return_when=FIRST_COMPLETED)
        if not finished and watch.stuck():     # a worker died unnoticed (rulings/pools.py): end the pool
            end_pool(pool)
            for position in flying.values():
                queue.again(position, "its worker died", run)
            return False
        broken = False
        for future in finished:
            position = flying.pop(future)
            try:
                result = future.result()
            except BrokenProcessPool:
                broken = True
                queue.again(position, "its worker died", run)
                continue
            except Exception as exc:   # a bug in the model or a check: reported, not recorded
                run.failed.append((position.key, f"{type(exc).__name__}: {exc}"))
                continue
            run.recorded += record(result)
        if broken:
            for position in flying.values():    # the whole pool is gone: everything in flight goes again
                queue.again(position, "its worker died", run)
            return False


def _ray_work(job: Job, position: Position) -> dict:
    return job.task(job.template, position, job.limits, job.timeout_ms)


RAY_CONNECT_SECONDS = 30.0   # how long Ray may take to join a cluster that answered on its port
_PROBE_SECONDS = 5.0         # how long a cluster's port may take to accept a connection


def _ray_init(ray: Any, address: str | None, jobs: int) -> None:
    if address:
        # a cluster's workers get dmcheck (with its model, explorer, properties, rulings) as one package
        env = {"py_modules": [_staged_package()]}
        _joined(lambda: ray.init(address=address, runtime_env=env, log_to_driver=False), address)
    else:
        # "local": a Ray instance of this sweep's own, never a cluster someone started on this machine;
        # its workers run this Python, which imports dmcheck as the driver does
        ray.init(address="local", num_cpus=jobs, include_dashboard=False, log_to_driver=False)


def _staged_package() -> str:
    """The dmcheck package as one folder for Ray's `py_modules`: an installed wheel has it already; a
    checkout (an editable install maps dmcheck.model to the top-level model/, ...) is copied together."""
    import atexit
    import importlib
    import importlib.util
    import shutil
    import tempfile

    from ..corpus import BUILTIN

    spec = importlib.util.find_spec("dmcheck")   # the package above this one, by name: no import upwards
    top = Path(next(iter(spec.submodule_search_locations or ()))).resolve() if spec else Path(__file__).parents[2]
    parts = {name: _module_file(importlib.import_module(f"dmcheck.{name}")).resolve().parent
             for name in ("model", "explorer", "properties", "rulings")}
    if all(folder.parent == top for folder in parts.values()):
        return str(top)
    temporary = tempfile.mkdtemp(prefix="dmcheck-ray-")
    atexit.register(shutil.rmtree, temporary, True)   # Ray has uploaded it by the time the sweep ends
    staged = Path(temporary) / "dmcheck"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(top, staged, ignore=skip)
    for name, folder in parts.items():
        shutil.copytree(folder, staged / name, ignore=skip, dirs_exist_ok=True)
    shutil.copytree(BUILTIN.parent, staged / "rulings" / "scenarios", ignore=skip, dirs_exist_ok=True)
    return str(staged)


def _module_file(module: Any) -> Path:
    """The file a module was imported from (dmcheck's packages are folders with an __init__.py)."""
    if module.__file__ is None:
        raise RuntimeError(f"{module.__name__} was imported from no file: it cannot be staged for Ray")
    return Path(module.__file__)


def _refused(address: str, why: str) -> InputError:
    return InputError("--ray-address", None, address, f"{why}; expected the address of a running Ray cluster's head "
                                                      "(HOST:PORT, as `ray start --head` prints it; ray://HOST:PORT "
                                                      "for Ray Client; auto for one started on this machine), or no "
                                                      "--ray-address for a local Ray instance")


def _probe(address: str) -> None:
    """Refuse at once an address nothing listens on: Ray itself retries a refused or silent address for
    minutes before it gives up."""
    if address in ("auto", "local"):
        return
    where = address.split("://", 1)[1] if "://" in address else address
    host, _, port = where.rstrip("/").rpartition(":")
    if not host or not port.isdigit():
        raise _refused(address, "not HOST:PORT")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=_PROBE_SECONDS).close()
    except OSError as exc:
        why = f"no answer within {_PROBE_SECONDS:g} s" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
        raise _refused(address, f"cannot reach it: {why}") from None


def _joined(connect: Callable[[], Any], address: str) -> None:
    """Join a cluster in bounded time: Ray waits on a port that answers but is no Ray cluster's for
    minutes, so the connection is made in a thread that is given RAY_CONNECT_SECONDS."""
    box: dict[str, BaseException] = {}

    def attempt() -> None:
        try:
            connect()
        except BaseException as exc:      # handed to the caller below
            box["error"] = exc
    thread = threading.Thread(target=attempt, name="ray-connect", daemon=True)
    thread.start()
    thread.join(RAY_CONNECT_SECONDS)
    if thread.is_alive():
        raise _refused(address, f"no Ray cluster answered there within {RAY_CONNECT_SECONDS:g} s")
    if "error" in box:
        first = (str(box["error"]).strip().splitlines() or [type(box["error"]).__name__])[0]
        raise _refused(address, f"Ray could not join it ({first[:300]})")


def run_ray(job: Job, todo: Iterable[Position], record: Callable[[dict], bool], jobs: int,
            deadline: float | None = None, address: str | None = None) -> Run:
    """Run the positions as Ray tasks (Ray retries a task whose worker died, RETRIES times)."""
    if address:
        _probe(address)        # an address nothing listens on is refused at once, Ray or not
    try:
        import ray
    except ImportError:
        raise InputError("--backend", None, "ray", "Ray is not installed; expected `pip install "
                                                   "'dmcheck[ray]'` (or --backend local)") from None
    if not address:
        start_guardian()       # the local instance's processes end with the driver, even a SIGKILLed one
    _ray_init(ray, address, jobs)
    try:
        remote = ray.remote(max_retries=RETRIES, retry_exceptions=False)(_ray_work)
        job_ref = ray.put(job)
        window = 2 * max(jobs, int(ray.cluster_resources().get("CPU", jobs)))
        return _ray_loop(ray, remote, job_ref, todo, record, window, deadline)
    finally:
        ray.shutdown()


def _ray_loop(ray: Any, remote: Any, job_ref: Any, todo, record, window: int, deadline: float | None) -> Run:
    from ray.exceptions import RayTaskError
    run, fresh = Run(), iter(todo)
    flying: dict[Any, Position] = {}   # Ray's reference to a task -> the position it checks
    while True:
        while len(flying) < window and not run.stopped:
            if deadline is not None and time.monotonic() > deadline:
                run.stopped = "time limit reached"
                break
            position = next(fresh, None)
            if position is None:
                break
            flying[remote.remote(job_ref, position)] = position
        if not flying:
            return run
        ready, _ = ray.wait(list(flying), num_returns=1)
        for ref in ready:
            position = flying.pop(ref)
            try:
                result = ray.get(ref)
            except RayTaskError as exc:
                run.failed.append((position.key, str(exc.cause if exc.cause else exc).splitlines()[0]))
                continue
            except Exception as exc:     # the worker died more than RETRIES times
                run.failed.append((position.key, f"its worker died ({type(exc).__name__})"))
                continue
            run.recorded += record(result)
