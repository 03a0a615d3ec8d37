"""超魂X (Super Soul X, 818): abilities a card gives the creature it lies under.

A card file writes a card's 超魂X part under `super_soul:` (keywords, abilities, breaker and soul icons,
`souls:`). The loader (model/cards.py `_with_super_soul`) makes them the card's own as well (818.1a: they
work like its other abilities, in any zone and on the card as a creature) and keeps the part apart in
`CardDef.super_soul`, so that what lies under a creature can give it that part alone:

- 818.1b: while a card with 超魂X lies under a creature (an evolution creature's sources, `under` links), the
  creature has that card's 超魂X keywords and abilities, and the greater breaker; the exception to 200.3a
  (a card under another has its characteristics ignored): its other abilities still give nothing;
- 818.1c: a soul icon written in 超魂X is given too (`souls`, read by the selection filter `soul:`).

`given` is read through gods.creature, the one place that says what record an effect reads of a creature.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any

from .piles import under
from .state import Zones


def parts(m: Any, z: Zones, cid: int) -> tuple[Any, ...]:
    """The 超魂X parts of the cards under the creature `cid`, top to bottom (818.1b)."""
    if not z.links:
        return ()
    return tuple(p for p in (m.card(c).super_soul for c in under(z, cid)) if p is not None)


@lru_cache(maxsize=256)
def given(record: Any, souls_x: tuple[Any, ...]) -> Any:
    """R818.1b-c: the creature's record with the 超魂X keywords, abilities, breaker and soul icons of the
    cards under it added (its own first)."""
    if not souls_x:
        return record
    return dataclasses.replace(
        record, keywords=record.keywords + tuple(k for p in souls_x for k in p.keywords),
        abilities=record.abilities + tuple(a for p in souls_x for a in p.abilities),
        breaker=max((record.breaker,) + tuple(p.breaker for p in souls_x)),
        souls=record.souls + tuple(s for p in souls_x for s in p.souls if s not in record.souls))
