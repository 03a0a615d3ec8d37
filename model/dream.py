"""Dream Rare cards (817): the special type Dream and the one-of-a-name rule it brings.

817.1: a Dream Rare card has the special type Dream (a card file's keyword `Dream`). 817.2: while a Dream element
(a card with the special type Dream) is in the battle zone, its owner cannot put an element of the same name
into the battle zone: an effect that would put it there does nothing with it, and it stays where it was
(`barred`, asked by model/instructions/effects.py `summon`, the one door every put and summon goes through).
817.3: same-name Dream elements of one owner that are in the battle zone anyway (a position, or an effect that
does not go through `summon`) all stay: nothing here removes any.
"""

from __future__ import annotations

from typing import Any

from .state import State
from .vocabulary import DREAM


def barred(m: Any, s: State, cid: int) -> bool:
    """R817.2: whether a Dream element of the same name as `cid`, owned by `cid`'s owner, is in the battle zone."""
    if not m.card(cid).has(DREAM):   # a same-name card is a Dream card too
        return False
    name = m.card(cid).name
    owner = m.owner(cid)
    return any(c != cid and m.owner(c) == owner and m.card(c).has(DREAM) and m.card(c).name == name
               for p in ("A", "B") for c in s.zone(p).battle)
