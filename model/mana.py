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

from typing import Any

from .characteristics import colour
from .events import Event, ev
from .state import Zones


def entered(m: Any, z: Zones, card: int, out: list[Event]) -> Zones:
    """405.1: `card` has just been put into the mana zone of `z`; tap it if it is multicoloured."""
    if colour(m.card(card).civs()) != "multicolored" or card in z.tapped or card not in z.mana:
        return z
    out.append(ev("tap", "R405.1", card=m.label(card), player=m.owner(card)))
    return z.add("tapped", card)
