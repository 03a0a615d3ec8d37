"""What an effect reads and writes: the footprints that decide when two effects commute.

Partial-order reduction (explorer/reduction.py) may resolve one pending effect first and skip the
other orders only if that effect commutes with everything that could happen before it. Footprints
are derived from the card vocabulary, so a user's new card gets one without Python:

- each card word declares its own footprint where it is registered (model/instructions/); the
  algebra of accesses and conflicts is model/access.py;
- an instruction whose effects reach further than that (it casts, summons, destroys, breaks, moves a
  creature, skips the turn, ...) declares none and is TOP: it conflicts with everything. That is
  coarse but sound: it only costs reduction, never an ordering.

An effect is *simple* when its program has no decision and triggers nothing (its footprint is not
TOP and every instruction is deterministic): only simple effects are ever resolved first alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .access import TOP, Access, conflicts, spawns  # noqa: F401  (the algebra, re-exported for callers)
from .instructions.registry import OPS, program_footprint

if TYPE_CHECKING:
    from .game import Game


def simple(m: Game, card: str, ability: str) -> bool:
    """An ability whose effect has no decision and triggers nothing."""
    a = next(x for x in m.pool[card].abilities if x.id == ability)
    return all(OPS[ins.op].simple and not ins.get("up_to", False) for ins in a.effect) and \
        not spawns(program_footprint(m, a.effect, "A"))   # a draw an ability watches triggers it (R114.2)


def of_ability(m: Game, card: str, ability: str, controller: str) -> frozenset[Access]:
    a = next(x for x in m.pool[card].abilities if x.id == ability)
    return program_footprint(m, a.effect, controller)


def scenario_footprint(m: Game) -> frozenset[Access]:
    """The union footprint of every program a card of the scenario carries (spell effects, triggered
    abilities, replacements), each run by the card's owner: everything the card words may touch.
    TOP when one of them reaches further than footprints describe."""
    out: set[Access] = set()
    for inst in m.instances:
        cdef = m.pool[inst.card]
        for program in (cdef.effect,) + tuple(a.effect for a in cdef.abilities):
            f = program_footprint(m, program, inst.owner)
            if f == TOP:
                return TOP
            out |= f
    return frozenset(out)


def spawnable(m: Game, owner: str | None = None) -> frozenset[Access]:
    """The union footprint of every triggered ability in the scenario (of the cards `owner` owns,
    when given): what spawned effects may touch."""
    out: set[Access] = set()
    for inst in m.instances:
        if owner is not None and inst.owner != owner:
            continue
        for a in m.pool[inst.card].abilities:
            if a.trigger:
                f = program_footprint(m, a.effect, inst.owner)
                if f == TOP:
                    return TOP
                out |= f
    return frozenset(out)
