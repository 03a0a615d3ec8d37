"""Deliberately wrong variants of the break procedure, to prove the property checker can fail.

Each subclass of `BreakModel` gets one rule wrong by overriding one method; nothing here is shipped.
`tests/test_properties.py` checks that each is caught by the property written from that rule, on a
ruling scenario, with a shortest trace whose last step shows the fault.
"""

from __future__ import annotations

from dataclasses import replace

from model import effects
from model.events import ev
from model.procedure import BEFORE_BREAK, BreakModel
from model.state import Pending, State


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
            if instr.op == "skip_turn" and action.choice != effects.NONE:
                out = [ev("skip_turn", "Q09", player=task.controller)]
                s = replace(effects.advance_pc(s), turn_skipped=True, pending=(), running=())
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
