"""A statement whose own ordering constraints go round in a circle (`a < b`, `b < c`, `c < a`).

No trace in which the milestones happen can satisfy such a statement, so it is a mistake in the
rulings file, refused when the file is read (rulings/corpus.py) rather than found by Z3 after the
whole corpus has run. Each milestone m is two moments, its first and its last occurrence, F(m) <= L(m);
a constraint orders moments as rulings/agreement.py `satisfied` reads it: `a < b` puts L(a) before
F(b), `first(a)` reads F(a) and `last(b)` L(b), and `a = b` puts every occurrence of both in one step
(all four moments equal). The constraints contradict one another exactly when the moments they order
have a cycle through a strict `<`.
"""

from __future__ import annotations

from collections import deque
from typing import Any

Moment = tuple[str, str]        # (milestone, "F" first or "L" last)


def _edges(constraints: Any) -> dict[Moment, list[tuple[Moment, bool, Any]]]:
    """moment -> (a later-or-equal moment, whether strictly later, the constraint that says so or None)."""
    out: dict[Moment, list[tuple[Moment, bool, Any]]] = {}

    def add(a: Moment, b: Moment, strict: bool, why: Any) -> None:
        out.setdefault(a, []).append((b, strict, why))
        out.setdefault(b, [])
    for c in constraints:
        for m in c.milestones():
            add((m, "F"), (m, "L"), False, None)
        a, b = c.milestones()
        if c.op == "=":
            points = [(a, "F"), (a, "L"), (b, "F"), (b, "L")]
            for p in points:
                for q in points:
                    if p != q:
                        add(p, q, False, c)
        else:
            add((a, "F" if c.left.select == "first" else "L"), (b, "L" if c.right.select == "last" else "F"), True, c)
    return out


def cycle(constraints: Any) -> list[Any]:
    """The constraints of a circle through a strict `<` among `constraints` (in order along it), or [] when
    they can all hold at once."""
    edges = _edges(constraints)
    for start, nexts in edges.items():
        for end, strict, why in nexts:
            if strict:
                back = _path(edges, end, start)
                if back is not None:
                    return list(dict.fromkeys([why, *back]))
    return []


def _path(edges: dict[Moment, list[tuple[Moment, bool, Any]]], source: Moment, target: Moment) -> list[Any] | None:
    """The constraints along a shortest path from `source` to `target` (None when there is none)."""
    came: dict[Moment, tuple[Moment, Any] | None] = {source: None}
    todo = deque([source])
    while todo:
        here = todo.popleft()
        if here == target:
            found = []
            while (step := came[here]) is not None:
                here, why = step
                if why is not None:
                    found.append(why)
            return found[::-1]
        for there, _, why in edges[here]:
            if there not in came:
                came[there] = (here, why)
                todo.append(there)
    return None
