"""Choosing a name, a race, a civilization or a number: the card word `choose`.

"Name a card", "choose a race", "choose a civilization", "choose a number": the player picks one value and the
rest of the effect reads it. The explorer branches over every value the rules allow, the choice is recorded in
the state (the rest of the running effect's program, with the word `chosen` replaced by the value: two choices
are two states) and narrated (a `choose` event). What may be chosen:

- a civilization: one of the five, never colourless (106.3);
- a number: 0 up to `max`, never a negative one (108.1a);
- a race: a whole race that exists, never a part of one ("Cyber" alone) nor one no card has (203.4): the
  races printed on the cards of the game, each face's own (805.2);
- a card name: a name that exists (202.2): the names of the cards of the game, and of a double-sided card
  each face's name alone, never both at once (805.7 psychic, 807.6 dragheart, 809.4 forbidden), and of a
  linked God each card's alone (804.6: the cards are in the table one by one).

A later `which: {name_is: chosen}` then reaches the cards whose name is exactly the one named (202.3a); in
the battle zone a double-sided card has only the name of the face up (805.3, model/instructions/selection.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..characteristics import CIVILIZATIONS
from ..events import ev
from ..instr import Instr
from ..state import State, replace
from .registry import op
from .selection import joined_name

if TYPE_CHECKING:
    from ..game import Game
    from ..state import Task

CHOSEN = "chosen"   # the word a later instruction writes where it reads the value chosen
WHAT = ("name", "race", "civilization", "number")
MAX_NUMBER = 20     # the largest `max` a card file may give (each number is a branch of the search)


def values(m: Game, what: str, most: int = 0) -> tuple[Any, ...]:
    """The values a player may choose (106.3, 108.1a, 203.4, 202.2 with 804.6, 805.7, 807.6, 809.4)."""
    if what == "civilization":
        return CIVILIZATIONS                      # 106.3: one of the five; colourless is not a civilization
    if what == "number":
        return tuple(range(0, most + 1))          # 108.1a: never a negative number
    cards = {m.instances[i].card for i in range(len(m.instances))}
    if what == "race":   # 203.4: whole races that exist, each card (and each face: its own instance) alone
        return tuple(sorted({r for c in cards for r in m.pool[c].race_names()}))
    # 202.2: a name that exists; one face's (805.7); a name a card's text adds to its own (202.4) exists too
    named = {n for c in cards for n in (m.pool[c].name,) + m.pool[c].also_named}
    # 810.4: a twinpact outside the battle zone has its two sides' names joined (its creature side's alone there)
    named |= {joined_name(m.pool[c].name, side.name) for c in cards if (side := m.pool[c].spell_side) is not None}
    return tuple(sorted(named))


def substitute(value: Any, chosen: Any) -> Any:
    """`value` (an instruction's argument, frozen) with every `chosen` word replaced by the value chosen."""
    if isinstance(value, str):
        return chosen if value == CHOSEN else value
    if isinstance(value, tuple):
        return tuple(substitute(v, chosen) for v in value)
    return value


def _options(m: Game, s: State, task: Task, ins: Instr):
    what, me = ins.get("what"), task.controller
    verb = "names" if what == "name" else f"chooses the {what}"
    return [((v,), f"{me} {verb} {v}") for v in values(m, what, int(ins.get("max", 0)))]


def _choose(m: Game, s: State, task: Task, ins: Instr, choice, out: list) -> State:
    """Record the value in the rest of the running effect (its later instructions read it) and narrate it."""
    value = choice[0]
    top = s.running[-1]
    rest = tuple(Instr(i.op, substitute(i.args, value)) for i in top.program[top.pc:])
    program = top.program[:top.pc] + rest
    out.append(ev("choose", "", player=task.controller, what=ins.get("what"), value=value))
    return replace(s, running=s.running[:-1] + (replace(top, program=program),))


_SCHEMA_CHOOSE = {
    "doc": "the controller chooses a card name (202.2: one that exists, one face of a double-sided card, 805.7), "
           "a race (203.4: a whole race that exists), a civilization (106.3: one of the five) or a number from 0 "
           "to `max` (108.1a); later instructions of the effect read it where they write `chosen` (e.g. "
           "`which: {name_is: chosen}`, `which: {race: chosen}`)",
    "properties": {"what": {"enum": list(WHAT)}, "max": {"type": "integer", "minimum": 0, "maximum": MAX_NUMBER}},
    "required": ["what"],
}
op("choose", schema=_SCHEMA_CHOOSE)((_options, _choose))
