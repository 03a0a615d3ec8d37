"""Breadth-first search of a model's states with parent links, so every state has a shortest trace.

States are deduplicated by value (equal states are one node). The search keeps, per state, its
parent and the edges leaving it (action index, successor, events); it never needs networkx —
`Exploration.to_networkx` builds the graph only on request. It knows no game: the model is anything
that follows explorer/protocol.py.
"""

from __future__ import annotations

import bisect
import gc
import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .graph import SYMMETRY_DROPPED, SYMMETRY_OFF, SYMMETRY_ON, SYMMETRY_UNUSED, Exploration, SearchRecord
from .limits import CHECK_EVERY, DEFAULT_LIMITS, Limits, StepLimit, over
from .loops import LOOP_CHECK_DEPTH, Loop, PathIndex, exact_cycles, forced, round_from
from .protocol import hook
from .reduction import Observe, Reducer

Progress = Callable[[int, int, int, float], None]   # states, frontier, depth, seconds


class _Search:
    """One breadth-first run: the frontier, the index of stored states and the result being filled."""

    def __init__(self, model: Any, limits: Limits, reduce: bool, observe: Observe | None, keep_graph: bool,
                 symmetry: bool):
        self.model, self.limits, self.keep_graph = model, limits, keep_graph
        self.result = Exploration(model=model, reduced=reduce, compact=not keep_graph)
        self.reducer = Reducer(model, observe) if reduce and hook(model, "is_order") else None
        self.canonical = hook(model, "canonical") if symmetry else None
        # A27: a position seen before on the path (up to growing bookkeeping) closes a loop
        position = hook(model, "position") if keep_graph else None
        self.paths = PathIndex(self.result, position, hook(model, "position_hash")) if position is not None else None
        self.result.symmetry = self.canonical
        self.result.record = SearchRecord(reduction=self.reducer is not None,
                                          symmetry=SYMMETRY_ON if self.canonical else SYMMETRY_OFF)
        self.renamed = 0  # stored states whose canonical form is another state (what the symmetry did)
        self.key = (lambda st: st) if keep_graph else (lambda st: st.digest())
        self.index: dict = {}
        self.frontier: deque = deque()
        # the weighing of the symmetry (`_weigh`): while the plain search makes its sample it remembers,
        # per node, the actions and the steps it followed (`memo`); the symmetric search then brought to
        # the same depth expands only states the plain one expanded (a state it stores is reachable in
        # as many steps or fewer), and reads them there (`replay`) instead of asking the model again
        self.memo: dict[int, tuple[Any, dict]] | None = None
        self.replay: _Search | None = None
        self.replay_depth = -1   # the depth of the last node the replayed search expanded

    def add_initial(self) -> None:
        init = self.model.initial_state()
        form = init
        if self.canonical is not None:
            form = self.canonical(init)
        self.index[self.key(form)] = 0
        if self.keep_graph:
            self.result.states.append(init)
        self.result.parent.append((-1, -1))
        self.result.depth.append(0)
        self.frontier.append((0, init))

    def known(self, state) -> tuple[Any, dict] | None:
        """What the plain search remembers of `state`'s expansion (its actions and the steps it followed),
        when this search replays it (`replay`), or None."""
        plain = self.replay
        if plain is None or plain.memo is None:
            return None
        node = plain.index.get(plain.key(state))
        return None if node is None else plain.memo.get(node)

    def step(self, state, actions, i: int, known: tuple[Any, dict] | None, steps: dict | None) -> tuple:
        """The model's step along action `i` (read from `known` where the plain search made it; kept in
        `steps` while this search remembers its own)."""
        made = known[1].get(i) if known is not None else None
        if made is None:
            made = self.model.step(state, actions[i])
        if steps is not None:
            steps[i] = made
        return made

    def chosen(self, state, actions, known=None, steps=None) -> tuple[range | tuple[int], list | None]:
        """Which actions to follow: all of them, or one ample action when the reduction allows it; and
        their steps, when the visibility test (C2) made them already, or None."""
        if self.reducer is None:
            return range(len(actions)), None
        pick = self.reducer.candidate(actions)
        if pick is None:
            return range(len(actions)), None
        if self.reducer.observe is not None:
            successors = [self.step(state, actions, i, known, steps) for i in range(len(actions))]
            if not self.reducer.invisible(state, actions, successors):
                return range(len(actions)), successors
            self.result.pruned += len(actions) - 1
            return (pick,), [successors[pick]]
        self.result.pruned += len(actions) - 1
        return (pick,), None

    def expand(self, node: int, state) -> None:
        result, model = self.result, self.model
        out: list[tuple[int, int, tuple]] = []
        if self.keep_graph:
            result.edges.append(out)  # nodes are expanded in index order, so edges[node] lines up
        i = -1
        try:
            if self.replay is not None and result.depth[node] > self.replay_depth:
                self.replay = None   # deeper than anything the plain search expanded
            known = self.known(state) if self.replay is not None else None
            actions = model.actions(state) if known is None else known[0]
            steps: dict | None = None
            if self.memo is not None:
                steps = {}
                self.memo[node] = (actions, steps)
            if not actions:
                result.terminals.append(node)
                if not self.keep_graph:
                    result.terminal_states[node] = state
                return
            if result.depth[node] >= self.limits.max_depth:
                result.complete, result.reason = False, f"depth limit {self.limits.max_depth} reached"
                return
            follow, made = self.chosen(state, actions, known, steps)
            index, canonical, keep = self.index, self.canonical, self.keep_graph
            plain_step = made is None and known is None and steps is None
            for j, i in enumerate(follow):
                if plain_step:
                    succ, events = model.step(state, actions[i])
                elif made is not None:
                    succ, events = made[j]
                else:
                    succ, events = self.step(state, actions, i, known, steps)
                form = succ if canonical is None else canonical(succ)
                k = form if keep else form.digest()
                target = len(index)
                found = index.setdefault(k, target)   # one hash of the state, not two
                if found == target:   # a new state (a state seen before is an ordinary edge: exact
                    found = self.store(succ, form, k, node, i)   # cycles are found at the end)
                result.transitions += 1
                if found is not None and keep:
                    out.append((i, found, events))
        except StepLimit as stopped:   # a limit reached inside one step (explorer/limits.py)
            result.complete, result.reason = False, str(stopped)
        except Exception as exc:
            if getattr(exc, "search_key", None) is None:   # the way to the step that raised it (protocol.py)
                key = "/".join([str(k) for _, k in result._path(node)] + ([str(i)] if i >= 0 else []))
                setattr(exc, "search_key", key or "-")   # noqa: B010 (any exception type)
            raise

    def loop_closed(self, node: int, index: int, found: tuple[int, int]) -> None:
        """`succ` is new only by its bookkeeping and repeats a position on its path (`found`: the
        nearest and the first node with it): a loop (explorer/loops.py), recorded; it is not stored."""
        nearest, entry = found
        # the first round: from where the position first was, as many steps as one round takes
        length = self.result.depth[node] + 1 - self.result.depth[nearest]
        path = round_from(self.result, entry, node, index)[:length]
        self.result.loops.append(Loop(entry, path, forced(self.model, self.result, path)))

    def store(self, succ, form, k, node: int, index: int) -> int | None:
        """The node of `succ`, new under the key `k` (just entered in the index as its next node: `expand`
        looks it up), stored now; None when a loop or the state limit leaves it out.

        States are looked up by `form` (the symmetry's canonical form, or `succ` itself) but stored as
        the step made them: a stored state is exactly the state its parent links reach from the
        initial state, so a trace along them names the card copies that really moved, and its replay
        key needs no symmetry to be replayed."""
        target = len(self.index) - 1
        result, paths, seen = self.result, self.paths, None
        depth = result.depth[node] + 1
        if paths is not None and depth >= LOOP_CHECK_DEPTH:
            seen, repeat = paths.repeated(node, succ)
            if repeat is not None:
                self.loop_closed(node, index, repeat)
                del self.index[k]
                return None
        if target >= self.limits.max_states:
            del self.index[k]
            self.result.complete, self.result.reason = False, f"state limit {self.limits.max_states} reached"
            return None
        if self.keep_graph:
            result.states.append(succ)
            if paths is not None and seen is not None:   # asked about: indexed with the hash just made
                paths.add(target, seen)
        if form is not succ:
            self.renamed += 1
        result.parent.append((node, index))
        result.depth.append(depth)
        self.frontier.append((target, succ))
        return target


def explore(model: Any, limits: Limits = DEFAULT_LIMITS, progress: Progress | None = None, *, reduce: bool = False,
            observe: Observe | None = None, keep_graph: bool = True, symmetry: bool | None = None,
            weigh: bool = True) -> Exploration:
    """Every state reachable from the model's initial state, breadth first.

    `reduce` turns on partial-order reduction (explorer/reduction.py) and, unless `symmetry` is
    False, the symmetry (the model's `canonical` hook, weighed after SYMMETRY_SAMPLE transitions,
    `_weigh`; with `weigh=False` it is used from the start, whatever it costs; not at all when the
    model's `interchangeable` hook says that it would rename nothing); `observe` gives the
    signature under which alternatives must look alike to be reduced (expectations, properties).
    `keep_graph=False` keeps only fingerprints and parent links (the compact store). What the search
    really did is in the result's `record`.
    """
    symmetry = reduce if symmetry is None else symmetry
    thresholds = gc.get_threshold()
    # The search keeps every state alive and makes many short-lived containers per step: with the
    # default young generation (700 objects) the cyclic collector runs every few steps and costs
    # about a sixth of the search. A larger one changes nothing but how often it runs. The states
    # stored so far are frozen (gc.freeze) every few hundred expansions: they live until the search
    # ends, and the older generations' collections would otherwise walk all of them again and again
    # (a fifth of an unreduced search's CPU). Freezing only exempts them from the cycle collector;
    # `unfreeze` hands everything back to it when the search ends.
    gc.set_threshold(max(thresholds[0], YOUNG_GENERATION), *thresholds[1:])
    try:
        return _run(model, limits, progress, reduce, observe, keep_graph, symmetry, weigh)
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


SYMMETRY_SAMPLE = 2_000     # transitions of the search without the symmetry before it is weighed
SYMMETRY_MIN_SAVED = 0.3    # the share of the states the symmetry must save to be kept (its canonical
                            # form costs up to 40 % of a step: Kakumeijin L6/L7)
YOUNG_GENERATION = 200_000
FREEZE_EVERY = 256   # expansions between two freezes (a freeze costs next to nothing; between
                     # two, a step makes far fewer lasting objects than a young collection waits for)
FREEZE_MASK = FREEZE_EVERY - 1   # (powers of two: `node & MASK` is the cheap test of the loop)
CLOCK_MASK = 7       # the limits and the progress are looked at every 8 expansions (well under a millisecond)


def _run(model: Any, limits: Limits, progress: Progress | None, reduce: bool, observe: Observe | None,
         keep_graph: bool, symmetry: bool, weigh: bool) -> Exploration:
    """The search without the symmetry; where the symmetry is asked for, could rename something and
    the search outlasts its sample, the symmetry weighed against it (`_weigh`) and the better of the
    two carried on."""
    clock = _Clock(limits, progress)
    watch = hook(model, "watch")   # the limits hold inside a step too (explorer/limits.py)
    if watch is not None:
        watch(clock.check_step)
    try:
        return _search(model, limits, reduce, observe, keep_graph, symmetry, weigh, clock)
    finally:
        if watch is not None:
            watch(None)


def _search(model: Any, limits: Limits, reduce: bool, observe: Observe | None, keep_graph: bool,
            symmetry: bool, weigh: bool, clock: _Clock) -> Exploration:
    def fresh(with_symmetry: bool) -> _Search:
        search = _Search(model, limits, reduce, observe, keep_graph, with_symmetry)
        search.add_initial()
        return search

    asked = symmetry and hook(model, "canonical") is not None
    renames = hook(model, "interchangeable")
    offered = asked and (renames is None or renames())   # no interchangeable cards: nothing to weigh
    search = fresh(offered and not weigh)
    if asked and (weigh or not offered):
        search.result.record = replace(search.result.record, symmetry=SYMMETRY_UNUSED)
    if offered and weigh:
        search.memo = {}
        _advance(search, clock, lambda: search.result.transitions >= SYMMETRY_SAMPLE)
        if search.frontier and search.result.complete:
            symmetric = fresh(True)
            symmetric.replay = search   # until it passes the depth the sample reached (`expand`)
            symmetric.replay_depth = search.result.depth[len(search.memo) - 1]
            search = _weigh(search, symmetric, clock)
        if search.replay is None:
            search.memo = None
    _advance(search, clock, lambda: False)
    return _finish(search, model, keep_graph, clock)


def _weigh(plain: _Search, symmetric: _Search, clock: _Clock) -> _Search:
    """The search to go on with after the sample: `plain` has made SYMMETRY_SAMPLE transitions without
    the symmetry; `symmetric` is brought to the same depth with it (every layer before the one `plain`
    is expanding), and kept only if it stored at most 1 - SYMMETRY_MIN_SAVED of the states `plain`
    stored down to that depth. Either search is then the search of its kind from the start, so every
    run of one search stores the same states; the decision depends on the search alone, never on time.
    Sound either way (the symmetry only merges states that have the same futures)."""
    layer = plain.result.depth[plain.frontier[0][0]]
    upto = bisect.bisect_right(plain.result.depth, layer)
    most = (1 - SYMMETRY_MIN_SAVED) * upto
    if _orbits_over(plain, upto, most):   # it cannot store few enough: no need to run it
        plain.result.record = replace(plain.result.record,
                                      symmetry=SYMMETRY_DROPPED if _renames(plain, upto) else SYMMETRY_UNUSED)
        return plain
    stored = symmetric.result.parent   # (every state it stores on the way lies no deeper than `layer`)
    # once it has renamed a state and stored more than it may keep, the answer is known: it stops there
    _advance(symmetric, clock, lambda: symmetric.result.depth[symmetric.frontier[0][0]] >= layer
             or (symmetric.renamed > 0 and len(stored) > most))
    if not symmetric.result.complete:
        return symmetric   # a limit stopped it: report what it has
    if symmetric.renamed and bisect.bisect_right(symmetric.result.depth, layer) <= most:
        return symmetric
    plain.result.record = replace(plain.result.record,
                                  symmetry=SYMMETRY_DROPPED if symmetric.renamed else SYMMETRY_UNUSED)
    return plain


def _orbits_over(plain: _Search, upto: int, most: float) -> bool:
    """Whether the first `upto` states `plain` stored fall into more than `most` orbits of the model's
    optional `orbit` hook (a key symmetric states share). Each orbit holds at least one class of the
    symmetry, so the symmetric search would store more than `most` of them too: told by one cheap key
    per state instead of a canonical form per state and a second search. Hashes of the keys are
    counted (two keys with one hash only make the count smaller: the answer stays sound)."""
    orbit = hook(plain.model, "orbit")
    if orbit is None or not plain.keep_graph:   # (the compact store keeps no states to read)
        return False
    seen: set[int] = set()
    for state in plain.result.states[:upto]:
        seen.add(hash(orbit(state)))
        if len(seen) > most:
            return True
    return False


def _renames(plain: _Search, upto: int) -> bool:
    """Whether the symmetry renames any of the first `upto` states `plain` stored (the record tells a
    symmetry dropped from one that renamed nothing)."""
    canonical = hook(plain.model, "canonical")
    return any(canonical(state) is not state for state in plain.result.states[:upto])


class _Clock:
    """The time limit and the progress reports, across the searches one exploration runs."""

    def __init__(self, limits: Limits, progress: Progress | None):
        self.start = self.last_report = self.last_check = time.perf_counter()
        self.limits, self.progress = limits, progress

    def check_step(self, rounds: int) -> None:
        """What the model's `watch` hook calls inside a long step: StepLimit once the time is up, or once
        the step has taken more rounds than the state limit allows states."""
        if rounds > self.limits.max_states:
            raise StepLimit(f"state limit {self.limits.max_states} reached inside one step "
                            f"({rounds} automatic rounds)")
        if time.perf_counter() - self.start > self.limits.max_seconds:
            raise StepLimit(f"time limit {self.limits.max_seconds:.3g}s reached inside one step")


def _advance(search: _Search, clock: _Clock, enough: Callable[[], bool]) -> None:
    """Expand breadth first until the frontier is empty, a limit is reached or `enough()` says so."""
    result, limits = search.result, clock.limits
    frontier, expand = search.frontier, search.expand
    while frontier and not enough():
        node, state = frontier.popleft()
        expand(node, state)
        if not node & FREEZE_MASK:
            gc.freeze()
        if node & CLOCK_MASK and result.complete:
            continue   # the clock is read every few expansions (a step's own limits: `_Clock.check_step`)
        now = time.perf_counter()
        if now - clock.start > limits.max_seconds:
            if result.complete:   # (a limit reached inside the step has said so already)
                result.complete, result.reason = False, f"time limit {limits.max_seconds:.3g}s reached"
            return
        if now - clock.last_check > CHECK_EVERY:    # the memory, a stop asked for (limits.py)
            clock.last_check = now
            why = over(limits)
            if why:
                result.complete, result.reason = False, why
                return
        if clock.progress and now - clock.last_report > 0.5:
            clock.progress(len(search.index), len(search.frontier), result.depth[node], now - clock.start)
            clock.last_report = now
        if not result.complete:
            return


def _finish(search: _Search, model: Any, keep_graph: bool, clock: _Clock) -> Exploration:
    result = search.result
    if search.frontier and result.complete:
        result.complete = False
    # nodes never expanded (limits) get empty edge lists so indexes stay aligned
    while keep_graph and len(result.edges) < len(result.states):
        result.edges.append([])
    if keep_graph:
        result.loops.extend(exact_cycles(model, result))
    result.count = len(search.index)
    result.frontier = len(search.frontier)
    result.seconds = time.perf_counter() - clock.start
    return result
