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
Every result is taken in a fixed order, so the report is the one of one process.

Z3 and fork: this process makes no Z3 context before either fork (the tabulation asks Z3 nothing),
and it asks the readings' questions first, as one process does, so Z3 answers them alike. The
declarative consistency is the same in any process: its sets are complete and sorted, its witness
orders come from a fresh context of their own (consistency.py).
"""

from __future__ import annotations

import math
import multiprocessing
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..model.cards import CardPool
from ..model.rules import RulesVersion
from ..model.scenario import Scenario
from ..model.scenario_file import load_scenario
from . import agreement as agreement_mod
from . import consistency
from .corpus import Corpus
from .readings import Combo, Run

# ---- the helper: card pool, scenarios, declarative consistency --------------------------------------
_CARDS: CardPool | None = None     # in the helper: the built-in card pool it copies for each scenario


def _pool() -> CardPool:
    global _CARDS
    if _CARDS is None:
        _CARDS = CardPool.builtin()
    return _CARDS


def _warm() -> None:
    _pool()


def _load(path: Path) -> Scenario | None:
    """A scenario loaded as the tabulation's Runner loads it (a copy of the built-in pool each), or
    None if it cannot be: the main process then loads it itself and meets the error where one process
    meets it (an InputError does not pickle)."""
    cards = _pool()
    try:
        return load_scenario(path, cards.copy())
    except Exception:
        return None


def first_needed(corpus: Corpus) -> list[Path]:
    """Every scenario the tabulation may load, in the order it first asks for them (readings.tabulate
    walks the rulings in corpus order, each one's scenarios in order)."""
    return list(dict.fromkeys(p for s in corpus.statements for p in s.scenarios))


class Helper:
    """One process forked at the start (see the module docstring); `start` gives it its work."""

    def __init__(self, workers: Callable[[int], Any]):
        self.pool = workers(1)
        self.pool.apply_async(_warm)         # the card pool, while the corpus is read here
        self._paths: Any = iter(())
        self._loaded: Any = None
        self._got: dict[Path, Scenario | None] = {}
        self._declarative: Any = None

    def start(self, corpus: Corpus, versions: list[RulesVersion]) -> None:
        paths = first_needed(corpus)
        self._paths = iter(paths)
        self._loaded = self.pool.imap(_load, paths)   # one by one: the first ones come soonest
        self._declarative = self.pool.apply_async(consistency.check, (corpus, versions))

    def scenario(self, path: Path) -> Scenario | None:
        """The helper's copy of the scenario at `path` (None: load it here). The scenarios come in
        `first_needed` order; one asked for out of that order is waited for, those before it kept."""
        while path not in self._got:
            ahead = next(self._paths, None)
            if ahead is None:
                return None
            self._got[ahead] = _wait(lambda timeout: self._loaded.next(timeout))
        return self._got.pop(path)

    def declarative(self, deadline: float = math.inf) -> consistency.Declarative:
        return _wait(self._declarative.get, deadline)

    def close(self) -> None:
        self.pool.close()
        self.pool.join()

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


def _sound_of(i: int) -> agreement_mod.Sound:
    global _JUDGE
    if _JUDGE is None:
        _JUDGE = agreement_mod.Soundness(_work()[0])
    return _JUDGE(_work()[1][i])


def _search_of(i: int):
    from ..properties.builtin import BUILTIN
    from ..properties.checker import QUERY_TIMEOUT_MS, search
    corpus, runs, deadline = _work()
    done = search(runs[i].graph, BUILTIN, QUERY_TIMEOUT_MS, deadline)
    done.queries = []      # Z3 objects stay here; the rest is plain data
    return done


class Farm:
    """Each run's corpus agreement and properties, asked of a pool forked once every run is explored (the
    workers inherit the runs, so only indices and plain results cross), collected in the runs' order."""

    def __init__(self, workers: Callable[[int], Any], jobs: int, corpus: Corpus, runs: list[Run],
                 default: Combo, properties: bool, deadline: float = math.inf):
        global _WORK
        _WORK = (corpus, runs, deadline)   # the monotonic clock is the machine's: a deadline holds in a fork
        self.runs = runs
        self.checked = [i for i, run in enumerate(runs) if default in run.served] if properties else []
        self.pool = workers(jobs)
        self._sound = self.pool.map_async(_sound_of, range(len(runs)), chunksize=4)
        self._searched = self.pool.map_async(_search_of, self.checked, chunksize=2)

    def sound(self, deadline: float = math.inf) -> list[agreement_mod.Sound]:
        return _wait(self._sound.get, deadline)

    def properties(self, deadline: float = math.inf) -> list[tuple[Run, Any]]:
        """(run, properties.checker.CheckResult) for each run of the default readings, in order."""
        from ..properties.builtin import BUILTIN
        from ..properties.checker import result
        return [(self.runs[i], result(self.runs[i].graph, BUILTIN, done))
                for i, done in zip(self.checked, _wait(self._searched.get, deadline))]

    def close(self) -> None:
        global _WORK
        self.pool.close()
        self.pool.join()
        _WORK = None

    def terminate(self) -> None:
        global _WORK
        self.pool.terminate()
        _WORK = None


class Late(Exception):
    """A pool's result was not ready by the deadline given (verify's time budget): the phase waiting
    for it is not finished."""


def _wait(get: Callable[[float], Any], deadline: float = math.inf) -> Any:
    """A pool's result, waited for in short slices so that Ctrl-C and the time budget (an exception
    raised in this thread, dmcheck/cli/stop.py) are not held up by a wait inside a lock; Late once
    `deadline` (time.monotonic) has passed."""
    while True:
        try:
            return get(0.2)
        except multiprocessing.TimeoutError:
            if time.monotonic() > deadline:
                raise Late() from None
