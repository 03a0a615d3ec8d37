"""The positions a template generates: multisets per varied zone, their product, in a fixed order.

Order (the same on every run and backend, so a position's index names it): per zone, sizes lo..hi
ascending, and within a size the multisets in the lexicographic order of the cards' places in
`from` (itertools' combinations order); over zones, the product in the order the template lists
them, the last zone varying fastest. A multiset is generated once: cards in a zone have no order
that matters here, so [Vanilla, Terror Pit] and [Terror Pit, Vanilla] are one position.

Counts, for a zone of n names and sizes lo..hi: sum over k of C(n+k-1, k) with repetition, C(n, k)
with `distinct: true`; a template's count is the product over its zones.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from math import prod
from typing import Any

from ...model.scenario import Scenario
from .template import Template, Vary, zone_count


@dataclass(frozen=True)
class Position:
    index: int                                          # place in the fixed order
    zones: tuple[tuple[str, tuple[str, ...]], ...]      # ("A.hand", pool ids), in the template's order
    names: tuple[tuple[str, tuple[str, ...]], ...]      # the same with English names

    @property
    def cards(self) -> int:
        return sum(len(cards) for _, cards in self.zones)

    @property
    def key(self) -> str:
        """`A.hand=[Boil Charger, Texas Storm]; B.shields=[Vanilla x2]`: what a person reads and the
        database's unique key."""
        return "; ".join(f"{zone}=[{_multiset(cards)}]" for zone, cards in self.names)

    def order(self) -> tuple[int, str]:
        """Smallest first: fewest cards, then by name."""
        return (self.cards, self.key)


def _multiset(names: tuple[str, ...]) -> str:
    counts = Counter(names)
    return ", ".join(n if c == 1 else f"{n} x{c}" for n, c in sorted(counts.items()))


def count(template: Template) -> int:
    return prod(zone_count(v) for v in template.vary)


def zone_multisets(v: Vary) -> Iterator[tuple[str, ...]]:
    pick = itertools.combinations if v.distinct else itertools.combinations_with_replacement
    for k in range(v.lo, v.hi + 1):
        yield from pick(v.cards, k)


def _product(vary: tuple[Vary, ...]) -> Iterator[tuple[tuple[str, ...], ...]]:
    """The product of the zones' multisets, the last zone fastest, without holding any zone's list
    (itertools.product would: one zone of 40 cards from 10 names is 2 billion multisets)."""
    if not vary:
        yield ()
        return
    for first in zone_multisets(vary[0]):
        for rest in _product(vary[1:]):
            yield (first,) + rest


def positions(template: Template) -> Iterator[Position]:
    """Every position once, lazily (a sweep of many positions never holds them all)."""
    pool = template.scenario.pool
    for index, combo in enumerate(_product(template.vary)):
        zones = tuple((v.key, cards) for v, cards in zip(template.vary, combo))
        names = tuple((key, tuple(pool[c].name for c in cards)) for key, cards in zones)
        yield Position(index, zones, names)


def scenario_at(template: Template, position: Position) -> Scenario:
    """The template's scenario with each varied zone holding the position's cards."""
    sc = template.scenario
    players = dict(sc.players)
    for key, cards in position.zones:
        player, zone = key.split(".")
        changes: dict[str, Any] = {zone: cards}
        players[player] = dataclasses.replace(players[player], **changes)
    return dataclasses.replace(sc, players=players, name=f"{sc.name} [{position.key}]")
