"""Cards made of several cards: what a pile is, read off one player's zones.

A creature in the battle zone may carry other cards: the cards under an evolution creature (801, its
sources), auras (310), seals (116) and crossed cross gear (303); a shield may be a stack of several
cards (shield plus, S212). The zones keep one object per pile — the top card in `battle` or
`shields` — and the other cards in `attached`, each linked to what it lies on (`Zones.links`):

- `under`: a chain, top to bottom: the card right under the top is linked to the top, the next one to
  that card, and so on (801.4b needs the order: only the card right under a top that left stays);
- `aura`, `seal`, `cross`: linked to the creature's top card;
- `stack`: a shield's other cards, linked to the shield's card (one shield whatever its size, S213).

Only the top card's characteristics count (S200: the pile is one object with the top's
characteristics). What happens when a pile moves is model/instructions/piles.py's; this module only
reads piles and checks a scenario's entries.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .state import Zones

# the kinds of cards a battle-zone entry may lay on a creature, and a shield entry on a shield
LINKED = ("aura", "seal", "under", "cross")
STACKED = "stack"
# the kinds that make a creature's pile: they go where it goes (801, 310.8); seals and cross gear do not
FOLLOWS = ("under", "aura")


def under(z: Zones, top: int) -> tuple[int, ...]:
    """The cards under `top`, from the one right under it to the bottom (801.4b)."""
    out: list[int] = []
    host = top
    while True:
        nxt = next((c for c, h, k in z.links if h == host and k == "under"), None)
        if nxt is None:
            return tuple(out)
        out.append(nxt)
        host = nxt


def pile(z: Zones, top: int) -> tuple[tuple[int, str], ...]:
    """Every card lying on or under the creature `top`, with its kind: its sources top to bottom, then
    its auras, seals and cross gear."""
    if not z.links:
        return ()
    found = [(c, "under") for c in under(z, top)]
    found += [(c, k) for c, h, k in z.links if h == top and k in ("aura", "seal", "cross")]
    return tuple(found)


def stack(z: Zones, shield: int) -> tuple[int, ...]:
    """The cards of one shield: its card and the cards stacked with it (S212, S213)."""
    if not z.links:
        return (shield,)
    return (shield,) + tuple(sorted(c for c, h, k in z.links if h == shield and k == STACKED))


def check_pile(pool: Any, entry: dict, top: str, fail: Callable[..., Exception], here: tuple) -> None:
    """A scenario's battle-zone entry is a pile the rules allow: auras, sources and cross gear lie on a
    creature; the bottom of an evolution's pile is a creature (801); an evolution creature lies on
    something unless it needs no source (S-MAX, S207); an aura is an aura, a crossed card a cross gear."""
    cdef = pool[top]
    kinds = [k for k in ("aura", "under", "cross") if entry.get(k)]
    if kinds and cdef.type != "creature":
        raise fail(here + ("card",), f"expected a creature at the base of a pile (`{'`, `'.join(kinds)}`: only a "
                                     f"creature carries them); {cdef.name} is a {cdef.type.replace('_', ' ')}")
    for kind, want in (("aura", "aura"), ("cross", "cross_gear")):
        for j, name in enumerate(entry.get(kind) or []):
            card = pool[pool.resolve(str(name))]
            if card.type != want:
                raise fail(here + (kind, j), f"expected {'an aura' if want == 'aura' else 'a cross gear'} under "
                                             f"`{kind}:`, {card.name} is a {card.type.replace('_', ' ')}")
    sources = entry.get("under") or []
    if cdef.evolution() and not sources:
        raise fail(here + ("card",) if entry else here,
                   f"{cdef.name} is an evolution creature with nothing to evolve onto (801); write "
                   f"{{card: {cdef.name}, under: [a creature]}} (only an S-MAX evolution needs no source)")
    if sources:
        base = pool[pool.resolve(str(sources[-1]))]
        if base.type != "creature":
            raise fail(here + ("under", len(sources) - 1),
                       f"expected a creature at the bottom of the pile (an evolution lies on a creature, 801); "
                       f"{base.name} is a {base.type}")
