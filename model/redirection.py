"""Abilities that change where an attack goes in the block step (R507): Blocker and Guardman as one mechanism.

R507.1a: the non-turn player chooses, all at once, creatures able to use a redirecting ability (each must be
able to use it then: a condition it cannot meet keeps it out); R507.2: their abilities resolve in his order and
the one resolved last decides where the attack goes. What differs between the redirections is one fact: a
Blocker resolved last makes its creature the blocking creature (R507.2a: the attacker is blocked, "when it
blocks" triggers, R507.3a); any other redirection resolved last (Guardman) makes none (R507.2b: the attack is
now on that creature, nobody blocked). So a redirection is a row of REDIRECTIONS: its keyword, whether it
blocks, and the model's method listing the creatures able to use it now (Blocker's conditions are in
model/attack.py and model/touch.py, Guardman's in model/attack.py). The block step (model/attack.py) reads
only this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import keyword_table
from .state import State

if TYPE_CHECKING:
    from .vocabulary import Keyword


@dataclass(frozen=True)
class Redirection:
    """One attack-redirecting ability (R507.1)."""

    keyword: Keyword
    blocks: bool    # resolved last, it makes a blocking creature (R507.2a) or not (R507.2b)
    users: str      # the model's method: the creatures able to use it in a state (R507.1a)
    rule: str       # the rule its redirection follows, for the events


REDIRECTIONS: tuple[Redirection, ...] = (
    Redirection(keyword_table.name("redirect_block"), True, "blockers", "R507.2a"),
    Redirection(keyword_table.name("redirect_guard"), False, "guardmen", "R507.2b"),
)


def redirectors(m, s: State) -> tuple[tuple[int, Redirection], ...]:
    """Each of the defender's creatures able to redirect the attack now, with the redirection it would use,
    Blockers first, each kind in the battle zone's order. A creature able to use several uses the first of
    REDIRECTIONS (Blocker before Guardman)."""
    found: dict[int, Redirection] = {}
    for r in REDIRECTIONS:
        for c in getattr(m, r.users)(s):
            found.setdefault(c, r)
    return tuple(found.items())


def used_by(m, s: State, creature: int) -> Redirection:
    """The redirection `creature` uses in the block step of `s` (one of `redirectors`)."""
    for c, r in redirectors(m, s):
        if c == creature:
            return r
    raise AssertionError(f"{m.label(creature)} cannot redirect this attack (R507.1a)")
