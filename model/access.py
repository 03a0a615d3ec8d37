"""Footprints as values: what an effect reads and writes, and when two footprints conflict.

An access is (resource, player, mode); two accesses conflict when they touch the same resource of the
same player, unless both only read, or both apply the same commutative operation (`add` puts a card
into an unordered zone or increments a counter; `top>hand` and `top>shields` take the top card of a
deck to that zone — two draws commute, a draw and a shield addition do not). TOP stands for an
effect that reaches further than accesses describe: it conflicts with everything (sound, coarse).
"""

from __future__ import annotations

from .state import other

Access = tuple[str, str, str]      # (resource, player, mode)
TOP: frozenset[Access] = frozenset({("*", "*", "*")})
COMMUTATIVE = {"add", "top>hand", "top>shields"}


def conflicts(a: frozenset[Access], b: frozenset[Access]) -> bool:
    """Whether two footprints touch a common resource in a way that does not commute."""
    if a == TOP or b == TOP or ("*", "*", "*") in a or ("*", "*", "*") in b:
        return True
    for res, player, mode in a:
        for res2, player2, mode2 in b:
            if res != res2 or (player != player2 and "*" not in (player, player2)):
                continue
            if mode == mode2 == "r" or (mode == mode2 and mode in COMMUTATIVE):
                continue
            return True
    return False


def spawns(f: frozenset[Access]) -> bool:
    """Whether an effect with this footprint may trigger abilities (it adds pending effects)."""
    return f == TOP or any(res == "pending" for res, _, _ in f)


def players(me: str, whose: str) -> tuple[str, ...]:
    return {"own": (me,), "opponent": (other(me),), "any": ("A", "B")}[whose]
