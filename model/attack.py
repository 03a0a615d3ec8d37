"""The whole attack around the direct attack step: declaration, block, battle, the end of
the attack and of the turn, and how the game ends.

A mixin of the procedure (BreakModel). The steps, with the rules they follow (General Game Rules
numbering; A01-A28 are the scenarios of scenarios/attack/ that pin each):
- R506.1 (A01, A24): the turn player's creature attacks the opponent or one of his TAPPED creatures.
  R506.3 (A25): "when ... attacks" abilities trigger; the turn player's waiting effects resolve first
  (the procedure's eligibility, R509.4a-b), then the non-turn player's. The hidden-zone declarations
  (Revolution Change, Invasion, Ninja Strike, Ninja Change) are model/declarations.py's.
- R505.6a (A02, A22): if the attacker or the attacked creature has left, the attack ends at once and
  the game goes to the end-of-attack step.
- R507.1-2 (A09, BL01, GM01-GM04): the non-turn player may use the redirecting abilities of his untapped
  creatures (model/redirection.py: Blocker, Guardman); the attack becomes an attack on the one resolved last,
  and the attacker is "blocked" only if that one used Blocker (R507.2a-b).
- R508 / R115 (A10, A11): a battle compares powers; the lower is destroyed (through the destruction
  path, so replacements apply), both on a tie; "when it wins a battle" never triggers on a tie.
- the direct attack step (D0-D7, procedure.py) when the attack is on the player and not blocked.
- R510 (A12): the end-of-attack step comes after every attack, also a stopped one or one whose
  attacker left, unless the rest of the turn was skipped (Q09 ends the exploration at once).
- R511.1 (A13): with `until: end_turn`, the "at the end of your turn" abilities of the creatures in
  the battle zone when the step begins trigger (one arriving during the step does not), the turn
  player's resolve first; then the turn ends.
- R104.2a-c, R509.1 (A14, A15, A21): the direct attack at zero shields: the attacker's side wins and
  the defender loses (unless a loss replacement applies); a player meeting a win and a loss at once wins.

A scenario with no attack trigger, no blocker, an attack on the player and no `until` goes through
these steps without a decision: its states are those it had before (the declaration's events are
carried by the first step, see `plain`).
"""

from __future__ import annotations

from itertools import product

from .actions import Action
from .events import Event, ev
from .gods import creature
from .host import Host
from .instructions import attacking, destruction, game_end
from .instructions.common import same
from .redirection import redirectors, used_by
from .restrictions import CANNOT_BLOCK, restricted
from .state import Phase, State, other, replace

# phases of State.phase (model/state.py Phase; "" is the direct attack step, D0-D7)
PHASES: dict[Phase, str] = {
    "declare": "the attack is not declared yet (only the initial state; R506.1)",
    "attack": "declared; the abilities triggered by the attack resolve (R506.3)",
    "tp_declare": "the turn player declares hidden-zone abilities: Revolution Change, Invasion (R506.3, A03, A05)",
    "ntp_declare": "the non-turn player declares hidden-zone abilities: Ninja Strike, Ninja Change (R506.3, A25, A08)",
    "block": "the non-turn player chooses a blocker or none (R507.1)",
    "blocked": "the block step is decided; what it triggered resolves (R507.3c, model/attack_end.py)",
    "battle_start": "a battle has begun; what it triggered resolves before the powers are compared (R115.2)",
    "battle": "a battle took place; its losers are being destroyed (R508)",
    "end_attack": "the end-of-attack step (R510)",
    "end_turn": "the end step of the turn (R511.1)",
    "charge": "the mana charge step, before the attack step (R503.1; model/main_step.py)",
    "main": "the main step: the plan's cards are summoned or cast (R504.1; model/main_step.py)",
}


class AttackSteps(Host):
    """The steps of an attack before and after the direct attack step (see the module docstring).

    A mixin of procedure.BreakModel (not imported here: the procedure imports this module); it uses
    the model's `_advance`, `actions`, `step`, `trigger`, `add_pending` and card table."""

    _declarations: dict | None = None

    # ---- R506: the declaration ------------------------------------------------------------------
    def declared(self, s: State) -> tuple[State, tuple[Event, ...]]:
        """The state once the attack of `s` (an undeclared state: the initial one, maybe renamed by
        the symmetry) is declared and everything automatic after it has run, and the events of that."""
        if self._declarations is None:
            self._declarations = {}
        found = self._declarations.get(s)
        if found is None:
            out: list[Event] = []
            after = self._advance(self.declare_attack(s, out), out)
            found = self._declarations[s] = (after, tuple(out))
        return found

    def plain(self, first: State) -> bool:
        """Whether the declaration led straight to the direct attack step with nothing to resolve: then
        the first decision is taken from the undeclared state and carries the declaration's events,
        so a scenario written for the direct attack step keeps its states. Otherwise the declaration
        is a step of its own, so that every transition starts from the state it really starts from."""
        return first.phase == "" and not first.over and not first.started and not first.pending \
            and not first.running

    def declare_attack(self, s: State, out: list[Event]) -> State:
        """R506.1: the attacker and its target; R506.3: what the attack triggers."""
        target = self.label(s.target) if s.target >= 0 else s.defender
        out.append(ev("attack", "R506.1", card=self.label(s.attacker), player=s.turn, target=target))
        s = replace(self.tap_attacker(s), phase="attack")
        if "tapped" in self.words:   # 603.2c: the attacker becomes tapped
            s = self.trigger(s, "tapped", s.turn, s.attacker, out)
        if "attacks" in self.words or "opponent_attacks" in self.words:
            s = self.trigger(s, "attacks", s.turn, s.attacker, out)
        if self.tp_declarables(s):
            return replace(s, phase="tp_declare")   # A03, A05: the turn player declares first (model/declarations.py)
        if self.ninjas(s) and self.readings.get("ntp_declaration_time") == "at_trigger":
            s = replace(s, phase="ntp_declare")   # S116: declared at the trigger, before anything resolves
        return s

    def tap_attacker(self, s: State) -> State:
        """R506.1 (A01, A24): the turn player taps the creature to attack with it (the loader lets only
        an untapped one attack); the `attack` event says it, there is no `tap` event of its own."""
        z = s.zone(s.turn)
        if s.attacker in z.tapped:
            raise AssertionError("a tapped creature cannot attack (R506.1)")
        return s.with_zone(s.turn, replace(z, tapped=tuple(sorted(z.tapped + (s.attacker,)))))

    def declare_actions(self, s: State) -> tuple[Action, ...]:
        first, _ = self.declared(s)
        if self.plain(first):
            return self.actions(first)
        target = self.label(s.target) if s.target >= 0 else s.defender
        return (Action("declare_attack", s.turn, (), f"{s.turn} attacks {target} with {self.label(s.attacker)}"),)

    def declare_step(self, s: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        first, events = self.declared(s)
        if action.kind == "declare_attack":
            return first, events
        after, more = self.step(first, action)
        return after, events + more

    # ---- the steps between the declaration and the direct attack step --------------------------
    def attack_phase(self, s: State, out: list[Event]) -> tuple[State, bool]:
        """Move on from a phase whose pending effects are done: (the state, whether it is a decision)."""
        phase = s.phase
        if phase == "declare":   # what put the initial position right is done (815.1a): the declaration comes
            return s, True
        if phase == "attack":
            if self.attack_ended(s):
                return self.end_attack(s, out), False       # R505.6a
            if self.ntp_waits(s):
                return replace(s, phase="ntp_declare"), True   # R506.3 (A25)
            if redirectors(self, s):
                return replace(s, phase="block"), True       # R507.1
            return self.after_block(s, out), False
        if phase in ("block", "ntp_declare", "tp_declare"):
            return s, True
        if phase == "blocked":   # what the block step triggered has resolved (model/attack_end.py)
            if self.attack_ended(s):
                return self.end_attack(s, out), False       # R505.6a: e.g. the blocker left
            return self.battle_or_break(s, out), False
        if phase == "battle_start":   # R115.3a: a creature of the battle has left, there is no battle
            if self.attack_ended(s):
                return self.end_attack(s, out), False
            return self.battle(s, out), False
        if phase == "battle":
            return self.end_attack(s, out), False
        if phase == "end_attack":
            if not s.attack_effects_ended:   # 510.2: after what 510.1 triggered has resolved
                return self.expire_attack_effects(s, out), False
            return self.after_attack(s, out)   # model/turn.py: another attack (505.5), the end step, or over
        if phase == "end_turn":
            out.append(ev("end_turn", "R511.2", player=s.turn))
            return self.after_turn(s, out)    # model/turn.py: over, or the next turn (512)
        raise AssertionError(f"unknown phase {phase!r}")

    def attack_ended(self, s: State) -> bool:
        """R505.6a: the attacking creature, or the creature it attacks, is no longer in the battle zone;
        or an effect stopped the attack (S146, `stop_attack`)."""
        if s.stop_attack or s.attacker not in s.zone(s.turn).battle:
            return True
        return s.target >= 0 and s.target not in s.zone(s.defender).battle

    def blockers(self, s: State) -> tuple[int, ...]:
        """R507.1: the defender's untapped creatures with Blocker, printed or given and not ignored
        (`has_keyword`), other than the attacked creature (R507.1a, S154: an untapped Blocker attacked by a
        creature that may attack untapped ones cannot take its own attack)."""
        z = s.zone(s.defender)
        return tuple(c for c in z.battle if c not in z.tapped and c != s.target and self.card(c).type == "creature"
                     and self.has_keyword(s, c, "redirect_block") and not restricted(self, s, c, CANNOT_BLOCK))

    def guardmen(self, s: State) -> tuple[int, ...]:
        """R507.1a: the defender's untapped creatures with Guardman when the attack is on ANOTHER of his
        creatures: never when he himself is attacked (S154), read off the target the attacker chose, since
        every redirecting creature is chosen at once (S155). Guardman is no block (R507.2b): neither
        "cannot block" nor "cannot be blocked" reaches it (dmwiki and Duel Masters Wiki "Guardman")."""
        if s.target < 0:
            return ()
        z = s.zone(s.defender)
        return tuple(c for c in z.battle if c != s.target and c not in z.tapped and self.card(c).type == "creature"
                     and self.has_keyword(s, c, "redirect_guard"))

    def block_actions(self, s: State) -> tuple[Action, ...]:
        """R507.1: one redirecting creature or none; since 2021-09-07 (R507.1a of v1.25, S153, S154) any
        number at once, their abilities resolved in the order the non-turn player likes: every set with the
        one resolved last, which takes the attack (identical cards offered once)."""
        me = s.defender
        users = dict(redirectors(self, s))
        if not self.version.several_blockers or len(users) < 2:
            acts = [Action("block", me, (c,), self._redirect_text(s, c, (), users)) for c in users]
            return tuple(acts) + (Action("no_block", me, (), f"{me} does not block"),)
        acts = []
        for last, group in self._block_sets(s, tuple(users)):
            rest = tuple(c for c in group if c != last)
            acts.append(Action("block", me, (last,) + rest, self._redirect_text(s, last, rest, users)))
        return tuple(acts) + (Action("no_block", me, (), f"{me} does not block"),)

    def _redirect_text(self, s: State, last: int, rest: tuple[int, ...], users: dict) -> str:
        """How a choice of the block step reads: "B blocks X with Y, first using Z's Blocker" for Blockers;
        "B redirects the attack of X to Y with its Guardman" when the last one is no Blocker (R507.2b)."""
        also = "".join(f", first using {self.label(c)}'s {users[c].keyword}" for c in rest)
        if users[last].blocks:
            return f"{s.defender} blocks {self.label(s.attacker)} with {self.label(last)}{also}"
        return (f"{s.defender} redirects the attack of {self.label(s.attacker)} to {self.label(last)} with its "
                f"{users[last].keyword}{also}")

    def _block_sets(self, s: State, blockers: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
        """(the Blocker resolved last, every Blocker used) once per set of classes of identical Blockers
        (model/instructions/common.py `same`, as `shield_choices` does for shields): how many of each class
        are used and which class resolves last, each class's lowest ids standing for its copies. Built over
        the classes, never over every set of cards: n identical Blockers give n sets, not 2^n. Listed as a
        walk over every set of cards would meet them first: by size, then by the cards, then by the last."""
        classes: dict[tuple, list[int]] = {}
        for c in blockers:
            classes.setdefault(same(self, s, c), []).append(c)
        members = list(classes.values())
        found = []
        for counts in product(*(range(len(m) + 1) for m in members)):
            group = tuple(sorted(c for m, k in zip(members, counts) for c in m[:k]))
            if not group:
                continue
            for m, k in zip(members, counts):
                if k:
                    found.append((len(group), group, group.index(m[0]), m[0]))
        return [(last, group) for _, group, _, last in sorted(found)]

    def block(self, s: State, chosen: tuple[int, ...], out: list[Event]) -> State:
        """R507.2: each redirecting creature used is tapped and sends the attack to itself; the last one
        resolved (`chosen[0]`) takes it: a Blocker becomes the blocking creature (R507.2a, S154) and the
        attacker is blocked; a Guardman makes no blocking creature (R507.2b) and blocks nothing. Then R507.3."""
        designated = False
        if chosen:
            last, first = chosen[0], chosen[1:]
            way = used_by(self, s, last)
            z = s.zone(s.defender)
            s = s.with_zone(s.defender, replace(z, tapped=tuple(sorted(z.tapped + chosen))))
            for c in first:   # R507.1a: its ability was used, then overridden by the one resolved after it
                out.append(ev("tap", "R507.1a", card=self.label(c), player=s.defender))
            if way.blocks:
                out.append(ev("block", "R507.2", card=self.label(last), attacker=self.label(s.attacker),
                              player=s.defender))
            else:
                out.append(ev("redirect", way.rule, card=self.label(last), attacker=self.label(s.attacker),
                              player=s.defender, how=way.keyword))
            for c in chosen if "tapped" in self.words else ():   # 603.2c: each creature used becomes tapped
                s = self.trigger(s, "tapped", s.defender, c, out)
            # R507.2c: an attacker once blocked stays so (a creature that entered blocking, R507.4)
            s = replace(s, blocked=s.blocked or way.blocks, target=last)
            designated = way.blocks
        return self.after_block(replace(s, phase="attack"), out, designated)

    def after_block(self, s: State, out: list[Event], designated: bool = False) -> State:
        """The block step is over: what it triggers resolves first (model/attack_end.py, R507.3c), then
        an attack on a creature is a battle (R508); an attack on the player goes to the direct attack step.
        `designated`: a blocking creature was designated in this step (R507.3; not one that entered
        blocking, R507.4)."""
        s = self.block_triggers(s, out, designated)
        if s.pending:
            return replace(s, phase="blocked")
        return self.battle_or_break(s, out)

    def battle_or_break(self, s: State, out: list[Event]) -> State:
        if s.target >= 0:
            if "battle_start" in self.words:   # R115.2: the battle's start triggers, resolved first
                for c in (s.attacker, s.target):
                    s = self.trigger(s, "battle_start", self.owner(c), c, out)
                if s.pending:
                    return replace(s, phase="battle_start")
            return self.battle(s, out)
        return replace(s, phase="")

    def power(self, s: State, cid: int) -> int:
        """The printed power and what applies during the attack (model/attack_end.py: A12c)."""
        return creature(self, s, cid).power + self.attack_power_bonus(s, cid)   # 804.1b: a linked God's sum

    def battle(self, s: State, out: list[Event]) -> State:
        """R508, R115 (A10, A11): the greater power wins; the loser is destroyed by the rules, both on a tie."""
        a, t = s.attacker, s.target
        pa, pt = self.power(s, a), self.power(s, t)
        winner = a if pa > pt else t if pt > pa else -1
        out.append(ev("battle", "R508", card=self.label(a), against=self.label(t),
                      winner=self.label(winner) if winner >= 0 else "none"))
        s = replace(s, phase="battle")
        if winner >= 0 and "battle_win" in self.words:
            s = self.trigger(s, "battle_win", self.owner(winner), winner, out)   # A11: not on a tie
        losers = (a, t) if winner < 0 else ((t,) if winner == a else (a,))
        for c in reversed(losers):
            s = destruction.attempt(self, s, c, out)
        return s

    # ---- R506.3: the non-turn player's hidden-zone declarations (Ninja Strike, A07, A08, A25) ----------
    def ninjas(self, s: State) -> tuple[int, ...]:
        """The non-turn player's hand cards with Ninja Strike or Ninja Change, one per kind, while none is
        declared yet. Only the trigger's "when" must hold at declaration; the mana condition is checked
        when it resolves (A05), Ninja Change's "no Ninja ability used" too (A08)."""
        if ("ninja_strike" not in self.words and "ninja_change" not in self.words) or s.ntp_declared:
            return ()
        ntp = other(s.turn)
        found = self._one_per_kind(s.zone(ntp).hand, lambda c: (
            self.card(c).abilities_with("ninja_strike") or self.card(c).abilities_with("ninja_change"))
            and self.ninja_mana_met(s, c))
        return found + self.ninjas_elsewhere(s, ntp) if self.elsewhere else found

    def _one_per_kind(self, cards, fits) -> tuple[int, ...]:
        """The first of `cards` of each kind (card name) that `fits`: one declaration per kind."""
        seen, out = set(), []
        for c in cards:
            key = self.instances[c].card
            if key not in seen and fits(c):
                seen.add(key)
                out.append(c)
        return tuple(out)

    def ninjas_elsewhere(self, s: State, ntp: str) -> tuple[int, ...]:
        """R110.4d: a Ninja Strike (an ability that summons its card without paying, naming no zone) is used
        from any zone its card can be executed from: the non-turn player's cards lying in a zone an
        `execute_from` static in force opens to them (model/continuous.py), one per kind and zone. Ninja
        Change swaps, it does not execute its card: it stays a hand ability."""
        z = s.zone(ntp)
        return self._one_per_kind([c for zone in self.elsewhere for c in getattr(z, zone)], lambda c: (
            self.card(c).abilities_with("ninja_strike") and self.ninja_mana_met(s, c)
            and self.execution_zone(s, c) != ""))

    def ninja_mana_met(self, s: State, card: int) -> bool:
        """Whether a Ninja Strike may be declared as far as its mana goes: before 2022-08-10 its count is
        taken when it is declared (R112.3c as worded from 2018-08-09, S157); since, it is declared whatever
        the mana zone holds and the count is taken when it resolves (S156, S158)."""
        if self.version.ninja_mana_on_resolution:
            return True
        need = attacking.ninja_mana(self.card(card))
        return need is None or len(s.zone(self.owner(card)).mana) >= need

    def ntp_waits(self, s: State) -> bool:
        """Under `after_tp_resolved` the non-turn player still has to declare (R506.3, A25)."""
        return bool(self.ninjas(s)) and self.readings.get("ntp_declaration_time") == "after_tp_resolved"

    def ninja_actions(self, s: State) -> tuple[Action, ...]:
        ntp = other(s.turn)
        acts = [Action("ninja_declare", ntp, combo, f"{ntp} declares " + " and ".join(
                    f"{self._declared_name(c)} of {self.label(c)}" for c in combo))
                for combo in self.ninja_combos(s)]
        return tuple(acts) + (Action("no_ninja_declare", ntp, (), f"{ntp} declares no Ninja Strike"),)

    def ninja_declare(self, s: State, cards: tuple[int, ...], out: list[Event]) -> State:
        """A08: one Ninja Strike (and one Ninja Change) per player and attack; each declared card waits
        as a pending effect (model/declarations.py)."""
        return self.declare_ninjas(replace(s, ntp_declared=True, phase="attack"), cards, out)

    # ---- R510, R511: after the attack ----------------------------------------------------------
    def end_attack(self, s: State, out: list[Event]) -> State:
        """R510 (A12): the end-of-attack step, after a stopped attack too (Q10 reports it first)."""
        if s.stop_attack:
            out.append(ev("attack_stopped", "Q10", attacker=self.label(s.attacker)))
            s = replace(s, attack_stopped=True)
        out.append(ev("end_attack", "R510", attacker=self.label(s.attacker)))
        return self.at_end_of_attack(replace(s, phase="end_attack"), out)   # model/attack_end.py

    def begin_end_step(self, s: State, out: list[Event]) -> State:
        """R511.1 (A13): the end-of-turn abilities of what is in play now trigger; a card arriving
        during the step does not (it is not looked at again)."""
        s = replace(s, phase="end_turn")
        if "end_of_turn" not in self.words:
            return s
        # R511.1a: every "at the end of the turn" ability of either player triggers (a pattern on
        # `end_of_turn`: "at the end of your turn" is the turn player's, model/trigger_patterns.py); the
        # turn player's resolve first (R509.4a-b, 511.1c-e)
        return self.trigger(s, "end_of_turn", s.turn, -1, out)

    # ---- R104: wins and losses -----------------------------------------------------------------
    def lose(self, s: State, player: str, winner: str, rule: str) -> State:
        """`player` would lose (and `winner` win): a loss replacement may apply first (A15)."""
        return game_end.lose(s, player, winner, rule)

    def decide_game(self, s: State) -> State:
        """R104.2c (A14): wins and losses met by effects at once; a player meeting both wins; two players
        losing at once both lose (S109)."""
        wins, losses = s.wins, tuple(p for p in s.losses if p not in s.wins)
        both = set(s.wins) & set(s.losses)
        s = replace(s, wins=(), losses=())
        if wins:
            p = wins[0]
            return self.lose(s, other(p), p, "R104.2c" if p in both else "R104.2")
        if len(set(losses)) == 2:
            return game_end.lose(s, s.turn, "", "S109", also=other(s.turn))
        if losses:
            return self.lose(s, losses[0], other(losses[0]), "R104.2")
        return s

    def deck_out(self, s: State) -> State:
        """LO01 (S167): a player whose deck is empty loses at once, as a rule, even in the middle of an
        effect, and again as long as it stays empty; both at once lose together (S109)."""
        empty = [p for p in (s.turn, other(s.turn)) if not s.zone(p).deck]
        if len(empty) == 2:
            return game_end.lose(s, empty[0], "", "LO01", also=empty[1])
        return game_end.lose(s, empty[0], other(empty[0]), "LO01")
