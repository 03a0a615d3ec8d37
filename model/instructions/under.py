"""Putting a creature under another card of the battle zone (403.4a, 310.8b), not by evolving onto it.

- `put_under: {optional}`: its controller puts one of his other creatures under the ability's creature. 403.4a:
  a card put under a battle-zone card goes to the bottom of the cards that make it (below every card already
  under it), and cards put there at once go in the order the player chooses; 310.8b: the auras on the creature
  (and the cards under it) go there with it, in the owner's order (`effects.bottom_orders`: one option per order).
  The card put under is no creature of the battle zone any more; it was not destroyed and did not leave (no
  leave trigger or replacement is offered: the rules give none for it). A creature carrying a seal, cross gear
  or a weapon, and the attacking or attacked creature, are not offered (a limit of the model).
"""

from __future__ import annotations

from ..events import ev
from ..piles import FOLLOWS, pile, under
from ..state import State, replace
from .common import creatures
from .effects import bottom_orders
from .registry import NONE, Option, op


def _movable(s: State, z, host: int, cid: int) -> bool:
    return cid != host and cid not in (s.attacker, s.target) and all(k in FOLLOWS for _, k in pile(z, cid))


def _put_under_options(m, s, task, ins):
    me, host = task.controller, task.source
    z = s.zone(me)
    opts: list[Option] = []
    if host in z.battle:
        for cid in creatures(m, s, me, "own"):
            if _movable(s, z, host, cid):
                cards = [cid] + [c for c, _ in pile(z, cid)]
                opts += [(order, f"{me} puts {', '.join(m.label(c) for c in order)} under {m.label(host)}, "
                                 f"in this order (403.4a)") for order in bottom_orders(m, cards)]
    if not opts or ins.get("optional", False):
        opts.append((NONE, f"{me} puts no card under {m.label(host)}"))
    return opts


def put_under(m, s: State, me: str, host: int, cards: tuple[int, ...], out) -> State:
    """403.4a: `cards`, in this order, go one below the other under the bottom card of `host`'s pile; their
    old links (a creature's auras and sources, 310.8b) are dropped, tapped marks too (they are no creatures)."""
    z = s.zone(me)
    chain = under(z, host)
    below = chain[-1] if chain else host
    moved = set(cards)
    links = [link for link in z.links if link[0] not in moved and link[1] not in moved]
    for c in cards:
        links.append((c, below, "under"))
        below = c
        if c in z.battle:
            z = z.remove("battle", c).add("attached", c)
        out.append(ev("move", "R403.4a", card=m.label(c), player=me, **{"from": "battle", "to": "attached"}))
    z = replace(z, links=tuple(sorted(links)), tapped=tuple(c for c in z.tapped if c not in moved))
    return s.with_zone(me, z)


def _put_under(m, s, task, ins, choice, out):
    return s if choice == NONE else put_under(m, s, task.controller, task.source, choice, out)


_SCHEMA_PUT_UNDER = {
    "doc": "put one of your other creatures, with its auras and the cards under it, under this creature: at the "
           "bottom of its cards, in the order you choose (403.4a, 310.8b)",
    "properties": {"optional": {"type": "boolean"}},
}
op("put_under", schema=_SCHEMA_PUT_UNDER)((_put_under_options, _put_under))
