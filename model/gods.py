"""Gods and God links (804): several God cards in the battle zone that are one creature.

A linked God is kept like any card made of several cards (model/piles.py): one of its cards stands in
`Zones.battle` for the creature (its *head*: the God that was there first, so the creature keeps its id
when another God links to it, 804.3), and each other card lies in `attached`, linked to its neighbour
toward the head with the kind `god_left` (it lies to that card's left) or `god_right`. The cards form one
row, left to right (`row`).

- 804.1b: the linked God has every card's characteristics: the names of all (202.5, `names`), their
  abilities and keywords, civilizations and races, and one power, the sum of theirs (the G-Link reminder
  text: each God's characteristics, power and abilities, in one creature). `creature` gives the card
  record an effect reads; only the head's cost is kept (the rules do not say how costs combine).
- 804.2, 804.2a: a link is proper when a card's G-Link (`g_link:` of a card file) names the other card's
  own name on that side; each card is read alone, so a God linked to a Zen has Zen's name but is no Zen.
- 703.4e, 804.2b: an improper link comes apart at once (`improper`, `cut`); 804.7: a card leaving a linked God
  leaves the rest as the same creature (`split`).

What a God does when it enters and leaves is model/instructions/god_links.py's; this module reads rows
and rewrites one player's zones, nothing else.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any

from . import kings, super_soul
from .characteristics import CIVILIZATIONS, INFINITY
from .state import State, Zones, replace

LEFT, RIGHT = "god_left", "god_right"
GOD_KINDS = (LEFT, RIGHT)


def linked(z: Zones, card: int) -> bool:
    """Whether the creature `card` is a linked God (another God card lies beside it)."""
    return bool(z.links) and any(h == card and k in GOD_KINDS for _, h, k in z.links)


def _next(z: Zones, card: int, kind: str) -> int | None:
    return next((c for c, h, k in z.links if h == card and k == kind), None)


def row(z: Zones, head: int) -> tuple[int, ...]:
    """The cards of the God creature `head`, left to right (only `head` when it is no linked God)."""
    if not z.links:
        return (head,)
    left: list[int] = []
    right: list[int] = []
    for side, out in ((LEFT, left), (RIGHT, right)):
        cur = _next(z, head, side)
        while cur is not None:
            out.append(cur)
            cur = _next(z, cur, side)
    return tuple(reversed(left)) + (head,) + tuple(right)


def head_of(z: Zones, card: int) -> int:
    """The creature a God card is part of: the card itself, or the head its links lead to."""
    host = next((h for c, h, k in z.links if c == card and k in GOD_KINDS), None)
    while host is not None:
        card = host
        host = next((h for c, h, k in z.links if c == card and k in GOD_KINDS), None)
    return card


# ---- 804.1b: what the linked creature is -------------------------------------------------------------
@lru_cache(maxsize=256)
def merged(defs: tuple[Any, ...]) -> Any:
    """One card record with every card's characteristics (804.1b): the first card's name and cost, the
    sum of the powers (∞ stays ∞, R108.1c), every keyword and ability, every civilization and race, the
    greatest breaker."""
    first = defs[0]
    power = min(sum(d.power for d in defs), INFINITY)
    civs = tuple(c for c in CIVILIZATIONS if any(c in d.civs() for d in defs))
    races = tuple(dict.fromkeys(r for d in defs for r in d.race_names()))
    return dataclasses.replace(first, power=power, breaker=max(d.breaker for d in defs),
                               keywords=tuple(k for d in defs for k in d.keywords if k not in CIVILIZATIONS),
                               abilities=tuple(a for d in defs for a in d.abilities),
                               civilizations=civs, races=races)


def creature(m: Any, s: State, cid: int) -> Any:
    """The card record an effect reads of the creature `cid`: its card's, for a linked God the record
    of all its cards (804.1b), for a King creature its King's (814.1, model/kings.py), for a creature with cards
    under it its card's and the 超魂X of those cards (818.1b, model/super_soul.py)."""
    z = s.zone(m.owner(cid))
    if not z.links:
        return m.card(cid)
    if kings.cells(z, cid):
        return kings.record(m, m.card(cid))
    if not linked(z, cid):
        return super_soul.given(m.card(cid), super_soul.parts(m, z, cid))   # 818.1b: what lies under gives
    return merged(tuple(m.card(c) for c in row(z, cid)))


def parts(m: Any, s: State, cid: int) -> tuple[int, ...]:
    """The cards the creature `cid` is made of as a God: the row, or `cid` alone."""
    z = s.zone(m.owner(cid))
    return row(z, cid) if linked(z, cid) else (cid,)


def names(m: Any, s: State, cid: int) -> tuple[str, ...]:
    """202.5: a linked God has the name of each of its cards (English and Japanese)."""
    return tuple(n for c in parts(m, s, cid) for n in (m.card(c).name, m.card(c).ja) if n)


# ---- 804.2: which links are proper ------------------------------------------------------------------------
def fits(left: Any, right: Any) -> bool:
    """804.2, 804.2a: `left` may lie at the left of `right`: one of the two cards' own G-Link names the other
    card, on that side (each card read alone, never a linked God's borrowed names)."""
    return _names(left.g_link, "left", right) or _names(right.g_link, "right", left)


def _names(g_link: tuple[tuple[str, str], ...], side: str, other: Any) -> bool:
    return any(where == side and name in (other.name, other.ja) for name, where in g_link)


def improper(m: Any, z: Zones) -> tuple[tuple[int, int], ...]:
    """(card, host) of every God link of one player's zones that no G-Link supports now (703.4e)."""
    out = []
    for c, h, k in z.links:
        if k == LEFT and not fits(m.card(c), m.card(h)):
            out.append((c, h))
        elif k == RIGHT and not fits(m.card(h), m.card(c)):
            out.append((c, h))
    return tuple(out)


def free_sides(m: Any, z: Zones, card: Any) -> tuple[tuple[int, int, str], ...]:
    """Where a God card entering the battle zone may link (804.1a, 804.2): (creature, neighbour card, kind)
    for each end of a God row of the same player that fits it and is not taken (both cards Gods, 804.1)."""
    found = []
    for head in z.battle:
        cards = row(z, head)
        for end, kind in ((cards[0], LEFT), (cards[-1], RIGHT)):
            other = m.card(end)
            ok = bool(other.g_link) and (fits(card, other) if kind == LEFT else fits(other, card))
            if ok:
                found.append((head, end, kind))
    return tuple(found)


# ---- rewriting rows ---------------------------------------------------------------------------------------
def relink(z: Zones, cards: tuple[int, ...], head: int) -> Zones:
    """`cards` (left to right) become one God creature standing as `head`; a single card is a plain creature."""
    links = [link for link in z.links if not (link[2] in GOD_KINDS and (link[0] in cards or link[1] in cards))]
    i = cards.index(head)
    for j, c in enumerate(cards):
        if j < i:
            links.append((c, cards[j + 1], LEFT))
        elif j > i:
            links.append((c, cards[j - 1], RIGHT))
    battle = tuple(sorted(set(z.battle) - set(cards) | {head}))
    attached = tuple(sorted(set(z.attached) - {head} | (set(cards) - {head})))
    return replace(z, battle=battle, attached=attached, links=tuple(sorted(links)))


def split(s: State, owner: str, head: int, out_card: int, keeper: int = -1) -> tuple[State, tuple[int, ...]]:
    """`out_card` stops being part of the God creature `head` (804.7 before it leaves): it stands alone in the
    battle zone; the cards left of it and right of it stay as God creatures (two when it was in the middle,
    804.4a). The creature that stays is the same creature (804.4): its tapped state, the effects on it and
    the attack go on with it. R804.4a: of two parts, the one whose head is `keeper` (the attacking player's
    pick) keeps the attack. Returns the state and the heads that stay (the first keeps the attack)."""
    cards = row(s.zone(owner), head)
    i = cards.index(out_card)
    return _separate(s, owner, head, (cards[:i], (out_card,), cards[i + 1:]), out_card, keeper)


def cut(s: State, owner: str, card: int, host: int) -> State:
    """703.4e, 804.2b: the improper link between `card` and its neighbour `host` comes apart; the cards on
    each side stay as creatures of their own, each with the effects of the creature they were (804.4)."""
    z = s.zone(owner)
    head = head_of(z, host)
    cards = row(z, head)
    k = max(cards.index(card), cards.index(host))
    return _separate(s, owner, head, (cards[:k], cards[k:]), -1)[0]


def _separate(s: State, owner: str, head: int, segments: tuple[tuple[int, ...], ...],
              alone: int, chosen: int = -1) -> tuple[State, tuple[int, ...]]:
    """The row of `head` becomes one creature per segment (`alone`: a card that is no longer the creature)."""
    z = s.zone(owner)
    tapped = head in z.tapped
    heads: list[int] = []
    for seg in segments:
        if not seg:
            continue
        new = head if head in seg else seg[0]
        z = relink(z, seg, new)
        if alone not in seg:
            heads.append(new)
    marks = set(z.tapped) - set(heads)
    if tapped:
        marks |= set(heads)
    s = s.with_zone(owner, replace(z, tapped=tuple(sorted(marks))))
    if not heads:
        return s, ()
    keeper = chosen if chosen in heads else head if head in heads else heads[0]
    if keeper != head:
        s = _hand_over(s, head, keeper)
    for other in heads:
        if other != keeper:
            s = _share(s, keeper, other)
    return s, (keeper,) + tuple(h for h in heads if h != keeper)


def _hand_over(s: State, old: int, new: int) -> State:
    """The card that stood for the creature leaves; `new` stands for it now (804.4: the same creature)."""
    changes: dict[str, Any] = {}
    if s.attacker == old:
        changes["attacker"] = new
    if s.target == old:
        changes["target"] = new
    s = s.inherit(old, new)
    return replace(s, **changes) if changes else s


_EFFECT_FIELDS = ("extra_breaks", "boosts", "guards", "cant_attack", "powers", "traits", "granted", "lasting",
                  "restrictions")


def _share(s: State, have: int, new: int) -> State:
    """804.4a: a God split into two keeps every effect on each part."""
    moved = s.inherit(have, new)
    changes = {}
    for f in _EFFECT_FIELDS:
        extra = tuple(v for v in getattr(moved, f) if (v[0] if isinstance(v, tuple) else v) == new)
        if extra:
            changes[f] = tuple(sorted(getattr(s, f) + extra))
    return replace(s, **changes) if changes else s
