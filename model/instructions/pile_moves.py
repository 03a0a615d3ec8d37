"""Where the cards of a pile go when its creature leaves the battle zone, or when only its top card does
(the piles themselves are model/piles.py's).

- A creature leaving the battle zone takes its pile along: the cards under an evolution creature go to
  the same zone (801; S201, S221: to the mana zone too), its auras as well (310.8, S208), each as a card
  of its own there — a separate new shield each in the shield zone (S211; an aura face down, 310.8a).
  Seals go to the graveyard (S003); crossed cross gear stays in the battle zone, crossed to nothing (S220), and
  so does an equipped weapon, which R117.2 then sends to the hyperspatial zone (model/homes.py).
- When only the top card leaves (Star Evolution's replacement, 813.1; a top-card removal such as Royal
  Durian's), what was under it is rebuilt (801.4): since 2021-03-16 the card right under it stays as the
  creature, with the rest still under it, non-creature cards on top going to the graveyard until a
  creature is on top (S205); before, up to as many creatures as the evolution needed stayed as separate
  creatures, chosen by their owner, and the rest went to the graveyard (S206). The rebuilt creature is
  not put into the battle zone (801.4c): nothing "enters", it keeps the tapped state and the attack.
- Effects that count what they moved (`cards_as`, `creatures_as` in model/instructions/piles.py) are
  tallied here, at the moment the cards really move.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from ..events import Event, ev
from ..piles import FOLLOWS, ON_TOP, STAYS, pile, under
from ..state import State, Task, Zones, replace
from .registry import Option, instr, op, push

if TYPE_CHECKING:
    from ..game import Game

TALLY = "tally"   # a `_leave`'s argument: (cards name, creatures name) of the effect counting what it moves


def take_pile(m: Game, z: Zones, card: int, to: str, out: list[Event]) -> tuple[Zones, list[tuple[int, str]]]:
    """Move the cards lying on or under `card` where the rules send them when `card` goes to `to`;
    return the zones and the cards that went to the graveyard with their kind (for R701.6b)."""
    gone: list[tuple[int, str]] = []
    owner = m.owner(card)
    moved = []
    for c, kind in pile(z, card):
        z = z.remove("attached", c).unlink(c)
        if kind in STAYS:
            z = z.add("battle", c)   # S220: the cross gear stays in the battle zone, crossed to nothing (a weapon
            continue                 # too, until R117.2 sends it home: model/homes.py)
        dest = to if kind in FOLLOWS else "graveyard"   # 801, 310.8; a seal goes to the graveyard (S003)
        z = z.add(dest, c)   # before the creature itself: on the deck top, it ends above them
        if dest == "graveyard":
            gone.append((c, kind))
        else:
            moved.append(c)
            out.append(ev("move", "310.8" if kind == "aura" else "801", card=m.label(c), player=owner,
                          **{"from": "battle", "to": "deck" if dest.startswith("deck") else dest}))
    return z, gone


def followers(z: Zones, card: int) -> tuple[int, ...]:
    """The cards that go with `card` when it leaves (its sources and auras)."""
    return tuple(c for c, kind in pile(z, card) if kind in FOLLOWS)


def counted(m: Game, z: Zones, card: int) -> int:
    """How many cards an effect moving `card` counts as moved: the creature's card and, under the
    reading `pile_count=cards` (default), the cards under it (316.3, S217); never its auras, which the
    aura rule moves, not the effect (S209)."""
    sources = under(z, card) if z.links else ()
    if not sources:
        return 1
    return 1 + len(sources) if m.readings.get("pile_count") == "cards" else 1


def start_counts(s: State, ins) -> tuple[State, tuple]:
    """Bind the counts an instruction keeps (`cards_as`, `creatures_as`) at zero in its task; return the
    names for the moves it starts (`()` when it counts nothing)."""
    names = (ins.get("cards_as") or "", ins.get("creatures_as") or "")
    if not any(names):
        return s, ()
    top = s.running[-1]
    binds = tuple((k, v) for k, v in top.binds if k not in names) + tuple((n, 0) for n in names if n)
    return replace(s, running=s.running[:-1] + (replace(top, binds=binds),)), names


def tally(s: State, names: tuple, cards: int, creatures: int) -> State:
    """Add what an effect moved to the counts it keeps (the nearest running task binding those names)."""
    for name, n in zip(names, (cards, creatures)):
        if not name or not n:
            continue
        for k in range(len(s.running) - 1, -1, -1):
            t = s.running[k]
            if t.bound(name) is not None:
                binds = tuple((key, v + n if key == name else v) for key, v in t.binds)
                running = s.running[:k] + (replace(t, binds=binds),) + s.running[k + 1:]
                s = replace(s, running=running)
                break
    return s


# ---- only the top card leaves: rebuilding (801.4) -------------------------------------------------------
def top_leaves(m: Game, s: State, card: int, to: str, out: list[Event], destroy: bool) -> State:
    """Only `card`, the top of its pile, goes to `to`; what was under it is rebuilt (801.4, S205/S206)."""
    owner = m.owner(card)
    z = s.zone(owner)
    if card not in z.battle:
        return s
    carried = tuple((c, k) for c, h, k in z.links if h == card and k in ON_TOP)
    tapped = card in z.tapped
    # what lay on it or under it stays linked to `card` until it is rebuilt
    z = replace(z.remove("battle", card).add(to, card), tapped=tuple(c for c in z.tapped if c != card))
    s = s.with_zone(owner, z)
    rule = "813.1" if m.card(card).has("top_card_leaves_instead") else "801.4"
    if to == "graveyard":   # a creature's card from the battle zone to the graveyard: destroyed (R701.6b)
        out.append(ev("destroyed", "R701.6b", card=m.label(card), player=owner))
        s = m.trigger(s, "destroyed", owner, card, out)
    else:
        out.append(ev("put", rule, card=m.label(card), player=owner,
                      **{"from": "battle", "to": "deck" if to.startswith("deck") else to}))
    if "leaves" in m.words:
        s = m.trigger(s, "leaves", owner, card, out, to="deck" if to.startswith("deck") else to)
    if m.version.rebuild_keeps_stack:
        return _rebuild(m, s, owner, card, carried, tapped, out)
    keep = m.card(card).evolution() or 1
    return push(s, Task(program=(instr("_rebuild_old", card=card, keep=keep, tapped=tapped),), pc=0,
                        controller=owner, source=card, ability="rebuild (801.4, before 2021-03-16)"))


# the card types that may stand alone in the battle zone (801.4a: 単独でバトルゾーンに存在できるカード): a creature
# (not a psychic cell, 806.1a, nor a King Cell, 814.1d), a tamaseed, a cross gear (S220) and a dragheart fortress;
# never a spell or castle (302.3), an aura (310.5) or a weapon (305.3, R117.2). The model has no fields.
STANDING = ("creature", "tamaseed", "cross_gear", "dragheart_fortress")
# those that keep the tapped state of the evolution creature that left (801.4d); any other stands upright
KEEP_TAPPED = ("creature", "tamaseed")


def stands_alone(m: Game, card: int) -> bool:
    """801.4a: whether `card` may stay alone in the battle zone when the top over it leaves."""
    cdef = m.card(card)
    return cdef.type in STANDING and not cdef.cell and not cdef.king


def _rebuild(m: Game, s: State, owner: str, old: int, carried: tuple, tapped: bool,
             out: list[Event]) -> State:
    """801.4a-b (since 2021-03-16): cards that cannot stand alone (801.4a: a spell, an aura...) go to the
    graveyard from the top until one that can is on top; it stays with the rest under it (a creature, or a
    tamaseed), and what lay on the top lies on it."""
    z = s.zone(owner)
    nxt = next((c for c, h, k in z.links if h == old and k == "under"), None)
    while nxt is not None:
        c = nxt
        nxt = next((x for x, h, k in z.links if h == c and k == "under"), None)
        if not stands_alone(m, c):
            z = replace(z.remove("attached", c).add("graveyard", c),
                        links=tuple(link for link in z.links if link[0] != c))
            out.append(ev("move", "801.4a", card=m.label(c), player=owner, **{"from": "battle", "to": "graveyard"}))
            continue
        links = tuple(sorted([link for link in z.links if link[0] != c and link[1] != old]
                             + [(a, c, k) for a, k in carried]))
        z = replace(z.remove("attached", c).add("battle", c), links=links)
        if tapped and m.card(c).type in KEEP_TAPPED:
            z = replace(z, tapped=tuple(sorted(z.tapped + (c,))))   # 801.4d: the same tapped state
        out.append(ev("rebuild", "801.4", card=m.label(c), player=owner, top=m.label(old)))
        return _carry(s.with_zone(owner, z), old, c, m.card(c).type == "creature")
    return _carry(s.with_zone(owner, _nothing_left(z, carried)), old, -1)


def _nothing_left(z: Zones, carried: tuple) -> Zones:
    """Nothing was rebuilt: what lay on the top has nothing to lie on (a cross gear stays, S220)."""
    for a, kind in carried:
        z = z.remove("attached", a).unlink(a).add("battle" if kind in STAYS else "graveyard", a)
    return z


def _carry(s: State, old: int, new: int, creature: bool = True) -> State:
    """801.4c: the rebuilt creature is the one that was there (the attack goes on with it, its effects
    stay); with nothing rebuilt, or a card that is no creature (a tamaseed, 801.4a), the attacking creature has
    left (R509.4c)."""
    changes: dict[str, Any] = {}
    if s.attacker == old:
        changes = {"attacker": new} if new >= 0 and creature else {"attacker_left": True}
    if s.target == old and new >= 0 and creature:
        changes["target"] = new
    # 801.4c (Ver.1.48): what applied to the creature before the rebuild still applies to it after (every
    # effect on creatures: State.inherit); with nothing rebuilt, the card that left is a new object (110.2e)
    s = s.inherit(old, new) if new >= 0 else s.forget(old)
    return replace(s, **changes) if changes else s


def _rebuild_old_options(m, s, task, ins) -> list[Option] | None:
    """Before 2021-03-16 (S206): up to `keep` of the creatures under the top that left stay as separate
    creatures, their owner choosing (fewer, or none, is allowed); evolution creatures among them need a
    source and go to the graveyard (a simplification: no source is re-chosen)."""
    owner = task.controller
    z = s.zone(owner)
    sources = [c for c, h, k in z.links if k == "under" and _from_pile(z, c, ins.get("card"))]
    stay = [c for c in sources if m.card(c).type == "creature" and not m.card(c).evolution()]
    opts: list[Option] = []
    for n in range(min(ins.get("keep"), len(stay)), -1, -1):
        for combo in combinations(sorted(stay), n):
            names = ", ".join(m.label(c) for c in combo) or "none"
            opts.append((combo, f"{owner} keeps {names} in the battle zone (801.4, before 2021-03-16)"))
    return opts if len(opts) > 1 else None   # nothing can stay: nothing to decide


def _from_pile(z: Zones, card: int, old: int) -> bool:
    """Whether `card` lay under `old` (its chain reached `old`, whose own link is already gone)."""
    host = next((h for c, h, k in z.links if c == card and k == "under"), None)
    while host is not None:
        if host == old:
            return True
        host = next((h for c, h, k in z.links if c == host and k == "under"), None)
    return False


def _rebuild_old(m, s, task, ins, choice, out):
    owner, old = task.controller, ins.get("card")
    z = s.zone(owner)
    sources = [c for c, h, k in z.links if k == "under" and _from_pile(z, c, old)]
    carried = tuple((c, k) for c, h, k in z.links if h == old and k != "under")
    keep = sorted(choice or ())
    for c in sorted(sources):
        z = z.remove("attached", c).unlink(c)
        if c in keep:
            z = z.add("battle", c)
            if ins.get("tapped"):
                z = replace(z, tapped=tuple(sorted(z.tapped + (c,))))
            out.append(ev("rebuild", "801.4", card=m.label(c), player=owner, top=m.label(old)))
        else:
            z = z.add("graveyard", c)
            out.append(ev("move", "801.4", card=m.label(c), player=owner, **{"from": "battle", "to": "graveyard"}))
    if keep:   # what lay on the top lies on a creature that stayed (its owner's choice: the first kept)
        z = replace(z, links=tuple(sorted([link for link in z.links if link[1] != old]
                                          + [(a, keep[0], k) for a, k in carried])))
    else:
        z = _nothing_left(z, carried)
    return _carry(s.with_zone(owner, z), old, keep[0] if keep else -1)


op("_rebuild_old")((_rebuild_old_options, _rebuild_old))


# ---- G-NEO: the cards under it leave instead (803.2) -------------------------------------------------------
def under_leaves(m: Game, s: State, card: int, to: str, out: list[Event]) -> State:
    """803.2: every card under the G-NEO evolution creature `card` goes where the creature was going (each a
    card of its own there, a separate shield in the shield zone); the creature stays, with what lies on it, and
    is no evolution creature any more (802.2). Cards under a creature are no creatures: none is destroyed."""
    owner = m.owner(card)
    z = s.zone(owner)
    if card not in z.battle:
        return s
    for c in under(z, card):
        z = z.remove("attached", c).unlink(c).add(to, c)
        out.append(ev("move", "803.2", card=m.label(c), player=owner,
                      **{"from": "battle", "to": "deck" if to.startswith("deck") else to}))
    return s.with_zone(owner, z)


def _under_leaves(m, s, task, ins, choice, out):
    return under_leaves(m, s, ins.get("card"), ins.get("to"), out)


op("_under_leaves")((lambda m, s, t, i: None, _under_leaves))


def _top_leaves(m, s, task, ins, choice, out):
    return top_leaves(m, s, ins.get("card"), ins.get("to"), out, bool(ins.get("destroy")))


op("_top_leaves")((lambda m, s, t, i: None, _top_leaves))
