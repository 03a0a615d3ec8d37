"""Ctrl-C and the time budget of a whole command: stop cleanly and report what was found so far.

A command runs inside `guarded(args)`. Ctrl-C raises KeyboardInterrupt; the budget (`--max-seconds`,
docs/limits.md) raises TimeUp once the command has run 1.2 times its limit plus 1.5 seconds (each
search is already given only what remains of the budget, so this catches checking and reporting).
Z3 would swallow Ctrl-C inside a query (it cancels the query and returns `unknown`), so its own
handler is turned off (as Z3 is imported: a command that asks Z3 nothing never loads it) and a
watcher thread interrupts the running query instead; the run then stops at the next Python
instruction. `main` prints the finished reports as incomplete and exits 130 (Ctrl-C)
or 3 (time).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import importlib.abc
import importlib.util
import json
import math
import mmap
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from . import output
from .report import document


class TimeUp(BaseException):
    """The command's time budget ran out (a BaseException, so no `except Exception` swallows it)."""


class MemoryUp(BaseException):
    """The process's memory passed MEMORY_MARGIN times `--max-memory` outside a search (a search stops at the
    limit itself, explorer/limits.py): what was finished is reported, as for the time budget."""


@dataclass
class Run:
    """What a command has done so far: finished JSON reports, files not finished, its deadline."""

    reports: list = field(default_factory=list)
    pending: list = field(default_factory=list)
    deadline: float = math.inf
    budget: float = math.inf      # --max-seconds
    began: float = math.inf       # when the budget began (time.monotonic): the process's start
    startup: float | None = None  # seconds from `began` to the first search (what start-up took)
    searching: dict = field(default_factory=dict)   # the search under way: file, states so far, depth
    # a command that keeps its own record of what it finished prints it on a stop: (out, err, why) ->
    # whether it printed (verify: the rulings run and the phases done, dmcheck/commands/verify.py)
    stopped: Callable[[TextIO, TextIO, str], bool] | None = None




_run = Run()          # the last command run under `guarded` (kept after it ends, for `report`)
# Ctrl-C during a search stops the search, not the command at once: the search ends incomplete
# ("interrupted"), its findings so far are reported, then the command ends (130). A byte of memory shared
# with the forked workers (mmap, inherited), so that their searches stop too.
_flag = mmap.mmap(-1, 1)
_searching = 0                 # searches (or waits for the workers' ones) under way in the main thread
_deferred = threading.Event()  # the handler left a Ctrl-C to the searches: the watcher thread lets it be
_halts: list = []     # the events that stop the watcher and the timer raising the stop again
_active = False       # whether a command is running under `guarded` now
_stopping = False     # Ctrl-C or the deadline came: the command is on its way out


def reports() -> list:
    """The list a command appends each finished JSON report to (printed as incomplete on a stop);
    a fresh list when no command is guarded (a test calling a command's `run` directly)."""
    return _run.reports if _active else []


def when_stopped(printer: Callable[[TextIO, TextIO, str], bool]) -> None:
    """What the command prints if Ctrl-C or a limit stops it (instead of the files it finished)."""
    if _active:
        _run.stopped = printer


def finished(file: str) -> None:
    if _active and file in _run.pending:
        _run.pending.remove(file)
    if _run.searching.get("file") == file:
        _run.searching = {}


def searching(file: str, states: int, frontier: int, depth: int, seconds: float) -> None:
    """Record how far the search of `file` has got (called by its progress hook, twice a second)."""
    if _active:
        _run.searching = {"file": file, "states": states, "frontier": frontier, "depth": depth,
                          "seconds": round(seconds, 2)}


def search_done() -> None:
    """The search under way has ended (what follows, e.g. Z3 checking, is not a search)."""
    _run.searching = {}


def interrupted() -> bool:
    """Whether Ctrl-C has asked the searches under way to stop (explorer Limits.stop, in every process)."""
    return _flag[0] == 1


@contextlib.contextmanager
def stoppable() -> Iterator[None]:
    """A search in this thread, or a wait for the workers' searches, that Ctrl-C stops by itself: while
    the block runs, the first Ctrl-C sets the shared flag instead of raising KeyboardInterrupt, and the
    command, once it has reported what the searches found, ends as interrupted (a second one stops it
    at once)."""
    global _searching
    _searching += 1
    try:
        yield
    finally:
        _searching -= 1


def _on_sigint(signum: int, frame: Any) -> None:
    """Ctrl-C: left to the searches under way (see `stoppable`), else KeyboardInterrupt as Python does."""
    if _searching and not interrupted():
        _flag[0] = 1
        _deferred.set()
        return
    raise KeyboardInterrupt


def remaining() -> float:
    """Seconds left of the command's budget (inf without one); a search is given no more than this."""
    return _run.deadline - time.monotonic() if _active else math.inf


def spent() -> bool:
    """Whether the budget is spent but for the share kept for reporting (a search stopped by it leaves
    about a fifth): no further file is begun, it is named not finished (docs/limits.md)."""
    return _active and math.isfinite(_run.budget) and remaining() <= 0.25 * _run.budget


def expecting(files: list[str]) -> None:
    """The files the command will work on, a directory replaced by its files (what `pending` names)."""
    if _active:
        _run.pending = [str(f) for f in files]


def pending() -> list:
    """The files of the command not finished (yet)."""
    return list(_run.pending) if _active else []


SEARCH_FLOOR = 0.75   # of a search's share of the whole budget: the least it is given (start-up aside)
REPORT_ROOM = 0.5     # of a search's time, kept before the watchdog for the work on its graph (L8: 0.25)


def watchdog(began: float, budget: float) -> float:
    """When the watchdog stops a command whose budget began at `began` (time.monotonic)."""
    return began + budget * 1.2 + 1.5


def search_seconds(share: float) -> float:
    """Seconds a search may run: `share` of what remains of the budget. Start-up (imports, the card
    pool, the scenario) counts against the budget but may not starve the search: on a loaded machine
    it can take most of a short budget, so a search gets at least SEARCH_FLOOR x `share` of the whole
    budget, as far as the watchdog's margin leaves REPORT_ROOM of that for its report. The first call
    measures the start-up (`startup`)."""
    if not _active or not math.isfinite(_run.budget):
        return math.inf
    now = time.monotonic()
    if _run.startup is None:
        _run.startup = now - _run.began
    floor = min(SEARCH_FLOOR * share * _run.budget, (watchdog(_run.began, _run.budget) - now) / (1 + REPORT_ROOM))
    return max((_run.deadline - now) * share, floor, 0.001)


def startup() -> float | None:
    """Seconds from the process's start to the command's first search (None before one, or unbudgeted)."""
    return _run.startup if _active else None


def deadline(share: float = 1.0) -> float:
    """A time.monotonic() value: now plus `share` of what remains of the budget (inf without one), for
    a piece of work that must leave the rest to what follows it (the report on a search, say); now
    once Ctrl-C has stopped the searches (what follows them reports what they found, and no more)."""
    if interrupted():
        return time.monotonic()
    left = remaining()
    return time.monotonic() + max(left, 0.0) * share if math.isfinite(left) else math.inf


def _interrupt_z3() -> None:
    """Cancel whatever every Z3 context is computing (only on Ctrl-C or the deadline: gc walk is rare)."""
    z3 = sys.modules.get("z3")
    if z3 is None:               # never imported: nothing to cancel
        return
    for obj in gc.get_objects():
        if isinstance(obj, z3.Context):
            with contextlib.suppress(Exception):
                obj.interrupt()
    checker = sys.modules.get("dmcheck.properties.checker")
    if checker is not None:      # a cancelled context stays cancelled: the next check of this process
        checker.forget_shared()  # (the Python API, a test run) makes fresh ones


def _watch_sigint(stop: threading.Event) -> tuple[socket.socket, threading.Thread] | None:
    """A thread woken by Python's own SIGINT handler (through the wakeup fd) even while Z3 runs."""
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return None              # SIGINT ignored or handled by the embedding program: leave it
    read, write = socket.socketpair()
    write.setblocking(False)
    old = signal.set_wakeup_fd(write.fileno(), warn_on_full_buffer=False)
    if old != -1:                # someone else (an event loop) listens already: give it back, do without
        signal.set_wakeup_fd(old)
        read.close()
        write.close()
        return None

    def watch() -> None:
        with read:
            while not stop.is_set():
                try:
                    data = read.recv(64)
                except OSError:
                    return
                if not data:
                    return
                if signal.SIGINT in data:
                    if _deferred.wait(0.3):    # the handler left it to the searches: they stop by themselves
                        _deferred.clear()
                        continue
                    global _stopping
                    _stopping = True
                    _interrupt_z3()
                    # Python raises KeyboardInterrupt in the main thread at its next instruction; one
                    # raised inside a finalizer (a Z3 object's __del__) is swallowed: raise it again
                    # every half second until the command has stopped
                    while not stop.wait(0.5):
                        if not _raise_in(main_id, KeyboardInterrupt, stop):
                            return
                        _interrupt_z3()
                    return

    main_id = _main_id()
    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return write, thread


_raising = threading.Lock()   # held while an interrupt is raised in the main thread, and while a command ends


def _raise_in(main_id: int, exc: type[BaseException], done: threading.Event) -> bool:
    """Raise `exc` in the main thread at its next instruction, unless the command has ended (`done` set):
    checked and raised under one lock, which `guarded` holds as it ends the command, so no interrupt meant
    for a command lands in what its caller runs next (seen once: a memory stop raised again half a second
    after a slow report, in the test run that called the command). Whether it was raised."""
    with _raising:
        if done.is_set():
            return False
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(main_id), ctypes.py_object(exc))
        return True


class _Withdrawn(Exception):
    """Raised in the main thread as a command ends, in place of an interrupt not yet delivered, and
    caught there at once (`_ended`)."""


def _ended(main_id: int, events: list[threading.Event]) -> None:
    """The command has ended: no watcher raises an interrupt from now on, and one raised but not yet
    delivered is withdrawn. Called in the main thread (`guarded`).

    Withdrawn by raising `_Withdrawn` in its place and catching it here, not by setting a NULL
    exception: CPython (3.11) then marks an asynchronous exception as pending and never unmarks it, so
    the interpreter looks for one at every call from then on, and a program run under a tracer or a
    profiler (coverage, a debugger, cProfile) loops forever at its next call. Delivering a real one
    clears the mark."""
    with _raising:
        for event in events:
            event.set()
        if threading.get_ident() != main_id:   # (it can only be caught in the thread it is raised in)
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(main_id), None)
            return
        delivered = False
        try:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(main_id), ctypes.py_object(_Withdrawn))
            for _ in range(1000):   # delivered at the next call or jump back
                _nothing()
        except _Withdrawn:
            delivered = True
        if not delivered:   # (not seen: never let it out into the caller's code)
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(main_id), None)


def _nothing() -> None:
    """A call: a point at which the interpreter delivers an asynchronous exception."""


def _main_id() -> int:
    """The main thread's id (it has started: an id is None only before a thread starts)."""
    ident = threading.main_thread().ident
    if ident is None:
        raise RuntimeError("the main thread has no id")
    return ident


def _timer(budget: float, main_id: int) -> threading.Event:
    """At the hard deadline, raise TimeUp in the main thread and cancel a running Z3 query; again
    every half second until the command has stopped (an exception raised in the middle of a
    finalizer, e.g. a Z3 object's __del__, is swallowed by Python). Setting the event cancels it."""
    done = threading.Event()

    def fire() -> None:
        global _stopping
        if done.wait(budget):
            return
        while output.state.writing and not done.is_set():   # a piece of output goes out whole
            done.wait(0.05)
        if output.state.written:
            return
        _stopping = True
        while _raise_in(main_id, TimeUp, done):
            _interrupt_z3()
            done.wait(0.5)

    threading.Thread(target=fire, daemon=True).start()
    return done


MEMORY_MARGIN = 1.25      # times --max-memory: outside a search (Z3, a report), the command is stopped there


def _memory_watch(limit: int, main_id: int, done: threading.Event) -> None:
    """Outside a search, which stops at the limit itself, stop the command (MemoryUp in the main thread)
    once the process's resident size passes MEMORY_MARGIN times the limit: it reports what it finished
    and exits 3, before the machine runs out of memory. Setting `done` ends the watch."""
    from dmcheck.explorer.limits import memory_used

    def watch() -> None:
        global _stopping
        while not done.wait(0.25):
            if memory_used() > limit * MEMORY_MARGIN and not output.state.written:
                while output.state.writing and not done.is_set():     # a piece of output goes out whole
                    done.wait(0.05)
                if output.state.written:
                    return
                _stopping = True
                while _raise_in(main_id, MemoryUp, done):
                    _interrupt_z3()
                    done.wait(0.5)
                return

    threading.Thread(target=watch, daemon=True).start()


class _QuietUnraisable:
    """A sys.unraisablehook that says nothing of an interrupt or a spent budget landing in a finalizer
    (a Z3 object's __del__), nor of what a finalizer raises once the command is stopping (a Z3
    object freed while its interrupted context is torn down, seen once under heavy load): the stop is
    reported once, by `report`; anything else goes to the hook it wraps."""

    def __init__(self, hook: Callable[[Any], object]):
        self.hook = hook

    def __call__(self, unraisable: Any) -> None:
        if not (_stopping or isinstance(unraisable.exc_value, (TimeUp, MemoryUp, KeyboardInterrupt))):
            self.hook(unraisable)


def _quiet_z3(z3: Any) -> None:
    with contextlib.suppress(Exception):
        z3.set_param("ctrl_c", False)


class _Z3Quiet(importlib.abc.MetaPathFinder):
    """Turns Z3's own Ctrl-C handler off as Z3 is imported, for a command that imports it only once
    it needs it (explore never does)."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "z3":
            return None
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        loader = spec.loader if spec is not None else None
        if loader is not None and hasattr(loader, "exec_module"):
            run = loader.exec_module

            def exec_module(module: Any) -> None:
                run(module)
                _quiet_z3(module)
            loader.exec_module = exec_module   # type: ignore[method-assign]  # this spec's own loader
        return spec


@contextlib.contextmanager
def guarded(args: Any, began: float | None = None) -> Iterator[Run]:
    """Run a command with Ctrl-C and its time budget watched; see the module docstring."""
    global _run, _active, _stopping
    files = getattr(args, "files", None) or ([args.file] if getattr(args, "file", None) else [])
    _run = Run(pending=[str(f) for f in files])
    output.state.written = False
    _stopping = False
    if not isinstance(sys.unraisablehook, _QuietUnraisable):
        sys.unraisablehook = _QuietUnraisable(sys.unraisablehook)
    seconds = getattr(args, "max_seconds", None)
    in_main = threading.current_thread() is threading.main_thread()
    timer = watcher = handler = None
    stop = threading.Event()
    quiet = None
    _flag[0] = 0
    _deferred.clear()
    if in_main:
        if "z3" in sys.modules:
            _quiet_z3(sys.modules["z3"])
        else:
            quiet = _Z3Quiet()
            sys.meta_path.insert(0, quiet)
        watcher = _watch_sigint(stop)
        if watcher is not None:        # Python's own handler was there: searches may take Ctrl-C over
            handler = signal.signal(signal.SIGINT, _on_sigint)
        memory = getattr(args, "max_memory", None)
        if memory:
            _memory_watch(memory, _main_id(), stop)
    if seconds is not None and math.isfinite(seconds):
        # counted from the process's start (its imports too) for the `dmcheck` command (`began`), from
        # now when a program calls a command's `main`
        began = began if began is not None else time.monotonic()
        _run.deadline = began + seconds
        _run.budget = seconds
        _run.began = began
        if in_main:
            timer = _timer(watchdog(began, seconds) - time.monotonic(), _main_id())
    _active = True
    _halts[:] = [e for e in (stop, timer) if e is not None]
    try:
        yield _run
    finally:
        # first: no interrupt is raised again once the command has stopped
        if in_main:
            _ended(_main_id(), [e for e in (stop, timer) if e is not None])
        else:
            stop.set()
            if timer is not None:
                timer.set()
        if quiet is not None and quiet in sys.meta_path:
            sys.meta_path.remove(quiet)
        _active = False
        if handler is not None:
            signal.signal(signal.SIGINT, handler)
        if watcher is not None:
            signal.set_wakeup_fd(-1)
            watcher[0].close()


@contextlib.contextmanager
def caught() -> Iterator[None]:
    """For a command that caught Ctrl-C or its time limit itself, to print its own report marked
    incomplete (`sweep`: the summary of a finished run): the stop is not raised again meanwhile, and a
    second Ctrl-C waits until the report is out."""
    for event in _halts:
        event.set()
    in_main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGINT, signal.SIG_IGN) if in_main else None
    try:
        yield
    finally:
        if in_main and old is not None:
            signal.signal(signal.SIGINT, old)


def report(args: Any, out: TextIO, err: TextIO, why: str) -> None:
    """Print what was finished as an incomplete result: valid JSON with `complete: false` under --json."""
    run = _run
    in_main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGINT, signal.SIG_IGN) if in_main else None   # a second Ctrl-C: let it finish
    try:
        _print(args, out, err, why, run)
    finally:
        if in_main and old is not None:
            signal.signal(signal.SIGINT, old)


def _print(args: Any, out: TextIO, err: TextIO, why: str, run: Run) -> None:
    if run.stopped is not None and run.stopped(out, err, why):
        out.flush()
        return
    if getattr(args, "json", False):
        # the one JSON shape (dmcheck/report.document): explore, check and conform list the scenarios they finished
        body = {"scenarios": run.reports} if args.command in ("explore", "check", "conform") else {}
        text = json.dumps(document(args.command, [], **body, complete=False, stopped=why,
                                   not_finished=run.pending, search_under_way=run.searching or None),
                          indent=2, ensure_ascii=False)
        out.write(text + "\n")
    left = f"; not finished: {', '.join(run.pending)}" if run.pending else ""
    if run.searching:
        left += (f" ({run.searching['file']}: {run.searching['states']} states explored, depth "
                 f"{run.searching['depth']}, when it stopped)")
    print(f"dmcheck: {why}: the results are incomplete{left}", file=err)
    out.flush()
