"""The worker processes of `verify --jobs N`: two pools, so that both cores are busy from the start.

Where one process spends its time (verify.py's phases, 2026-12-01): reading the corpus, then loading
the scenarios and tabulating the rulings under every combination of readings, then Z3 over the
readings (readings.solve), the declarative consistency, the corpus agreement and the properties. Only Z3
over the readings needs the table, only the agreement and the properties need the explored runs, and the
declarative consistency needs nothing but the corpus. So:
- a *helper* process is forked before anything is read: it makes the card pool while this process
  reads the corpus, then loads every scenario, in the order the tabulation first needs them (a
  pickled scenario is cheaper to take than its YAML to parse), then answers the declarative
  consistency;
- once every run is explored, a pool of N processes is forked for each run's corpus agreement and
  properties (it inherits the runs, so only indices and plain results cross), while this process
  asks Z3 about the readings.
Every result is taken in a fixed order, so the report is the one of one process. A worker killed from
outside (the out-of-memory killer) breaks its pool at once (concurrent.futures watches its processes):
the main process then loads the scenarios itself, or does the phase the pool was doing (Lost), and
the report is still the one of one process.

Z3 and fork: this process makes no Z3 context before either fork (the tabulation asks Z3 nothing),
and it asks the readings' questions first, as one process does, so Z3 answers them alike. The
declarative consistency is the same in any process: its sets are complete and sorted, its witness
orders come from a fresh context of their own (consistency.py).
"""

from __future__ import annotations

import math
import pickle
import time
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from ..model import shared_pickle
from ..model.cards import CardPool
from ..model.rules import RulesVersion
from ..model.scenario import Scenario
from ..model.scenario_file import load_scenario
from . import agreement as agreement_mod
from . import consistency
from .corpus import Corpus
from .operational import Combo, Run
from .pools import Watch

# ---- the helper: card pool, scenarios, declarative consistency --------------------------------------
_CARDS: CardPool | None = None     # in the helper: the built-in card pool it copies for each scenario


def _pool() -> CardPool:
    global _CARDS
    if _CARDS is None:
        _CARDS = CardPool.builtin()
    return _CARDS


def _warm() -> None:
    _pool()


def _load(path: Path) -> bytes | None:
    """A scenario loaded as the tabulation's Runner loads it (a copy of the built-in pool each), pickled
    with its cards as references to their files (model/shared_pickle.py: the main process keeps one copy
    of each card), or None if it cannot be loaded: the main process then loads it itself and meets the
    error where one process meets it (an InputError does not pickle)."""
    cards = _pool()
    try:
        return shared_pickle.dumps(load_scenario(path, cards.copy()))
    except Exception:
        return None


def first_needed(corpus: Corpus) -> list[Path]:
    """Every scenario the tabulation may load, in the order it first asks for them (readings.tabulate
    walks the rulings in corpus order, each one's scenarios in order)."""
    return list(dict.fromkeys(p for s in corpus.statements for p in s.scenarios))


class Helper:
    """One process forked at the start (see the module docstring); `start` gives it its work. If it dies
    (killed from outside), the main process loads the scenarios itself and `declarative` raises Lost."""

    def __init__(self, workers: Callable[[int], Any]):
        self.pool = workers(1)
        self.watch = Watch(self.pool)
        self.pool.submit(_warm)              # the card pool, while the corpus is read here
        self._loading: dict[Path, Future] = {}
        self._declarative: Future | None = None
        self.lost = False

    def start(self, corpus: Corpus, versions: list[RulesVersion]) -> None:
        # one by one, in the order the tabulation first needs them: the first ones come soonest
        try:
            self._loading = {path: self.pool.submit(_load, path) for path in first_needed(corpus)}
            self._declarative = self.pool.submit(consistency.check, corpus, versions)
        except BrokenProcessPool:       # it died already
            self.lost = True

    def scenario(self, path: Path) -> Scenario | None:
        """The helper's copy of the scenario at `path` (None: load it here, as when the helper died)."""
        future = self._loading.pop(path, None)
        if future is None or self.lost:
            return None
        try:
            data = _wait(future, self.watch)
        except Lost:
            self.lost = True
            return None
        try:
            return shared_pickle.loads(data) if data is not None else None
        except pickle.UnpicklingError:     # a card file changed since the helper read it: load it here
            return None

    def declarative(self, deadline: float = math.inf) -> consistency.Declarative:
        if self._declarative is None:
            raise Lost()
        return _wait(self._declarative, self.watch, deadline)

    def close(self) -> None:
        if self.lost:
            self.pool.terminate()
        else:
            self.pool.close()

    def terminate(self) -> None:
        self.pool.terminate()


# ---- the pool of each run's checks ------------------------------------------------------------------
# (corpus, runs, deadline) for the worker processes, which inherit it when forked
_WORK: tuple[Corpus, list[Run], float] | None = None
_JUDGE: agreement_mod.Soundness | None = None


def _work() -> tuple[Corpus, list[Run], float]:
    if _WORK is None:
        raise RuntimeError("a worker of the farm runs without its work (Farm sets it before the pool forks)")
    return _WORK


def _sound_of(items: list[int]) -> list[agreement_mod.Sound]:
    global _JUDGE
    if _JUDGE is None:
        _JUDGE = agreement_mod.Soundness(_work()[0])
    return [_JUDGE(_work()[1][i]) for i in items]


def _search_of(items: list[int]) -> list:
    from ..properties.builtin import BUILTIN
    from ..properties.checker import QUERY_TIMEOUT_MS, search
    corpus, runs, deadline = _work()
    found = []
    for i in items:
        done = search(runs[i].graph, BUILTIN, QUERY_TIMEOUT_MS, deadline)
        done.queries = []      # Z3 objects stay here; the rest is plain data
        found.append(done)
    return found


def _chunks(items: list[int], size: int) -> list[list[int]]:
    return [items[k:k + size] for k in range(0, len(items), size)]


class Farm:
    """Each run's corpus agreement and properties, asked of a pool forked once every run is explored (the
    workers inherit the runs, so only indices and plain results cross), collected in the runs' order. A
    worker that dies breaks the pool: `sound` and `properties` then raise Lost, and verify does that work
    itself."""

    def __init__(self, workers: Callable[[int], Any], jobs: int, corpus: Corpus, runs: list[Run],
                 default: Combo, properties: bool, deadline: float = math.inf):
        global _WORK
        _WORK = (corpus, runs, deadline)   # the monotonic clock is the machine's: a deadline holds in a fork
        self.runs = runs
        self.checked = [i for i, run in enumerate(runs) if default in run.served] if properties else []
        self.pool = workers(jobs)
        self.watch = Watch(self.pool)
        self.lost = False
        try:
            self._sound = [self.pool.submit(_sound_of, part) for part in _chunks(list(range(len(runs))), 4)]
            self._searched = [self.pool.submit(_search_of, part) for part in _chunks(self.checked, 2)]
        except BrokenProcessPool:       # a worker died already
            self.lost = True

    def _all(self, futures: list[Future], deadline: float) -> list:
        if self.lost:
            raise Lost()
        try:
            return [x for future in futures for x in _wait(future, self.watch, deadline)]
        except Lost:
            self.lost = True
            raise

    def sound(self, deadline: float = math.inf) -> list[agreement_mod.Sound]:
        return self._all(self._sound, deadline)

    def properties(self, deadline: float = math.inf) -> list[tuple[Run, Any]]:
        """(run, properties.checker.CheckResult) for each run of the default readings, in order."""
        from ..properties.builtin import BUILTIN
        from ..properties.checker import result
        return [(self.runs[i], result(self.runs[i].graph, BUILTIN, done))
                for i, done in zip(self.checked, self._all(self._searched, deadline))]

    def close(self) -> None:
        global _WORK
        if self.lost:
            self.pool.terminate()
        else:
            self.pool.close()
        _WORK = None

    def terminate(self) -> None:
        global _WORK
        self.pool.terminate()
        _WORK = None


class Late(Exception):
    """A pool's result was not ready by the deadline given (verify's time budget): the phase waiting
    for it is not finished."""


class Lost(Exception):
    """A worker process died (killed from outside: out of memory?) before giving the answer: verify does
    that work itself."""


def _wait(future: Future, watch: Watch, deadline: float = math.inf) -> Any:
    """A future's result, waited for in short slices so that Ctrl-C and the time budget (an exception
    raised in this thread, dmcheck/cli/stop.py) are not held up by a wait inside a lock; Late once
    `deadline` (time.monotonic) has passed, Lost when its worker died (also unnoticed by its pool:
    `watch`, whose pool the owner ends when it closes)."""
    while True:
        done, _ = wait([future], timeout=0.2)
        if done:
            try:
                return future.result()
            except (BrokenProcessPool, CancelledError):
                raise Lost() from None
        if watch.stuck():
            raise Lost()
        if time.monotonic() > deadline:
            raise Late()
