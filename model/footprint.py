"""What an effect reads and writes: the footprints that decide when two effects commute.

Partial-order reduction (explorer/reduction.py) may resolve one pending effect first and skip the
other orders only if that effect commutes with everything that could happen before it. Footprints
are derived from the card vocabulary, so a user's new card gets one without Python:

- an access is (resource, player, mode); two accesses conflict when they touch the same resource of
  the same player, unless both only read, or both apply the same commutative operation (`add` puts a
  card into an unordered zone or increments a counter; `top>hand` and `top>shields` take the top card
  of a deck to that zone — two draws commute, a draw and a shield addition do not);
- an instruction whose effects reach further than that (it casts, summons, destroys, breaks, moves a
  creature, skips the turn, ...) is TOP: it conflicts with everything. That is coarse but sound: it
  only costs reduction, never an ordering.

An effect is *simple* when its program has no decision and triggers nothing (its footprint is not
TOP and every instruction is deterministic): only simple effects are ever resolved first alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from .cards import Instr

if TYPE_CHECKING:
    from .procedure import BreakModel

Access = tuple[str, str, str]      # (resource, player, mode)
TOP: frozenset[Access] = frozenset({("*", "*", "*")})
COMMUTATIVE = {"add", "top>hand", "top>shields"}


def conflicts(a: frozenset[Access], b: frozenset[Access]) -> bool:
    """Whether two footprints touch a common resource in a way that does not commute."""
    if a == TOP or b == TOP or ("*", "*", "*") in a or ("*", "*", "*") in b:
        return True
    for res, player, mode in a:
        for res2, player2, mode2 in b:
            if res != res2 or (player != player2 and "*" not in (player, player2)):
                continue
            if mode == mode2 == "r" or (mode == mode2 and mode in COMMUTATIVE):
                continue
            return True
    return False


def _players(me: str, whose: str) -> tuple[str, ...]:
    other = "B" if me == "A" else "A"
    return {"own": (me,), "opponent": (other,), "any": ("A", "B")}[whose]


def instruction(m: "BreakModel", ins: Instr, me: str, seen: frozenset[str]) -> frozenset[Access]:
    """The footprint of one instruction run by `me` (TOP when it reaches beyond the vocabulary below)."""
    op = ins.op
    if op == "draw":
        return frozenset({("deck", me, "top>hand"), ("hand", me, "add")})
    if op == "add_shield_from_deck":
        return frozenset({("deck", me, "top>shields"), ("shields", me, "add")})
    if op == "extra_break":
        return frozenset({("extra_breaks", me, "add")})
    if op in ("tap", "cant_attack"):
        ps = _players(me, ins.get("whose", "any"))
        mark = "tapped" if op == "tap" else "cant_attack"
        return frozenset({(mark, p, "w") for p in ps} | {("battle", p, "r") for p in ps})
    if op == "discard":
        out = {("hand", me, "w"), ("graveyard", me, "add")}
        for sub in ins.get("if_done") or ():
            out |= instruction(m, sub, me, seen)
        return frozenset(out)
    if op == "cast_free":
        out = {(zone, me, "w") for zone in ins.get("from")}
        out |= {("resolving", me, "w"), ("spells_cast", me, "add"), ("pending", "*", "add")}
        if ins.get("cost_max") == "mana":
            out.add(("mana", me, "r"))
        # where the spell goes afterwards (Q02: Charger to the mana zone)
        out.add(("deck", me, "w") if ins.get("then") == "deck_bottom" else ("graveyard", me, "add"))
        spells = _spells_of(m, me)
        if any(m.pool[c].has("Charger") for c in spells):
            out.add(("mana", me, "add"))
        # the spells it may cast run their programs now, inside this resolution
        for spell in spells:
            if spell in seen:
                continue
            out |= program(m, m.pool[spell].effect, me, seen | {spell})
        return frozenset(out)
    return TOP


def program(m: "BreakModel", instructions: Iterable[Instr], me: str, seen: frozenset[str] = frozenset()) -> frozenset[Access]:
    out: set[Access] = set()
    for ins in instructions:
        f = instruction(m, ins, me, seen)
        if f == TOP or ("*", "*", "*") in f:
            return TOP
        out |= f
    return frozenset(out)


def _spells_of(m: "BreakModel", player: str) -> tuple[str, ...]:
    return tuple(sorted({i.card for i in m.instances if i.owner == player and m.pool[i.card].type == "spell"}))


DETERMINISTIC = {"draw", "add_shield_from_deck", "extra_break"}


def simple(m: "BreakModel", card: str, ability: str) -> bool:
    """An ability whose effect has no decision and triggers nothing."""
    a = next(x for x in m.pool[card].abilities if x.id == ability)
    return all(ins.op in DETERMINISTIC and not ins.get("up_to", False) for ins in a.effect)


def of_ability(m: "BreakModel", card: str, ability: str, controller: str) -> frozenset[Access]:
    a = next(x for x in m.pool[card].abilities if x.id == ability)
    return program(m, a.effect, controller)


def spawnable(m: "BreakModel") -> frozenset[Access]:
    """The union footprint of every triggered ability in the scenario: what spawned effects may touch."""
    out: set[Access] = set()
    for inst in m.instances:
        for a in m.pool[inst.card].abilities:
            if a.trigger:
                f = program(m, a.effect, inst.owner)
                if f == TOP:
                    return TOP
                out |= f
    return frozenset(out)


def spawns(f: frozenset[Access]) -> bool:
    return f == TOP or any(res == "pending" for res, _, _ in f)
