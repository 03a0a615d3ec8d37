"""Which attacks exist: a scenario may start before the declaration.

With `attack: {choose: true}` the initial state has no attacker yet; its choices are every legal
attack (R506.1): an untapped creature of the turn player that is not summoning sick (a creature put
into the battle zone this turn, `{card: X, summoned: true}`, cannot attack unless it has Speed
Attacker: dmwiki "召喚酔い", "スピードアタッカー"; an evolution creature is never summoning sick, 801.3),
does not have "cannot attack" and, with "cannot
attack players", attacks only a creature; its target is the opponent or one of his tapped creatures
(R506.1e), or any of his creatures for an attacker that may attack untapped creatures (`Attacks Untapped`,
printed or given: a permission, so a restriction on attacking still beats it, R101.2). "Not attacking" is a
choice unless a creature that must attack if able (`Must Attack`,
dmwiki "攻撃強制") has a legal attack. The choice leads to the declaration as model/attack.py makes it.
A scenario with `choose: true` and no legal attack is refused when it is loaded (model/scenario_file.py
asks `legal_attacks` of the initial position).
"""

from __future__ import annotations

from . import gods
from .actions import Action
from .activated import activate, tap_actions
from .attack import AttackSteps
from .events import Event
from .instructions.common import same
from .piles import is_evolution_now, under
from .restrictions import CANNOT_ATTACK, CANNOT_ATTACK_PLAYERS, restricted
from .seals import sealed
from .state import State, other, replace
from .vocabulary import ATTACKS_UNTAPPED


class Legality(AttackSteps):
    """The attacks of the initial position; expects the card table, `has_keyword`, `declared` and
    AttackSteps' `declare_actions` / `declare_step`, which it extends."""

    summoned: frozenset = frozenset()   # creatures put into the battle zone this turn (model/table.py)

    def legal_attacks(self, s: State) -> list[tuple[int, int]]:
        """(attacker, target) for every legal attack; target -1 is the opponent himself."""
        tp, opp = s.turn, other(s.turn)
        z, theirs = s.zone(tp), s.zone(opp)
        found = []
        for c in z.battle:
            if self.card(c).type != "creature" or c in z.tapped or c in s.cant_attack:
                continue
            if restricted(self, s, c, CANNOT_ATTACK):   # R101.2: before any permission (Speed Attacker)
                continue
            if self.summoning_sick(s, c):
                continue
            if not restricted(self, s, c, CANNOT_ATTACK_PLAYERS):
                found.append((c, -1))
            untapped_too = self.has_keyword(s, c, ATTACKS_UNTAPPED)   # a permission, read after the restrictions
            found += [(c, t) for t in theirs.battle if (untapped_too or t in theirs.tapped)
                      and self.card(t).type == "creature" and not (self.sealing and sealed(self, s, t))]   # 116.2a
        return found

    def summoning_sick(self, s: State, c: int) -> bool:
        """Put into the battle zone this turn (`summoned: true`) and unable to attack for it: not with Speed
        Attacker, never an evolution creature (801.3; S-MAX too, 815.1), nor a NEO creature with cards
        under it (802.3), nor a linked God (804.5; one that came apart is sick only if the card standing for it
        arrived this turn, 804.5a), nor a dragheart super creature (808.1a)."""
        if c not in self.summoned and c not in s.entered:   # entered: a later attack of the turn (model/turn.py)
            return False
        cdef = self.card(c)
        if is_evolution_now(cdef, s.zone(self.owner(c)), c) or self.dragheart_super(s, c):
            return False
        if gods.linked(s.zone(self.owner(c)), c):
            return False
        return not self.has_keyword(s, c, "no_summoning_sickness")

    def dragheart_super(self, s: State, c: int) -> bool:
        """R808.1: a dragheart super creature is a dragheart creature face with dragheart cells linked under it
        (the card word `link`, model/instructions/hyperspatial.py); R808.1a: it is never summoning sick, whatever
        face of its cards arrived this turn (807.5a remembers a dragheart's arrival for both faces)."""
        z = s.zone(self.owner(c))
        return bool(self.card(c).dragheart) and any(self.card(u).cell for u in under(z, c))

    def attack_reasons(self, s: State) -> list[str]:
        """Why each creature of the turn player cannot attack (for the loader's error)."""
        z = s.zone(s.turn)
        out = []
        for c in z.battle:
            why = ("tapped" if c in z.tapped else "it cannot attack" if restricted(self, s, c, CANNOT_ATTACK)
                   else "summoning sickness (put into the battle zone this turn, no Speed Attacker)"
                   if self.summoning_sick(s, c)
                   else "it cannot attack players and the opponent has no tapped creature")
            out.append(f"{self.label(c)}: {why}")
        return out

    def declare_actions(self, s: State) -> tuple[Action, ...]:
        if s.attacker >= 0:
            return super().declare_actions(s)
        tp = s.turn
        acts = [Action("choose_attack", tp, (a, t), f"{tp} attacks {self.label(t) if t >= 0 else other(tp)} "
                                                   f"with {self.label(a)}")
                for a, t in self._distinct(s, self.legal_attacks(s))]
        acts += tap_actions(self, s, [a for a, _ in self.legal_attacks(s)])   # 602.3a: instead of an attack
        must = any(self.has_keyword(s, a, "must_attack") for a, _ in self.legal_attacks(s))
        if not must:
            acts.append(Action("no_attack", tp, (), f"{tp} does not attack"))
        return tuple(acts)

    def _distinct(self, s: State, pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """Identical attackers (and targets) are offered once (model/instructions/common.py `same`)."""
        seen, out = set(), []
        for a, t in pairs:
            key = (same(self, s, a), same(self, s, t) if t >= 0 else ())
            if key not in seen:
                seen.add(key)
                out.append((a, t))
        return out

    def declare_step(self, s: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        if action.kind == "no_attack":
            return self.no_more_attacks(s)   # model/turn.py: over, or the attack step ends (505.5)
        if action.kind == "activate":
            out: list[Event] = []
            return self._advance(activate(self, s, action, out), out), tuple(out)   # its effect runs now
        if action.kind == "choose_attack":
            a, t = action.choice
            chosen = replace(s, attacker=a, target=t, defender=other(s.turn))
            return self.declared(chosen)
        return super().declare_step(s, action)
