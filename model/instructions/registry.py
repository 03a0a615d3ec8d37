"""The registry of instructions and the helpers they share.

Every instruction — the card vocabulary of `vocabulary.py` and the procedure's own internal steps
(names starting with `_`: a shield check, a replacement decision, a card leaving the battle zone) —
is an Op: who decides, what the options are (None: nothing to decide), and what doing it changes.
Running them all through the same task stack is what lets a shield check interrupt an effect,
or a replacement decision happen in the middle of a break, without special cases.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from .cards import Instr
from .events import Event
from .state import State, Task, other, replace

if TYPE_CHECKING:
    from .procedure import BreakModel

Option = tuple[tuple[Any, ...], str]
NONE = ("none",)
Options = Callable[["BreakModel", State, Task, Instr], "list[Option] | None"]
Execute = Callable[["BreakModel", State, Task, Instr, Any, "list[Event]"], State]


@dataclass(frozen=True)
class Op:
    options: Options
    execute: Execute
    chooser: Callable[["BreakModel", State, Task, Instr], str] | None = None   # default: the task's controller
    loops: bool = False       # execute decides itself whether to move past the instruction


OPS: dict[str, Op] = {}


def op(name: str, chooser=None, loops: bool = False):
    """Register `options` and `execute` functions for an instruction (used as a decorator pair)."""
    def register(pair: tuple[Options, Execute]) -> tuple[Options, Execute]:
        OPS[name] = Op(pair[0], pair[1], chooser, loops)
        return pair
    return register


def deterministic(_m, _s, _t, _i) -> None:
    return None


def instr(name: str, **args: Any) -> Instr:
    return Instr(name, tuple(sorted(args.items())))


def advance_pc(s: State) -> State:
    """Move the running task past its current instruction."""
    task = s.running[-1]
    return replace(s, running=s.running[:-1] + (replace(task, pc=task.pc + 1),))


def push(s: State, task: Task) -> State:
    return replace(s, running=s.running + (task,))


def bind(s: State, name: str, value: int) -> State:
    """Bind a name in the task on top of the stack (later instructions of it read it)."""
    top = s.running[-1]
    return replace(s, running=s.running[:-1] + (replace(top, binds=top.binds + ((name, value),)),))


def same(m: "BreakModel", s: State, cid: int) -> tuple:
    """What makes a card interchangeable with another in `s`: the same card, the same owner, and the
    same occurrences — where it is and every role it plays (declared in a shield check, source of a
    pending effect, chosen to break, ...; model/canonical.py)."""
    return (m.instances[cid].card, m.owner(cid), m.symmetry.signature(s, cid))


def distinct(m: "BreakModel", s: State, ids, key=None) -> list[int]:
    """One representative (lowest id) per class of interchangeable cards.

    No ability reads a card's instance id, so the states reached through another copy with the same
    roles are the same up to renaming identical cards: offering one copy loses no outcome. Copies
    that play different roles (one declared for its S-Back, one not) are offered apart.
    """
    reps: dict[Any, int] = {}
    for cid in sorted(ids):
        reps.setdefault(key(cid) if key else same(m, s, cid), cid)
    return sorted(reps.values())


def multisets(m: "BreakModel", s: State, cards, n: int) -> list[tuple[int, ...]]:
    """Every way to pick n of `cards`, interchangeable cards counted once (lowest ids first)."""
    classes: dict[tuple, list[int]] = {}
    for cid in sorted(cards):
        classes.setdefault(same(m, s, cid), []).append(cid)
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


def players_of(controller: str, whose: str) -> list[str]:
    return {"own": [controller], "opponent": [other(controller)], "any": ["A", "B"]}[whose]


def creatures(m: "BreakModel", s: State, controller: str, whose: str, untapped: bool = False) -> list[int]:
    """Creatures in the battle zones of `whose` (cards attached to others are not creatures there)."""
    found = [cid for p in players_of(controller, whose) for cid in s.zone(p).battle
             if m.card(cid).type == "creature" and not (untapped and cid in s.zone(p).tapped)]
    # the attacker is kept apart from its copies: R509.4c and Q06 depend on which one leaves
    return distinct(m, s, found, key=lambda c: (same(m, s, c), c == s.attacker, attachments(m, s, c)))


def attachments(m: "BreakModel", s: State, card: int) -> tuple[tuple[str, str], ...]:
    """What is linked to a card, by kind and pool id (part of what makes two copies differ)."""
    z = s.zone(m.owner(card))
    return tuple(sorted((k, m.instances[c].card) for c, h, k in z.links if h == card))
