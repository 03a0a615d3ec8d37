"""Card words of the hidden-zone abilities declared at an attack (scenarios/attack/ A03-A08, A23):
what Revolution Change, Invasion and Ninja Change do when the declared ability resolves, and the two
entering abilities the rulings' cards need.

When they may be declared is the procedure's business (model/declarations.py); the condition a
Revolution Change or Invasion puts on the attacking creature is written as this instruction's
arguments (`any_of`, `all_of`, `cost_min`), so that the card loader checks it like any other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import mana
from ..events import Event, ev
from ..instr import Instr
from ..state import State, Task, other, replace
from ..vocabulary import ATTACK_DECLARED, CANNOT_LEAVE
from . import destruction, effects
from .common import distinct, multisets
from .pending_entry import hold_and_enter
from .registry import NONE, deterministic, instr, op, push

if TYPE_CHECKING:
    from ..game import Game

# the words whose arguments are a condition on the attacking creature, by the trigger they belong to
CONDITION_OPS = {"revolution_change": "revolution_change", "invasion": "invade"}
_NAMES = {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 50}
_CONDITION = {
    "any_of": {**_NAMES, "description": "civilizations or races of which the creature has at least one"},
    "all_of": {**_NAMES, "description": "civilizations or races the creature has every one of"},
    "cost_min": {"type": "integer", "minimum": 0, "description": "the creature's cost is at least this"},
}


def meets(m: Game, cid: int, ins: Instr | None) -> bool:
    """Whether creature `cid` meets the condition written in `ins` (no instruction: any creature)."""
    card = m.card(cid)
    if card.type != "creature":
        return False
    if ins is None:
        return True
    any_of, all_of = ins.get("any_of") or (), ins.get("all_of") or ()
    return (not any_of or any(card.is_of(k) for k in any_of)) and all(card.is_of(k) for k in all_of) \
        and card.cost >= (ins.get("cost_min") or 0)


def condition(ability) -> Instr | None:
    """The instruction of a Revolution Change or Invasion ability that carries its condition."""
    word = CONDITION_OPS.get(ability.trigger)
    return next((i for i in ability.effect if i.op == word), None)


def _tapped_like(s: State, player: str, new: int, old: int) -> State:
    """A23, A08: the creature put in its place keeps only the tapped state of the one it replaces."""
    z = s.zone(player)
    if old in z.tapped and new not in z.tapped:
        z = replace(z, tapped=tuple(sorted(z.tapped + (new,))))
    return s.with_zone(player, z)


# ---- swaps (入れ替える, R701.26a; S150-S152) --------------------------------------------------------
def swap(m: Game, s: State, player: str, card: int, old: int, ability: str) -> State:
    """Swap `card` in `player`'s hand with the creature `old` in the battle zone: both move, or neither.

    The two moves are one event: if `old` would not leave normally (a replacement keeps it, EX Life,
    True Escape; "does not leave"), the swap fails (S150). Since 2020-11-19 the replacement that would
    keep it is then not applied and nothing changes; before, only that replacement was applied and
    `card` stayed in the hand (the era switch `swap_all_or_nothing`). The owner of `old` decides
    whether to apply such a replacement, as for any leaving (R701.6a's path in destruction.py)."""
    return push(s, Task(program=(instr("_swap", card=card, old=old, ability=ability),), pc=0,
                        controller=m.owner(old), source=card, ability=ability))


def _swap_possible(m: Game, s: State, card: int, old: int) -> bool:
    """Both halves can happen: the card is in the hand and can enter alone (an evolution creature cannot:
    801.1a), and the creature is in the battle zone."""
    owner = m.owner(card)
    return card in s.zone(owner).hand and not m.card(card).evolution() and old in s.zone(m.owner(old)).battle


def _swap_options(m, s, task, ins):
    card, old = ins.get("card"), ins.get("old")
    if not _swap_possible(m, s, card, old) or m.has_keyword(s, old, CANNOT_LEAVE):
        return None   # nothing to decide: the swap happens or fails by itself
    found = destruction.replacements(m, s, old, destroy=False)
    if not found or (len(found) == 1 and not found[0][1]):
        return None   # no replacement, or one that must apply (EX Life): nothing to decide
    owner = m.owner(old)
    undone = m.version.swap_all_or_nothing
    opts = [((r,), f"{owner} keeps {m.label(old)} with {r.label}: " +
             ("the swap is not carried out and the replacement is not applied (since 2020-11-19)" if undone else
              f"only the replacement is applied, {m.label(card)} stays in the hand (before 2020-11-19)"))
            for r, _ in found]
    if all(optional for _, optional in found):
        opts.append((NONE, f"{owner} uses no replacement: {m.label(card)} and {m.label(old)} are swapped"))
    return opts


def _swap(m, s, task, ins, choice, out):
    card, old, ability = ins.get("card"), ins.get("old"), ins.get("ability")
    if not _swap_possible(m, s, card, old):
        return s   # a half is gone already: the swap does nothing
    player, owner = m.owner(card), m.owner(old)
    if choice is None and not m.has_keyword(s, old, CANNOT_LEAVE):
        found = destruction.replacements(m, s, old, destroy=False)
        choice = (found[0][0],) if found else None   # the one replacement that must apply
    failed = m.has_keyword(s, old, CANNOT_LEAVE) or (choice is not None and choice != NONE)
    if not failed:
        s = _tapped_like(effects.enter(m, s, player, card, "hand", out), player, card, old)
        if old == s.attacker:
            s = replace(s, attacker=card)   # R701.26a: it is the attacking creature, against the same target
        return destruction.move_out(m, s, old, "hand", out)
    if choice is not None and choice != NONE and not m.version.swap_all_or_nothing:
        # before 2020-11-19 (S150's "before" examples): the replacement alone is applied
        r = choice[0]
        out.append(ev("replace", "S150", replaced="leave", by=r.label, card=m.label(old)))
        effect = next(a for a in m.pool[r.card].abilities if a.id == r.ability).effect
        s = push(s, Task(program=effect, pc=0, controller=owner, source=old, ability=r.label,
                         binds=((destruction.REPLACING, 1),)))
    out.append(ev("fizzle", "R701.26a", card=m.label(card), player=player,
                  ability=ATTACK_DECLARED.get(ability, ability), **{"with": m.label(old)}))
    return s


op("_swap", chooser=lambda m, s, t, i: m.owner(i.get("old")))((_swap_options, _swap))


# ---- Revolution Change (R701.26a as cited by A23; A03, A04) -------------------------------------
def _revolution_change(m, s, task, ins, choice, out):
    """Swap this card in the hand with the attacking creature (same target): it becomes the attacking
    creature, the old one returns to the hand, both or neither (`swap`). Its entering abilities
    trigger (A04) and the old one's pending attack trigger stays."""
    me, card, old = task.controller, task.source, s.attacker
    if card not in s.zone(me).hand or old not in s.zone(me).battle or s.turn != me:
        return s
    return swap(m, s, me, card, old, "revolution_change")


_SCHEMA_REVOLUTION_CHANGE = {
    "doc": "Revolution Change's effect: swap this card in the hand with the attacking creature, which must "
           "meet the condition (checked at the declaration, A03)",
    "properties": dict(_CONDITION),
}
op("revolution_change", schema=_SCHEMA_REVOLUTION_CHANGE)((deterministic, _revolution_change))


# ---- Invasion (A05, A06) ------------------------------------------------------------------------
def _invade(m, s, task, ins, choice, out):
    """Put this card from the hand on top of the attacking creature: it becomes the attacking
    creature and what was under the old top is now under it. Under `invasion_condition_rechecked=yes`
    the attacking creature must still meet the condition (D-2)."""
    me, card, old = task.controller, task.source, s.attacker
    if card not in s.zone(me).hand or old not in s.zone(me).battle or s.turn != me:
        return s
    if m.readings.get("invasion_condition_rechecked") == "yes" and not meets(m, old, ins):
        return s
    z = s.zone(me)
    # the old top goes right under the new one, its own sources staying under it (a chain, model/piles.py);
    # what lay on the creature (auras, seals, cross gear) lies on its new top
    links = tuple(sorted([(c, card if h == old and k != "under" else h, k) for c, h, k in z.links]
                         + [(old, card, "under")]))
    tapped = tuple(sorted(set(c for c in z.tapped if c != old) | ({card} if old in z.tapped else set())))
    z = replace(z.remove("hand", card).remove("battle", old).add("battle", card).add("attached", old),
                links=links, tapped=tapped)
    s = replace(s.with_zone(me, z), attacker=card).inherit(old, card)   # S160: effects on the source carry over
    out.append(ev("put", "A06", card=m.label(card), player=me, onto=m.label(old), **{"from": "hand", "to": "battle"}))
    return m.trigger(s, "enters", me, card, out)


_SCHEMA_INVADE = {
    "doc": "Invasion's effect: put this card from the hand on top of the attacking creature, which must meet "
           "the condition when declared (rechecked on resolution only under `invasion_condition_rechecked=yes`)",
    "properties": dict(_CONDITION),
}
op("invade", schema=_SCHEMA_INVADE)((deterministic, _invade))


# ---- Ninja Change (A08) -------------------------------------------------------------------------
def ninja_used(m: Game, s: State, player: str) -> int:
    """How many Ninja abilities (Ninja Strike, Ninja Change) of `player`'s cards have been used so far."""
    labels = {m.ability_label(i.card, a.id) for i in m.instances if i.owner == player
              for a in m.pool[i.card].abilities if a.trigger in ("ninja_strike", "ninja_change")}
    return sum(n for label, n in s.uses if label in labels)


def _ninja_change_options(m, s, task, ins):
    """A08: only if no other Ninja ability of this player was used this attack (checked now, on
    resolution: a Ninja Strike resolved first makes it fail); the card must still be in the hand."""
    me, card = task.controller, task.source
    if card not in s.zone(me).hand or ninja_used(m, s, me) > 1:   # 1: this Ninja Change itself
        return []
    kinds = ins.get("any_of") or ()
    found = [c for c in s.zone(me).battle if m.card(c).type == "creature" and m.card(c).cost >= ins.get("cost_min")
             and (not kinds or any(m.card(c).is_of(k) for k in kinds))]
    opts = [((c,), f"{me} swaps {m.label(card)} with {m.label(c)} (Ninja Change)") for c in distinct(m, s, found)]
    return opts + [(NONE, f"{me} does not swap {m.label(card)}")] if opts else []


def _ninja_change(m, s, task, ins, choice, out):
    if choice == NONE:
        return s
    return swap(m, s, task.controller, task.source, choice[0], "ninja_change")   # both or neither (S150)


_SCHEMA_NINJA_CHANGE = {
    "doc": "Ninja Change's effect: if no other Ninja ability of yours was used this attack (checked on "
           "resolution), you may swap this card in the hand with one of your creatures of cost `cost_min` or "
           "more having one of `any_of`",
    "properties": {"cost_min": {"type": "integer", "minimum": 0}, "any_of": _NAMES},
    "required": ["cost_min"],
}
op("ninja_change", schema=_SCHEMA_NINJA_CHANGE)((_ninja_change_options, _ninja_change))


# ---- entering abilities of the rulings' cards ---------------------------------------------------
def _destroy_strongest(m, s, task, ins, choice, out):
    """Red Zone (A05): destroy every creature of the opponent that has the highest power among them."""
    theirs = [c for c in s.zone(other(task.controller)).battle if m.card(c).type == "creature"]
    if not theirs:
        return s
    top = max(m.card(c).power for c in theirs)
    for c in sorted(c for c in theirs if m.card(c).power == top):
        s = destruction.attempt(m, s, c, out)
    return s


_SCHEMA_DESTROY_STRONGEST = {
    "doc": "destroy all of the opponent's creatures with the highest power (Red Zone's entering ability)",
    "properties": {},
}
op("destroy_strongest", schema=_SCHEMA_DESTROY_STRONGEST)((deterministic, _destroy_strongest))


def _put_free_options(m, s, task, ins):
    """Which creatures (up to `count`, each with its zone) and in which order they enter (409.1f); a choice is
    (card, zone, card, zone, ...)."""
    me = task.controller
    z = s.zone(me)
    # a mana card is read as it lies there: a face-down one is no creature (405.4)
    found = {c: zone for zone in ins.get("from") for c in getattr(z, zone)
             if (mana.seen(m, z, c) if zone == "mana" else m.card(c)).type == "creature"
             and m.card(c).cost <= ins.get("cost_max")}
    opts = []
    for n in range(min(int(ins.get("count", 1)), len(found)), 0, -1):
        for combo in multisets(m, s, list(found), n):
            for order in effects.bottom_orders(m, combo):
                zones = sorted({found[c] for c in order})
                what = (f"{', '.join(map(m.label, order))} from the {zones[0]}" if len(zones) == 1 else
                        ", ".join(f"{m.label(c)} from the {found[c]}" for c in order))
                opts.append((tuple(x for c in order for x in (c, found[c])), f"{me} puts {what} into the battle zone"))
    return opts + [(NONE, f"{me} puts no creature")] if opts else []


def _put_free(m, s, task, ins, choice, out: list[Event]):
    """409.1a, 409.1f: the creatures chosen pend, then enter one by one (model/instructions/pending_entry.py)."""
    if choice == NONE:
        return s
    return hold_and_enter(s, task, task.controller, tuple(zip(choice[::2], choice[1::2])))


_SCHEMA_PUT_CREATURE_FREE = {
    "doc": "may put up to `count` (default 1) creatures of cost `cost_max` or less from the given zones into the "
           "battle zone: all pend, then they enter one by one in the order chosen (409.1a, 409.1f)",
    "properties": {"from": {"type": "array", "items": {"enum": ["hand", "mana"]}, "minItems": 1},
                   "cost_max": {"type": "integer", "minimum": 0},
                   "count": {"type": "integer", "minimum": 1, "maximum": 4}},
    "required": ["from", "cost_max"],
}
op("put_creature_free", schema=_SCHEMA_PUT_CREATURE_FREE)((_put_free_options, _put_free))


def _deck_to_mana(m, s, task, ins, choice, out):
    """Put the top card of its controller's deck into the mana zone (Stegoro Kaiser's attack trigger, A03);
    with `face_down`, face down (405.4: a colourless card of cost 0, so never tapped for its colours, 405.1)."""
    me = task.controller
    deck = s.zone(me).deck
    if not deck or not ins.get("face_down", False):
        return effects.move_cards(m, s, me, deck[:1], "deck", "mana", out) if deck else s
    z = s.zone(me).move("deck", "mana", deck[0])
    out.append(ev("move", "R405.4", card=m.label(deck[0]), player=me, **{"from": "deck", "to": "mana"}))
    return s.with_zone(me, mana.put_face_down(m, z, deck[0], out))


_SCHEMA_DECK_TO_MANA = {
    "doc": "put the top card of your deck into your mana zone (nothing if the deck is empty); `face_down`: face "
           "down, a colourless card of cost 0 while it lies there (405.4)",
    "properties": {"face_down": {"type": "boolean"}},
}
op("deck_to_mana", schema=_SCHEMA_DECK_TO_MANA)((deterministic, _deck_to_mana))


def _mana_to_hand_options(m, s, task, ins):
    me = task.controller
    opts = [((c,), f"{me} returns {m.label(c)} from the mana zone to the hand")
            for c in distinct(m, s, s.zone(me).mana)]
    return opts + [(NONE, f"{me} returns no card from the mana zone")] if opts else []


def _mana_to_hand(m, s, task, ins, choice, out):
    return s if choice == NONE else effects.move_cards(m, s, task.controller, choice, "mana", "hand", out)


_SCHEMA_MANA_TO_HAND = {
    "doc": "may return one card from your mana zone to your hand",
    "properties": {},
}
op("mana_to_hand", schema=_SCHEMA_MANA_TO_HAND)((_mana_to_hand_options, _mana_to_hand))
