"""The turn player's hidden-zone declarations at an attack: Revolution Change and Invasion
(scenarios/attack/ A03-A06, A23, A25), and the non-turn player's Ninja Change
beside his Ninja Strike (A08).

A mixin of the procedure (BreakModel), next to model/attack.py. The window (R506.3 as read by S116
and S120): the abilities are declared from the hand at the moment the attack triggers them, before
any waiting effect starts to resolve, so

- a card that reaches the hand while an attack trigger resolves (A03: Stegoro Kaiser returns Dogiragon
  Ken from the mana zone) or is drawn then (A05) can no longer be declared;
- only the "when ..." part must hold: the attacking creature meets the card's condition, written as
  the arguments of its `revolution_change` / `invade` instruction (model/instructions/declaring.py);
- several Invasions may be declared for one attack (A06), one Revolution Change (A23, weak source);
- each declared card becomes a waiting effect of the turn player, resolved in any order with his
  other waiting effects (A04); what it does is its instruction's business.

The non-turn player's Ninja Change is declared in his own window (`ntp_declaration_time`), with at
most one Ninja Strike; "no Ninja ability used by you this attack" is checked on resolution (A08).
"""

from __future__ import annotations

from itertools import combinations

from .actions import Action
from .events import Event, ev
from .host import Host
from .instructions.common import same
from .instructions.declaring import condition, meets
from .state import Pending, State, other, replace
from .triggers import TRIGGERED
from .vocabulary import ATTACK_DECLARED

TP_WORDS = ("revolution_change", "invasion")


class Declarations(Host):
    """Who may declare what at the attack, and the declaring itself (see the module docstring).

    Expects the procedure's card table, `words`, `readings`, `add_pending` and `ninjas`."""

    # ---- the turn player: Revolution Change, Invasion -----------------------------------------
    def tp_declarables(self, s: State) -> tuple[int, ...]:
        """The turn player's hand cards whose Revolution Change or Invasion the attack triggers: the
        attacking creature meets the condition (A05: the 'when' part). Every copy: no rule limits the
        declarations of one attack to one card of a name (each copy of an Invasion may invade)."""
        if not any(w in self.words for w in TP_WORDS):
            return ()
        out = []
        for c in s.zone(s.turn).hand:
            abilities = [a for w in TP_WORDS for a in self.card(c).abilities_with(w)]
            if abilities and meets(self, s.attacker, condition(abilities[0])):
                out.append(c)
        return tuple(out)

    def declaration_sets(self, s: State, cards: tuple[int, ...], sizes) -> list[tuple[int, ...]]:
        """Every set of `cards` of the given sizes, identical copies counted once: a set of two copies of
        one card stands for any two of them (model/instructions/common.py `same`), lowest ids first."""
        seen, out = set(), []
        for n in sizes:
            for combo in combinations(cards, n):
                key = tuple(sorted(same(self, s, c) for c in combo))
                if key not in seen:
                    seen.add(key)
                    out.append(combo)
        return out

    def tp_declare_actions(self, s: State) -> tuple[Action, ...]:
        """Every set of declarations: any number of Invasions, at most one Revolution Change (A06, A23)."""
        cards = self.tp_declarables(s)
        acts = []
        for combo in self.declaration_sets(s, cards, range(len(cards), 0, -1)):
            if sum(1 for c in combo if self.card(c).abilities_with("revolution_change")) > 1:
                continue
            what = ", ".join(f"{self._declared_name(c)} of {self.label(c)}" for c in combo)
            acts.append(Action("tp_declare", s.turn, combo, f"{s.turn} declares {what}"))
        return tuple(acts) + (Action("no_tp_declare", s.turn, (), f"{s.turn} declares nothing"),)

    def tp_declare(self, s: State, cards: tuple[int, ...], out: list[Event]) -> State:
        """The declared cards wait as the turn player's effects; then the non-turn player's window
        under `at_trigger` (S116), else the attack's triggers resolve."""
        for c in cards:
            s = self._declare_one(s, s.turn, c, out)
        at_trigger = self.ninjas(s) and self.readings.get("ntp_declaration_time") == "at_trigger"
        return replace(s, phase="ntp_declare" if at_trigger else "attack")

    # ---- the non-turn player: Ninja Strike and Ninja Change (A08) -------------------------------
    def ninja_combos(self, s: State) -> list[tuple[int, ...]]:
        """What the non-turn player may declare together: one card, or one Ninja Change with one Ninja Strike."""
        cards = self.ninjas(s)
        changes = [c for c in cards if self.card(c).abilities_with("ninja_change")]
        strikes = [c for c in cards if c not in changes]
        return [(c,) for c in cards] + [(k, c) for k in changes for c in strikes]

    def declare_ninjas(self, s: State, cards: tuple[int, ...], out: list[Event]) -> State:
        for c in cards:
            s = self._declare_one(s, other(s.turn), c, out)
        return s

    # ---- shared ---------------------------------------------------------------------------------
    def _declared_name(self, card: int) -> str:
        ability = next(a for a in self.card(card).abilities if a.trigger in ATTACK_DECLARED)
        return ATTACK_DECLARED[ability.trigger]

    def _declare_one(self, s: State, player: str, card: int, out: list[Event]) -> State:
        """R506.3: the card is shown and its ability declared; it waits as a triggered ability."""
        ability = next(a for a in self.card(card).abilities if a.trigger in ATTACK_DECLARED)
        out.append(ev("declare", "R506.3", card=self.label(card), player=player,
                      ability=ATTACK_DECLARED[ability.trigger]))
        return self.add_pending(s, Pending(TRIGGERED, s.depth(), player, self.instances[card].card, ability.id, card),
                                out, "R506.3")
