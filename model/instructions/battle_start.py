"""A battle an effect starts (R101.4e-f, R115.2): what its start triggers resolves at once, inside the effect.

The attack's battle waits for what its start triggered like any step (model/attack.py, phase
`battle_start`). A battle an effect starts is part of that effect until it ends (101.4e), and the
abilities its start triggers take effect at once all the same (101.4f): they leave the pending
effects and resolve now, the turn player's first and each player's in the order he chooses
(R115.2), before the powers are compared (`_fight`; no battle if a creature has left, R115.3a).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import Event
from ..state import Pending, State, Task, replace
from .registry import deterministic, instr, op, push

if TYPE_CHECKING:
    from ..game import Game

LABEL = "battle start (R101.4f)"   # the task that resolves them (the symmetry leaves a state holding it alone)


def start_battle(m: Game, s: State, a: int, b: int, out: list[Event]) -> State:
    """Trigger the battle's start for both creatures; what triggered resolves now, then they fight."""
    before = s.pending
    for c in (a, b):
        s = m.trigger(s, "battle_start", m.owner(c), c, out)
    new = list(s.pending)
    for p in before:
        new.remove(p)
    if not new:
        return m.fight(s, a, b, out, "R115")
    s = replace(s, pending=before)
    return push(s, Task(program=(instr("_battle_starts", left=tuple(sorted(new))), instr("_fight", a=a, b=b)),
                        pc=0, controller=s.turn, source=a, ability=LABEL))


def _next(s: State, left: tuple[Pending, ...]) -> tuple[Pending, ...]:
    """The ones that may resolve next: the turn player's first (R115.2)."""
    tp = tuple(p for p in left if p.controller == s.turn)
    return tuple(sorted(set(tp or left)))


def _starts_options(m, s, task, ins):
    candidates = _next(s, ins.get("left"))
    if len(candidates) < 2:
        return None
    return [((p,), f"{p.controller} resolves {m.ability_label(p.card, p.ability)} first") for p in candidates]


def _chooser(m, s, task, ins) -> str:
    return _next(s, ins.get("left"))[0].controller


def _starts(m: Game, s: State, task, ins, choice, out: list[Event]) -> State:
    """Resolve one of them: its effect runs on top of this task, which comes back for the rest."""
    left = list(ins.get("left"))
    p = choice[0] if choice is not None else _next(s, tuple(left))[0]
    left.remove(p)
    top = s.running[-1]
    program = top.program
    if left:
        program = (instr("_battle_starts", left=tuple(left)),) + program[top.pc + 1:]
        s = replace(s, running=s.running[:-1] + (replace(top, program=program, pc=0),))
    else:
        s = replace(s, running=s.running[:-1] + (replace(top, pc=top.pc + 1),))
    label = m.ability_label(p.card, p.ability)
    out.append(Event("resolve", (("ability", label), ("source", m.label(p.source)), ("controller", p.controller),
                                 ("frame", p.frame)), "R101.4f"))
    uses = dict(s.uses)
    uses[label] = uses.get(label, 0) + 1
    effect = next(a for a in m.pool[p.card].abilities if a.id == p.ability).effect
    s = replace(s, uses=tuple(sorted(uses.items())))
    return push(s, Task(program=effect, pc=0, controller=p.controller, source=p.source, ability=label))


def _fight(m: Game, s: State, task, ins, choice, out: list[Event]) -> State:
    """R115.3a: the powers are compared only if both creatures are still in the battle zone."""
    a, b = ins.get("a"), ins.get("b")
    if a not in s.zone(m.owner(a)).battle or b not in s.zone(m.owner(b)).battle:
        return s
    return m.fight(s, a, b, out, "R115")


op("_battle_starts", chooser=_chooser, loops=True)((_starts_options, _starts))
op("_fight")((deterministic, _fight))
