"""Card words for keyword processes of rule 701 that move a card in a way of its own: charging mana from
the hand (R701.8a) and fortifying a shield with a castle (R701.19a, R304.2).

Each is told apart from the other moves to the same zone by its own event, which triggered abilities
may watch (model/trigger_patterns.py EVENTS): `charged` is a charge, never a card put into the mana zone
from the deck or the battle zone; `fortified` is a castle put onto a shield, never a shield added.

- `charge: {optional}`: its controller puts one card of his hand into his mana zone as a mana charge.
- `fortify: {optional}`: its controller puts one castle of his hand onto one of his shields (R304.2); the
  castle's abilities work from there as those of a castle the position started with (D2's replacement).
Paying a cost is not modelled: these are the free charges and fortifications effects make (701.5a).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import ev
from ..state import State, replace
from .common import distinct
from .registry import NONE, Option, op

if TYPE_CHECKING:
    from ..game import Game

_OPTIONAL = {"optional": {"type": "boolean", "description": "he may decline (default: he must if he can)"}}


# ---- mana charge (R701.8a) ------------------------------------------------------------------------------
def _charge_options(m, s, task, ins) -> list[Option]:
    me = task.controller
    opts: list[Option] = [((c,), f"{me} charges {m.label(c)} from the hand into the mana zone")
                          for c in distinct(m, s, s.zone(me).hand)]
    if opts and ins.get("optional", False):
        opts.append((NONE, f"{me} charges no card"))
    return opts


def _charge(m, s, task, ins, choice, out):
    return s if choice == NONE else charge(m, s, task.controller, choice[0], out)


def charge(m: Game, s: State, player: str, cid: int, out) -> State:
    """R701.8a: a card of `player`'s hand goes into his mana zone as a charge, and `charged` triggers."""
    s = s.with_zone(player, s.zone(player).move("hand", "mana", cid))
    out.append(ev("charge", "R701.8a", card=m.label(cid), player=player))
    return m.trigger(s, "charged", player, cid, out) if "charged" in m.words else s


_SCHEMA_CHARGE = {
    "doc": "mana charge (R701.8a): put one card from own hand into own mana zone; abilities watching "
           "`charged` trigger, unlike on other moves to the mana zone",
    "properties": dict(_OPTIONAL),
}
op("charge", schema=_SCHEMA_CHARGE)((_charge_options, _charge))


# ---- fortifying a shield with a castle (R701.19a, R304.2) -----------------------------------------------
def _fortify_options(m, s, task, ins) -> list[Option]:
    me = task.controller
    z = s.zone(me)
    castles = distinct(m, s, [c for c in z.hand if m.card(c).type == "castle"])
    shields = distinct(m, s, list(z.shields))
    opts: list[Option] = [((c, sh), f"{me} fortifies {m.label(sh)} with {m.label(c)}")
                          for c in castles for sh in shields]
    if opts and ins.get("optional", False):
        opts.append((NONE, f"{me} fortifies no shield"))
    return opts


def _fortify(m, s, task, ins, choice, out):
    return s if choice == NONE else fortify(m, s, task.controller, choice[0], choice[1], out)


def fortify(m: Game, s: State, player: str, castle: int, shield: int, out) -> State:
    """R701.19a, R304.2: the castle goes from the hand onto the shield, which it fortifies from now on
    (304.2a); `fortified` triggers."""
    z = s.zone(player)
    if castle not in z.hand or shield not in z.shields:
        return s
    z = z.remove("hand", castle).add("attached", castle)
    s = s.with_zone(player, replace(z, links=tuple(sorted(z.links + ((castle, shield, "castle"),)))))
    out.append(ev("fortify", "R701.19a", card=m.label(castle), player=player, shield=m.label(shield)))
    return m.trigger(s, "fortified", player, castle, out) if "fortified" in m.words else s


_SCHEMA_FORTIFY = {
    "doc": "fortify (R701.19a, R304.2): put one castle from own hand onto one of own shields, its owner "
           "choosing both; the castle's abilities then work as a fortifying castle's",
    "properties": dict(_OPTIONAL),
}
op("fortify", schema=_SCHEMA_FORTIFY)((_fortify_options, _fortify))
