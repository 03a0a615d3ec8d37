"""Loops: the search reaches a position it has been in before (dmwiki "無限ループ", https://dmwiki.net/無限ループ).

A game can repeat: two mandatory abilities that keep bringing each other back, say. The search
never hangs on such a cycle: a state seen before is not expanded again, and when only bookkeeping
that grows each round differs (a count of resolutions), the model's optional `position` hook says
that the position is the same, so the repeat is cut there too. Each cycle found is a `Loop`: where
it starts, one round of it, and whether it is forced (every state of the round offers exactly one
action: nobody can leave it). The tournament rules (as dmwiki "無限ループ" summarises the 2025-05-01
event rules) leave a loop a player can stop to that player, and have the head judge end a game
caught in a forced one; the game rules make it neither a win nor a loss. So a forced loop is an
end of its own (an outcome with `loop: true`); a loop with a choice is only reported.

Knows no game: it reads the explored graph and the model's `actions` and `position`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Only paths at least this deep look for a repeated position: real scenarios stay shallower, so they
# pay nothing, and a loop that grows a counter is found within one more round.
LOOP_CHECK_DEPTH = 24


@dataclass(frozen=True)
class Loop:
    entry: int                          # the node whose position comes back
    path: tuple[tuple[int, int], ...]   # one round: (node, action index) steps from `entry` back to it
    forced: bool                        # every state of the round has exactly one action


def repeated_position(result: Any, position, node: int, succ: Any, cache: dict[int, int]) -> tuple[int, int] | None:
    """The nodes on the path to `node` (itself included) whose position `succ` repeats: the nearest
    (one round back) and the first (where the loop began), or None. `cache` keeps each node's
    position hash, so a walk costs a comparison of integers per ancestor."""
    key = position(succ)
    h = hash(key)
    found = []
    n = node
    while n >= 0:
        hn = cache.get(n)
        if hn is None:
            hn = cache[n] = hash(position(result.states[n]))
        if hn == h and position(result.states[n]) == key:
            found.append(n)
        n = result.parent[n][0]
    return (found[0], found[-1]) if found else None


def round_from(result: Any, entry: int, node: int, index: int) -> tuple[tuple[int, int], ...]:
    """The steps from `entry` down the parent links to `node`, then the action that closes the round."""
    steps = [(node, index)]
    n = node
    while n != entry:
        prev, i = result.parent[n]
        steps.append((prev, i))
        n = prev
    return tuple(reversed(steps))


def forced(model: Any, result: Any, path: tuple[tuple[int, int], ...]) -> bool:
    return all(len(model.actions(result.states[n])) == 1 for n, _ in path)


def exact_cycles(model: Any, result: Any) -> list[Loop]:
    """Forced cycles among stored states (nothing grows): each node of one has a single edge and a
    single action. Found in the graph of single edges first, so a graph without any costs one pass."""
    nxt = {n: out[0] for n, out in enumerate(result.edges) if len(out) == 1}
    colour: dict[int, int] = {}
    loops = []
    for start in nxt:
        walk, n = [], start
        while n in nxt and n not in colour:
            colour[n] = 1
            walk.append(n)
            n = nxt[n][1]
        if colour.get(n) == 1:   # still marked 1: n is on this walk (earlier walks end marked 2), a cycle
            cycle = walk[walk.index(n):]
            entry = min(cycle, key=lambda c: (result.depth[c], c))
            k = cycle.index(entry)
            cycle = cycle[k:] + cycle[:k]
            path = tuple((c, nxt[c][0]) for c in cycle)
            if forced(model, result, path):
                loops.append(Loop(entry, path, True))
        for c in walk:
            colour[c] = 2
    return loops
