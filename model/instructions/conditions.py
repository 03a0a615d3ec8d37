"""The conditional clause of a card's text: `if: {cond: {...}, do: [...], else: [...]}`.

"If you have no shields", "if a player has no shields", "if it was returned", "if that creature was
destroyed" and a Super S-Trigger's or S-Trigger Plus's bonus ("S−", "P−": model/touch.py marks the
card when it is used with the bonus). The condition is read when the clause is reached (what the
card says happens "then"), except the bonus, which was decided when the card was used (dmwiki
"スーパー・S・トリガー", "S・トリガー・プラス"). The chosen program runs next as an effect of its own,
with the binds of the effect around it, so "it" still names what it named. No footprint: TOP.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import State, Task, other
from .registry import BIND, PROGRAM, deterministic, op, run_within

if TYPE_CHECKING:
    from ..game import Game

_ZONES = ["hand", "battle", "graveyard", "mana", "deck", "shields"]
CONDITION = {
    "type": "object", "minProperties": 1, "additionalProperties": False,
    "description": "all of: no_shields (own, opponent or any player has none), shields_at_most (own), bonus "
                   "(the card was used with its Super S-Trigger / S-Trigger Plus bonus), where (a bound card "
                   "is now in that zone: {bound: NAME, zone: hand})",
    "properties": {
        "no_shields": {"enum": ["own", "opponent", "any"]},
        "shields_at_most": {"type": "integer", "minimum": 0},
        "bonus": {"const": True},
        "where": {"type": "object", "additionalProperties": False, "required": ["bound", "zone"],
                  "properties": {"bound": BIND, "zone": {"enum": _ZONES}}},
    },
}


def holds(m: Game, s: State, task: Task, cond) -> bool:
    """Whether every part of the condition holds now for the effect `task`."""
    me = task.controller
    for key, want in cond:
        if key == "no_shields":
            players = {"own": (me,), "opponent": (other(me),), "any": ("A", "B")}[want]
            if not any(not s.zone(p).shields for p in players):
                return False
        elif key == "shields_at_most" and len(s.zone(me).shields) > want:
            return False
        elif key == "bonus" and task.source not in s.bonus:
            return False
        elif key == "where" and not _where(m, s, task, dict(want)):
            return False
    return True


def _where(m: Game, s: State, task: Task, want: dict) -> bool:
    card = task.bound(want["bound"])
    return card is not None and card in getattr(s.zone(m.owner(card)), want["zone"])


def _if(m, s, task, ins, choice, out):
    cond = ins.get("cond")
    return run_within(s, task, ins.get("do") if holds(m, s, task, cond) else ins.get("else"))


_SCHEMA_IF = {
    "doc": "a conditional clause: `cond` read when it is reached (the bonus: when the card was used); then "
           "`do` (or `else`) runs with the binds of the effect",
    "properties": {"cond": CONDITION, "do": PROGRAM, "else": PROGRAM},
    "required": ["cond", "do"],
}
op("if", schema=_SCHEMA_IF)((deterministic, _if))
