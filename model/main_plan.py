"""A scenario's declared main-step plan: its `main:` key (issue 34), read by model/main_step.py.

Opt-in: without `main:` a scenario starts at the attack as it always did. With it, the turn is played
from its mana charge step (503) or its main step (504): the turn player may charge one hand card into
his mana zone (`charge: true`), then summon or cast, paying their costs, the hand cards `play` names, in
any order and as many as he can pay for (a full game tree is not wanted: only the named cards), then
goes on to the attack step, where he chooses his attacks (`attack: {choose: true}`).
Kept apart from the procedure so that the scenario loader reads it without the model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

SCHEMA = {
    "type": "object",
    "description": "the main step as far as the scenario asks (model/main_plan.py): `charge: true` plays the "
                   "mana charge step first (R503.1); `play` names the hand cards the turn player may summon or "
                   "cast in the main step, paying their mana costs (R504.1, R601.1)",
    "properties": {"charge": {"type": "boolean"},
                   "play": {"type": "array", "items": {"type": "string"}, "uniqueItems": True, "maxItems": 40}},
    "additionalProperties": False,
}


@dataclass(frozen=True)
class MainPlan:
    """Whether the charge step is played, and the names of the hand cards that may be executed."""

    charge: bool = False
    play: tuple[str, ...] = ()

    @property
    def first_phase(self) -> Literal["charge", "main"]:
        """Where the turn starts: the mana charge step (503) or the main step (504)."""
        return "charge" if self.charge else "main"


def main_plan_of(raw: dict | None) -> MainPlan | None:
    """The plan of a scenario's `main:` value (None: the key was not given)."""
    if raw is None:
        return None
    return MainPlan(bool(raw.get("charge", False)), tuple(str(n) for n in raw.get("play", ())))
