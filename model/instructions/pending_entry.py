"""The pending state of cards on their way to the battle zone (409.1, 409.1a, 409.1f, 409.2, 409.2a) and of
several cards one effect executes (409.1e).

409.1a: a card an effect puts into the battle zone is pending until it actually changes zones; it has not left
its zone (409.1) but is no longer counted among that zone's cards (409.1c, model/counts.py `counted`). 409.1f:
when one effect puts several cards into the battle zone, all of them pend first, then they enter one by one (in
the order the effect's controller chose). 409.2: a pending card that does not move after all (an evolution
creature with nothing to evolve onto, 801.1a) stops pending and is as it was; 409.2a: it was not put into its
zone again, so nothing triggers on it and it keeps its state there (a tapped mana card stays tapped).

The mark is `Zones.held`: the card stays in its zone, marked; the mark goes when the card moves (model/state.py
`_release`) or when its turn to enter comes (`_enter_held`), so the card enters from its zone as it would alone.
Spells pending while they resolve are `Zones.resolving` (409.1b, model/instructions/effects.py `cast`). 409.1e:
when one effect executes several cards (`cast_several_free`), all of them pend first (held), then each is cast in
turn and resolves before the next is cast.
"""

from __future__ import annotations

from ..state import State, Task, replace
from . import effects
from .common import multisets
from .registry import NONE, Option, deterministic, instr, op, push


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


# ---- 409.1e: several spells cast by one effect ---------------------------------------------------------------
def _several_options(m, s, task, ins):
    """Which spells (as many as `count`, or all there are) and the order they are cast in; a choice is
    (card, card, ...) from the zone `from`."""
    me, zone = task.controller, ins.get("from")
    z = s.zone(me)
    cands = [c for c in getattr(z, zone) if m.card(c).is_spell() and m.card(c).as_spell().cost <= ins.get("cost_max")
             and c not in z.held]
    n = min(int(ins.get("count")), len(cands))
    opts: list[Option] = [(order, f"{me} casts {', '.join(map(m.label, order))} for free, in this order")
                          for combo in (multisets(m, s, cands, n) if n else [])
                          for order in effects.bottom_orders(m, combo)]
    return opts + [(NONE, f"{me} casts no spell")] if opts and ins.get("optional", False) else opts


def _several(m, s, task, ins, choice, out):
    """409.1e: every spell chosen pends at once (held in its zone, not counted there), then they are cast one by
    one, each resolving before the next (`_cast_held`)."""
    if choice == NONE:
        return s
    me, zone = task.controller, ins.get("from")
    z = s.zone(me)
    s = s.with_zone(me, replace(z, held=tuple(sorted(z.held + tuple(choice)))))
    program = tuple(instr("_cast_held", card=c, zone=zone) for c in choice)
    return push(s, Task(program=program, pc=0, controller=me, source=task.source, ability=task.ability))


def _cast_held(m, s, task, ins, choice, out):
    me, card, zone = task.controller, ins.get("card"), ins.get("zone")
    z = s.zone(me)
    if card not in z.held:
        return s
    s = s.with_zone(me, replace(z, held=tuple(c for c in z.held if c != card)))
    return effects.cast(m, s, me, card, zone, "graveyard", out)


_SCHEMA_CAST_SEVERAL_FREE = {
    "doc": "cast `count` spells of cost `cost_max` or less from one zone for free (all there are if fewer), in the "
           "order chosen: all pend first, then each is cast and resolves in turn (409.1e)",
    "properties": {"from": {"enum": ["hand", "mana", "graveyard"]}, "cost_max": {"type": "integer", "minimum": 0},
                   "count": {"type": "integer", "minimum": 1, "maximum": 4}, "optional": {"type": "boolean"}},
    "required": ["from", "cost_max", "count"],
}
op("cast_several_free", schema=_SCHEMA_CAST_SEVERAL_FREE)((_several_options, _several))
op("_cast_held")((deterministic, _cast_held))
