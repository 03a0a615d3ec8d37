"""The effect instructions of model/vocabulary.py: what each may choose and what it does.

`options` returns None for an instruction that needs no decision, else the list of (choice, text)
for the player who decides; `execute` carries one out. Identical cards are offered once (the
lowest instance id stands for the class): no ability reads a card's instance id, so the states
reached through another copy are the same up to renaming identical cards.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import permutations
from typing import TYPE_CHECKING, Any

from .cards import Instr
from .events import Event, ev
from .state import State, Task, other, pindex

if TYPE_CHECKING:
    from .procedure import BreakModel

Option = tuple[tuple[Any, ...], str]
NONE = ("none",)


def advance_pc(s: State) -> State:
    """Move the running task past its current instruction."""
    task = s.running[-1]
    return replace(s, running=s.running[:-1] + (replace(task, pc=task.pc + 1),))


def _distinct(m: "BreakModel", ids: list[int], key=None) -> list[int]:
    """One representative (lowest id) per class of identical cards."""
    reps: dict[Any, int] = {}
    for cid in sorted(ids):
        reps.setdefault(key(cid) if key else m.instances[cid].card, cid)
    return sorted(reps.values())


def _creatures(m: "BreakModel", s: State, controller: str, whose: str) -> list[int]:
    players = {"own": [controller], "opponent": [other(controller)], "any": ["A", "B"]}[whose]
    found = [cid for p in players for cid in s.zone(p).battle if m.card(cid).type == "creature"]
    # the attacker is kept apart from its copies: R509.4c and Q06 depend on which one leaves
    return _distinct(m, found, key=lambda c: (m.owner(c), m.instances[c].card, c == s.attacker))


def options(m: "BreakModel", s: State, task: Task, instr: Instr) -> list[Option] | None:
    op, me = instr.op, task.controller
    if op == "cast_free":
        limit = instr.get("cost_max")
        limit = len(s.zone(me).mana) if limit == "mana" else int(limit)
        opts: list[Option] = []
        for zone in instr.get("from"):
            cands = [c for c in getattr(s.zone(me), zone) if m.card(c).type == "spell" and m.card(c).cost <= limit]
            for cid in _distinct(m, cands):
                opts.append((("cast", cid, zone), f"{me} casts {m.label(cid)} from {zone} for free "
                                                  f"(cost {m.card(cid).cost} <= {limit})"))
        if instr.get("optional", False):
            opts.append((NONE, f"{me} casts no spell"))
        return opts
    if op in ("return_to_hand", "destroy"):
        verb = "returns" if op == "return_to_hand" else "destroys"
        opts = [((cid,), f"{me} {verb} {m.label(cid)}") for cid in _creatures(m, s, me, instr.get("whose", "any"))]
        if opts and instr.get("optional", False):
            opts.append((NONE, f"{me} chooses no creature"))
        return opts
    if op == "deck_top_and_back":
        return [((cid,), f"{me} puts {m.label(cid)} on top of the deck and back into the battle zone")
                for cid in _creatures(m, s, me, "own")]
    if op == "break_shields":
        defender = other(me)
        n = min(instr.get("count"), len(s.zone(defender).shields))
        by = _breaker(s, task, instr)
        if n == 0 or by is None:
            return []
        return [(combo, f"{me} chooses {m._shield_list(combo)} to break with {m.label(by)}")
                for combo in m.shield_choices(s, defender, n)]
    if op == "draw":
        n = min(instr.get("count"), len(s.zone(me).deck))
        if not instr.get("up_to", False):
            return None
        return [((k,), f"{me} draws {k}") for k in range(n, -1, -1)]
    if op == "discard":
        hand = list(s.zone(me).hand)
        n = min(instr.get("count", 1), len(hand))
        opts = [(tuple(combo), f"{me} discards {', '.join(m.label(c) for c in combo)}")
                for combo in _multisets(m, hand, n)] if n else []
        if instr.get("optional", False):
            opts.append((NONE, f"{me} discards nothing"))
        return opts
    if op == "skip_turn":
        if not instr.get("optional", False):
            return None
        return [(("yes",), f"{me} skips the rest of the turn"), (NONE, f"{me} does not skip the turn")]
    if op == "mechraid":
        return _mechraid_options(m, s, me, instr)
    if op in ("extra_break", "add_shield_from_deck"):
        return None
    raise ValueError(f"unknown instruction {op}")


def _breaker(s: State, task: Task, instr: Instr) -> int | None:
    if instr.get("by") == "it":
        return task.bound("it")
    return task.spell if task.spell >= 0 else task.source


def _multisets(m: "BreakModel", cards: list[int], n: int) -> list[tuple[int, ...]]:
    """Every way to pick n of `cards`, identical cards counted once (lowest ids first)."""
    classes: dict[str, list[int]] = {}
    for cid in sorted(cards):
        classes.setdefault(m.instances[cid].card, []).append(cid)
    keys = sorted(classes)
    out: list[tuple[int, ...]] = []

    def rec(i: int, left: int, acc: list[int]) -> None:
        if left == 0:
            out.append(tuple(sorted(acc)))
            return
        if i == len(keys):
            return
        for k in range(min(left, len(classes[keys[i]])), -1, -1):
            rec(i + 1, left - k, acc + classes[keys[i]][:k])

    rec(0, n, [])
    return sorted(out)


def _mechraid_options(m: "BreakModel", s: State, me: str, instr: Instr) -> list[Option]:
    top = list(s.zone(me).deck[:3])
    n, keyword = instr.get("n"), instr.get("keyword")
    usable = [c for c in top if m.card(c).has(keyword) and m.card(c).cost <= n]
    opts: list[Option] = []
    for use in [None] + _distinct(m, usable):
        rest = [c for c in top if c != use]
        seen = set()
        for order in permutations(rest):
            names = tuple(m.instances[c].card for c in order)
            if names in seen:   # identical cards: one order stands for all
                continue
            seen.add(names)
            canon = _canonical_order(m, rest, names)
            what = f"uses {m.label(use)}" if use is not None else "uses no card"
            bottom = ", ".join(m.label(c) for c in canon) or "nothing"
            opts.append(((use if use is not None else -1,) + canon,
                         f"{me} looks at {', '.join(m.label(c) for c in top)} (Mechraid {n}), {what}, "
                         f"puts {bottom} on the deck bottom"))
    return opts


def _canonical_order(m: "BreakModel", cards: list[int], names: tuple[str, ...]) -> tuple[int, ...]:
    pools: dict[str, list[int]] = {}
    for cid in sorted(cards):
        pools.setdefault(m.instances[cid].card, []).append(cid)
    return tuple(pools[name].pop(0) for name in names)


# ---- carrying instructions out -----------------------------------------------------------------
def execute(m: "BreakModel", s: State, task: Task, instr: Instr, choice: tuple | None, out: list[Event]) -> State:
    op, me = instr.op, task.controller
    s = advance_pc(s)
    if op == "cast_free":
        if choice == NONE:
            return s
        _, cid, zone = choice
        return cast(m, s, me, cid, zone, instr.get("then") or "graveyard", out)
    if op == "return_to_hand":
        if choice == NONE:
            return s
        return move_creature(m, s, choice[0], "hand", out, "put")
    if op == "destroy":
        if choice == NONE:
            return s
        cid = choice[0]
        out.append(ev("destroy", "R701.6a", card=m.label(cid)))
        s = move_creature(m, s, cid, "graveyard", out, None)
        out.append(ev("destroyed", "R701.6b", card=m.label(cid)))
        return s
    if op == "deck_top_and_back":
        cid = choice[0]
        s = move_creature(m, s, cid, "deck_top", out, "put")
        s = summon(m, s, me, cid, "deck", out)
        # bind "it" for the rest of the task (a summon only adds pending effects, never a task)
        top = s.running[-1]
        return replace(s, running=s.running[:-1] + (replace(top, binds=top.binds + (("it", cid),)),))
    if op == "break_shields":
        by = _breaker(s, task, instr)
        return m.open_frame(s, by, instr.get("by") == "it", other(me), choice, False, out)
    if op == "extra_break":
        extra = list(s.extra_breaks)
        extra[pindex(me)] += instr.get("amount", 1)
        return replace(s, extra_breaks=(extra[0], extra[1]))
    if op == "draw":
        n = choice[0] if choice is not None else min(instr.get("count"), len(s.zone(me).deck))
        for _ in range(n):
            cid = s.zone(me).deck[0]
            s = s.with_zone(me, s.zone(me).remove("deck", cid).add("hand", cid))
            out.append(ev("move", "", card=m.label(cid), player=me, **{"from": "deck", "to": "hand"}))
        return s
    if op == "discard":
        if choice == NONE:
            return s
        for cid in choice:
            s = s.with_zone(me, s.zone(me).remove("hand", cid).add("graveyard", cid))
            out.append(ev("move", "", card=m.label(cid), player=me, **{"from": "hand", "to": "graveyard"}))
        then = instr.get("if_done")
        if then and choice:
            sub = Task(program=then, pc=0, controller=me, source=task.source, ability=task.ability)
            s = replace(s, running=s.running + (sub,))
        return s
    if op == "skip_turn":
        if choice == NONE:
            return s
        out.append(ev("skip_turn", "Q09", player=me))
        # Q09: the rest of the turn is skipped: the break is cancelled and what was pending is dropped
        return replace(s, turn_skipped=True, pending=(), frames=(), running=(), checking=(), over=True)
    if op == "mechraid":
        use, rest = choice[0], choice[1:]
        z = s.zone(me)
        for cid in rest:
            z = z.remove("deck", cid).add("deck_bottom", cid)
            out.append(ev("move", "", card=m.label(cid), player=me, **{"from": "deck", "to": "deck_bottom"}))
        s = s.with_zone(me, z)
        if use < 0:
            return s
        if m.card(use).type == "spell":
            return cast(m, s, me, use, "deck", "graveyard", out)
        return summon(m, s, me, use, "deck", out)
    if op == "add_shield_from_deck":
        for _ in range(min(instr.get("count", 1), len(s.zone(me).deck))):
            cid = s.zone(me).deck[0]
            s = s.with_zone(me, s.zone(me).remove("deck", cid).add("shields", cid))
            out.append(ev("put", "", card=m.label(cid), player=me, **{"from": "deck", "to": "shields"}))
        return s
    raise ValueError(f"unknown instruction {op}")


def cast(m: "BreakModel", s: State, player: str, cid: int, zone: str, then: str, out: list[Event]) -> State:
    """Cast a spell for free: it waits in `resolving`, its watchers trigger, its effect runs next."""
    s = s.with_zone(player, s.zone(player).remove(zone, cid).add("resolving", cid))
    count = list(s.spells_cast)
    count[pindex(player)] += 1
    s = replace(s, spells_cast=(count[0], count[1]))
    out.append(ev("cast", "", card=m.label(cid), player=player))
    s = m.trigger(s, "cast", player, cid, out)
    task = Task(program=m.card(cid).effect, pc=0, controller=player, source=cid, ability=m.name(cid),
                spell=cid, then=then)
    return replace(s, running=s.running + (task,))


def summon(m: "BreakModel", s: State, player: str, cid: int, zone: str, out: list[Event]) -> State:
    """Put a creature into the battle zone; its own 'enters' and the watchers trigger (R112.3a)."""
    s = s.with_zone(player, s.zone(player).remove(zone, cid).add("battle", cid))
    out.append(ev("put", "R112.3a" if zone == "hand" else "", card=m.label(cid), player=player,
                  **{"from": zone, "to": "battle"}))
    return m.trigger(s, "enters", player, cid, out)


def move_creature(m: "BreakModel", s: State, cid: int, to: str, out: list[Event], kind: str | None) -> State:
    """Move a creature out of the battle zone to its owner's `to` zone; note if it was the attacker."""
    owner = m.owner(cid)
    s = s.with_zone(owner, s.zone(owner).remove("battle", cid).add(to, cid))
    if kind:
        out.append(ev(kind, "", card=m.label(cid), player=owner,
                      **{"from": "battle", "to": "deck" if to == "deck_top" else to}))
    if cid == s.attacker:
        s = replace(s, attacker_left=True)  # R509.4c: the chosen shields still break
    return s
