"""The direct attack step as a model: initial state, legal actions, and one step at a time.

The automatic part of the procedure (breaking, closing frames, moving spells after resolution) runs
inside `step` until the next decision point, so every state the explorer sees is either terminal or
a state where somebody chooses something. Each decision is an Action; each change is an Event citing
its rule. Flow D0-D7 (S002), R509.3-4, R603.7 (S000/S001), Q01-Q14; the shield check, replacements and
destruction live in their own modules (shield_check, breaking, destruction).
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from . import footprint
from .access import conflicts, spawns
from .actions import Action
from .events import Event, ev
from .instructions import breaking
from .instructions.common import same
from .instructions.registry import advance_pc, chooser, execute, instr, options, push
from .interpretations import Interpretation
from .narrate import narrate
from .outcome import outcome
from .rules import RulesVersion, version_on
from .scenario import Scenario
from .state import Frame, Pending, State, Task, pindex, replace, setter
from .symmetry import Symmetry
from .table import CardTable
from .triggers import BEFORE_BREAK, Triggers


_with_running = setter(State, "running")


class BreakModel(CardTable, Triggers):
    """A nondeterministic procedure: where a direct attack step starts and what may happen next.

    It implements explorer.protocol.Model (initial_state, actions, step) and its optional hooks: the
    symmetry's canonical form, the independence of pending effects for the reduction, and outcomes.
    """

    def __init__(self, scenario: Scenario, interpretation: Any = None):
        super().__init__(scenario)
        self.version: RulesVersion = version_on(scenario.rules)
        # Readings are given when the model is made (never patched into a live one) and looked up
        # where they matter, only when the readings would act differently there: an analysis can
        # then tell which choices a run depended on (rulings/readings.py passes a recording one).
        self.interpretation = interpretation if interpretation is not None \
            else Interpretation.make(scenario.interpretation)
        self._initial = self._build_initial()
        self.symmetry = Symmetry(self)   # which identical cards are interchangeable where
        self._footprints: dict[tuple, frozenset] = {}
        self._simple: dict[tuple, bool] = {}
        self._spawnable: frozenset | None = None
        self._eligible_last: tuple = (None, ())
        self._abilities: dict[tuple[str, str], tuple] = {}   # (card, ability) -> (label, program)

    # ---- the model interface -----------------------------------------------------------------
    def initial_state(self) -> State:
        return self._initial

    def actions(self, s: State) -> tuple[Action, ...]:
        """Every legal choice in `s`, in a deterministic order; () when `s` is terminal."""
        if s.over:
            return ()
        if s.running:
            task = s.running[-1]
            ins = task.program[task.pc]
            who = chooser(self, s, task, ins)
            return tuple(Action("choose", who, choice, text) for choice, text in options(self, s, task, ins) or ())
        eligible = self.eligible(s)
        if eligible:
            return tuple(Action("resolve", p.controller, (p,), self._resolve_text(s, p)) for p in eligible)
        if not s.started:
            return self._start_actions(s)
        raise AssertionError("a non-terminal state without a decision")  # _advance never stops here

    def step(self, s: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        """The state after `action` and the events it caused (the automatic procedure included)."""
        out: list[Event] = []
        if action.kind == "choose":
            task = s.running[-1]
            s = execute(self, s, task, task.program[task.pc], action.choice, out)
        elif action.kind == "resolve":
            s = self._resolve(s, action.choice[0], out)
        elif action.kind == "choose_shields":
            s = self._choose_attack_shields(s, action.choice, out)
        elif action.kind == "direct_attack":
            s = self._direct_attack(s, out)
        else:
            raise ValueError(f"unknown action {action.kind}")
        return self._advance(s, out), tuple(out)

    # ---- the automatic procedure -------------------------------------------------------------
    def _advance(self, s: State, out: list[Event]) -> State:
        """Run everything that needs no decision, stopping at the next decision or at the end."""
        while True:
            if s.over:
                return s
            if s.running:
                task = s.running[-1]
                if task.pc >= len(task.program):
                    s = self._finish_task(s, out)
                    continue
                ins = task.program[task.pc]
                opts = options(self, s, task, ins)
                if opts is None:
                    s = execute(self, s, task, ins, None, out)
                    continue
                if not opts:   # nothing to choose from: the instruction does nothing
                    s = advance_pc(s)
                    continue
                return s
            if s.frames and s.frames[-1].broken:
                frame = s.frames[-1]
                # R603.7b: after the nested break, return to the effect it interrupted
                s = replace(s, frames=s.frames[:-1], running=frame.resume)
                continue
            if self.eligible(s):
                return s
            if s.frames:
                s = self._break(s)
                continue
            if not s.started:
                return s
            # D7: the attack end step. Q10: a stopped attack is reported after pending effects resolved.
            if s.stop_attack:
                out.append(ev("attack_stopped", "Q10", attacker=self.label(s.attacker)))
                s = replace(s, attack_stopped=True)
            return replace(s, over=True)

    def eligible(self, s: State) -> tuple[Pending, ...]:
        """The pending effects that may resolve next (R509.4, R509.4a-b, R603.7a-b). `step` asks it
        last of the state it returns and `actions` first of the same state: the answer is kept."""
        if not s.pending or s.running or (s.frames and s.frames[-1].broken):
            return ()
        last = self._eligible_last
        if last[0] is s:
            return last[1]
        found = self._eligible(s)
        self._eligible_last = (s, found)
        return found

    def _eligible(self, s: State) -> tuple[Pending, ...]:
        depth = s.depth()
        pool = [p for p in s.pending if p.kind == BEFORE_BREAK and p.frame == depth] if depth else []
        if self.version.triggers_wait_for_break:
            # before 2023-04-19 (S001); `old_rules_waiting` says what waited for the break
            late = [p for p in s.pending if p.kind == BEFORE_BREAK and p.frame > depth]  # their frame broke
            if (pool or late) and self.interpretation.get("old_rules_waiting") == "before_break_effects":
                if not late:
                    return ()   # the before-break effects too wait until the chosen shields are broken
                pool = late     # then they resolve first, uninterrupted
        if not pool and s.checks:
            # R509.5e, R101.4: while a shield check is in progress (even one suspended by a break that
            # one of its abilities makes), no unrelated triggered ability resolves; only the
            # before-break effects of that break go. R603.7a's "other pending effects" wait.
            return ()
        if not pool:
            if depth and self.version.triggers_wait_for_break:
                pool = []  # before 2023-04-19 (S001): other effects wait until the shields are broken
            elif depth:
                pool = [p for p in s.pending if p.kind != BEFORE_BREAK]  # R603.7a
                inner = [p for p in pool if p.frame >= depth]
                # R603.7b: "other pending effects" before a nested break — all, or those of its frame (Q05)
                if inner != pool and self.interpretation.get("nested_other_pending") == "inner_only":
                    pool = inner
            else:
                pool = list(s.pending)
        tp = [p for p in pool if p.controller == s.turn]  # R509.4a-b: turn player's first
        pool = tp or pool
        return tuple(pool) if len(pool) < 2 else tuple(sorted(set(pool)))

    def _finish_task(self, s: State, out: list[Event]) -> State:
        task = s.running[-1]
        s = _with_running(s, s.running[:-1])
        if task.spell >= 0:
            dest = task.then or "graveyard"
            if self.card(task.spell).has("Charger") and dest != "mana":
                # Q02: Charger puts the spell into the mana zone instead of the graveyard; when the
                # effect that cast it names another place, `charger_cast_destination` decides
                reading = "charger" if dest == "graveyard" else self.interpretation.get("charger_cast_destination")
                if reading == "owner_chooses":
                    return push(s, Task(program=(instr("_spell_destination", card=task.spell, to=("mana", dest)),),
                                        pc=0, controller=self.owner(task.spell), source=task.spell,
                                        ability=self.name(task.spell)))
                dest = "mana" if reading == "charger" else dest
            s = self.put_resolved_spell(s, task.spell, dest, out)
        return s

    def put_resolved_spell(self, s: State, spell: int, dest: str, out: list[Event]) -> State:
        """A spell that has resolved goes where it goes (graveyard, mana by Charger, deck bottom)."""
        owner = self.owner(spell)
        s = s.with_zone(owner, s.zone(owner).remove("resolving", spell).add(dest, spell))
        out.append(ev("move", "Q02" if dest == "mana" else "",
                      card=self.label(spell), player=owner, **{"from": "resolving", "to": dest}))
        return s

    # ---- D0/D1: the start of the step --------------------------------------------------------
    def breaker_count(self, s: State) -> int:
        return self.card(s.attacker).breaker + s.extra_breaks[pindex(s.turn)]

    def _start_actions(self, s: State) -> tuple[Action, ...]:
        shields = s.zone(s.defender).shields
        if not shields:
            return (Action("direct_attack", s.turn, (), f"{s.turn} attacks directly: {s.defender} has no shields (D0)"),)
        n = min(self.breaker_count(s), len(shields))
        return tuple(
            Action("choose_shields", s.turn, combo,
                   f"{s.turn} chooses {self.shield_list(combo)} to break with {self.label(s.attacker)}")
            for combo in self.shield_choices(s, s.defender, n))

    def _direct_attack(self, s: State, out: list[Event]) -> State:
        out.append(ev("win", "D0", player=s.turn))
        return replace(s, started=True, winner=s.turn, over=True)

    def _choose_attack_shields(self, s: State, chosen: tuple[int, ...], out: list[Event]) -> State:
        s = replace(s, started=True)
        return self.open_frame(s, s.attacker, True, s.defender, chosen, True, out)

    def shield_choices(self, s: State, defender: str, n: int, exclude: set[int] = frozenset()) -> list[tuple[int, ...]]:
        """Every way to choose n shields, one canonical representative per class of identical shields.

        Two shields are interchangeable when they hold the same card, carry the same things (a castle,
        an EX Life link, face up) and the same open frames have chosen them: nothing in the procedure
        can tell them apart, so choosing the lowest ids of each class reaches, up to renaming
        identical cards, every state another choice would reach.
        """
        z = s.zone(defender)
        classes: dict[tuple, list[int]] = {}
        for cid in z.shields:
            if cid in exclude:
                continue
            key = (same(self, s, cid),
                   tuple(sorted((k, self.instances[c].card) for c, h, k in z.links if cid in (c, h))))
            classes.setdefault(key, []).append(cid)
        keys = sorted(classes)
        out = []
        for combo in combinations_with_replacement(range(len(keys)), n):
            need = {k: combo.count(k) for k in set(combo)}
            if all(need[k] <= len(classes[keys[k]]) for k in need):
                out.append(tuple(sorted(c for k in sorted(need) for c in classes[keys[k]][:need[k]])))
        return sorted(out)

    def open_frame(self, s: State, by: int, by_creature: bool, defender: str, chosen: tuple[int, ...],
                   is_attack: bool, out: list[Event]) -> State:
        """Choose shields to break (D1) and trigger the before-break abilities, one per shield (R509.3)."""
        frame = Frame(by=by, by_creature=by_creature, defender=defender, chosen=tuple(sorted(chosen)),
                      is_attack=is_attack, resume=s.running)
        s = replace(s, frames=s.frames + (frame,), running=())
        depth = s.depth()
        out.append(ev("choose_shields", "R509.3" if depth == 1 else "R603.7b",
                      player=self.owner(by), shields=tuple(self.label(c) for c in frame.chosen),
                      by=self.label(by), frame=depth))
        if breaking.decides(self, s, frame, at_choice=True) and \
                self.interpretation.get("break_replacement_timing") == "before_triggers":
            # S002 D2-D3: decide the replacements first; the real breaks fix the number of triggers
            program = breaking.decision_program(s, frame) + (instr("_trigger_before_break"),)
            return push(s, Task(program=program, pc=0, controller=defender, source=by, ability="D2"))
        return self.trigger_before_break(s, frame, len(frame.chosen), out)

    def _break(self, s: State) -> State:
        """The innermost frame is ready to break: decide replacements now (unless done at D2), then D4."""
        frame = s.frames[-1]
        started = replace(frame, breaking=True)
        s = replace(s, frames=s.frames[:-1] + (started,))
        if frame.breaking:
            raise AssertionError("a frame's break began twice")
        decided = breaking.decides(self, s, frame) and \
            self.interpretation.get("break_replacement_timing") == "before_triggers"   # at D2 already
        program = () if decided else breaking.decision_program(s, frame)
        return push(s, Task(program=program + (instr("_carry_out"),), pc=0, controller=frame.defender,
                            source=frame.by, ability="break"))

    def carry_out_break(self, s: State, out: list[Event]) -> State:
        """D4 for the innermost frame (a method so that test variants can get it wrong on purpose)."""
        return breaking.carry_out(self, s, out)

    # ---- pending effects ---------------------------------------------------------------------
    def _resolve_text(self, s: State, p: Pending) -> str:
        where = f" (before-break, frame {p.frame})" if p.kind == BEFORE_BREAK else ""
        label = self.ability_label(p.card, p.ability)
        of = "" if label.partition("/")[0] == self.label(p.source) else f" of {self.label(p.source)}"
        return f"{p.controller} resolves {label}{of}{where}"

    def _resolve(self, s: State, p: Pending, out: list[Event]) -> State:
        pending = list(s.pending)
        pending.remove(p)
        found = self._abilities.get((p.card, p.ability))
        if found is None:
            found = self._abilities[p.card, p.ability] = (
                self.ability_label(p.card, p.ability),
                next(a for a in self.pool[p.card].abilities if a.id == p.ability).effect)
        label, effect = found
        uses = dict(s.uses)
        uses[label] = uses.get(label, 0) + 1
        rule = "R509.4" if p.kind == BEFORE_BREAK else ("R603.7a" if s.depth() else "D6")
        out.append(ev("resolve", rule, ability=label, source=self.label(p.source), controller=p.controller,
                      frame=p.frame))
        task = Task(program=effect, pc=0, controller=p.controller, source=p.source, ability=label)
        return replace(s, pending=tuple(pending), uses=tuple(sorted(uses.items())), running=(task,))


    # ---- optional hooks of explorer.protocol.Model ----------------------------------------------
    def canonical(self, s: State) -> State:
        """The symmetry's representative of `s` (identical cards renamed in a fixed way)."""
        return self.symmetry.canonical(s)

    def outcome(self, s: State) -> dict:
        return outcome(self, s)

    def is_terminal(self, s: State) -> bool:
        return s.over

    def narrate(self, action: Action, events: tuple[Event, ...]) -> tuple[str, list[str]]:
        return narrate(action, events)

    def is_order(self, action: Action) -> bool:
        """Whether the action only orders pending effects (the reduction may pick one); choices never are."""
        return action.kind == "resolve"

    def simple(self, action: Action) -> bool:
        """A pending effect with no decision that triggers nothing (model/footprint.py)."""
        p = action.choice[0]
        key = (p.card, p.ability)
        found = self._simple.get(key)
        if found is None:
            found = self._simple[key] = footprint.simple(self, p.card, p.ability)
        return found

    def independent(self, a: Action, b: Action) -> bool:
        """Whether resolving `a` first loses nothing of resolving `b` first: they commute, and nothing
        `b` may trigger conflicts with `a` (C1 of explorer/reduction.py)."""
        mine, theirs = self._footprint(a.choice[0]), self._footprint(b.choice[0])
        if conflicts(mine, theirs):
            return False
        return not (spawns(theirs) and conflicts(mine, self._spawn_footprint()))

    def _footprint(self, p: Pending) -> frozenset:
        key = (p.card, p.ability, p.controller)
        found = self._footprints.get(key)
        if found is None:
            found = self._footprints[key] = footprint.of_ability(self, p.card, p.ability, p.controller)
        return found

    def _spawn_footprint(self) -> frozenset:
        if self._spawnable is None:
            self._spawnable = footprint.spawnable(self)
        return self._spawnable
