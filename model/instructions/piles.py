"""Card words about cards made of several cards: moving only the top card of evolution
creatures, putting an evolution creature into the battle zone by an effect, sending a creature to the shield
zone, S-MAX evolution's loss replacement and its one-per-player rule, and effects that
count what an earlier instruction of theirs moved ("for each card returned", "destroy that many").

Where each card of a pile goes is model/instructions/pile_moves.py's; what a pile is, model/piles.py's.
"""

from __future__ import annotations

from itertools import permutations

from ..access import players as footprint_players
from ..events import ev
from ..piles import is_evolution_now, under
from ..state import Task, other, replace
from ..vocabulary import NEO, SMAX
from . import destruction, effects
from .common import creatures, distinct, multisets, same
from .pile_moves import start_counts, top_leaves
from .registry import BIND, COUNTS, NONE, WHOSE, Option, deterministic, instr, op, push

ALONE = ("alone",)   # a NEO creature put without evolving (802.1)


# ---- only the top card leaves (801.4; Royal Durian) ---------------------------------------------------
def _top_card_to(m, s, task, ins, choice, out):
    """Every evolution creature of `whose` loses its top card to its owner's `to` zone; what was under
    it is rebuilt (801.4: since 2021-03-16 stacked, before chosen by the owner, S205/S206). A top card
    moved this way is taken by the effect directly: no leave replacement is offered for it (a
    simplification)."""
    for p in footprint_players(task.controller, ins.get("whose", "any")):
        for cid in sorted(s.zone(p).battle):
            # a NEO evolution creature too, however its under-cards got there (802.2, 802.4)
            z = s.zone(p)
            if m.card(cid).type == "creature" and is_evolution_now(m.card(cid), z, cid) and under(z, cid):
                s = top_leaves(m, s, cid, ins.get("to"), out, destroy=False)
    return s


_SCHEMA_TOP_CARD_TO = {
    "doc": "put the top card of every evolution creature of `whose` into its owner's `to` zone; what was under "
           "it is rebuilt (801.4, by the rules of the era: S205, S206)",
    "properties": {"to": {"enum": ["mana", "hand", "graveyard"]}, "whose": WHOSE},
    "required": ["to"],
}
op("top_card_to", schema=_SCHEMA_TOP_CARD_TO)((deterministic, _top_card_to))


# ---- an evolution creature put into the battle zone by an effect (801.1, 801.2, 802, 815.1) --------------------
def _put_evolution_options(m, s, task, ins):
    """Where an effect may put an evolution creature: onto one of its owner's creatures (two for a Vortex
    Evolution, stacked in any order, 801.1b), identical creatures offered once; a NEO creature alone as well
    (802.1). With nothing to evolve onto an evolution creature cannot be put (801.1a): no option, it stays where
    it was."""
    me, card, zone = task.controller, ins.get("card"), ins.get("zone")
    if card not in getattr(s.zone(me), zone):
        return []
    cdef = m.card(card)
    if cdef.evolution() > 1:
        own = [c for c in s.zone(me).battle if m.card(c).type == "creature"]
        bases = [order for b in (multisets(m, s, own, cdef.evolution()) if len(own) >= cdef.evolution() else [])
                 for order in orders(m, s, b)]
    else:
        bases = [(c,) for c in creatures(m, s, me, "own")]
    opts: list[Option] = [(b, f"{me} puts {m.label(card)} onto {', '.join(m.label(c) for c in b)} (801)")
                          for b in bases]
    if cdef.has(NEO):
        opts.append((ALONE, f"{me} puts {m.label(card)} into the battle zone alone, not evolved (802.1)"))
    return opts


def orders(m, s, sources: tuple[int, ...]) -> list[tuple[int, ...]]:
    """801.1b: the orders the owner may stack several sources in, the first right under the evolution creature;
    orders that differ only by interchangeable cards are offered once."""
    seen: set[tuple] = set()
    out: list[tuple[int, ...]] = []
    for order in permutations(sources):
        key = tuple(same(m, s, c) for c in order)
        if key not in seen:
            seen.add(key)
            out.append(order)
    return out


def _put_evolution(m, s, task, ins, choice, out):
    me, card, zone = task.controller, ins.get("card"), ins.get("zone")
    summoned = bool(ins.get("summoned", False))
    if choice == ALONE:
        return effects.enter(m, s, me, card, zone, out, summoned=summoned)
    return evolve_onto(m, s, me, card, zone, choice, out, summoned)


def evolve_onto(m, s, me: str, card: int, zone: str, bases: tuple[int, ...], out, summoned: bool = False):
    """`card` goes from `zone` onto `bases` (801.1b: stacked under it, each with the cards already under it),
    and is the same creature as they were (801.2): what lay on them lies on it, tapped if one was (801.2b),
    the effects on them apply to it, and an attack of theirs goes on with it (801.2a). It was put into the
    battle zone: its "enters" triggers."""
    z = s.zone(me)
    if card not in getattr(z, zone) or any(b not in z.battle for b in bases):
        return s
    links = [(c, card if h in bases and k != "under" else h, k) for c, h, k in z.links]
    below = card
    for b in bases:
        links.append((b, below, "under"))
        chain = under(z, b)
        below = chain[-1] if chain else b
    tapped = [c for c in z.tapped if c not in bases] + ([card] if any(b in z.tapped for b in bases) else [])
    z = z.remove(zone, card).add("battle", card)
    for b in bases:
        z = z.remove("battle", b).add("attached", b)
    s = s.with_zone(me, replace(z, links=tuple(sorted(links)), tapped=tuple(sorted(tapped))))
    for b in bases:
        s = s.inherit(b, card)
        if s.attacker == b:
            s = replace(s, attacker=card)
        if s.target == b:
            s = replace(s, target=card)
    out.append(ev("put", "801", card=m.label(card), player=me, onto=m.label(bases[0]),
                  **{"from": zone, "to": "battle"}))
    return effects.entered(m, s, me, card, out, summoned)


op("_put_evolution")((_put_evolution_options, _put_evolution))


# ---- a creature into the shield zone (S211, S208) -------------------------------------------------------
def _to_shields_options(m, s, task, ins):
    me = task.controller
    opts = [((cid,), f"{me} puts {m.label(cid)} into its owner's shield zone")
            for cid in creatures(m, s, me, ins.get("whose", "opponent"))]
    if opts and ins.get("optional", False):
        opts.append((NONE, f"{me} chooses no creature"))
    return opts


def _to_shields(m, s, task, ins, choice, out):
    s, counts = start_counts(s, ins)
    return s if choice == NONE else destruction.leave(m, s, choice[0], "shields", out, counts=counts,
                                                      replaceable=not destruction.by_replacement(task))


_SCHEMA_TO_SHIELDS = {
    "doc": "put one creature face down into its owner's shield zone as a new shield; each card of its pile "
           "becomes a shield of its own, an aura too (S211, 310.8a)",
    "properties": {"whose": WHOSE, "optional": {"type": "boolean"}, **COUNTS},
}
op("to_shields", schema=_SCHEMA_TO_SHIELDS)((_to_shields_options, _to_shields))


# ---- S-MAX evolution: "when you would lose, instead destroy this creature or discard a copy" (S207) -----
def _smax_options(m, s, task, ins):
    me, card = task.controller, task.source
    z = s.zone(me)
    opts: list[Option] = []
    if card in z.battle:
        opts.append((("destroy", card), f"{me} destroys {m.label(card)} instead of losing"))
    copies = sorted(c for c in z.hand if m.instances[c].card == m.instances[card].card)
    if copies:
        opts.append((("discard", copies[0]), f"{me} discards {m.label(copies[0])} instead of losing"))
    return opts


def _smax(m, s, task, ins, choice, out):
    what, card = choice
    if what == "destroy":
        return destruction.attempt(m, s, card, out, replaceable=False)   # a replacement's move (S014)
    return effects.move_cards(m, s, task.controller, (card,), "hand", "graveyard", out)


_SCHEMA_SMAX_LOSS = {
    "doc": "S-MAX evolution's loss replacement (the effect of a `replaces: own_loss` ability): destroy this "
           "creature, or discard a card of the same name from the hand (S207)",
    "properties": {},
}
op("smax_loss", schema=_SCHEMA_SMAX_LOSS)((_smax_options, _smax))


# ---- one S-MAX evolution creature per player (815.1a) -------------------------------------------------------
ONE_SMAX = "one S-MAX per player (815.1a)"   # the ability name of the task that applies the rule


def smax_excess(m, s) -> str | None:
    """The player (the turn player first) who has two or more S-MAX evolution creatures in the battle zone
    now (815.1a of Ver.1.48: all but one, his choice, return to the hand; a static ability, so not while
    the abilities of every one of them are ignored), or None; None too while the rule is being applied."""
    if any(t.ability == ONE_SMAX for t in s.running):
        return None
    for p in (s.turn, other(s.turn)):
        found = [c for c in s.zone(p).battle if m.card(c).has(SMAX)]
        if len(found) > 1 and any(m.abilities_work(s, c) for c in found):
            return p
    return None


def one_smax(player: str) -> Task:
    return Task(program=(instr("_smax_one", player=player),), pc=0, controller=player, source=-1, ability=ONE_SMAX)


def _smax_one_options(m, s, task, ins):
    """Which one the player keeps. Before the declaration (the scenario's own position put right) a creature
    the scenario's attack names is the one kept: the attack says it was still there to attack or be attacked."""
    me = ins.get("player")
    found = [c for c in s.zone(me).battle if m.card(c).has(SMAX)]
    if len(found) < 2:
        return []
    named = [c for c in found if s.phase == "declare" and c in (s.attacker, s.target)]
    return [((c,), f"{me} keeps {m.label(c)}: the other S-MAX evolution creatures return to the hand (815.1a)")
            for c in named or distinct(m, s, found)]


def _smax_one(m, s, task, ins, choice, out):
    me, kept = ins.get("player"), choice[0]
    for c in sorted((c for c in s.zone(me).battle if m.card(c).has(SMAX) and c != kept), reverse=True):
        s = destruction.leave(m, s, c, "hand", out)
    return s


op("_smax_one", chooser=lambda m, s, t, i: i.get("player"))((_smax_one_options, _smax_one))


# ---- effects that count what they moved --------------------------------------------------------------
def _draw_for_each(m, s, task, ins, choice, out):
    """Draws like any draw (R114.2: n draws of one, each watched and each replaceable, R114.4)."""
    n = task.bound(ins.get("of")) or 0
    return effects.draw_n(m, s, task, n, None, out) if n else s


_SCHEMA_DRAW_FOR_EACH = {
    "doc": "draw one card for each card or creature an earlier instruction of this effect counted "
           "(`cards_as` / `creatures_as`)",
    "properties": {"of": BIND},
    "required": ["of"],
}
op("draw_for_each", schema=_SCHEMA_DRAW_FOR_EACH)((deterministic, _draw_for_each))


def _destroy_for_each(m, s, task, ins, choice, out):
    n = task.bound(ins.get("of")) or 0
    if not n:
        return s
    program = tuple(instr("destroy", whose=ins.get("whose", "opponent")) for _ in range(n))
    return push(s, Task(program=program, pc=0, controller=task.controller, source=task.source,
                        ability=task.ability))


_SCHEMA_DESTROY_FOR_EACH = {
    "doc": "destroy that many creatures of `whose`, one at a time: as many as an earlier instruction of this "
           "effect counted (\"destroy that many\")",
    "properties": {"of": BIND, "whose": WHOSE},
    "required": ["of"],
}
op("destroy_for_each", schema=_SCHEMA_DESTROY_FOR_EACH)((deterministic, _destroy_for_each))
