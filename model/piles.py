"""Cards made of several cards: what a pile is, read off one player's zones.

A creature in the battle zone may carry other cards: the cards under an evolution creature (801, its
sources), auras (310), seals (116), crossed cross gear (303) and equipped dragheart weapons (305.2); a
shield may be a stack of several cards (shield plus, S212). The zones keep one object per pile — the top
card in `battle` or `shields` — and the other cards in `attached`, each linked to what it lies on
(`Zones.links`):

- `under`: a chain, top to bottom: the card right under the top is linked to the top, the next one to
  that card, and so on (801.4b needs the order: only the card right under a top that left stays);
- `aura`, `seal`, `cross`, `weapon`: linked to the creature's top card;
- `stack`: a shield's other cards, linked to the shield's card (one shield whatever its size, S213);
- `god_left`, `god_right`: the other cards of a linked God, each linked to its neighbour toward the card that
  stands for the creature (804; model/gods.py reads the row they make);
- `king`: the other King Cells of a King creature, linked to the cell that stands for it (814; model/kings.py).

Only the top card's characteristics count (S200: the pile is one object with the top's
characteristics). What happens when a pile moves is model/instructions/piles.py's, what a pile may be
model/positions.py's; this module only reads piles.
"""

from __future__ import annotations

from typing import Any

from .state import Zones
from .vocabulary import NEO

# the kinds of cards a battle-zone entry may lay on a creature, and a shield entry on a shield
LINKED = ("aura", "seal", "under", "cross", "weapon", "god_left", "god_right", "king")
STACKED = "stack"
# the kinds that make a creature's pile: they go where it goes (801, 310.8); seals and cross gear do not
FOLLOWS = ("under", "aura")
# the kinds that stay in the battle zone, attached to nothing, when their creature leaves: cross gear (S220)
# and a weapon, which the rules then send to the hyperspatial zone (R117.2, R305.3: model/homes.py)
STAYS = ("cross", "weapon")
# the other King Cells of a King creature (814, model/kings.py): linked to the cell that stands for it; when
# that one leaves they go to the graveyard (814.1d), as a seal does
KING = "king"
# the kinds lying on a creature's top card (the others lie under it)
ON_TOP = ("aura", "seal", KING) + STAYS


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


def top_of(z: Zones, card: int) -> int:
    """The card at the top of the pile `card` lies in (following its `under` links up), or `card` itself."""
    host = card
    while True:
        up = next((h for c, h, k in z.links if c == host and k == "under"), None)
        if up is None:
            return host
        host = up


def is_evolution_now(cdef: Any, z: Zones, cid: int) -> bool:
    """Whether the creature `cid` of the battle zone is an evolution creature now: an evolution card, or a NEO
    (or G-NEO, 803.1) creature with cards under it, however they got there (802.2, 802.4). In the other zones
    a NEO creature is no evolution creature (802.2): there `cdef.is_evolution()` is the answer."""
    return cdef.is_evolution() or (cdef.has(NEO) and bool(under(z, cid)))


def pile(z: Zones, top: int) -> tuple[tuple[int, str], ...]:
    """Every card lying on or under the creature `top`, with its kind: its sources top to bottom, then
    its auras, seals, cross gear and weapons."""
    if not z.links:
        return ()
    found = [(c, "under") for c in under(z, top)]
    found += [(c, k) for c, h, k in z.links if h == top and k in ON_TOP]
    return tuple(found)


def stack(z: Zones, shield: int) -> tuple[int, ...]:
    """The cards of one shield: its card and the cards stacked with it (S212, S213)."""
    if not z.links:
        return (shield,)
    return (shield,) + tuple(sorted(c for c, h, k in z.links if h == shield and k == STACKED))
