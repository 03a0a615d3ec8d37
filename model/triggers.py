"""What triggers when: pending effects are added as abilities trigger (R509.3, R112.3a, R701.6b).

A mixin of the procedure: it reads the card table and adds pending effects to a state; it decides
nothing about when they resolve (that is the procedure's eligibility, R509.4 and R603.7).
"""

from __future__ import annotations

from typing import Final

from .events import Event, ev
from .host import Host
from .state import PLAYERS, Frame, Pending, State, pindex, replace

BEFORE_BREAK: Final = "before_break"   # the kinds of pending effect (model/state.py PendingKind)
TRIGGERED: Final = "triggered"
# abilities of the card itself that `what` triggers (the whole attack adds attacks, battle_win, breaks,
# breaks_one_or_more and end_of_your_turn: model/attack.py, model/instructions/breaking.py)
SELF = frozenset({"enters", "destroyed", "attacks", "battle_win", "breaks", "breaks_one_or_more",
                  "end_of_your_turn", "end_of_attack", "blocks", "not_blocked",
                  "battle_lose", "attacked", "blocked"})   # the last three: model/power.py, model/touch.py
RULES = {"enters": "R112.3a", "destroyed": "R701.6b", "attacks": "R506.3", "battle_win": "R508",
         "breaks": "D6", "breaks_one_or_more": "D6", "end_of_your_turn": "R511.1",
         "shield_leaves": "D6", "end_of_attack": "R510", "blocks": "R507.3", "not_blocked": "R507.3c",
         "battle_lose": "R703.4d", "attacked": "R506.3", "player_attacked": "R506.3", "blocked": "R507.3"}


class Triggers(Host):
    """Adds pending effects; expects the card table's `card`, `owner`, `label`, `instances`."""

    def add_pending(self, s: State, p: Pending, out: list[Event], rule: str) -> State:
        out.append(ev("trigger", rule, ability=self.ability_label(p.card, p.ability),
                      source=self.label(p.source), controller=p.controller, frame=p.frame))
        return replace(s, pending=tuple(sorted(s.pending + (p,))))

    def trigger(self, s: State, what: str, player: str, card: int, out: list[Event]) -> State:
        """Trigger the abilities that watch for `what` ("cast", "enters", "destroyed") done by or to `player`."""
        depth = s.depth()
        found: list[Pending] = []
        cdef = self.card(card)
        if what in SELF:
            for ability in cdef.abilities_with(what):
                found.append(Pending(TRIGGERED, depth, player, cdef.id, ability.id, card))
        watching = self.watching
        for watcher in PLAYERS if watching else ():   # (no card of the scenario watches others)
            z = s.zone(watcher)
            for cid, zone in [(c, "battle") for c in z.battle if c in watching] + \
                    [(c, "graveyard") for c in z.graveyard if c in watching]:
                wdef = self.card(cid)
                for ability in wdef.abilities:
                    if ability.zone != zone or not ability.trigger:
                        continue
                    t = ability.trigger
                    if (t == "first_spell" and what == "cast" and watcher == player
                            and s.spells_cast[pindex(player)] == 1) \
                            or (t == "opponent_cast_or_summon" and what in ("cast", "enters") and watcher != player) \
                            or (t == "own_dragon_destroyed" and what == "destroyed" and watcher == player
                                and cid != card and cdef.has("Dragon")) \
                            or (t == "opponent_attacks" and what == "attacks" and watcher != player) \
                            or (t == "own_creature_breaks" and what == "breaks" and watcher == player) \
                            or (t == "opponent_shield_leaves" and what == "shield_leaves" and watcher != player) \
                            or (t == "own_attacked" and what == "attacked" and watcher == player) \
                            or (t == "you_attacked" and what == "player_attacked" and watcher == player):
                        found.append(Pending(TRIGGERED, depth, watcher, wdef.id, ability.id, cid))
        rule = RULES.get(what, "R509.4")
        for p in found:
            s = self.add_pending(s, p, out, rule)
        return s

    def trigger_before_break(self, s: State, frame: Frame, n: int, out: list[Event]) -> State:
        """R509.3: a before-break ability triggers once per shield to break ("each break")."""
        if not frame.by_creature:
            return s
        depth = s.depth()
        by = frame.by
        for ability in self.card(by).abilities_with("before_break"):
            for _ in range(n):
                s = self.add_pending(s, Pending(BEFORE_BREAK, depth, self.owner(by), self.instances[by].card,
                                                ability.id, by), out, "R509.3")
        return s
