"""Activated abilities (R110.3c, R602): an effect gained only through its activating act. The one act modelled is
the tap ability's: when the turn player could declare an attack with a creature, he may instead tap it to use
its `activated: tap` ability (602.3a: only a creature that could attack now, so not one with summoning
sickness or under "cannot attack"). Activating is its own event, the tap (602.2); the effect then runs as a
task of its own, and the declaration is offered again once it is over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Action
from .events import Event, ev
from .state import State, Task, replace

if TYPE_CHECKING:
    from .game import Game

TAP = "tap"


def tap_actions(m: Game, s: State, attackers: list[int]) -> list[Action]:
    """602.1, 602.3, 602.3a: one action per tap ability of each creature that could attack now (`attackers`,
    the legal attackers: a forbidden activation is never offered); identical creatures offered once."""
    tp, out, seen = s.turn, [], set()
    for c in attackers:
        if c in seen or not m.abilities_work(s, c):
            continue
        seen.add(c)
        for a in m.card(c).abilities:
            if a.activated == TAP:
                label = m.ability_label(m.instances[c].card, a.id)
                out.append(Action("activate", tp, (c, a.id), f"{tp} taps {m.label(c)} to use {label}"))
    return out


def activate(m: Game, s: State, action: Action, out: list[Event]) -> State:
    """602.2: the act (tapping the creature, an event abilities may watch) and then the effect, a task of its
    own; the turn player may declare again afterwards (the phase stays the declaration)."""
    c, ability_id = action.choice
    owner = m.owner(c)
    z = s.zone(owner)
    s = s.with_zone(owner, replace(z, tapped=tuple(sorted(z.tapped + (c,)))))
    out.append(ev("tap", "R602.1", card=m.label(c), player=owner))
    if "tapped" in m.words:
        s = m.trigger(s, "tapped", owner, c, out)
    ability = next(a for a in m.card(c).abilities if a.id == ability_id)
    label = m.ability_label(m.instances[c].card, ability_id)
    if not ability.effect:
        return s
    return replace(s, running=s.running + (Task(program=ability.effect, pc=0, controller=owner, source=c,
                                                 ability=label),))
