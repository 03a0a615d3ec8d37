"""Every combination of readings, numbered, and sets of them as bits.

`verify` asks each ruling under every combination (9,216 of them with the readings of
model/readings.py), but a ruling's verdict reads only a few choices. A set of combinations
(those under which a ruling holds, those a run stands for, those alike on some choices) is one
Python int here, bit i standing for the i-th combination in `combos()` order, so that such sets are
joined, cut and counted whole instead of one tuple at a time.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from functools import cache
from operator import itemgetter
from typing import Any

from ..model.readings import CHOICES

Combo = tuple[str, ...]   # one reading per choice, in the order of CHOICES
Key = tuple[str, ...]     # the readings of some of the choices (their indices given apart)


class Space:
    """The combinations in `combos()` order: the defaults first, the last choice varying fastest."""

    def __init__(self) -> None:
        self.options = [[c.default] + [r for r, _ in c.readings if r != c.default] for c in CHOICES]
        self.combos: list[Combo] = list(itertools.product(*self.options))
        self.index = {combo: i for i, combo in enumerate(self.combos)}
        self.n = len(self.combos)
        self.full = (1 << self.n) - 1
        self.defaults: Combo = tuple(options[0] for options in self.options)
        self._reading = [self._reading_masks(i) for i in range(len(CHOICES))]
        self._masks: dict[tuple[tuple[int, ...], Key], int] = {}

    def _reading_masks(self, i: int) -> dict[str, int]:
        """Per reading of choice i, the combinations with it: a block of `inner` bits per reading,
        repeated every `period` bits (a geometric series gives the repetition in one product)."""
        sizes = [len(o) for o in self.options]
        inner = 1
        for size in sizes[i + 1:]:
            inner *= size
        period = inner * sizes[i]
        repeat = ((1 << self.n) - 1) // ((1 << period) - 1)
        return {r: (((1 << inner) - 1) << (k * inner)) * repeat for k, r in enumerate(self.options[i])}

    def mask(self, depends: tuple[int, ...], key: Key) -> int:
        """The combinations whose choices `depends` read `key`."""
        found = self._masks.get((depends, key))
        if found is None:
            found = self.full
            for i, reading in zip(depends, key):
                found &= self._reading[i][reading]
            self._masks[depends, key] = found
        return found

    def keys(self, depends: tuple[int, ...]) -> Iterator[Key]:
        """Every key over the choices `depends`, in the order of their first combination."""
        return itertools.product(*(self.options[i] for i in depends))

    def first(self, depends: tuple[int, ...], key: Key) -> Combo:
        """The first combination whose choices `depends` read `key`: the defaults elsewhere."""
        combo = list(self.defaults)
        for i, reading in zip(depends, key):
            combo[i] = reading
        return tuple(combo)

    def members(self, bits: int) -> Iterator[int]:
        """The indices of the combinations in a set, in order."""
        for j, byte in enumerate(bits.to_bytes((self.n + 7) // 8, "little")):
            if byte:
                base = j * 8
                for k in _BITS[byte]:
                    yield base + k


_BITS = [tuple(k for k in range(8) if byte >> k & 1) for byte in range(256)]


@cache
def space() -> Space:
    return Space()


def projector(depends: tuple[int, ...]) -> Callable[[Combo], Key]:
    """combination -> its readings of the choices `depends` (a tuple in every case)."""
    if not depends:
        return lambda combo: ()
    if len(depends) == 1:
        i = depends[0]
        return lambda combo: (combo[i],)
    return itemgetter(*depends)


class Served:
    """A set of combinations (the ones a run stands for), as bits; iterated in `combos()` order."""

    __slots__ = ("bits",)

    def __init__(self) -> None:
        self.bits = 0

    def add(self, combo: Combo) -> None:
        self.bits |= 1 << space().index[combo]

    def __contains__(self, combo: Any) -> bool:
        i = space().index.get(combo)
        return i is not None and bool(self.bits >> i & 1)

    def __iter__(self) -> Iterator[Combo]:
        combos = space().combos
        return (combos[i] for i in space().members(self.bits))

    def __len__(self) -> int:
        return self.bits.bit_count()

    def __repr__(self) -> str:
        return f"Served({len(self)} combinations)"
