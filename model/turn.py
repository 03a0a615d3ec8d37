"""The turn around the attack: several attacks, the end of the turn and the next turn's start and draw.

A mixin of the procedure (BreakModel), placed before model/attack.py's AttackSteps. The scenario's plan
(model/turn_plan.py: `until`, `attacks`) says how far the game is played. The steps, cited by the
comprehensive rules Ver.1.48 (2025-12-17):
- 505.5: the turn player may declare attacks as long as a creature of his can attack. After an attack's
  end (510), he declares another legal attack (model/legality.py: an untapped creature, so one that
  attacked is tapped and cannot attack again unless an effect untapped it) or declares none, which ends
  the attack step. What lasts for the turn (additional breaks, "cannot attack", power changes and
  keywords given until the end of the turn, the shields broken) carries over to the next attack; what
  lasted for the attack ended at 510.2.
- Summoning sickness at a later attack: a creature that entered the battle zone this turn (read off the
  events that put it there, `note_entries`) cannot attack without Speed Attacker (model/legality.py).
- 511: the end-of-turn step (model/attack.py `begin_end_step`), then 511.2 ends the effects of the turn
  (model/power.py).
- 512, 500.5, 500.5a: the next turn is an extra turn if a player took one (the turn player's first),
  otherwise the other player's. 501.1: its turn player untaps his cards, all at once; 501.2: his "at the
  start of your turn" abilities trigger and resolve, his first. 502.1: in the draw step he draws a card;
  an empty deck loses by the rules as at any other moment (model/procedure.py `deck_out`).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from . import hyper, restrictions
from .attack import AttackSteps
from .events import Event, ev
from .instructions import draws
from .instructions.registry import instr, push
from .seals import sealed
from .state import State, Task, other, replace
from .turn_plan import Plan, plan_of

# the phases of the next turn (model/state.py Phase): its start step (501) and its draw step (502)
TURN_PHASES = {
    "start_turn": "the start step of the next turn: untap, 'at the start of your turn' (R501)",
    "draw": "the draw step of the next turn (R502)",
}


def arrivals(m: Any, new: list[int]) -> list[int]:
    """R807.5, R807.5a: a dragheart's arrival is the card's, whichever face is up: a weapon or fortress put this
    turn that dragsolves is a dragheart creature put this turn, one there since the turn began is none. A psychic
    creature's stays with the face that arrived (805.6: model/instructions/hyperspatial.py `flip`)."""
    return new + [m.faces[c] for c in new if c in m.faces and m.card(c).dragheart]


class TurnSteps(AttackSteps):
    """Several attacks in a turn and the move to the next turn (see the module docstring). Expects the
    model's `legal_attacks` (model/legality.py), `begin_end_step` (model/attack.py) and `_advance`."""

    @cached_property
    def plan(self) -> Plan:
        return plan_of(self.scenario.until, self.scenario.attacks)

    @cached_property
    def many_attacks(self) -> bool:
        """`plan.many`, looked up once per step of the search."""
        return self.plan.many

    @cached_property
    def counts_attacks(self) -> bool:
        """Whether the declarations are counted: only against a limit of several (without one, a count would
        keep a position that comes back, an untapped attacker's loop, from being seen as the same)."""
        return self.plan.many and self.plan.attacks is not None

    @cached_property
    def _label_ids(self) -> dict[str, int]:
        return {inst.label: inst.id for inst in self.instances}

    # ---- 505.5: one attack after another ----------------------------------------------------------
    def declare_attack(self, s: State, out: list[Event]) -> State:
        """Every declaration counts toward the plan's `attacks` (`counts_attacks`)."""
        if self.counts_attacks:
            s = replace(s, attacks=s.attacks + 1)
        return super().declare_attack(s, out)

    def note_entries(self, s: State, events: tuple[Event, ...] | list[Event]) -> State:
        """The turn player's creatures the events put into the battle zone join `entered`: they are
        summoning sick for the rest of the turn (a creature that left and came back is a new one)."""
        new = [self._label_ids[e.get("card")] for e in events
               if e.get("to") == "battle" and e.get("from") != "battle" and e.get("player") == s.turn
               and e.get("card") in self._label_ids]
        new = arrivals(self, new)
        if not new or set(new) <= set(s.entered):
            return s
        return replace(s, entered=tuple(sorted(set(s.entered) | set(new))))

    def after_attack(self, s: State, out: list[Event]) -> tuple[State, bool]:
        """Once an attack has ended (510.2 done): the next declaration (a decision) while the plan allows
        another attack and some creature can make one (505.5), otherwise the end of the attack step."""
        plan = self.plan
        if plan.many and (plan.attacks is None or s.attacks < plan.attacks):
            s = self.note_entries(s, out)
            nxt = self.next_declaration(s)
            if self.legal_attacks(nxt):
                return nxt, True
        return self.end_attack_step(s, out), False

    def next_declaration(self, s: State) -> State:
        """The state before the next attack is declared: the last attack's own bookkeeping cleared,
        what lasts for the turn kept."""
        return replace(s, phase="declare", attacker=-1, target=-1, defender=other(s.turn), started=False,
                       attacker_left=False, stop_attack=False, attack_stopped=False, blocked=False,
                       ntp_declared=False, attack_effects_ended=False, broke=(), breaks_left=0)

    def no_more_attacks(self, s: State) -> tuple[State, tuple[Event, ...]]:
        """The turn player declares no attack (R506.1) or no more (505.5). With one attack planned the
        exploration ends there, as it always did; otherwise the attack step is over."""
        out = [ev("no_attack", "R505.5" if self.plan.many else "R506.1", player=s.turn)]
        if not self.plan.many:
            return replace(s, over=True), tuple(out)
        s = self._advance(self.end_attack_step(s, out), out)
        return s, tuple(out)

    def end_attack_step(self, s: State, out: list[Event]) -> State:
        """500.2: the attack step is over; the end step follows when the plan plays it (511)."""
        if self.plan.end_step:
            return self.begin_end_step(s, out)
        return replace(s, over=True)

    # ---- 512: the next turn ---------------------------------------------------------------------
    def after_turn(self, s: State, out: list[Event]) -> tuple[State, bool]:
        """The turn has ended (511.2 done): the exploration stops, or the next turn begins (512)."""
        if not self.plan.next_turn:
            return replace(s, over=True), False
        return self.next_turn(s, out), False

    def next_player(self, s: State) -> tuple[str, tuple[str, ...]]:
        """500.5, 500.5a: an extra turn taken this turn comes right after it, the turn player's before the
        other player's; without one, the other player's turn. (The player, the extra turns left.)"""
        for player in (s.turn, other(s.turn)):
            if player in s.extra_turns:
                rest = list(s.extra_turns)
                rest.remove(player)
                return player, tuple(rest)
        return other(s.turn), s.extra_turns

    def next_turn(self, s: State, out: list[Event]) -> State:
        """512, 501: the new turn begins; what was remembered for the old one is forgotten; its turn player
        untaps his cards (501.1) and his "at the start of your turn" abilities trigger (501.2)."""
        tp, extra = self.next_player(s)
        rule = "R500.5" if len(extra) < len(s.extra_turns) else "R512"
        s = replace(s, turn=tp, defender=other(tp), extra_turns=extra, phase="start_turn", attacker=-1, target=-1,
                    started=False, attacker_left=False, stop_attack=False, attack_stopped=False, blocked=False,
                    ntp_declared=False, attack_effects_ended=False, broke=(), breaks_left=0, attacks=0,
                    entered=(), cant_attack=(), extra_breaks=(), spells_cast=(0, 0))
        out.append(ev("start_turn", rule, player=tp))
        s = self.untap_all(self.end_lasting(s, out), out)
        if self.hyper_rule:   # hyperize's reminder: released until the start of your next turn (model/hyper.py)
            s = hyper.expire(self, s, out)
        if "start_of_turn" in self.words:   # 501.2a: only what is there now; an arrival waits a turn
            s = self.trigger(s, "start_of_turn", tp, -1, out)
        return s

    def end_lasting(self, s: State, out: list[Event]) -> State:
        """500.3: an effect lasting "until the start of your next turn" ends as the turn player's start step
        begins (the keywords his effects gave, model/instructions/power.py `grant`)."""
        for c, what, _ in restrictions.ending(s, s.turn):   # model/restrictions.py
            out.append(ev("expire", "R500.3", card=self.label(c), effect=what))
        s = replace(s, restrictions=restrictions.without(s, s.turn)) if s.restrictions else s
        ending = [(c, w) for c, w, p in s.lasting if p == s.turn]
        if not ending:
            return s
        granted = list(s.granted)
        for c, w in ending:
            out.append(ev("expire", "R500.3", card=self.label(c), effect=w))
            if (c, w) in granted:
                granted.remove((c, w))
        return replace(s, granted=tuple(granted), lasting=tuple(g for g in s.lasting if g[2] != s.turn))

    def untap_all(self, s: State, out: list[Event]) -> State:
        """501.1: the turn player untaps his tapped cards, all at once (one event each); a sealed creature
        stays as it is (116.2a: it is neither tapped nor untapped)."""
        tp = s.turn
        z = s.zone(tp)
        if not z.tapped:
            return s
        kept = tuple(c for c in z.tapped if self.sealing and sealed(self, s, c))
        for c in z.tapped:
            if c not in kept:
                out.append(ev("untap", "R501.1", card=self.label(c), player=tp))
        return s.with_zone(tp, replace(z, tapped=kept))

    def attack_phase(self, s: State, out: list[Event]) -> tuple[State, bool]:
        """The next turn's steps once what they triggered has resolved: the draw step (502.1), or the end."""
        if s.phase == "start_turn":
            if self.plan.until == "next_turn_draw":
                return self.draw_step(replace(s, phase="draw"), out), False
            return replace(s, over=True), False
        if s.phase == "draw":
            return replace(s, over=True), False
        return super().attack_phase(s, out)

    def draw_step(self, s: State, out: list[Event]) -> State:
        """502.1: the turn player draws a card (a turn-based action, no effect of a card); it is a draw like
        any other (114.1), so what watches draws triggers (R114.2) and resolves in the draw step, and the
        turn player's draw replacements may replace it (R114.4): the draw is then one step of its own,
        decided as an effect's draw is (model/instructions/draws.py)."""
        tp = s.turn
        z = s.zone(tp)
        if not z.deck:
            return s   # an empty deck has already lost (LO01, 104)
        if draws.OWN_DRAW in self.words and draws.draw_replacements(self, s, tp):
            return push(s, Task(program=(instr(draws.DRAW_ONE),), pc=0, controller=tp, source=-1,
                                ability="draw step (502.1)"))
        card = z.deck[0]
        out.append(ev("move", "R502.1", card=self.label(card), player=tp, **{"from": "deck", "to": "hand"}))
        s = s.with_zone(tp, z.move("deck", "hand", card))
        return self.trigger(s, "draw", tp, card, out) if "draw" in self.words else s
