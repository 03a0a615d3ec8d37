"""The mana charge step and the main step, as far as a scenario's plan asks (model/main_plan.py; issue 34).

A mixin of the procedure (BreakModel), before the attack's steps. Comprehensive rules Ver.1.48 (2025-12-17):
- 500.1, 500.2a: the turn's steps come in order and never go back: the charge step (503), the main step
  (504), then the attack step (505), whose declaration is `attack: {choose: true}`'s (model/legality.py).
- 503.1, 503.2: in the charge step the turn player may put one card of his hand into his mana zone, or
  none; one charge, then the step is over (a charge is the `charged` event of 701.8a too).
- 504.1, 301.1, 302.1: in the main step he executes cards of his hand: he summons a creature, casts a
  spell. Only the cards the plan names are offered, in any order, each as long as he can pay for it.
- 601.1d-g: he pays the cost (model/payment.py: tapping untapped mana cards, the civilizations first, no
  overpaying), then the card is executed at once: a creature enters the battle zone summoned (its
  "when it enters" and the summon watchers trigger, 112.3g) and is summoning sick for the rest of the
  turn (506.1a, `entered`); a spell is cast (its effect resolves, then it goes to the graveyard).
- What an execution triggered resolves before the next decision of the main step (500.2).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from .actions import Action
from .continuous import cost_change
from .events import Event, ev
from .host import Host
from .instructions.common import distinct
from .instructions.effects import cast, deploy, summon
from .instructions.hyperspatial import turn_over
from .instructions.keyword_process import charge
from .main_plan import MainPlan
from .payment import payments
from .state import State, replace

MAIN_PHASES = ("charge", "main")


class MainSteps(Host):
    """The charge and main steps (see the module docstring). Expects the turn's `note_entries`."""

    @cached_property
    def main_plan(self) -> MainPlan | None:
        return getattr(self.scenario, "main", None)

    def in_main(self, s: State) -> bool:
        """Whether `s` waits for a decision of the charge or main step (nothing running or pending)."""
        return s.phase in MAIN_PHASES and not (s.running or s.pending)

    # ---- the decisions ------------------------------------------------------------------------------
    def main_actions(self, s: State) -> tuple[Action, ...]:
        """503.1: a charge of one hand card or none; 504.1: an execution of a named card, paid one way
        (601.1f), or the end of the main step."""
        tp = s.turn
        if s.phase == "charge":
            acts = [Action("mana_charge", tp, (c,), f"{tp} charges {self.label(c)} from the hand into the mana zone")
                    for c in distinct(self, s, s.zone(tp).hand)]
            return tuple(acts) + (Action("no_charge", tp, (), f"{tp} charges no card"),)
        acts = []
        for cid, how in self.executable(s):
            cdef = self.executed(cid, how)
            for paid in payments(self, s, tp, self.cost_to_pay(s, cid, cdef.cost), cdef.civs()):
                names = ", ".join(self.label(c) for c in paid) or "nothing"
                side = self.faces[cid] if how == "deploy_back" else cid   # 819.1a: the side deployed
                acts.append(Action("execute", tp, (cid, how, paid),
                                   f"{tp} {_VERBS[how]} {self.label(side)}, "
                                   f"tapping {names}"))
        return tuple(acts) + (Action("end_main", tp, (), f"{tp} ends the main step"),)

    def executable(self, s: State) -> list[tuple[int, str]]:
        """The plan's hand cards and how each is executed: a creature summoned (301.1), a spell cast (302.1;
        a twinpact may be either, 810)."""
        plan = self.main_plan
        names = set(plan.play) if plan else set()
        out = []
        for cid in distinct(self, s, s.zone(s.turn).hand):
            cdef = self.card(cid)
            if cdef.name not in names:
                continue
            if cdef.type == "creature":
                out.append((cid, "summon"))
            if cdef.type == "field":
                out.append((cid, "deploy"))   # 308.1: a field is deployed from the hand in the main step
                if cid in self.faces:   # 819.1a: either side of a WD field, that side upright
                    out.append((cid, "deploy_back"))
            if cdef.is_spell():
                out.append((cid, "cast"))
        return out

    # ---- the steps ------------------------------------------------------------------------------------
    def main_step(self, s: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        """The state after a decision of the charge or main step, and its events."""
        out: list[Event] = []
        if action.kind == "mana_charge":
            s = charge(self, s, s.turn, action.choice[0], out, rule="R503.1")
            s = replace(s, phase="main")   # 503.2: one charge, then the main step (500.1)
        elif action.kind == "no_charge":
            s = replace(s, phase="main")
        elif action.kind == "end_main":
            out.append(ev("end_main", "R500.2", player=s.turn))
            s = replace(s, phase="declare")   # 500.1: the attack step; its declaration comes next
        else:
            cid, how, paid = action.choice
            s = self.execute_card(s, cid, how, paid, out)
        s = self._advance(s, out)
        return self.note_entries(s, out), tuple(out)

    def executed(self, cid: int, how: str) -> Any:
        """The card (or side) executed: a twinpact's spell side when cast (810), a WD field's back side
        deployed with that side upright (819.1a), the card itself otherwise."""
        if how == "cast":
            return self.card(cid).as_spell()
        return self.card(self.faces[cid]) if how == "deploy_back" else self.card(cid)

    def cost_to_pay(self, s: State, cid: int, printed: int) -> int:
        """601.1a, 601.1e, 112.2b: the cost paid is the printed cost with every cost change in force added
        (all of them apply: the model has no optional one); never below 0 (108.1a: no negative number)."""
        return max(0, printed + cost_change(self, s, cid)) if self.statics else printed

    def execute_card(self, s: State, cid: int, how: str, paid: tuple[int, ...], out: list[Event]) -> State:
        """601.1f: the mana cards are tapped (105.3, 107.2); 601.1g: the card is executed at once."""
        tp = s.turn
        z = s.zone(tp)
        for c in paid:
            out.append(ev("tap", "R601.1f", card=self.label(c), player=tp))
            z = z.add("tapped", c)
        cdef = self.executed(cid, how)
        out.append(ev("pay", "R112.2", card=self.label(cid), player=tp, mana_cost=self.cost_to_pay(s, cid, cdef.cost),
                      tapped=len(paid)))
        s = s.with_zone(tp, z)
        if how == "summon":
            return summon(self, s, tp, cid, "hand", out, summoned=True)   # 301.1
        if how == "deploy":
            return deploy(self, s, tp, cid, "hand", out)                   # 308.1, 701.27a
        if how == "deploy_back":   # 819.1a: the side executed enters upright: the card turned to it first
            return deploy(self, turn_over(self, s, cid), tp, self.faces[cid], "hand", out)
        return cast(self, s, tp, cid, "hand", "graveyard", out)           # 302.1


# 301.1, 302.1, 308.1 (819.1a: a WD field's back side too)
_VERBS = {"summon": "summons", "cast": "casts", "deploy": "deploys", "deploy_back": "deploys"}


def has_main(scenario: Any) -> bool:
    """Whether a scenario plays the main step (its `main:` key)."""
    return getattr(scenario, "main", None) is not None
