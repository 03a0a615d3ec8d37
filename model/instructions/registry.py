"""The registry of instructions: each card word in one record, with its schema, semantics and footprint.

Every instruction — the card words a card file may use and the procedure's own internal steps
(names starting with `_`: a shield check, a replacement decision, a card leaving the battle zone) —
is an Op: who decides, what the options are (None: nothing to decide), what doing it changes, and
for card words the JSON schema of its arguments (checked by the card loader) and its footprint (what
it reads and writes, for the partial-order reduction). Running them all through the same task stack
is what lets a shield check interrupt an effect, or a replacement decision happen in the middle of a
break, without special cases. A new card word is one `op(...)` registration in one module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..access import TOP
from ..events import Event
from ..instr import Instr
from ..state import State, Task, replace, setter

if TYPE_CHECKING:
    from ..game import Game

Option = tuple[tuple[Any, ...], str]
NONE: tuple[Any, ...] = ("none",)   # the option "no choice", beside options of any arity
Options = Callable[["Game", State, Task, Instr], "list[Option] | None"]
Execute = Callable[["Game", State, Task, Instr, Any, "list[Event]"], State]
# (model, instruction, controller, card ids already followed) -> accesses; model/footprint.py
Footprint = Callable[["Game", Instr, str, frozenset], frozenset]


@dataclass(frozen=True)
class Op:
    options: Options
    execute: Execute
    chooser: Callable[[Game, State, Task, Instr], str] | None = None   # default: the task's controller
    loops: bool = False       # execute decides itself whether to move past the instruction
    schema: dict | None = None         # a card word: its doc and JSON schema; None for an internal step
    footprint: Footprint | None = None  # None: reaches beyond what footprints describe (TOP)
    simple: bool = False      # no decision, triggers nothing, removes no card: may resolve first alone


OPS: dict[str, Op] = {}

# schema fragments the card words share
ZONES = {"enum": ["hand", "graveyard"]}
BIND = {"type": "string", "pattern": "^[a-z_]+$"}
# the arguments that bind a name for later instructions (the others of schema BIND read one): a card,
# or the cards and creatures an effect moved (model/instructions/piles.py)
BINDERS = ("bind", "cards_as", "creatures_as")
COUNTS = {"cards_as": {**BIND, "description": "name the number of cards this moves (sources included under "
                                             "pile_count=cards; never auras), for a later `..._for_each`"},
          "creatures_as": {**BIND, "description": "name the number of creatures this moves or destroys (a pile "
                                                 "is one creature), for a later `..._for_each`"}}
WHOSE = {"enum": ["own", "opponent", "any"]}
PROGRAM: dict = {"type": "array"}  # each item is checked as an instruction by the card loader


def op(name: str, chooser=None, loops: bool = False, *, schema: dict | None = None,
       footprint: Footprint | None = None, simple: bool = False):
    """Register `options` and `execute` functions for an instruction (used as a decorator pair)."""
    def register(pair: tuple[Options, Execute]) -> tuple[Options, Execute]:
        if name in OPS:
            raise ValueError(f"instruction {name!r} registered twice")
        OPS[name] = Op(pair[0], pair[1], chooser, loops, schema, footprint, simple)
        return pair
    return register


def card_words() -> dict[str, dict]:
    """The instructions a card file may use, with their schemas (the card loader checks against these)."""
    return {name: spec.schema for name, spec in sorted(OPS.items()) if spec.schema is not None}


def options(m: Game, s: State, task: Task, ins: Instr) -> list[Option] | None:
    """The options of the instruction, or None when it needs no decision."""
    return OPS[ins.op].options(m, s, task, ins)


def chooser(m: Game, s: State, task: Task, ins: Instr) -> str:
    pick = OPS[ins.op].chooser
    return pick(m, s, task, ins) if pick else task.controller


def execute(m: Game, s: State, task: Task, ins: Instr, choice, out: list[Event], spec=None) -> State:
    """Carry out `ins` with `choice`; the pc moves past it first unless the op loops. `spec`: its
    registry entry, when the caller (the procedure's hot loop) has looked it up already."""
    if spec is None:
        spec = OPS[ins.op]
    if not spec.loops:
        s = advance_pc(s)
    return spec.execute(m, s, task, ins, choice, out)


def deterministic(_m, _s, _t, _i) -> None:
    return None


def instr(name: str, **args: Any) -> Instr:
    return Instr(name, tuple(sorted(args.items())))


_with_running = setter(State, "running")


_RUNNING, _PC = State._index["running"], Task._index["pc"]
_new = tuple.__new__


def advance_pc(s: State) -> State:
    """Move the running task past its current instruction (the copies inline: the hottest copy of the
    procedure). The stack a resolving ability starts with is shared (its task is built once), so that
    stack moved on is kept by the stack's identity (the entry holds it: its id stays its own)."""
    running = s.running
    task = running[-1]
    found = _ADVANCED.get(id(running)) if len(running) == 1 and not task[_PC] else None
    if found is None or found[0] is not running:
        moved = list(task)
        moved[_PC] += 1
        found = (running, running[:-1] + (_new(Task, moved),))
        if len(running) == 1 and not task[_PC]:   # (the first instruction of a lone task: kept)
            if len(_ADVANCED) >= ADVANCED_KEPT:
                _ADVANCED.clear()
            _ADVANCED[id(running)] = found
    items = list(s)
    items[_RUNNING] = found[1]
    return _new(State, items)


_ADVANCED: dict[int, tuple[tuple[Task, ...], tuple[Task, ...]]] = {}   # id(stack) -> (stack, moved on)
ADVANCED_KEPT = 1 << 12


def push(s: State, task: Task) -> State:
    return _with_running(s, s.running + (task,))


def run_within(s: State, task: Task, program: tuple) -> State:
    """`program` (a clause of `task`'s effect: a mode, a condition's branch) runs next, as part of the same
    ability: its controller, source and binds; nothing to run leaves `s` as it is."""
    if not program:
        return s
    return push(s, Task(program=program, pc=0, controller=task.controller, source=task.source,
                        ability=task.ability, binds=task.binds))


def bind(s: State, name: str, value: int) -> State:
    """Bind a name in the task on top of the stack (later instructions of it read it)."""
    top = s.running[-1]
    return replace(s, running=s.running[:-1] + (replace(top, binds=top.binds + ((name, value),)),))




def footprint(m: Game, ins: Instr, me: str, seen: frozenset = frozenset()) -> frozenset:
    """The footprint of one instruction run by `me`: its own, or TOP when it declares none."""
    spec = OPS.get(ins.op)
    return spec.footprint(m, ins, me, seen) if spec is not None and spec.footprint is not None else TOP


def program_footprint(m: Game, instructions, me: str, seen: frozenset = frozenset()) -> frozenset:
    """The union footprint of a program (TOP as soon as one instruction is TOP)."""
    out: set = set()
    for ins in instructions:
        f = footprint(m, ins, me, seen)
        if f == TOP or ("*", "*", "*") in f:
            return TOP
        out |= f
    return frozenset(out)
