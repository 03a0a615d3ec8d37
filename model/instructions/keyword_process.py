"""Card words for keyword processes of rule 701 that move a card in a way of its own: charging mana from
the hand (R701.8a), fortifying a shield with a castle (R701.19a, R304.2), generating a cross gear
(R701.16a) and crossing it onto a creature (R701.17a, R303.3c, R303.4).

Each is told apart from the other moves to the same zone by its own event, which triggered abilities
may watch (model/trigger_patterns.py EVENTS): `charged` is a charge, never a card put into the mana zone
from the deck or the battle zone; `fortified` is a castle put onto a shield, never a shield added.

- `charge: {optional}`: its controller puts one card of his hand into his mana zone as a mana charge.
- `fortify: {optional}`: its controller puts one castle of his hand onto one of his shields (R304.2); the
  castle's abilities work from there as those of a castle the position started with (D2's replacement).
- `generate: {optional}`: its controller puts one cross gear of his hand into his battle zone, crossed to
  nothing (R701.16a, 303.2); event `generated`.
- `cross: {optional}`: its controller crosses one of his cross gears in the battle zone onto one of his
  creatures (R701.17a, 303.3c): one crossed to nothing, or one crossed already onto another creature
  (303.4), never again onto the creature it is crossed to (303.4a); event `crossed`. What a crossed gear
  gives its creature is the card file's (Bajula's Soul's is omitted); where the gear lies is the model's
  (it stays in the battle zone when its creature leaves, 303.5, model/instructions/pile_moves.py).
Paying a cost is not modelled: these are the free charges and fortifications effects make (701.5a).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import mana
from ..events import ev
from ..state import State, replace
from .common import creatures, distinct
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


def charge(m: Game, s: State, player: str, cid: int, out, rule: str = "R701.8a") -> State:
    """R701.8a: a card of `player`'s hand goes into his mana zone as a charge, and `charged` triggers (the
    charge step's charge, R503.1, is the same move: model/main_step.py)."""
    z = s.zone(player).move("hand", "mana", cid)
    out.append(ev("charge", rule, card=m.label(cid), player=player))
    s = s.with_zone(player, mana.entered(m, z, cid, out))   # 405.1
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


# ---- generating and crossing a cross gear (R701.16a, R701.17a, R303.3c, R303.4) ------------------------
def _generate_options(m, s, task, ins) -> list[Option]:
    me = task.controller
    gears = distinct(m, s, [c for c in s.zone(me).hand if m.card(c).type == "cross_gear"])
    opts: list[Option] = [((c,), f"{me} generates {m.label(c)}") for c in gears]
    if opts and ins.get("optional", False):
        opts.append((NONE, f"{me} generates no cross gear"))
    return opts


def _generate(m, s, task, ins, choice, out):
    if choice == NONE:
        return s
    me, gear = task.controller, choice[0]
    s = s.with_zone(me, s.zone(me).move("hand", "battle", gear))
    out.append(ev("generate", "R701.16a", card=m.label(gear), player=me))
    return m.trigger(s, "generated", me, gear, out) if "generated" in m.words else s


_SCHEMA_GENERATE = {
    "doc": "generate (R701.16a): put one cross gear from own hand into own battle zone, crossed to nothing",
    "properties": dict(_OPTIONAL),
}
op("generate", schema=_SCHEMA_GENERATE)((_generate_options, _generate))


def crossed_to(z, gear: int) -> int:
    """The creature `gear` is crossed to, or -1 (a gear in the battle zone crossed to nothing)."""
    return next((h for c, h, k in z.links if c == gear and k == "cross"), -1)


def _cross_options(m, s, task, ins) -> list[Option]:
    me = task.controller
    z = s.zone(me)
    gears = [c for c in z.battle if m.card(c).type == "cross_gear"] + \
        [c for c in z.attached if m.card(c).type == "cross_gear" and crossed_to(z, c) >= 0]
    targets = creatures(m, s, me, "own")
    opts: list[Option] = [((g, c), f"{me} crosses {m.label(g)} onto {m.label(c)}")
                          for g in gears for c in targets if c != crossed_to(z, g)]   # 303.4a
    if opts and ins.get("optional", False):
        opts.append((NONE, f"{me} crosses no cross gear"))
    return opts


def _cross(m, s, task, ins, choice, out):
    return s if choice == NONE else cross(m, s, task.controller, choice[0], choice[1], out)


def cross(m: Game, s: State, player: str, gear: int, creature: int, out) -> State:
    """R701.17a: the gear goes under `creature` (from the battle zone, or from the creature it was crossed
    to, 303.4); `crossed` triggers."""
    z = s.zone(player)
    if creature not in z.battle or crossed_to(z, gear) == creature:
        return s
    if gear in z.battle:
        z = z.remove("battle", gear).add("attached", gear)
    links = tuple(sorted([link for link in z.links if not (link[0] == gear and link[2] == "cross")]
                         + [(gear, creature, "cross")]))
    s = s.with_zone(player, replace(z, links=links))
    out.append(ev("cross", "R701.17a", card=m.label(gear), player=player, onto=m.label(creature)))
    return m.trigger(s, "crossed", player, gear, out) if "crossed" in m.words else s


_SCHEMA_CROSS = {
    "doc": "cross (R701.17a, 303.3c): put one own cross gear of the battle zone under one own creature; a gear "
           "crossed already may move to another creature (303.4), never onto the one it is crossed to (303.4a)",
    "properties": dict(_OPTIONAL),
}
op("cross", schema=_SCHEMA_CROSS)((_cross_options, _cross))
