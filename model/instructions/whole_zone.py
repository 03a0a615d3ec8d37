"""Effects on a whole zone (400.6): the card word `move_all`, which moves every card of one of its controller's
zones to another.

400.6: an effect that has a player do something to a zone ("put your hand into your deck and shuffle") acts on
every card in that zone, not on the zone itself; 400.7: the cards go to their new zone (any but the battle zone)
at once, so nothing happens between them (each has its `move` event, in one step). 401.7: cards added to the deck
as a whole are put neither on its top nor on its bottom: with `to: deck` the cards join the deck, which is then
shuffled (model/instructions/deck.py `shuffled`), and none counts as put on its bottom (the outcome's
`deck_bottom`). A multicoloured card put into the mana zone this way is tapped like any other (405.1).

The card word `swap_zones` swaps the cards of two of its controller's zones as wholes (701.26c: 魔天降臨,
オールサンライズ): every card of `a` goes to `b` and every card of `b` to `a`, in one step; it resolves when one
zone is empty too (the other's cards simply move). Limit: 701.26c's other half — a replacement that stops some
cards' moves leaves the rest swapped — has no case here, since no replacement of the model watches these zones.
"""

from __future__ import annotations

from ..events import ev
from ..state import State
from . import effects
from .deck import shuffled
from .registry import deterministic, op

_FROM = ("hand", "mana", "graveyard")
_TO = ("hand", "mana", "graveyard", "deck")


def _move_all(m, s: State, task, ins, choice, out) -> State:
    """400.6, 400.7: every card of the zone, at once; 401.7: into the deck as a whole, then shuffled."""
    me, src, dst = task.controller, ins.get("from"), ins.get("to")
    cards = tuple(getattr(s.zone(me), src))
    if dst != "deck":
        return effects.move_cards(m, s, me, cards, src, dst, out)
    z = s.zone(me)
    for c in cards:
        z = (z.unlink(c) if c in z.tapped else z).move(src, "deck_top", c)
        out.append(ev("move", "R401.7", card=m.label(c), player=me, **{"from": src, "to": "deck"}))
    return shuffled(m, s.with_zone(me, z), me)


_SCHEMA_MOVE_ALL = {
    "doc": "move every card of one of own zones (`from`: hand, mana, graveyard) to another (`to`: hand, mana, "
           "graveyard, or deck: added as a whole, then shuffled), all at once (400.6, 400.7, 401.7)",
    "properties": {"from": {"enum": list(_FROM)}, "to": {"enum": list(_TO)}},
    "required": ["from", "to"],
}
op("move_all", schema=_SCHEMA_MOVE_ALL)((deterministic, _move_all))


def _swap_zones(m, s: State, task, ins, choice, out) -> State:
    """701.26c: the two zones' cards trade places as wholes (both lists read first, so no card moves twice);
    an empty zone does not stop the swap."""
    me, a, b = task.controller, ins.get("a"), ins.get("b")
    first, second = tuple(getattr(s.zone(me), a)), tuple(getattr(s.zone(me), b))
    s = effects.move_cards(m, s, me, first, a, b, out)
    return effects.move_cards(m, s, me, second, b, a, out)


_SCHEMA_SWAP_ZONES = {
    "doc": "swap every card of two of own zones (`a`, `b`: hand, mana, graveyard) at once (701.26c); it resolves "
           "even when one of them is empty",
    "properties": {"a": {"enum": list(_FROM)}, "b": {"enum": list(_FROM)}},
    "required": ["a", "b"],
}
op("swap_zones", schema=_SCHEMA_SWAP_ZONES)((deterministic, _swap_zones))
