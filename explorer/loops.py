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


class PathIndex:
    """The positions of the nodes on the paths asked about, by hash, so that a position coming back
    on a path is found with one look-up instead of a walk of the whole path per state. A path is
    indexed as it is first asked about, from its end up to the first node already indexed (each
    node once: a node's position is hashed when it is first an ancestor of a node asked about, or
    when the question about it computed the hash). Only where another indexed node has the same
    position hash are those nodes tested for lying on the path (a walk up to their depth)."""

    def __init__(self, result: Any, position: Any, position_hash: Any = None):
        self.result, self.position = result, position
        # the model's optional cheap hash of a position (equal positions, equal hashes), or hash(position(s))
        self.hash_of = position_hash if position_hash is not None else (lambda s: hash(position(s)))
        self.first: dict[int, int] = {}          # position hash -> the first node indexed with it
        self.more: dict[int, list[int]] = {}     # position hash -> the other nodes with it
        self.indexed = bytearray()               # per node: 1 once its position is indexed
        self.walks = 0                           # steps of the walks to candidates (the figures)

    def add(self, node: int, h: int) -> None:
        if len(self.indexed) <= node:
            self.indexed.extend(bytes(node + 1 - len(self.indexed) + 1024))
        self.indexed[node] = 1
        found = self.first.setdefault(h, node)
        if found != node:
            self.more.setdefault(h, []).append(node)

    def repeated(self, node: int, succ: Any) -> tuple[int, tuple[int, int] | None]:
        """The hash of `succ`'s position, and the nodes on the path to `node` (itself included) whose
        position `succ` repeats: the nearest (one round back) and the first (where the loop began),
        or None."""
        states, parent, indexed, hash_of = self.result.states, self.result.parent, self.indexed, self.hash_of
        n = node
        while n >= 0 and (n >= len(indexed) or not indexed[n]):
            self.add(n, hash_of(states[n]))
            n = parent[n][0]
        h = hash_of(succ)
        first = self.first.get(h)
        if first is None:
            return h, None
        on_path = self._on_path(node, [first, *self.more.get(h, ())])
        key = self.position(succ) if on_path else None   # (a hash shared off the path needs no position)
        found = [c for c in on_path if self.position(states[c]) == key]
        return h, ((found[0], found[-1]) if found else None)

    def _on_path(self, node: int, candidates: list[int]) -> list[int]:
        """The candidates on the path to `node` (itself included), deepest first: one walk up the
        parent links, down to the shallowest candidate no deeper than `node`."""
        depth, parent = self.result.depth, self.result.parent
        out = []
        n = node
        for d, c in sorted(((depth[c], c) for c in candidates if depth[c] <= depth[node]), reverse=True):
            while depth[n] > d:
                n = parent[n][0]
                self.walks += 1
            if n == c:
                out.append(c)
        return out


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
    depth = result.depth
    if all(depth[edge[1]] > depth[n] for n, edge in nxt.items()):
        return []   # every single edge leads deeper: a cycle has to come back up somewhere
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
