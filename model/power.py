"""Power, battles and the state-based destruction of a creature at power 0.

A mixin of the procedure (BreakModel), placed before model/attack.py's AttackSteps so that its
`power`, `battle` and `blockers` stand for theirs. Sources (scenarios/corpus.d/touch.yaml):
- Rule 703 of the General Game Rules (v1.28 2022-04-08, v1.38 2023-09-14, English text on the Duel
  Masters fandom wiki, S300): state-based actions happen whenever their condition is met, all at
  once, before any other effect is handled (703.1, 703.3); a creature with power 0 or less is
  destroyed (703.4c); a creature that lost a battle is destroyed as its result (703.4d); "cannot be
  destroyed" and "cannot leave" still apply at power 0 (700.3). dmwiki "パワー" (2024-02-12) says the
  same of power 0: destroyed at once. So the check runs between any two steps of the automatic
  procedure, also in the middle of an effect, and before any pending effect resolves.
- dmwiki "相打ち" (2021-04-15): on a tie both creatures lost the battle ("when it loses a battle"
  triggers for both, "when it wins" for none); a Slayer that wins still wins.
- dmwiki "スレイヤー" (2024-05-22) and its old EUC copy: Slayer destroys the creature it battled after
  the battle, whoever won; before DM-10 (2004-06-26, the rules version's `slayer_any_battle`) only a
  Slayer that lost took the other with it.
- dmwiki "パワー低下" and the fandom's "Decrease Power": "-N power until the end of the turn" lasts
  until R511.2 ends every effect of the turn; a creature that leaves the battle zone is a new object
  and loses what was given to it.
"""

from __future__ import annotations

from functools import cached_property
from typing import Final

from . import continuous, keyword_table
from .characteristics import DIVIDED_BY, FIXED, INFINITY, TIMES, power_value, referenced, shown
from .events import Event, ev
from .instructions import destruction
from .instructions.power import lowering
from .instructions.registry import instr, push
from .restrictions import ending, without
from .state import State, Task, replace
from .turn import TurnSteps
from .vocabulary import Keyword

INDESTRUCTIBLE: tuple[Keyword, ...] = ("stays_at_zero_power",)   # 700.3: the rule does not move them
WINS_ALL: Final = "wins_battles"                                  # 700.5
DESTRUCTION = "leaves the battle zone"                 # the ability name of destruction's own tasks


class PowerRules(TurnSteps):
    """Power changes, battles (by an attack or an effect), Slayer, "when it loses a battle" and the
    power-0 check. Expects the card table, `trigger`, `words`, `version` and AttackSteps' `power`."""

    # ---- what power a creature has ----------------------------------------------------------------
    def power(self, s: State, cid: int) -> int:
        """The power an effect or a battle refers to: `raw_power`, read as 0 below 0 (R108.1b)."""
        return referenced(self.raw_power(s, cid))

    def raw_power(self, s: State, cid: int) -> int:
        """Printed power, what applies during the attack (A12c) and the changes of this turn, in the order
        of R108.2 (additions, subtractions, multiplications, divisions) and with ∞ (R108.1c):
        model/characteristics.py `power_value`. It may be below 0 (R108.1b)."""
        base = super().power(s, cid)   # model/attack.py
        # R301.3b: the statics in force (model/continuous.py)
        statics = continuous.power_changes(self, s, cid) if self.statics else ()
        if not (s.powers or s.traits or statics):
            return base
        return power_value(base, [n for c, n in s.powers if c == cid] + list(statics),
                           [(k, v) for c, k, v in s.traits if c == cid])

    @cached_property
    def power_checks(self) -> bool:
        """Whether power can ever be 0 or less in this scenario: a card word lowers power, the position
        starts with a change (`{card: X, power: -N}`), or a creature of the scenario prints power 0."""
        for inst in self.instances:
            cdef = self.pool[inst.card]
            for program in (cdef.effect,) + tuple(a.effect for a in cdef.abilities):
                if any(_lowers(ins) for ins in program):
                    return True
        return bool(self.initial_state().powers or self.printed_zero or continuous.lowers(self))

    @cached_property
    def printed_zero(self) -> frozenset[int]:
        """The creatures of the scenario whose printed power is 0: at 0 wherever they are put, they are
        checked like any other (703.4c: a creature put into the battle zone at power 0 is destroyed). A card
        file may leave a creature's power out (it reads 0 then, `CardDef.has_power`): such a creature is
        checked only once a change of this turn reached its power."""
        return frozenset(i.id for i in self.instances if self.pool[i.card].type == "creature"
                         and self.pool[i.card].has_power and self.pool[i.card].power <= 0
                         and not self.pool[i.card].cell)   # 806.1e: a psychic cell alone is no creature

    # ---- 703.4c: power 0 or less ---------------------------------------------------------------
    def zero_power(self, s: State) -> tuple[int, ...]:
        """The creatures that the state-based check destroys now: power 0 or less, able to be destroyed
        (700.3), and no destruction already under way (its replacement is being decided or done). Every
        creature whose power can be 0 is looked at (a change reached it this turn, or it prints 0),
        between any two automatic steps: a +N and a -N in one step leave it destroyed if it was at 0
        between them."""
        lowered = continuous.lowers(self)   # a static may lower any creature's power (R608.3a)
        if not (s.powers or s.traits or self.printed_zero or lowered) or any(
                t.ability == DESTRUCTION or t.bound(destruction.REPLACING) is not None for t in s.running):
            return ()
        watched = {c for c, _ in s.powers} | {p[0] for p in s.traits} | self.printed_zero
        found = []
        for player in (s.turn, "B" if s.turn == "A" else "A"):
            for c in s.zone(player).battle:
                if (c not in watched and not lowered) or self.card(c).type != "creature" or c in s.guards:
                    continue
                if any(self.has_keyword(s, c, w) for w in INDESTRUCTIBLE):
                    continue
                if self.power(s, c) <= 0:
                    found.append(c)
        return tuple(found)

    def destroy_zero(self, s: State, cards: tuple[int, ...], out: list[Event]) -> State:
        """703.3, 703.4c: every creature at power 0 or less is destroyed at once, as one event (each
        destruction still offers its owner's replacements, R701.6a)."""
        for c in reversed(cards):
            raw = self.raw_power(s, c)
            out.append(ev("power_zero", "R703.4c", card=self.label(c), player=self.owner(c),
                          power=raw if -INFINITY < raw < INFINITY else shown(raw)))
            s = destruction.attempt(self, s, c, out)
        return s

    # ---- R508 / R115: battles ------------------------------------------------------------------
    def battle(self, s: State, out: list[Event]) -> State:
        """R508: the attack's battle (after a block or on a tapped creature)."""
        return self.fight(replace(s, phase="battle"), s.attacker, s.target, out, "R508")

    def fight(self, s: State, a: int, b: int, out: list[Event], rule: str) -> State:
        """A battle of `a` and `b`: the greater power wins, both lose on a tie (相打ち); the losers are
        destroyed as its result (703.4d), then Slayer destroys after the battle (スレイヤー)."""
        wins = [c for c in (a, b) if self.has_keyword(s, c, WINS_ALL)]
        if wins:
            winners = tuple(wins)   # 700.5: no power is compared; two such creatures both win
        else:
            pa, pb = self.power(s, a), self.power(s, b)
            winners = (a,) if pa > pb else (b,) if pb > pa else ()
        winner = winners[0] if len(winners) == 1 else -1
        out.append(ev("battle", rule, card=self.label(a), against=self.label(b),
                      winner=self.label(winner) if winner >= 0 else "none"))
        losers = tuple(c for c in (a, b) if c not in winners)
        for c in winners if "battle_win" in self.words else ():
            s = self.trigger(s, "battle_win", self.owner(c), c, out)   # A11: not on a tie
        for c in losers if "battle_lose" in self.words else ():
            s = self.trigger(s, "battle_lose", self.owner(c), c, out)  # 相打ち: both lost
        s = self._slayers(s, a, b, losers)
        for c in reversed(losers):
            s = destruction.attempt(self, s, c, out)
        return s

    def _slayers(self, s: State, a: int, b: int, losers: tuple[int, ...]) -> State:
        """Slayer: after the battle (once its losers are destroyed) the creature a Slayer battled is
        destroyed, whoever won; before 2004-06-26 only when the Slayer lost (`slayer_any_battle`)."""
        for me, other in ((a, b), (b, a)):
            copies = self.keyword_count(s, me, "destroys_battled")   # 110.7: each Slayer it has destroys on its own
            if copies and (self.version.slayer_any_battle or me in losers):
                for _ in range(copies):
                    s = push(s, Task(program=(instr("_slayer", card=other),), pc=0, controller=self.owner(me),
                                     source=me, ability=f"{self.name(me)}/{keyword_table.name('destroys_battled')}"))
        return s

    # ---- R511.2: the end of the turn ---------------------------------------------------------------
    def attack_phase(self, s: State, out: list[Event]):
        """R511.2: when the end step's abilities have resolved, the effects of the turn end (power
        changes, keywords given) before the turn does; the rest is AttackSteps'."""
        if s.phase == "end_turn" and s.traits:
            for c, kind, value in s.traits:
                out.append(ev("expire", "R511.2", card=self.label(c), effect=trait(kind, value)))
            s = replace(s, traits=())
        if s.phase == "end_turn" and s.restrictions:   # restrictions "this turn" (model/restrictions.py)
            for c, what, _ in ending(s, "turn") + ending(s, "attack"):   # no attack outlives its turn
                out.append(ev("expire", "R511.2", card=self.label(c), effect=what))
            s = replace(s, restrictions=without(s, "turn", "attack"))
        if s.phase == "end_turn" and (s.powers or s.granted):
            # a keyword given until a player's next turn begins outlives this one (model/turn.py)
            kept = tuple(g for g in s.granted if (g[0], g[1]) in {(c, w) for c, w, _ in s.lasting}) \
                if s.lasting else ()
            for c, n in s.powers:
                out.append(ev("expire", "R511.2", card=self.label(c), effect=f"power {change(n)}"))
            for c, word in s.granted:
                if (c, word) not in kept:
                    out.append(ev("expire", "R511.2", card=self.label(c), effect=word))
            s = replace(s, powers=(), granted=kept)
        return super().attack_phase(s, out)


def change(n: int) -> str:
    """A change of power as written on cards: +2000, -3000, +∞, -∞."""
    return ("+" if n > 0 else "") + shown(n)


def trait(kind: str, value) -> str:
    """A change of a characteristic as the events write it: power x2, power /2, power fixed at 5000, race
    Dragon, civilization Fire."""
    return {TIMES: f"power x{value}", DIVIDED_BY: f"power /{value}", FIXED: f"power fixed at {value}"}.get(
        kind, f"{kind} {value}")


def _lowers(ins) -> bool:
    """Whether an instruction (or one of its `if_done` / `do` / `else` programs) can lower a power: a
    subtraction (R108.1b: below 0) or a division (a fraction rounded down can reach 0)."""
    if ins.op == "power" and (lowering(ins.get("amount")) or ins.get("divided_by") or ins.get("fixed") is not None):
        return True
    return any(_lowers(sub) for key in ("if_done", "do", "else") for sub in (ins.get(key) or ()))
