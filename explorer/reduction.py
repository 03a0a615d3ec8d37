"""Partial-order reduction: resolve one commuting pending effect first instead of every order.

At a state where the only decision is which pending effect resolves next, the orders of effects
that commute reach the same states (deduplication already merges those), but the search still
visits every subset of resolved effects: 2^k states for k effects. An ample set keeps one effect:

- C0/C1 (persistent set): the effect p is *simple* (no decision, triggers nothing — the model's `simple` hook)
  and commutes with everything that could happen before it: the other effects that may resolve now
  and, if any of them can trigger abilities, everything a triggered ability that could resolve
  before p may do (the model's `independent` hook says which: an ability that must wait for p, as
  the non-turn player's waits for the turn player's, cannot). Then every run that resolves other
  effects first can be reordered to resolve p first, reaching the same states later on; p cannot be
  dropped on the way (what could skip the turn before it is TOP, and conflicts). Effects that only
  wait (the non-turn player's, while a turn-player effect goes next, R509.4b) are not harmed: p is
  moved earlier, never later.
- C2 (visibility): every alternative transition looks the same to whoever observes the search — the
  `observe` signature of resolving p equals that of resolving any other effect here (the events an
  expectation's patterns could match; the facts a property reads). Pruned paths are then mirrored
  by kept ones with the same observations, so outcomes, verdicts and shortest traces are kept.
- C3 (cycles) is not needed: the procedure never returns to a state (every step consumes a decision).

Only order decisions are reduced; real choices (which shields, which target, whether to use a
"may") are always explored in full.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

Observe = Callable[[Any, Any, tuple, Any], Hashable]   # (state, action, events, next state) -> signature


KNOWN_MOST = 1 << 16   # answers kept per search (the tuples of actions met); past it, they start again
_UNKNOWN = object()


class Reducer:
    """Ample sets over a model's independence hooks (explorer.protocol.Reducible).

    The hooks are functions of the actions alone, so `candidate`'s answer is one per tuple of
    actions, kept: a search meets few distinct tuples (Kakumeijin L8: 166 among 261,214 states asked
    about), and a look-up replaces a pass over the actions and the pairs of them."""

    def __init__(self, model: Any, observe: Observe | None = None):
        self.model = model
        self.observe = observe
        self._known: dict[Any, int | None] = {}
        self._by_id: dict[int, tuple[Any, int | None]] = {}   # id(actions) -> (actions, answer)
        self._last: tuple[Any, int | None] = ((), None)

    def candidate(self, actions) -> int | None:
        """The index of an action that may be explored alone (C0, C1), or None."""
        if len(actions) < 2 or not self.model.is_order(actions[0]):
            return None
        if type(actions) is not tuple:
            return self._by_value(actions)
        same = self._last   # a model that keeps its tuples of actions hands the same one out again and again
        if same[0] is actions:
            return same[1]
        found = self._by_id.get(id(actions))
        if found is not None and found[0] is actions:   # (the entry holds the tuple: its id stays its own)
            self._last = found
            return found[1]
        answer = self._by_value(actions)
        if len(self._by_id) >= KNOWN_MOST:
            self._by_id.clear()
        self._by_id[id(actions)] = self._last = (actions, answer)
        return answer

    def _by_value(self, actions) -> int | None:
        key = actions if type(actions) is tuple else tuple(actions)
        try:
            found = self._known.get(key, _UNKNOWN)
        except TypeError:   # actions that cannot be hashed: asked every time
            return self._candidate(actions)
        if found is _UNKNOWN:
            found = self._candidate(actions)
            if len(self._known) >= KNOWN_MOST:
                self._known.clear()
            self._known[key] = found
        return found  # type: ignore[return-value]

    def _candidate(self, actions) -> int | None:
        m = self.model
        if not all(m.is_order(a) for a in actions):
            return None
        for i, a in enumerate(actions):
            if not m.simple(a):
                continue
            if all(m.independent(a, b) for j, b in enumerate(actions) if j != i):
                return i
        return None

    def invisible(self, state, actions, successors) -> bool:
        """C2: every alternative looks the same to the observer (successors: (next, events) per action)."""
        if self.observe is None:
            return True
        first = None
        for action, (succ, events) in zip(actions, successors):
            sig = self.observe(state, action, events, succ)
            if first is None:
                first = (sig,)
            elif first[0] != sig:
                return False
        return True
