"""The mana zone (405): what a card entering it looks like.

405.1: every card is put into the mana zone upside down, and a multicoloured card (two civilizations or more,
106.2b) is put there tapped. The model keeps no orientation (no card reads it), but the tapped mark is the
one 105.4a allows in the mana zone, so a multicoloured card that enters is tapped at once, whatever moved it
there (a charge, a creature put into the mana zone, Charger, a card of the deck), with a `tap` event citing
R405.1. The civilizations read are the card's own (`civilizations:` of its card file); one an effect adds for
a while (model/characteristics.py) is not counted. 400.5b, the way out: a tapped mana card that moves to the
battle zone enters untapped (model/instructions/effects.py `enter`), and one that moves anywhere else loses
the mark with the zone (400.5).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .characteristics import colour
from .events import Event, ev
from .state import Zones, replace


class Seen(NamedTuple):
    """What a card of the mana zone is as the game reads it: its card type, cost and civilizations."""

    type: str
    cost: int
    civs: tuple[str, ...]


# 405.4: a face-down mana card is a card of cost 0, colourless, whose mana number is 1, with no other
# characteristic (no card type, no name, no ability); its face cannot be read while it lies face down
FACE_DOWN = Seen("", 0, ())


def seen(m: Any, z: Zones, card: int) -> Seen:
    """The characteristics of `card` of the mana zone `z` (405.4): its own, or a face-down card's."""
    if card in z.face_down:
        return FACE_DOWN
    cdef = m.card(card)
    return Seen(cdef.type, cdef.cost, cdef.civs())


def put_face_down(m: Any, z: Zones, card: int, out: list[Event]) -> Zones:
    """`card` (in the mana zone of `z`, just put there) lies face down (405.4); 405.1 then reads it as
    colourless, so it is not tapped for being multicoloured (`entered`)."""
    z = replace(z, face_down=tuple(sorted(z.face_down + (card,))))
    return entered(m, z, card, out)


def entered(m: Any, z: Zones, card: int, out: list[Event]) -> Zones:
    """405.1: `card` has just been put into the mana zone of `z`; tap it if it is multicoloured."""
    if colour(seen(m, z, card).civs) != "multicolored" or card in z.tapped or card not in z.mana:
        return z
    out.append(ev("tap", "R405.1", card=m.label(card), player=m.owner(card)))
    return z.add("tapped", card)
