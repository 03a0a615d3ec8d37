"""How far a scenario plays the game: its `until` and `attacks` keys, as the turn's steps read them.

A scenario starts at an attack (named, or chosen with `attack: {choose: true}`) and stops at a later
point of the turn (500.1: start, draw, charge, main, attack, end). The points it may stop at, in the
order the game reaches them:
- `end_attack`: after the end-of-attack step (510) of the last attack played;
- `end_attack_step`: when the attack step is over (505.5: the turn player declares no more attacks, or
  none of his creatures can attack);
- `end_turn`: after the end-of-turn step (511);
- `next_turn_start`: after the next turn's start step (512, 501: untap, "at the start of your turn");
- `next_turn_draw`: after the next turn's draw step too (502).
`attacks: N` bounds the attacks the turn player declares this turn. Without it, `end_attack` and
`end_turn` play one attack (what they always meant) and the others as many as the rules allow.
Kept apart from the turn's steps (model/turn.py) so that the scenario loader reads it without the model.
"""

from __future__ import annotations

from dataclasses import dataclass

# every value of `until`, in the order the game reaches them
UNTIL = ("end_attack", "end_attack_step", "end_turn", "next_turn_start", "next_turn_draw")
# the values that play one attack unless `attacks` says otherwise (their meaning before several attacks)
ONE_ATTACK = frozenset({"end_attack", "end_turn"})
# the values that play the end-of-turn step (511), and those that go on to the next turn (512)
PLAYS_END_STEP = frozenset({"end_turn", "next_turn_start", "next_turn_draw"})
NEXT_TURN = frozenset({"next_turn_start", "next_turn_draw"})


@dataclass(frozen=True)
class Plan:
    """Where the exploration stops and how many attacks the turn player may declare (None: no limit)."""

    until: str = "end_attack"
    attacks: int | None = 1

    @property
    def many(self) -> bool:
        """Whether more than one attack may be declared (505.5): the attack step is then played out."""
        return self.attacks != 1

    @property
    def end_step(self) -> bool:
        return self.until in PLAYS_END_STEP

    @property
    def next_turn(self) -> bool:
        return self.until in NEXT_TURN


def plan_of(until: str, attacks: int | None) -> Plan:
    """The plan of a scenario's `until` and `attacks` (None: the key was not given)."""
    if attacks is None:
        attacks = 1 if until in ONE_ATTACK else None
    return Plan(until, attacks)
