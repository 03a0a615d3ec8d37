"""Deliberately wrong variants of the break procedure, to prove the property checker can fail.

Each subclass of `BreakModel` gets one rule wrong by overriding one method; nothing here is shipped.
`tests/test_properties.py` checks that each is caught by the property written from that rule, on a
ruling scenario, with a shortest trace whose last step shows the fault.
"""

from __future__ import annotations

from dmcheck.model.actions import Action
from dmcheck.model.events import ev
from dmcheck.model.instructions import breaking, destruction
from dmcheck.model.instructions.registry import NONE, advance_pc
from dmcheck.model.procedure import BreakModel
from dmcheck.model.state import Decl, Pending, State, replace
from dmcheck.model.triggers import BEFORE_BREAK


class LeavingCancelsBreak(BreakModel):
    """Wrong: the attack's break is cancelled when the attacker has left the battle zone (R509.4c, Q06)."""

    def carry_out_break(self, s: State, out: list) -> State:
        frame = s.frames[-1]
        if frame.is_attack and s.attacker_left:
            return replace(s, frames=s.frames[:-1] + (replace(frame, broken=True),))
        return super().carry_out_break(s, out)


class OthersBeforeBeforeBreak(BreakModel):
    """Wrong: any pending effect may resolve while before-break effects wait (R509.4, Q03)."""

    def eligible(self, s: State) -> tuple[Pending, ...]:
        if not s.pending or s.running or (s.frames and s.frames[-1].broken):
            return ()
        pool = list(s.pending)
        tp = [p for p in pool if p.controller == s.turn]
        return tuple(sorted(set(tp or pool)))


class BreakerCountAtBreak(BreakModel):
    """Wrong: the number of shields is read when they break, not when they were chosen (Q07)."""

    def carry_out_break(self, s: State, out: list) -> State:
        frame = s.frames[-1]
        if frame.is_attack:
            shields = s.zone(frame.defender).shields
            more = max(0, self.breaker_count(s) - len(frame.chosen))
            extra = tuple(c for c in shields if c not in frame.chosen)[:more]
            s = replace(s, frames=s.frames[:-1] + (replace(frame, chosen=frame.chosen + extra),))
        return super().carry_out_break(s, out)


class NonTurnPlayerFirst(BreakModel):
    """Wrong: the non-turn player's effects may resolve before the turn player's (R509.4a-b)."""

    def eligible(self, s: State) -> tuple[Pending, ...]:
        if not s.pending or s.running or (s.frames and s.frames[-1].broken):
            return ()
        depth = s.depth()
        pool = [p for p in s.pending if p.kind == BEFORE_BREAK and p.frame == depth] if depth else []
        if not pool:
            if depth and self.version.triggers_wait_for_break:
                pool = []
            elif depth:
                pool = [p for p in s.pending if p.kind != BEFORE_BREAK]
            else:
                pool = list(s.pending)
        return tuple(sorted(set(pool)))   # no "turn player's first" filter


class SkipStillBreaks(BreakModel):
    """Wrong: skipping the rest of the turn drops the pending effects but not the break (Q09)."""

    def step(self, s: State, action):
        if action.kind == "choose" and s.running:
            task = s.running[-1]
            instr = task.program[task.pc]
            if instr.op == "skip_turn" and action.choice != NONE:
                out = [ev("skip_turn", "Q09", player=task.controller)]
                s = replace(advance_pc(s), turn_skipped=True, pending=(), running=())
                return self._advance(s, out), tuple(out)
        return super().step(s, action)


class OuterFrameFirst(BreakModel):
    """Wrong: with a nested frame open, the outer frame breaks first (R603.7b, Q04)."""

    def carry_out_break(self, s: State, out: list) -> State:
        open_ = [i for i, f in enumerate(s.frames) if not f.broken]
        if len(open_) < 2:
            return super().carry_out_break(s, out)
        i = open_[0]
        frame = s.frames[i]
        z = s.zone(frame.defender)
        present = tuple(c for c in frame.chosen if c in z.shields)
        for cid in present:
            z = z.remove("shields", cid).add("hand", cid)
            out.append(ev("break", "D4", shield=self.label(cid), player=frame.defender,
                          by=self.label(frame.by), frame=i + 1))
        s = s.with_zone(frame.defender, z)
        frames = s.frames[:i] + s.frames[i + 1:]
        # the inner frame's break is started again later, once the outer one is gone
        frames = frames[:-1] + (replace(frames[-1], breaking=False),)
        return replace(s, frames=frames, broken=tuple(sorted(s.broken + present)))


# ---- the shield check, replacement effects and destruction ------------------------------------------
class ResolvesDuringCheck(BreakModel):
    """Wrong: pending triggered abilities may resolve between the uses of the declared abilities of a
    shield check (R509.5e, R101.4: nothing unrelated resolves until all are used).

    Two overrides make one fault: `actions` offers the resolutions, `_resolve` runs the effect on top
    of the check instead of in place of it (with no check running the two are the same).
    """

    def actions(self, s: State) -> tuple:
        acts = super().actions(s)
        if s.checks and s.pending and s.running and any(a.kind == "choose" for a in acts):
            acts += tuple(Action("resolve", p.controller, (p,), self._resolve_text(p))
                          for p in sorted(set(s.pending)))
        return acts

    def _resolve(self, s: State, p: Pending, out: list) -> State:
        running = s.running
        s = super()._resolve(replace(s, running=()), p, out)
        return replace(s, running=running + s.running)


class StandbyCounted(BreakModel):
    """Wrong: the shields of a shield check are put in standby but still counted in the shield zone
    (R113.6a): they are left among the shields as well, so a condition such as Revolution Two's
    "2 or fewer shields" (R113.6c) sees them."""

    def carry_out_break(self, s: State, out: list) -> State:
        checks = len(s.checks)
        s = super().carry_out_break(s, out)
        if len(s.checks) > checks:
            check = s.checks[-1]
            z = s.zone(check.player)
            for c in check.cards:
                z = z.add("shields", c)
            s = s.with_zone(check.player, z)
        return s


def _check_at(s: State, op: str):
    """The shield check in progress when its next step is `op` (a declaration step), else None."""
    if not s.running or not s.checks:
        return None
    task = s.running[-1]
    return s.checks[-1] if task.program[task.pc].op == op else None


class SabakiZSharesCrest(BreakModel):
    """Wrong: Sabaki Z may discard a Judgement Crest already declared for its own S-Trigger, so one card
    pays for two abilities (SC2/SC3: two abilities never share a card)."""

    def actions(self, s: State) -> tuple:
        acts = super().actions(s)
        check = _check_at(s, "_declare_after")
        if check is None:
            return acts
        z = s.zone(check.player)
        declared = {d.card for d in check.declared}
        extra = []
        for sabaki in z.hand:
            if not self.card(sabaki).has("Sabaki Z"):
                continue
            for crest in check.arrived:
                if crest in declared and crest in z.hand and self.card(crest).has("Judgement Crest"):
                    extra.append(Action("choose", check.player, (Decl("Sabaki Z", sabaki, crest),),
                                        f"{check.player} declares Sabaki Z of {self.label(sabaki)} "
                                        f"(discarding {self.label(crest)})"))
        return acts + tuple(extra)


class SBackSharesDiscard(BreakModel):
    """Wrong: a card declared for its own S-Trigger may also be the card an S-Back discards (SC2: each
    S-Back discards a card of its own, and two abilities never share a card)."""

    def actions(self, s: State) -> tuple:
        acts = super().actions(s)
        check = _check_at(s, "_declare")
        if check is None:
            return acts
        z = s.zone(check.player)
        extra = []
        for back in z.hand:
            civ = self.card(back).s_back()
            for c in check.cards:
                if civ and c in z.standby and self.card(c).has(civ) and self.card(c).has("S-Trigger"):
                    combo = (Decl("S-Back", back, c), Decl("S-Trigger", c))
                    extra.append(Action("choose", check.player, combo,
                                        f"{check.player} declares S-Trigger of {self.label(c)}, S-Back of "
                                        f"{self.label(back)} (discarding {self.label(c)})"))
        return acts + tuple(extra)


class CastleLeavesAtBreak(BreakModel):
    """Wrong: a fortified shield's castle goes to the graveyard as soon as its shield is broken, before
    that shield's S-Trigger (R304.3: it leaves after the S-Trigger is used)."""

    def carry_out_break(self, s: State, out: list) -> State:
        checks = len(s.checks)
        s = super().carry_out_break(s, out)
        if len(s.checks) > checks:
            check = s.checks[-1]
            z = s.zone(check.player)
            for shield in check.cards:
                for castle in z.hosted(shield, "castle"):
                    z = z.remove("attached", castle).unlink(castle).add("graveyard", castle)
                    out.append(ev("move", "R304.3", card=self.label(castle), player=check.player,
                                  **{"from": "shields", "to": "graveyard"}))
            s = s.with_zone(check.player, z)
        return s


class ReplacedBreakStillBreaks(BreakModel):
    """Wrong: a shield whose break was replaced still gets its `break` event (D4: the replaced event
    does not happen)."""

    def carry_out_break(self, s: State, out: list) -> State:
        frame = s.frames[-1]
        depth = s.depth()
        present = [c for c in frame.chosen if c in s.zone(frame.defender).shields]
        s = super().carry_out_break(s, out)
        for c in present:
            if breaking.replaced(self, frame, c) is not None:
                out.append(ev("break", "D4", shield=self.label(c), player=frame.defender,
                              by=self.label(frame.by), frame=depth))
        return s


class SaverWithoutAttempt(BreakModel):
    """Wrong: a Shield Saver that replaces a break goes straight to the graveyard, with no destroy attempt
    (R701.6a: "destroy this creature instead" is an attempt, which "cannot be destroyed" could stop)."""

    def carry_out_break(self, s: State, out: list) -> State:
        frame = s.frames[-1]
        z = s.zone(frame.defender)
        savers = {r.source for _, r in frame.replaced
                  if r.source in z.battle and self.card(r.source).replacements("own_shield_break")}
        below = len(s.running)
        s = super().carry_out_break(s, out)
        if savers:
            s = replace(s, running=s.running[:below] + tuple(t for t in s.running[below:] if t.source not in savers))
            for saver in sorted(savers):
                s = destruction.move_out(self, s, saver, "graveyard", out)
        return s


class HiddenCardTriggers(BreakModel):
    """Wrong: a card destroyed face down (a seal) or without characteristics (under an evolution
    creature) triggers "when your Dragon is destroyed" like any other card (Q12)."""

    def trigger(self, s: State, what: str, player: str, card: int, out: list) -> State:
        s = super().trigger(s, what, player, card, out)
        if what != "destroyed":
            return s
        batch = []   # the destroyed events just emitted with this card's (model/instructions/destruction.py _destroyed)
        for e in reversed(out):
            if e.kind == "trigger":
                continue
            if e.kind != "destroyed":
                break
            batch.append(e)
        batch.reverse()
        first_seen = next((e for e in batch if not e.get("face_down") and e.get("characteristics") is not False), None)
        if first_seen is None or first_seen.get("card") != self.label(card):
            return s
        by_label = {i.label: i.id for i in self.instances}
        for e in batch:
            if e.get("face_down") or e.get("characteristics") is False:
                s = super().trigger(s, "destroyed", player, by_label[e.get("card")], out)
        return s


class DestroyedStaysTapped(BreakModel):
    """Wrong: a tapped creature destroyed keeps its tapped mark in the graveyard, where it means nothing
    (400.5: a card that changes zones is a new card; 105.4a: only cards in play are tapped)."""

    def step(self, s: State, action: Action) -> tuple[State, tuple]:
        post, events = super().step(s, action)
        for p in ("A", "B"):
            kept = tuple(c for c in s.zone(p).tapped if c in post.zone(p).graveyard)
            if kept:
                post = post.with_zone(p, replace(post.zone(p), tapped=tuple(sorted(post.zone(p).tapped + kept))))
        return post, events
