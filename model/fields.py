"""Fields (308): cards of the battle zone that are not creatures, put there by deploying them (701.27a).

A field (`type: field` in a card file) is executed from the hand in the main step by deploying it (308.1,
701.5a) and enters the battle zone (308.2), as an S-Trigger puts it there from a broken shield (112.3a). It
is no creature: it has no power (301.3), never attacks or blocks, and no effect choosing "a creature" chooses
it (model/instructions/common.py `creatures` reads `type: creature` only). Its static abilities
(model/continuous.py) and triggered abilities (model/triggers.py) work while it is in the battle zone
(110.4c), as any card's there.

D2 fields (`d2: true`, the special type Ｄ２ of 204.3c): when another D2 field enters the battle zone, the one
that was there first goes to its owner's graveyard (703.4l, a state-based action) - whoever controls either.
So the battle zone never holds two D2 fields, and `displaced` needs no order of arrival: every other D2
field there is the older one (the position loader refuses two, model/positions.py `one_d2_field`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game
    from .state import State

FIELD = "field"   # the card type (308); `d2: true` marks a D2 field (204.3c)
PLAYERS = ("A", "B")


def is_field(m: Game, card: int) -> bool:
    """Whether the card is a field (308)."""
    return m.card(card).type == FIELD


def displaced(m: Game, s: State, new: int) -> tuple[int, ...]:
    """703.4l: the D2 fields of either battle zone that go to their owners' graveyards because the D2 field
    `new` entered (none when `new` is no D2 field)."""
    if not (m.card(new).d2 and is_field(m, new)):
        return ()
    return tuple(c for p in PLAYERS for c in s.zone(p).battle
                 if c != new and is_field(m, c) and m.card(c).d2)
