"""The card vocabulary's instructions (model/vocabulary.py): what each may choose and what it does.

Identical cards are offered once (see `ops.distinct`). Moving a creature out of the battle zone
goes through `destruction.leave`, so replacement effects (EX Life, Escape, ...) get their say.
"""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING

from . import destruction
from .cards import Instr
from .events import Event, ev
from .ops import (NONE, OPS, Option, advance_pc, bind, creatures, deterministic, distinct, instr, multisets, op,
                  push)
from .state import State, Task, other, pindex, replace

if TYPE_CHECKING:
    from .procedure import BreakModel


def options(m: "BreakModel", s: State, task: Task, ins: Instr) -> list[Option] | None:
    """The options of the instruction, or None when it needs no decision."""
    return OPS[ins.op].options(m, s, task, ins)


def chooser(m: "BreakModel", s: State, task: Task, ins: Instr) -> str:
    pick = OPS[ins.op].chooser
    return pick(m, s, task, ins) if pick else task.controller


def execute(m: "BreakModel", s: State, task: Task, ins: Instr, choice, out: list[Event]) -> State:
    spec = OPS[ins.op]
    if not spec.loops:
        s = advance_pc(s)
    return spec.execute(m, s, task, ins, choice, out)


# ---- casting and summoning ---------------------------------------------------------------------
def cast(m: "BreakModel", s: State, player: str, cid: int, zone: str, then: str, out: list[Event]) -> State:
    """Cast a spell for free: it waits in `resolving`, its watchers trigger, its effect runs next."""
    s = s.with_zone(player, s.zone(player).remove(zone, cid).add("resolving", cid))
    count = list(s.spells_cast)
    count[pindex(player)] += 1
    s = replace(s, spells_cast=(count[0], count[1]))
    out.append(ev("cast", "", card=m.label(cid), player=player))
    s = m.trigger(s, "cast", player, cid, out)
    return push(s, Task(program=m.card(cid).effect, pc=0, controller=player, source=cid, ability=m.name(cid),
                        spell=cid, then=then))


def summon(m: "BreakModel", s: State, player: str, cid: int, zone: str, out: list[Event]) -> State:
    """Put a creature (or tamaseed) into the battle zone; its 'enters' and the watchers trigger (R112.3a)."""
    s = s.with_zone(player, s.zone(player).remove(zone, cid).add("battle", cid))
    out.append(ev("put", "R112.3a" if zone in ("hand", "standby") else "", card=m.label(cid), player=player,
                  **{"from": zone, "to": "battle"}))
    return m.trigger(s, "enters", player, cid, out)


def move_cards(m: "BreakModel", s: State, player: str, cards, src: str, dst: str, out: list[Event],
               kind: str = "move") -> State:
    """Move a player's cards between two of his zones, one event each (`deck` takes them from the top)."""
    for cid in cards:
        s = s.with_zone(player, s.zone(player).remove(src, cid).add(dst, cid))
        out.append(ev(kind, "", card=m.label(cid), player=player,
                      **{"from": src, "to": dst}))
    return s


def _cast_free_options(m, s, task, ins):
    me = task.controller
    limit = ins.get("cost_max")
    limit = len(s.zone(me).mana) if limit == "mana" else int(limit)
    opts: list[Option] = []
    for zone in ins.get("from"):
        cands = [c for c in getattr(s.zone(me), zone) if m.card(c).type == "spell" and m.card(c).cost <= limit]
        for cid in distinct(m, s, cands):
            opts.append((("cast", cid, zone), f"{me} casts {m.label(cid)} from {zone} for free "
                                              f"(cost {m.card(cid).cost} <= {limit})"))
    if ins.get("optional", False):
        opts.append((NONE, f"{me} casts no spell"))
    return opts


def _cast_free(m, s, task, ins, choice, out):
    if choice == NONE:
        return s
    _, cid, zone = choice
    return cast(m, s, task.controller, cid, zone, ins.get("then") or "graveyard", out)


op("cast_free")((_cast_free_options, _cast_free))


_PLACES = {"mana": "the mana zone", "deck_bottom": "the bottom of the deck", "graveyard": "the graveyard"}


def _spell_destination_options(m, s, task, ins):
    # `charger_cast_destination=owner_chooses`: Charger and the casting effect both name a place
    cid = ins.get("card")
    return [((to,), f"{task.controller} puts {m.label(cid)} into {_PLACES.get(to, to)}") for to in ins.get("to")]


def _spell_destination(m, s, task, ins, choice, out):
    return m.put_resolved_spell(s, ins.get("card"), choice[0], out)


op("_spell_destination")((_spell_destination_options, _spell_destination))


# ---- moving creatures --------------------------------------------------------------------------
def _target_options(verb: str, untapped: bool = False):
    def options(m, s, task, ins):
        me = task.controller
        opts = [((cid,), f"{me} {verb} {m.label(cid)}")
                for cid in creatures(m, s, me, ins.get("whose", "any"), untapped)]
        if opts and ins.get("optional", False):
            opts.append((NONE, f"{me} chooses no creature"))
        return opts
    return options


def _return_to_hand(m, s, task, ins, choice, out):
    return s if choice == NONE else destruction.leave(m, s, choice[0], "hand", out)


def _to_mana(m, s, task, ins, choice, out):
    return s if choice == NONE else destruction.leave(m, s, choice[0], "mana", out)


def _destroy(m, s, task, ins, choice, out):
    if choice == NONE:
        return s
    if ins.get("bind"):
        s = bind(s, ins.get("bind"), choice[0])   # Q13: the creature it tried to destroy
    return destruction.attempt(m, s, choice[0], out, repeat=bool(ins.get("repeat", False)))


op("return_to_hand")((_target_options("returns"), _return_to_hand))
op("to_mana")((_target_options("puts into the mana zone"), _to_mana))
op("destroy")((_target_options("destroys"), _destroy))


def _destroy_self(m, s, task, ins, choice, out):
    owner = m.owner(task.source)
    if task.source not in s.zone(owner).battle:
        return s   # it already left: there is nothing to destroy (S002's reading keeps the break replaced)
    return destruction.attempt(m, s, task.source, out)


op("destroy_self")((deterministic, _destroy_self))


def _deck_top_and_back_options(m, s, task, ins):
    return [((cid,), f"{task.controller} puts {m.label(cid)} on top of the deck and back into the battle zone")
            for cid in creatures(m, s, task.controller, "own")]


def _deck_top_and_back(m, s, task, ins, choice, out):
    cid = choice[0]
    s = bind(s, "it", cid)
    s = push(s, Task(program=(instr("_summon_from_deck_top", card=cid),), pc=0, controller=task.controller,
                     source=task.source, ability=task.ability))
    return destruction.leave(m, s, cid, "deck_top", out)


def _summon_from_deck_top(m, s, task, ins, choice, out):
    cid, me = ins.get("card"), task.controller
    if s.zone(me).deck[:1] != (cid,):
        return s   # it did not get there (a replacement kept it in the battle zone)
    return summon(m, s, me, cid, "deck", out)


op("deck_top_and_back")((_deck_top_and_back_options, _deck_top_and_back))
op("_summon_from_deck_top")((deterministic, _summon_from_deck_top))


def _put_self_options(m, s, task, ins):
    me, cid = task.controller, task.source
    if cid not in s.zone(me).graveyard:
        return []
    return [((cid,), f"{me} puts {m.label(cid)} from the graveyard into the battle zone"),
            (NONE, f"{me} leaves {m.label(cid)} in the graveyard")]


def _put_self(m, s, task, ins, choice, out):
    return s if choice == NONE else summon(m, s, task.controller, choice[0], "graveyard", out)


op("put_self_into_battle")((_put_self_options, _put_self))


def _from_graveyard_options(m, s, task, ins):
    me = task.controller
    ref = task.bound(ins.get("cost_below"))
    if ref is None:
        return []
    limit = m.card(ref).cost
    cands = [c for c in s.zone(me).graveyard if m.card(c).type == "creature" and m.card(c).cost < limit]
    opts = [((cid,), f"{me} puts {m.label(cid)} (cost {m.card(cid).cost} < {limit}) from the graveyard "
                     f"into the battle zone") for cid in distinct(m, s, cands)]
    if opts and ins.get("optional", False):
        opts.append((NONE, f"{me} puts no creature from the graveyard"))
    return opts


op("put_from_graveyard")((_from_graveyard_options, _put_self))


# ---- breaking ----------------------------------------------------------------------------------
def _breaker(task: Task, ins: Instr) -> int | None:
    if ins.get("by") == "it":
        return task.bound("it")
    return task.spell if task.spell >= 0 else task.source


def _break_options(m, s, task, ins):
    me = task.controller
    defender = other(me)
    n = min(ins.get("count"), len(s.zone(defender).shields))
    by = _breaker(task, ins)
    if n == 0 or by is None:
        return []
    return [(combo, f"{me} chooses {m.shield_list(combo)} to break with {m.label(by)}")
            for combo in m.shield_choices(s, defender, n)]


def _break(m, s, task, ins, choice, out):
    by = _breaker(task, ins)
    return m.open_frame(s, by, ins.get("by") == "it", other(task.controller), choice, False, out)


op("break_shields")((_break_options, _break))


def _extra_break(m, s, task, ins, choice, out):
    extra = list(s.extra_breaks)
    extra[pindex(task.controller)] += ins.get("amount", 1)
    return replace(s, extra_breaks=(extra[0], extra[1]))


op("extra_break")((deterministic, _extra_break))


# ---- cards in hand and deck --------------------------------------------------------------------
def _draw_options(m, s, task, ins):
    if not ins.get("up_to", False):
        return None
    n = min(ins.get("count"), len(s.zone(task.controller).deck))
    return [((k,), f"{task.controller} draws {k}") for k in range(n, -1, -1)]


def _draw(m, s, task, ins, choice, out):
    me = task.controller
    n = choice[0] if choice is not None else min(ins.get("count"), len(s.zone(me).deck))
    return move_cards(m, s, me, s.zone(me).deck[:n], "deck", "hand", out)


op("draw")((_draw_options, _draw))


def _discard_options(m, s, task, ins):
    me = task.controller
    hand = list(s.zone(me).hand)
    n = min(ins.get("count", 1), len(hand))
    opts = [(tuple(combo), f"{me} discards {', '.join(m.label(c) for c in combo)}")
            for combo in multisets(m, s, hand, n)] if n else []
    if ins.get("optional", False):
        opts.append((NONE, f"{me} discards nothing"))
    return opts


def _discard(m, s, task, ins, choice, out):
    me = task.controller
    if choice == NONE:
        return s
    s = move_cards(m, s, me, choice, "hand", "graveyard", out)
    then = ins.get("if_done")
    if then and choice:
        s = push(s, Task(program=then, pc=0, controller=me, source=task.source, ability=task.ability))
    return s


op("discard")((_discard_options, _discard))


def _mechraid_options(m, s, task, ins):
    me = task.controller
    top = list(s.zone(me).deck[:3])
    n, keyword = ins.get("n"), ins.get("keyword")
    usable = [c for c in top if m.card(c).has(keyword) and m.card(c).cost <= n]
    opts: list[Option] = []
    for use in [None] + distinct(m, s, usable):
        rest = [c for c in top if c != use]
        seen = set()
        for order in permutations(rest):
            names = tuple(m.instances[c].card for c in order)
            if names in seen:   # identical cards: one order stands for all
                continue
            seen.add(names)
            pools: dict[str, list[int]] = {}
            for cid in sorted(rest):
                pools.setdefault(m.instances[cid].card, []).append(cid)
            canon = tuple(pools[name].pop(0) for name in names)
            what = f"uses {m.label(use)}" if use is not None else "uses no card"
            bottom = ", ".join(m.label(c) for c in canon) or "nothing"
            opts.append(((use if use is not None else -1,) + canon,
                         f"{me} looks at {', '.join(m.label(c) for c in top)} (Mechraid {n}), {what}, "
                         f"puts {bottom} on the deck bottom"))
    return opts


def _mechraid(m, s, task, ins, choice, out):
    me = task.controller
    use, rest = choice[0], choice[1:]
    s = move_cards(m, s, me, rest, "deck", "deck_bottom", out)
    if use < 0:
        return s
    if m.card(use).type == "spell":
        return cast(m, s, me, use, "deck", "graveyard", out)
    return summon(m, s, me, use, "deck", out)


op("mechraid")((_mechraid_options, _mechraid))


def _add_shield(m, s, task, ins, choice, out):
    me = task.controller
    return move_cards(m, s, me, s.zone(me).deck[:ins.get("count", 1)], "deck", "shields", out, "put")


op("add_shield_from_deck")((deterministic, _add_shield))


def _hand_to_shield_options(m, s, task, ins):
    me = task.controller
    opts = [((cid,), f"{me} puts {m.label(cid)} from the hand into the shield zone")
            for cid in distinct(m, s, s.zone(me).hand)]
    if opts and ins.get("optional", False):
        opts.append((NONE, f"{me} puts no card into the shield zone"))
    return opts


def _hand_to_shield(m, s, task, ins, choice, out):
    me = task.controller
    if choice == NONE:
        return s
    return move_cards(m, s, me, choice, "hand", "shields", out, "put")


op("hand_to_shield")((_hand_to_shield_options, _hand_to_shield))


def _hand_to_bottom_options(m, s, task, ins):
    me = task.controller
    n = min(task.bound(ins.get("count")) or 0, len(s.zone(me).hand))
    if n == 0:
        return []
    return [(combo, f"{me} puts {', '.join(m.label(c) for c in combo)} on the deck bottom")
            for combo in multisets(m, s, s.zone(me).hand, n)]


def _hand_to_bottom(m, s, task, ins, choice, out):
    me = task.controller
    # in id order: the order under the deck is not modelled as a choice
    return move_cards(m, s, me, choice, "hand", "deck_bottom", out)


op("hand_to_deck_bottom")((_hand_to_bottom_options, _hand_to_bottom))


# ---- marks on creatures ------------------------------------------------------------------------
def _tap(m, s, task, ins, choice, out):
    cid = choice[0]
    owner = m.owner(cid)
    s = s.with_zone(owner, replace(s.zone(owner), tapped=tuple(sorted(s.zone(owner).tapped + (cid,)))))
    out.append(ev("tap", "", card=m.label(cid), player=owner))
    return s


def _cant_attack(m, s, task, ins, choice, out):
    cid = choice[0]
    out.append(ev("cant_attack", "", card=m.label(cid), player=m.owner(cid)))
    return replace(s, cant_attack=tuple(sorted(set(s.cant_attack) | {cid})))


op("tap")((_target_options("taps", untapped=True), _tap))
op("cant_attack")((_target_options("makes unable to attack this turn:"), _cant_attack))


# ---- the turn ----------------------------------------------------------------------------------
def _skip_options(m, s, task, ins):
    if not ins.get("optional", False):
        return None
    me = task.controller
    return [(("yes",), f"{me} skips the rest of the turn"), (NONE, f"{me} does not skip the turn")]


def _skip(m, s, task, ins, choice, out):
    if choice == NONE:
        return s
    out.append(ev("skip_turn", "Q09", player=task.controller))
    # Q09: the rest of the turn is skipped: the break is cancelled and what was pending is dropped
    return replace(s, turn_skipped=True, pending=(), frames=(), running=(), checks=(), queued=(), over=True)


op("skip_turn")((_skip_options, _skip))
