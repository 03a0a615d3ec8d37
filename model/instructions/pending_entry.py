"""The pending state of cards on their way to the battle zone (409.1, 409.1a, 409.1f, 409.2, 409.2a).

409.1a: a card an effect puts into the battle zone is pending until it actually changes zones; it has not left
its zone (409.1) but is no longer counted among that zone's cards (409.1c, model/counts.py `counted`). 409.1f:
when one effect puts several cards into the battle zone, all of them pend first, then they enter one by one (in
the order the effect's controller chose). 409.2: a pending card that does not move after all (an evolution
creature with nothing to evolve onto, 801.1a) stops pending and is as it was; 409.2a: it was not put into its
zone again, so nothing triggers on it and it keeps its state there (a tapped mana card stays tapped).

The mark is `Zones.held`: the card stays in its zone, marked; the mark goes when the card moves (model/state.py
`_release`) or when its turn to enter comes (`_enter_held`), so the card enters from its zone as it would alone.
Spells pending while they resolve are `Zones.resolving` (409.1b, model/instructions/effects.py `cast`).
"""

from __future__ import annotations

from ..state import State, Task, replace
from . import effects
from .registry import deterministic, instr, op, push


def hold_and_enter(s: State, task: Task, player: str, cards: tuple[tuple[int, str], ...]) -> State:
    """409.1a, 409.1f: every card of `cards` ((card, zone) in the order chosen) pends at once, then a task puts
    them into the battle zone one by one."""
    z = s.zone(player)
    s = s.with_zone(player, replace(z, held=tuple(sorted(z.held + tuple(c for c, _ in cards)))))
    program = tuple(instr("_enter_held", card=c, zone=zone) for c, zone in cards)
    return push(s, Task(program=program, pc=0, controller=player, source=task.source, ability=task.ability))


def _enter_held(m, s, task, ins, choice, out):
    """The card's turn: it stops pending and goes into the battle zone from its zone (`effects.summon`); if it
    cannot go there, it simply stays as it was (409.2, 409.2a). A card no longer held moved meanwhile."""
    me, card, zone = task.controller, ins.get("card"), ins.get("zone")
    z = s.zone(me)
    if card not in z.held:
        return s
    s = s.with_zone(me, replace(z, held=tuple(c for c in z.held if c != card)))
    return effects.summon(m, s, me, card, zone, out)


op("_enter_held")((deterministic, _enter_held))
