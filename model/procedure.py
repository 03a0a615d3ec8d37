"""The direct attack step as a model: initial state, legal actions, and one step at a time.

The automatic part of the procedure (breaking, closing frames, moving spells after resolution) runs
inside `step` until the next decision point, so every state the explorer sees is either terminal or
a state where somebody chooses something. Each decision is an Action; each change is an Event citing
its rule. Flow D0-D7 (S002), R509.3-4, R603.7 (S000/S001), Q01-Q14; the shield check, replacements and
destruction live in their own modules (shield_check, breaking, destruction).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from functools import cached_property
from itertools import combinations_with_replacement
from typing import Any

from . import footprint, homes, hyper, kings, lang, mana
from .access import conflicts, spawns
from .actions import Action
from .errors import EndlessStep
from .events import Event, ev
from .instructions import breaking, effects
from .instructions import piles as pile_words
from .instructions import seals as seal_words
from .instructions.battle_start import LABEL as BATTLE_START
from .instructions.common import same
from .instructions.game_end import GAME_ENDS
from .instructions.registry import OPS, advance_pc, chooser, execute, instr, options, push
from .legality import Legality
from .main_step import MAIN_PHASES, MainSteps
from .narrate import narrate
from .outcome import OutcomeKey, outcome
from .position_key import position_hash
from .positions import repaired
from .power import PowerRules
from .readings import Readings
from .record import build
from .rules import RulesVersion, version_on
from .scenario import Scenario
from .state import Frame, Pending, State, Task, replace, setter
from .symmetry import Symmetry
from .table import CardTable
from .touch import Touch
from .triggers import BEFORE_BREAK, listened, watching
from .vocabulary import SMAX

_with_running = setter(State, "running")


def _ending(s: State) -> bool:
    """A loss is being decided (its task runs): the empty deck has had its say (LO01)."""
    return any(t.ability == GAME_ENDS for t in s.running)


_with_resolved = setter(State, "pending", "uses", "running")
_without_uses = setter(State, "uses", "spells_cast")
# the rounds of one step's automatic procedure (`_advance`): how often the search's check is asked, after
# how many the positions are remembered to find one coming back (the corpus's longest step takes a few
# dozen), and how many events of the loop's round an EndlessStep shows
WATCH_EVERY = 256
WATCH_MASK = WATCH_EVERY - 1   # (a power of two: `rounds & WATCH_MASK` is the cheap test of the hot loop)
REMEMBER_AFTER = 1024          # (a multiple of WATCH_EVERY: from there on every round is remembered)
ROUND_SHOWN = 60
OPTIONS_KEPT = 1 << 15   # states whose options `_advance` keeps for `actions` (about a search's frontier)
# the words of the non-turn player's hidden-zone declarations at an attack (model/attack.py `ninjas`)
NTP_WINDOW = frozenset({"ninja_strike", "ninja_change", "oni_end"})
# the rule an effect resolving outside a break follows, by the step it resolves in
PHASE_RULES = {"attack": "R506.3", "blocked": "R507.3", "battle_start": "R115.2", "end_attack": "R510",
               "end_turn": "R511.1", "start_turn": "R501.2",
               "charge": "R503.1", "main": "R504.1"}


class BreakModel(CardTable, MainSteps, Legality, Touch, PowerRules):
    """A nondeterministic procedure: where a direct attack step starts and what may happen next.

    It implements explorer.protocol.Model (initial_state, actions, step) and its optional hooks: the
    symmetry's canonical form, the independence of pending effects for the reduction, and outcomes.
    """

    def __init__(self, scenario: Scenario, readings: Any = None):
        super().__init__(scenario)
        self.version: RulesVersion = version_on(scenario.rules)
        # Readings are given when the model is made (never patched into a live one) and looked up
        # where they matter, only when the readings would act differently there: an analysis can
        # then tell which choices a run depended on (rulings/operational.py passes a recording one).
        self.readings = readings if readings is not None \
            else Readings.make(scenario.readings)
        self._initial = repaired(self._build_initial(), self)   # 703.4i, 815.1a: what the rules put right first
        # the trigger and replacement words of the scenario's cards: steps of the whole attack look only for these
        # (and the events their triggers watch, model/trigger_patterns.py)
        self.words = frozenset(w for i in self.instances for a in self.pool[i.card].abilities
                               for w in (a.trigger, a.replaces) if w) | listened(self.pool, self.instances)
        # the cards with an ability that watches others (a pattern not about the card itself): the only
        # ones `trigger` looks at in the zones; the S-Back creatures' "enters" is not one
        self.watching = watching(self.pool, self.instances)
        self.symmetry = Symmetry(self, self._initial)   # which identical cards are interchangeable where
        self._footprints: dict[tuple, frozenset] = {}
        self._simple: dict[tuple, bool] = {}
        self._spawnable: dict[str | None, frozenset] = {}   # owner (None: everyone) -> footprint
        self._eligible_last: tuple = (None, ())
        # id(state) -> (state, options): the options `_advance` found where it stopped, kept until
        # `actions` asks for them (the search expands the state later); the entry holds the state, so
        # its id stays its own
        self._options_of: dict[int, tuple[State, list]] = {}
        self._eligible_by: dict[tuple, tuple[Pending, ...]] = {}
        self._choices_of: dict[int, tuple[list, str, tuple[Action, ...]]] = {}   # id(options) -> (them, who, actions)
        self._resolve_actions: dict[Pending, Action] = {}
        self._resolve_all: dict[tuple[Pending, ...], tuple[Action, ...]] = {}
        self._counted: dict[tuple, tuple[tuple[str, int], ...]] = {}   # (uses, label) -> uses after one more
        self._resolving: dict[Pending, tuple] = {}   # p -> (label, running, the resolve event's fields)
        self.outcome_key = OutcomeKey(self.name)   # the explorer's optional hook: outcomes grouped cheaply
        self._watch: Callable[[int], None] | None = None   # the search's check inside a step (`watch`)
        self.rounds = 0   # how many rounds the last step's automatic procedure took (`_advance`)
        # 815.1a: a player may come to have two S-MAX evolution creatures (or start with two: model/positions.py)
        self.smax_rule = sum(1 for i in self.instances if self.pool[i.card].has(SMAX)) > 1
        # 805.4b, 811.2b: a psychic or GR creature put outside the battle zone goes back to its own zone
        self.home_rule = any(self.pool[i.card].home for i in self.instances)
        # 816.3: a creature with hyper mode released that leaves the battle zone is its front again
        self.hyper_rule = any(self.pool[i.card].hyper for i in self.instances)
        # 814.1d: a King Cell alone in the battle zone goes to the graveyard (model/kings.py)
        self.king_rule = any(self.pool[i.card].king for i in self.instances)

    # ---- the model interface -----------------------------------------------------------------
    def initial_state(self) -> State:
        return self._initial

    def actions(self, s: State) -> tuple[Action, ...]:
        """Every legal choice in `s`, in a deterministic order; () when `s` is terminal."""
        if s.over:
            return ()
        if s.phase in MAIN_PHASES and not (s.running or s.pending):   # model/main_step.py: 503, 504
            return self.main_actions(s)
        if s.phase == "declare" and not (s.running or s.pending):   # 815.1a may put the position right first
            return self.declare_actions(s)
        if s.running:
            task = s.running[-1]
            ins = task.program[task.pc]
            who = chooser(self, s, task, ins)
            kept = self._options_of.pop(id(s), None)
            opts = kept[1] if kept is not None else options(self, s, task, ins)
            return self._choices(who, opts) if opts else ()
        eligible = self.eligible(s)
        if eligible:
            # one tuple of actions per answer of `eligible` (its answers are shared by many states)
            found = self._resolve_all.get(eligible)
            if found is None:
                if len(self._resolve_all) > 65536:
                    self._resolve_all.clear()
                found = self._resolve_all[eligible] = tuple(self._resolve_action(p) for p in eligible)
            return found
        if s.frames and s.frames[-1].to_choose:
            return self._late_actions(s)
        if s.phase == "block":
            return self.block_actions(s)
        if s.phase == "ntp_declare":
            return self.ninja_actions(s)
        if s.phase == "tp_declare":
            return self.tp_declare_actions(s)
        if not s.started or self._next_single_break(s):
            return self._start_actions(s)
        raise AssertionError("a non-terminal state without a decision")  # _advance never stops here

    def _choices(self, who: str, opts: list) -> tuple[Action, ...]:
        """The actions of `who` choosing among `opts`, built once per list of options where an instruction
        keeps its lists (the entry holds the list, so its id stays its own)."""
        found = self._choices_of.get(id(opts))
        if found is not None and found[0] is opts and found[1] == who:
            return found[2]
        actions = tuple([Action("choose", who, choice, text) for choice, text in opts])
        if len(self._choices_of) >= OPTIONS_KEPT:
            self._choices_of.clear()
        self._choices_of[id(opts)] = (opts, who, actions)
        return actions

    def step(self, s: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        """The state after `action` and the events it caused (the automatic procedure included)."""
        if s.phase in MAIN_PHASES and not (s.running or s.pending):
            return self.main_step(s, action)
        if s.phase == "declare" and not (s.running or s.pending):
            after, events = self.declare_step(s, action)
            return (self.note_entries(after, events) if self.many_attacks else after), events
        out: list[Event] = []
        if action.kind == "choose":
            task = s.running[-1]
            s = execute(self, s, task, task.program[task.pc], action.choice, out)
        elif action.kind == "resolve":
            s = self._resolve(s, action.choice[0], out)
        elif action.kind == "choose_shields":
            s = self._choose_attack_shields(s, action.choice, out)
        elif action.kind == "break_later":
            s = self._choose_attack_shields(s, (), out, later=action.choice[0])
        elif action.kind == "choose_late":
            s = self._choose_late(s, action.choice, out)
        elif action.kind == "direct_attack":
            s = self._direct_attack(s, out)
        elif action.kind in ("block", "no_block"):
            s = self.block(s, action.choice, out)
        elif action.kind in ("ninja_declare", "no_ninja_declare"):
            s = self.ninja_declare(s, action.choice, out)
        elif action.kind in ("tp_declare", "no_tp_declare"):
            s = self.tp_declare(s, action.choice, out)
        else:
            raise ValueError(f"unknown action {action.kind}")
        s = self._advance(s, out)
        if self.many_attacks:   # model/turn.py: summoning sickness at the turn's later attacks
            s = self.note_entries(s, out)
        return s, tuple(out)

    # ---- the automatic procedure -------------------------------------------------------------
    def _advance(self, s: State, out: list[Event]) -> State:
        """Run everything that needs no decision, up to the next decision or the end (rounds: `_long_step`)."""
        seen: dict[State, int] | None = None
        rounds, between = 0, self._rules_between
        while True:
            rounds += 1
            if not rounds & WATCH_MASK or seen is not None:
                seen = self._long_step(s, rounds, out, seen)
            if s.over:
                break
            if not (s.zones[0].deck and s.zones[1].deck) and not _ending(s):
                s = self.deck_out(s)   # LO01: a state-based loss, even in the middle of an effect
                continue
            after = self._between_steps(s, out) if between else None   # 703.4c, 815.1a: before anything else
            if after is not None:
                s = after
                continue
            running = s.running
            if running:
                task = running[-1]
                pc, program = task.pc, task.program
                if pc >= len(program):
                    s = self._finish_task(s, out)
                    continue
                ins = program[pc]
                spec = OPS[ins.op]   # looked up once per instruction (registry.options, then execute)
                opts = spec.options(self, s, task, ins)
                if opts is None:   # registry.execute, inline: the hottest call of the procedure
                    s = spec.execute(self, s if spec.loops else advance_pc(s), task, ins, None, out)
                    continue
                if not opts:   # nothing to choose from: the instruction does nothing
                    s = advance_pc(s)
                    continue
                self._keep_options(s, opts)
                break
            if s.frames and s.frames[-1].broken:   # R603.7b: after the nested break, back to the effect it interrupted
                frame = s.frames[-1]
                s = replace(s, frames=s.frames[:-1], running=frame.resume)
                continue
            if self.eligible(s):
                break
            if s.frames:
                frame = s.frames[-1]
                if frame.to_choose:
                    if s.zone(frame.defender).shields:
                        break   # S166: the shields are chosen now, after the before-break effects
                    s = replace(s, frames=s.frames[:-1] + (replace(frame, to_choose=0),))
                s = self._break(s)
                continue
            if s.phase:   # model/attack.py: R505.6a, R507-R511; the charge and main steps wait (model/main_step.py)
                s, decision = (s, True) if s.phase in MAIN_PHASES else self.attack_phase(s, out)
                if decision:
                    break
                continue
            if not s.started or self._next_single_break(s):
                break   # the attack's choice of shields (D1), or its next single break before 2017-03-25
            # D7: the attack end step (R510). Q10: a stopped attack is reported after pending effects resolved.
            s = self.end_attack(s, out)
        self.rounds = rounds
        return s

    def _keep_options(self, s: State, options: list) -> None:
        """The options of `s`, which `_advance` stopped at, kept for `actions` (by the state's id: the entry
        holds the state, so the id stays its own; states never expanded, seen before, leave theirs)."""
        if len(self._options_of) >= OPTIONS_KEPT:
            self._options_of.clear()
        self._options_of[id(s)] = (s, options)

    @cached_property
    def _rules_between(self) -> bool:
        """Whether a rule of `_between_steps` can apply to the scenario at all (its flags are the scenario's:
        read at the first step, once the model is made)."""
        return any((self.power_checks, self.smax_rule, self.home_rule, self.seal_rule, self.hyper_rule,
                    self.king_rule))

    def _between_steps(self, s: State, out: list[Event]) -> State | None:
        """What the rules do between any two automatic steps, before anything else is handled (703.1,
        111.2d): destroy the creatures at power 0 or less (703.4c, model/power.py), and return all but one
        of a player's S-MAX evolution creatures to his hand, his choice (815.1a, a static ability); a psychic
        or GR creature put outside the battle zone goes back to its own zone (805.4b, 811.2b: model/homes.py); a
        Command that entered removes one of its owner's seals (703.4j: model/seals.py). None
        when none applies (a destruction that changed nothing still applied: the rule is met again)."""
        if self.power_checks:
            zero = self.zero_power(s)
            if zero:
                return self.destroy_zero(s, zero, out)
        if self.smax_rule:
            player = pile_words.smax_excess(self, s)
            if player:
                return push(s, pile_words.one_smax(player))
        if self.home_rule:
            found = homes.strays(self, s)
            if found:
                return homes.return_strays(self, s, found, out)   # 117.1, 805.4b, 118.1, 811.2b
        if self.hyper_rule:
            gone = hyper.strays(self, s)
            if gone:
                return hyper.end_strays(self, s, gone, out)   # 816.3
        if self.king_rule:
            alone = kings.lone(self, s)
            if alone:
                return kings.bury(self, s, alone, out)   # 814.1d
        if s.unsealing and not any(t.ability == seal_words.UNSEAL for t in s.running):   # 703.4j, 116.4a
            command = s.unsealing[0]
            return push(replace(s, unsealing=s.unsealing[1:]), seal_words.unseal(self.owner(command), command))
        return None

    def _long_step(self, s: State, rounds: int, out: list[Event],
                   seen: dict[State, int] | None) -> dict[State, int] | None:
        """A step that takes long: every WATCH_EVERY rounds the search's check is asked (explorer/limits.py:
        its limits hold inside a step); past REMEMBER_AFTER rounds the positions met are remembered (each
        with where its events began), and one met again with no choice between is an endless loop of the
        model (EndlessStep), reported instead of going round for ever."""
        if not rounds & WATCH_MASK and self._watch is not None:
            self._watch(rounds)
        if rounds < REMEMBER_AFTER:
            return None
        if seen is None:
            seen = {}
        first = seen.get(s)
        if first is not None:
            raise EndlessStep("one step of the automatic procedure came back to the same position with no "
                              "choice in between, and would go round for ever (a bug of the model: a rule "
                              "applied in one place and not in another)", tuple(out[first:first + ROUND_SHOWN]))
        seen[s] = len(out)
        return seen

    def watch(self, check: Callable[[int], None] | None) -> None:
        """explorer/protocol.py Watched: the search's check, asked every WATCH_EVERY rounds of a step."""
        self._watch = check

    def eligible(self, s: State) -> tuple[Pending, ...]:
        """The pending effects that may resolve next (R509.4, R509.4a-b, R603.7a-b). `step` asks it
        last of the state it returns and `actions` first of the same state: the answer is kept."""
        if not s.pending or s.running or (s.frames and s.frames[-1].broken):
            return ()
        last = self._eligible_last
        if last[0] is s:
            return last[1]
        found: tuple[Pending, ...] | None
        if s.phase == "attack":   # R506.3: whether the non-turn player still declares reads the hand
            found = self._eligible(s)
        else:
            # everything else the answer reads is the pending effects, the open frames' number,
            # whether a shield check is in progress and the phase: many states share those
            key = (s.pending, s.depth(), bool(s.checks), s.phase)
            found = self._eligible_by.get(key)
            if found is None:
                if len(self._eligible_by) > 65536:
                    self._eligible_by.clear()
                found = self._eligible_by[key] = self._eligible(s)
        self._eligible_last = (s, found)
        return found

    def _eligible(self, s: State) -> tuple[Pending, ...]:
        if s.phase in ("ntp_declare", "tp_declare"):
            return ()   # A03, A05; S116 (`ntp_declaration_time=at_trigger`): declarations come before any resolution
        depth = s.depth()
        pool = [p for p in s.pending if p.kind == BEFORE_BREAK and p.frame == depth] if depth else []
        if self.version.triggers_wait_for_break:
            # before 2023-04-19 (S001); `old_rules_waiting` says what waited for the break
            late = [p for p in s.pending if p.kind == BEFORE_BREAK and p.frame > depth]  # their frame broke
            if (pool or late) and self.readings.get("old_rules_waiting") == "before_break_effects":
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
                if inner != pool and self.readings.get("nested_other_pending") == "inner_only":
                    pool = inner
            else:
                pool = list(s.pending)
        tp = [p for p in pool if p.controller == s.turn]  # R509.4a-b: turn player's first
        if not tp and s.phase == "attack" and self.ntp_waits(s):
            return ()   # R506.3 (A25): the non-turn player declares before his effects resolve
        pool = tp or pool
        return tuple(pool) if len(pool) < 2 else tuple(sorted(set(pool)))

    def _finish_task(self, s: State, out: list[Event]) -> State:
        task = s.running[-1]
        s = _with_running(s, s.running[:-1])
        if s.wins or s.losses:
            s = self.decide_game(s)   # R104.2c: what the effect made players win or lose, together
        if task.spell >= 0:
            dest = task.then or "graveyard"
            if self.card(task.spell).as_spell().has("to_mana_after_resolving") and dest != "mana":
                # Q02: Charger puts the spell into the mana zone instead of the graveyard; when the
                # effect that cast it names another place, `charger_cast_destination` decides
                reading = "charger" if dest == "graveyard" else self.readings.get("charger_cast_destination")
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
        z = s.zone(owner).move("resolving", dest, spell)
        out.append(ev("move", "Q02" if dest == "mana" else "",
                      card=self.label(spell), player=owner, **{"from": "resolving", "to": dest}))
        return s.with_zone(owner, mana.entered(self, z, spell, out) if dest == "mana" else z)   # 405.1

    # ---- D0/D1: the start of the step --------------------------------------------------------
    def breaker_count(self, s: State) -> int:
        """D1: its breaker and its additional breaks (its own, and effects that reached it, 110.2e)."""
        return self.breaker(s, s.attacker) + effects.additional_breaks(self, s, s.attacker)

    def breaker_counts(self, s: State) -> tuple[int, ...]:
        """D1, R509.2c: what the attacker may break, one count for each breaker ability it may use."""
        extra = effects.additional_breaks(self, s, s.attacker)
        return tuple(n + extra for n in self.breakers(s, s.attacker))

    def _next_single_break(self, s: State) -> bool:
        """Before 2017-03-25 (S007, S016, S008): after a single break and its shield check, the attack
        breaks its next shield, even if the breaker has left (ER03), while the defender has one."""
        return bool(s.started and s.breaks_left and not s.stop_attack and s.zone(s.defender).shields)

    def _start_actions(self, s: State) -> tuple[Action, ...]:
        shields = s.zone(s.defender).shields
        if not shields:
            return (Action("direct_attack", s.turn, (),
                           f"{s.turn} attacks directly: {s.defender} has no shields (D0)"),)
        if not self.version.simultaneous_break:
            counts = [1]   # before 2017-03-25: one shield at a time (S007, S016)
        else:   # R509.2c: with several breaker abilities its controller uses one of them, his choice
            counts = sorted({min(n, len(shields)) for n in self.breaker_counts(s)})
        if self.effects_first(s.attacker):
            return tuple(Action("break_later", s.turn, (n,), f"{s.turn}'s {self.label(s.attacker)} is to break {n} "
                                f"shield{'s' if n > 1 else ''}: its before-break abilities first, then the choice")
                         for n in counts)
        return tuple(
            Action("choose_shields", s.turn, combo,
                   f"{s.turn} chooses {self.shield_list(combo)} to break with {self.label(s.attacker)}")
            for n in counts for combo in self.shield_choices(s, s.defender, n))

    def effects_first(self, by: int) -> bool:
        """`before_break_order=effects_first` (S166, the 2017 Master Breaker Q&A): a creature with a
        before-break ability breaking for its attack resolves it before the shields are chosen (looked up
        only for such a creature)."""
        return bool(self.card(by).abilities_with("before_break")) and \
            self.readings.get("before_break_order") == "effects_first"

    def _late_actions(self, s: State) -> tuple[Action, ...]:
        """S166: the attack's before-break effects have resolved; now the shields are chosen."""
        frame = s.frames[-1]
        n = min(frame.to_choose, len(s.zone(frame.defender).shields))
        return tuple(Action("choose_late", s.turn, combo,
                            f"{s.turn} chooses {self.shield_list(combo)} to break with {self.label(frame.by)}")
                     for combo in self.shield_choices(s, frame.defender, n))

    def _choose_late(self, s: State, chosen: tuple[int, ...], out: list[Event]) -> State:
        frame = s.frames[-1]
        frame = replace(frame, chosen=tuple(sorted(chosen)), to_choose=0)
        s = replace(s, frames=s.frames[:-1] + (frame,))
        out.append(ev("choose_shields", "S166", player=self.owner(frame.by),
                      shields=tuple(self.label(c) for c in frame.chosen), by=self.label(frame.by), frame=s.depth()))
        return s

    def _direct_attack(self, s: State, out: list[Event]) -> State:
        # D0, R104.2a, R509.1 (A14, A21): the attacker's side wins, the defender loses (model/attack.py)
        return self.lose(replace(s, started=True), s.defender, s.turn, "D0")

    def _choose_attack_shields(self, s: State, chosen: tuple[int, ...], out: list[Event], later: int = 0) -> State:
        if not self.version.simultaneous_break:
            # before 2017-03-25: the number of breaks is fixed at the first; each is a break of its own
            left = s.breaks_left - 1 if s.started else self.breaker_count(s) - 1
            s = replace(s, breaks_left=max(left, 0))
        s = replace(s, started=True)
        return self.open_frame(s, s.attacker, True, s.defender, chosen, True, out, later)

    def shield_choices(self, s: State, defender: str, n: int,
                       exclude: AbstractSet[int] = frozenset()) -> list[tuple[int, ...]]:
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
                   is_attack: bool, out: list[Event], later: int = 0) -> State:
        """Choose shields to break (D1) and trigger the before-break abilities, one per shield (R509.3);
        with `later`, that many shields are chosen once those abilities have resolved (S166)."""
        frame = Frame(by=by, by_creature=by_creature, defender=defender, chosen=tuple(sorted(chosen)),
                      is_attack=is_attack, resume=s.running, to_choose=later)
        s = replace(s, frames=s.frames + (frame,), running=())
        depth = s.depth()
        if later:
            return self.trigger_before_break(s, frame, later, out)
        out.append(ev("choose_shields", "R509.3" if depth == 1 else "R603.7b",
                      player=self.owner(by), shields=tuple(self.label(c) for c in frame.chosen),
                      by=self.label(by), frame=depth))
        if breaking.decides(self, s, frame, at_choice=True) and \
                self.readings.get("break_replacement_timing") == "before_triggers":
            # S002 D2-D3: decide the replacements first; the real breaks fix the number of triggers
            program = breaking.decision_program(self, s, frame) + (instr("_trigger_before_break"),)
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
            self.readings.get("break_replacement_timing") == "before_triggers"   # at D2 already
        program = () if decided else breaking.decision_program(self, s, frame)
        return push(s, Task(program=program + (instr("_carry_out"),), pc=0, controller=frame.defender,
                            source=frame.by, ability="break"))

    def carry_out_break(self, s: State, out: list[Event]) -> State:
        """D4 for the innermost frame (a method so that test variants can get it wrong on purpose)."""
        return breaking.carry_out(self, s, out)

    # ---- pending effects ---------------------------------------------------------------------
    def _resolve_action(self, p: Pending) -> Action:
        """The action resolving `p`: it depends on `p` alone, so it is built once per pending effect."""
        found = self._resolve_actions.get(p)
        if found is None:
            found = self._resolve_actions[p] = Action("resolve", p.controller, (p,), self._resolve_text(p))
        return found

    def _resolve_text(self, p: Pending) -> str:
        where = f" (before-break, frame {p.frame})" if p.kind == BEFORE_BREAK else ""
        label = self.ability_label(p.card, p.ability)
        of = "" if label.partition("/")[0] == self.label(p.source) else f" of {self.label(p.source)}"
        return f"{p.controller} resolves {label}{of}{where}"

    def _resolve(self, s: State, p: Pending, out: list[Event]) -> State:
        """R509.4: `p` leaves the pending effects and its effect starts; the use of its ability is
        counted (`uses`, sorted by label)."""
        found = self._resolving.get(p)
        if found is None:   # all but the rule of the event depends on `p` alone: built once
            label = self.ability_label(p.card, p.ability)
            effect = next(a for a in self.pool[p.card].abilities if a.id == p.ability).effect
            found = self._resolving[p] = (
                label, (Task(program=effect, pc=0, controller=p.controller, source=p.source, ability=label),),
                (("ability", label), ("source", self.label(p.source)), ("controller", p.controller),
                 ("frame", p.frame)))
        label, running, fields = found
        pending = s.pending
        at = pending.index(p)
        uses = self._counted.get((s.uses, label))   # the counts after this use: many states share them
        if uses is None:
            uses = self._count_use(s.uses, label)
        rule = "R509.4" if p.kind == BEFORE_BREAK else ("R603.7a" if s.depth() else
                                                        PHASE_RULES.get(s.phase, "D6"))
        out.append(build(Event, ("Event", "resolve", fields, rule)))
        s = _with_resolved(s, pending[:at] + pending[at + 1:], uses, running)
        if s.phase == "attack" and p.controller != s.turn and not s.ntp_declared and self.words & NTP_WINDOW:
            # 506.3d-e: the non-turn player's declaration window is one moment, before his own waiting effects
            # resolve: once they begin, it has passed, even if nothing could be declared then (S157: from
            # 2018-08-09 the Ninja Strike mana is counted at that moment; S116: no declaration once a waiting
            # effect has begun to resolve). His own effects raising his mana do not open it again.
            s = replace(s, ntp_declared=True)
        return s

    def _count_use(self, uses: tuple[tuple[str, int], ...], label: str) -> tuple[tuple[str, int], ...]:
        """`uses` with one more use of `label` (sorted by label), kept for the next state with the same counts."""
        for k, (name, n) in enumerate(uses):
            if name == label:
                after = uses[:k] + ((label, n + 1),) + uses[k + 1:]
                break
        else:
            after = tuple(sorted(uses + ((label, 1),)))   # a new label: sort once
        if len(self._counted) > 65536:
            self._counted.clear()
        self._counted[uses, label] = after
        return after

    # ---- optional hooks of explorer.protocol.Model ----------------------------------------------
    def canonical(self, s: State) -> State:
        """The symmetry's representative of `s` (identical cards renamed in a fixed way). A state in which
        a delayed or a "once each turn" ability of one of several identical cards waits, or a battle an
        effect started waits for its start, is kept as it is: always sound, it only stores a twin more."""
        if (s.delayed or s.fired) and not self.symmetry.members.isdisjoint(
                [d.source for d in s.delayed] + [c for c, _ in s.fired]):
            return s   # a delayed ability's card (R603.6), a "once each turn" one's: not renamed
        if s.running and any(t.ability == BATTLE_START for t in s.running):
            return s   # the creatures of a battle an effect started, waiting for its start (R101.4f)
        return self.symmetry.canonical(s)

    def orbit(self, s: State) -> State:
        """explorer/protocol.py Symmetric: what `canonical` cannot tell apart in `s` (model/symmetry.py)."""
        return self.symmetry.orbit(s)

    def interchangeable(self) -> bool:
        """Whether some identical cards are not inert (model/symmetry.py): otherwise `canonical` renames
        nothing, and the explorer does not weigh the symmetry."""
        return bool(self.symmetry.active)

    # explorer/protocol.py: a cheaper hash of `position` (model/position_key.py)
    position_hash = staticmethod(position_hash)

    def position(self, s: State) -> State:
        """The game position of `s` without the bookkeeping that only grows as a loop goes round (how
        often each ability resolved; spells cast beyond the second, which nothing tells apart): two
        states with one position have the same future, so the explorer cuts a repeat (A27)."""
        cast = s.spells_cast
        if cast[0] > 2 or cast[1] > 2:
            cast = (cast[0] if cast[0] < 2 else 2, cast[1] if cast[1] < 2 else 2)
        elif not s.uses:
            return s
        return _without_uses(s, (), cast)   # (the search asks this of every deep state: one copy, no keywords)

    def outcome(self, s: State) -> dict:
        return outcome(self.outcome_key, s)

    def is_terminal(self, s: State) -> bool:
        return s.over

    def summary(self, s: State) -> str:
        """A state in one short line, for drawn graphs (DOT, GraphML, HTML): each player's non-empty
        zones by card count, then what is pending, open and running, or how it ended (in the current
        language, model/lang.py)."""
        tr, term = lang.tr, lang.term
        parts = []
        for player in ("A", "B"):
            z = s.zone(player)
            counts = [f"{term('zones', zone)} {len(getattr(z, zone))}" for zone in
                      ("hand", "battle", "shields", "mana", "graveyard", "deck", "resolving", "standby")
                      if getattr(z, zone)]
            parts.append(f"{player}: {', '.join(counts) or tr('nothing')}")
        if s.pending:
            parts.append(tr("{n} pending", n=len(s.pending)))
        if s.frames:
            parts.append(tr("{n} frame{s}", n=len(s.frames), s="s" if len(s.frames) > 1 else "")
                         + (tr(" ({n} open)", n=s.depth()) if s.depth() != len(s.frames) else ""))
        if s.running:
            parts.append(tr("running {what}", what=self.names().ability(s.running[-1].ability)))
        if s.over:
            parts.append(tr("end: winner {who}, {n} broken", who=s.winner or tr("none"), n=len(s.broken)))
        elif not s.started:
            parts.append(tr("start"))
        return "; ".join(parts)

    def narrate(self, action: Action, events: tuple[Event, ...], context: dict | None = None) -> tuple[str, list[str]]:
        return narrate(action, events, context, self.names())

    def names(self) -> lang.Names:
        """The scenario's cards and abilities as the current language names them (model/lang.py)."""
        found = self.__dict__.get("_names")
        if found is None:
            found = self.__dict__["_names"] = lang.Names(self.pool)
        return found

    def action_text(self, action: Action) -> str:
        """A choice as the current language says it."""
        return lang.action_text(action.text, self.names())

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
        `b` may trigger that could resolve before `a` conflicts with `a` (C1 of explorer/reduction.py)."""
        p = a.choice[0]
        mine, theirs = self._footprint(p), self._footprint(b.choice[0])
        if conflicts(mine, theirs):
            return False
        return not (spawns(theirs) and conflicts(mine, self._spawn_footprint(p)))

    def _footprint(self, p: Pending) -> frozenset:
        key = (p.card, p.ability, p.controller)
        found = self._footprints.get(key)
        if found is None:
            found = self._footprints[key] = footprint.of_ability(self, p.card, p.ability, p.controller)
        return found

    def _spawn_footprint(self, p: Pending) -> frozenset:
        """What an ability triggered while `p` waits may do before `p` resolves.

        A turn-player effect `p` is never overtaken by an ability of the non-turn player triggered
        meanwhile: that ability joins the pool `p` is in (same frame, same kind: R509.4a-b, the turn
        player's effects first; under `nested_other_pending=inner_only` too, since it triggers in
        the innermost frame, where `p` is) or a pool that waits for it (a triggered effect waits
        for the before-break effects, R603.7a; and for the break, before 2023-04-19). Only a new
        frame could change the pools, and what opens one is TOP (it conflicts anyway). So for `p`
        the turn player's, only the turn player's abilities count: the non-turn player's The Watch
        (Q09, skip the rest of the turn, TOP) no longer stops the reduction of the turn player's
        effects. For the non-turn player's `p`, every ability counts (the turn player's go first).
        """
        # a scenario that goes on to the next turn has another turn player there: every ability counts
        owner = self.scenario.turn if p.controller == self.scenario.turn and not self.plan.next_turn else None
        found = self._spawnable.get(owner)
        if found is None:
            found = self._spawnable[owner] = footprint.spawnable(self, owner)
        return found
