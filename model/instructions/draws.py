"""Replacing a draw (R114.4, R609.6): "when you would draw a card, instead ..." (`replaces: own_draw`).

A draw of N is N draws of one card (R114.2); when the drawer has a draw replacement, each of the N is
offered to it on its own, and a replacement chosen for one draw is carried out in full before the next
draw is tried (R114.4a, R609.6a: Mettel's example with Emergency Typhoon). What a replacement's effect
does is replaced no further (R101.5, the `replacing` bind of destruction.py), so its own draws are plain
draws. A draw that was replaced drew no card, so a later instruction about "the card drawn" (the draw's
`bind`) finds nothing and does nothing (R114.4b, R609.6b). A replacement may apply to a draw from an
empty deck (R114.6a).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import Event, ev
from ..state import Replacement, State, Task, replace
from .destruction import REPLACING, by_replacement
from .registry import NONE, Option, instr, op, push

if TYPE_CHECKING:
    from ..game import Game

OWN_DRAW = "own_draw"
DRAW_ONE = "_draw_one"


def draw_replacements(m: Game, s: State, player: str) -> list[tuple[Replacement, bool]]:
    """The draw replacements of `player`'s cards in the battle zone whose abilities work, with `optional`."""
    if OWN_DRAW not in m.words:
        return []
    found = []
    for cid in s.zone(player).battle:
        if not m.abilities_work(s, cid):
            continue   # an ignored creature replaces nothing (無視)
        for ability in m.card(cid).replacements(OWN_DRAW):
            found.append((Replacement(m.ability_label(m.instances[cid].card, ability.id), cid,
                                      m.instances[cid].card, ability.id), ability.optional))
    return found


def replaceable(m: Game, s: State, task: Task) -> bool:
    """Whether the draws of `task` go one at a time past the drawer's replacements (R114.4a): not when
    the task is itself a replacement's effect (R101.5: what it does is replaced no further)."""
    return not by_replacement(task) and bool(draw_replacements(m, s, task.controller))


def one_at_a_time(s: State, task: Task, count: int, name: str | None) -> State:
    """R114.4a: the N draws become N steps, each decided and carried out before the next begins."""
    step = instr(DRAW_ONE, bind=name) if name else instr(DRAW_ONE)
    return push(s, Task(program=(step,) * count, pc=0, controller=task.controller, source=task.source,
                        ability=task.ability))


def _draw_one_options(m: Game, s: State, task: Task, ins) -> list[Option] | None:
    me = task.controller
    found = draw_replacements(m, s, me)
    if not found:
        return None
    opts: list[Option] = [((r,), f"{me} replaces a draw with {r.label}") for r, _ in found]
    if all(optional for _, optional in found):
        opts.append((NONE, f"{me} uses no replacement and draws"))
    return opts


def _draw_one(m: Game, s: State, task: Task, ins, choice, out: list[Event]) -> State:
    """One draw of a draw of several: replaced (its effect pushed, done before the next draw, R114.4a) or
    carried out; a card drawn is bound in the effect that drew it (the task below, R114.4b)."""
    me = task.controller
    if choice is not None and choice != NONE:
        r: Replacement = choice[0]
        out.append(ev("replace", "R609.6", replaced="draw", by=r.label, card=m.label(r.source)))
        ability = next(a for a in m.pool[r.card].abilities if a.id == r.ability)
        return push(s, Task(program=ability.effect, pc=0, controller=me, source=r.source, ability=r.label,
                            binds=((REPLACING, 1),)))
    if not s.zone(me).deck:
        return s   # 114.6: nothing to draw, nothing triggers (114.6a)
    s, card = draw_card(m, s, me, out)
    name = ins.get("bind")
    return _bind_below(s, name, card) if name else s


def draw_card(m: Game, s: State, me: str, out: list[Event]) -> tuple[State, int]:
    """R114.1: the top card of `me`'s deck goes to his hand, an event abilities may watch (R114.2)."""
    card = s.zone(me).deck[0]
    out.append(Event("move", (("card", m.label(card)), ("player", me), ("from", "deck"), ("to", "hand")), ""))
    s = s.with_zone(me, s.zone(me).move("deck", "hand", card))
    return (m.trigger(s, "draw", me, card, out) if "draw" in m.words else s), card


def _bind_below(s: State, name: str, card: int) -> State:
    """Bind `name` in the effect whose draw this step carries out: the task under this step's task,
    which is on top of the stack while the step runs (R114.4b: only a card really drawn is bound)."""
    k = len(s.running) - 2
    if k < 0:
        return s
    t = s.running[k]
    return replace(s, running=s.running[:k] + (replace(t, binds=t.binds + ((name, card),)),) + s.running[k + 1:])


op(DRAW_ONE, chooser=lambda m, s, t, i: t.controller)((_draw_one_options, _draw_one))
