"""The end of an attack (R510) and what lasts until then (brief "afterattack", issue 10).

A mixin of the procedure beside model/attack.py (kept apart so that the declaration steps and the
end steps can change independently). Sources: research/attack.md A12 (DM Wiki old EUC edition,
"攻撃終了ステップ", undated pre-2020 copy; the King Bolbalzak card page of the same wiki, undated).
- R510 (A12): "at the end of this creature's attack" abilities trigger in the end-of-attack step and
  resolve in the usual order (the turn player's first, R509.4a-b). An attacker that left the battle
  zone during the attack (destroyed in a battle, returned, ...) is no longer that creature: its
  ability does not trigger. After a turn skip (Q09) there is no end-of-attack step at all.
"""

from __future__ import annotations

from .events import Event
from .state import State


class AttackEnd:
    """Expects the procedure's `words`, `trigger` and card table (see model/attack.py's AttackSteps)."""

    def at_end_of_attack(self, s: State, out: list[Event]) -> State:
        """R510: what happens as the end-of-attack step begins (its event is already out)."""
        if "end_of_attack" in self.words and self.attacker_still_there(s):
            s = self.trigger(s, "end_of_attack", s.turn, s.attacker, out)
        return s

    def attacker_still_there(self, s: State) -> bool:
        """The attacking creature is the same object in the battle zone (it never left: R510, A12)."""
        return not s.attacker_left and s.attacker in s.zone(s.turn).battle
