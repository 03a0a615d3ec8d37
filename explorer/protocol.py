"""The model protocol the search runs over: what a model must offer and what it may offer.

The explorer knows no game. A model gives an initial state, the legal actions of a state (in a
deterministic order: an action is named by its index, which is what replay keys record) and the
step an action makes, with the events it caused. States must be hashable and equal when they are
the same state; a state offers `digest()` (a short, seed-independent fingerprint) for the compact
store and `fingerprint()` for graph export. Everything else is an optional hook; a model without
one simply gets no symmetry, no reduction or no narration. Stateright's `Model` trait is the model
this follows.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Model(Protocol):
    def initial_state(self) -> Hashable: ...
    def actions(self, state: Any) -> Sequence[Any]: ...               # () when the state is terminal
    def step(self, state: Any, action: Any) -> tuple[Any, tuple]: ...  # (next state, events)


class Symmetric(Protocol):
    """A model whose states have a canonical representative under a symmetry (e.g. identical cards)."""

    def canonical(self, state: Any) -> Any: ...
    def interchangeable(self) -> bool: ...   # optional: False when `canonical` renames nothing here
    # optional: a key symmetric states share (states with two keys are never merged: `canonical` maps
    # them apart); cheaper than `canonical`, it lets the search count the symmetry's classes from below
    def orbit(self, state: Any) -> Hashable: ...


class Reducible(Protocol):
    """A model that tells the partial-order reduction which actions commute (explorer/reduction.py)."""

    # functions of the actions alone (the reduction keeps its answer per tuple of actions)
    def is_order(self, action: Any) -> bool: ...      # only orders independent work: may be reduced
    def simple(self, action: Any) -> bool: ...        # no decision inside, triggers nothing
    def independent(self, a: Any, b: Any) -> bool: ...  # doing a first loses nothing of doing b first


class Described(Protocol):
    """A model that summarises terminal states and narrates steps for people."""

    def outcome(self, state: Any) -> dict: ...
    def is_terminal(self, state: Any) -> bool: ...
    # (header, event lines); `context`, shared by the steps of one trace (its "step" the step's number),
    # lets the narration name an earlier step that caused an event
    def narrate(self, action: Any, events: tuple, context: dict | None = None) -> tuple[str, list[str]]: ...
    def summary(self, state: Any) -> str: ...   # a state in one short line (drawn graphs)


class Grouped(Protocol):
    """A model whose terminal states have a cheap key, equal exactly when their outcomes are: the
    outcomes of many terminal states are then built once per key (explorer/graph.py)."""

    def outcome_key(self, state: Any) -> Any: ...


class Positioned(Protocol):
    """A model whose states carry bookkeeping that grows as a loop goes round (a count of what
    resolved): `position` drops it, so that a repeated position is seen as a loop (explorer/loops.py)."""

    def position(self, state: Any) -> Any: ...   # equal for two states with the same future
    # optional: hash(position(state)) or any hash equal for equal positions, cheaper to take (the loop check
    # hashes every deep state's position; collisions only cost a comparison of the positions)
    def position_hash(self, state: Any) -> int: ...


class Watched(Protocol):
    """A model whose step runs an automatic procedure that could take long: the search hands it a check
    (`None` when the search is over) to call every so often inside a step with the number of rounds the
    step has taken so far; the check raises explorer.limits.StepLimit to stop the step (the search's time
    and state limits, explorer/limits.py)."""

    def watch(self, check: Callable[[int], None] | None) -> None: ...


# An exception a model's `step` raises reaches the caller of the search unchanged, with the replay key of
# the step that raised it added as its `search_key` attribute (the path from the initial state, its last
# index the action being taken), so that a model's own error can be reported with the way to it.


def hook(model: Any, name: str):
    """The model's optional hook `name`, or None when it does not offer it."""
    return getattr(model, name, None)
