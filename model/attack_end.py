"""The end of an attack (R510) and what lasts until then.

A mixin of the procedure beside model/attack.py (kept apart so that the declaration steps and the
end steps can change independently). Sources: scenario A12 (DM Wiki old EUC edition,
"攻撃終了ステップ", undated pre-2020 copy; the King Bolbalzak card page of the same wiki, undated).
- A12c, A25 (dmwiki "攻撃クリーチャー指定ステップ", undated): "while attacking" statics (Power Attacker)
  apply from the declaration until the attack's processing is over; effects given "until the end of
  the attack" last as long. They end in the end-of-attack step once its abilities have resolved (510.2
  of the comprehensive rules Ver.1.48, 2025-12-17): an `expire` event says so. The undated wiki copy had
  them end as the step began; no dated source of that order was found, so it is no era.
- R507.3c (A26, dmwiki "ブロッククリーチャー指定ステップ", revision 2021-10-04): once the block step is
  decided, "when this creature blocks" triggers for the blocker, and "when this creature attacks a
  player and is not blocked" for an attacker whose attack on a player no Blocker ability took (other
  redirections do not count); what they trigger resolves before the battle or the direct attack step.
- R510 (A12), 510.1 of Ver.1.48: "at the end of this creature's attack" abilities trigger in the
  end-of-attack step and resolve in the usual order (the turn player's first, R509.4a-b), while the
  attack's effects still apply. An attacker that left the battle
  zone during the attack (destroyed in a battle, returned, ...) is no longer that creature: its
  ability does not trigger. After a turn skip (Q09) there is no end-of-attack step at all.
"""

from __future__ import annotations

from . import keyword_table
from .attack import PHASES
from .events import Event, ev
from .host import Host
from .restrictions import ending, without
from .state import State, replace
from .vocabulary import POWER_ATTACKER

# the phases (model/attack.py PHASES) in which the attack is going on: declared, not yet at its end
# ("" is the direct attack step); derived, so that a phase added there is covered here too
ATTACKING = frozenset(PHASES).difference({"declare", "end_attack", "end_turn"}) | {""}


class AttackEnd(Host):
    """Expects the procedure's `words`, `trigger` and card table (see model/attack.py's AttackSteps)."""

    def at_end_of_attack(self, s: State, out: list[Event]) -> State:
        """510.1 (Ver.1.48): as the end-of-attack step begins (its event is already out), every "at the end
        of the attack" ability triggers; its effects resolve, the turn player's first. Only then do the
        "while attacking" and "until the end of the attack" effects end (510.2, `expire_attack_effects`,
        which model/attack.py's `attack_phase` calls once nothing of 510.1 waits)."""
        if "end_of_attack" in self.words and self.attacker_still_there(s):
            s = self.trigger(s, "end_of_attack", s.turn, s.attacker, out)
        return s

    def attacker_still_there(self, s: State) -> bool:
        """The attacking creature is the same object in the battle zone (it never left: R510, A12)."""
        return not s.attacker_left and s.attacker in s.zone(s.turn).battle

    # ---- "while attacking" (Power Attacker) and "until the end of the attack" (A12c, A25) ------------
    def attacking(self, s: State, cid: int) -> bool:
        """`cid` is the attacking creature and the attack is not over (R506.1d: until it leaves the
        battle zone or the end-of-attack step comes)."""
        if s.phase == "end_attack":   # 510.1 still sees the attack's effects; 510.2 ends them
            return cid == s.attacker and not s.attack_effects_ended and self.attacker_still_there(s)
        return cid == s.attacker and s.phase in ATTACKING and self.attacker_still_there(s)

    def attack_power_bonus(self, s: State, cid: int) -> int:
        """Power added during the attack: Power Attacker while attacking, and "until the end of the
        attack" effects (gone at R510, see `expire_attack_effects`)."""
        bonus = sum(n for c, n in s.boosts if c == cid)
        if self.attacking(s, cid):
            bonus += self.keyword_total(s, cid, POWER_ATTACKER)   # every copy (110.7), none if ignored
        return bonus

    def expire_attack_effects(self, s: State, out: list[Event]) -> State:
        """510.2 (Ver.1.48): once the end-of-attack abilities have resolved, Power Attacker no longer
        applies and every "while attacking" and "until the end of the attack" effect ends."""
        if self.attacker_still_there(s) and self.keyword_total(s, s.attacker, POWER_ATTACKER):
            out.append(ev("expire", "R510.2", card=self.label(s.attacker), effect=keyword_table.name(POWER_ATTACKER)))
        for c, n in s.boosts:
            out.append(ev("expire", "R510.2", card=self.label(c), effect=f"power +{n}"))
        for c in s.guards:
            out.append(ev("expire", "R510.2", card=self.label(c), effect="protection from destruction"))
        for c, what, _ in ending(s, "attack"):
            out.append(ev("expire", "R510.2", card=self.label(c), effect=what))
        return replace(s, boosts=(), guards=(), attack_effects_ended=True, restrictions=without(s, "attack"))

    # ---- R507.3c (A26): what the block step triggers --------------------------------------------------
    def block_triggers(self, s: State, out: list[Event], designated: bool = False) -> State:
        """"when it blocks" for the blocker designated in this step (R507.3a; not for one that entered the
        battle zone blocking, R507.4, nor for a Guardman, R507.2b); "attacks a player and is not blocked" for
        the attacker."""
        if designated and s.blocked and "blocks" in self.words:
            return self.trigger(s, "blocks", s.defender, s.target, out)
        if not s.blocked and s.target < 0 and "not_blocked" in self.words and self.attacker_still_there(s):
            return self.trigger(s, "not_blocked", s.turn, s.attacker, out)
        return s
