"""What an effect can count: "for each of your shields", "for each creature you have" (R608.2b, R608.3a).

One table of counts over a state, from a player's point of view, shared by the card word `power` (its
`for_each`: counted once, as the effect resolves, R608.2b) and the statics of model/continuous.py (counted
each time the power is read: a static's effect is never fixed, R608.3a).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from .state import other

if TYPE_CHECKING:
    from .state import State

def own_hand(m, s: State, me: str) -> int:
    """The cards of one's hand (402.1). 409.1c: a card in the pending state (a spell being cast: `resolving`; a
    shield in standby is the shield zone's, 113.6a; a card on its way to the battle zone: `held`,
    model/instructions/pending_entry.py) still belongs to its zone but is not counted there."""
    return counted(s, me, "hand")


def counted(s: State, me: str, zone: str) -> int:
    """409.1c: the cards of one of `me`'s zones that count, those held in the pending state left out."""
    z = s.zone(me)
    cards = getattr(z, zone)
    return len(cards) - (sum(1 for c in z.held if c in cards) if z.held else 0)


COUNTS: Final[dict[str, Callable[..., int]]] = {
    "own_shields": lambda m, s, me: len(s.zone(me).shields),
    "opponent_shields": lambda m, s, me: len(s.zone(other(me)).shields),
    "own_mana": lambda m, s, me: counted(s, me, "mana"),
    "opponent_mana": lambda m, s, me: counted(s, other(me), "mana"),
    "own_creatures": lambda m, s, me: sum(1 for c in s.zone(me).battle if m.card(c).type == "creature"),
    "opponent_creatures": lambda m, s, me: sum(1 for c in s.zone(other(me)).battle if m.card(c).type == "creature"),
    "own_graveyard": lambda m, s, me: counted(s, me, "graveyard"),
    "own_hand": own_hand,
}
SCHEMA: Final = {"enum": sorted(COUNTS), "description": "what the amount is multiplied by, counted from its "
                 "controller's side: own_/opponent_ shields, mana, creatures (in the battle zone), own_graveyard, "
                 "own_hand"}


def count(m, s: State, me: str, what: str) -> int:
    """How many `what` there are now for player `me`."""
    return COUNTS[what](m, s, me)
