"""The built-in properties: the break procedure's rules and rulings, each as a Z3 formula over facts.

Each one cites where it comes from (../shared/docs/domain.md numbering). Together they are what
`dmcheck check` verifies on every explored scenario; a model that breaks one gets its shortest
counterexample. The `sometimes` properties at the end guard against a model that is safe only
because nothing ever happens in it.
"""

from __future__ import annotations

import datetime as dt

import z3

from .property import Property
from .symbols import StateScope, TransitionScope

RULE_CHANGE = dt.date(2023, 4, 19)   # S001: before-break effects may be interrupted from this date


def _chosen_still_break(t: TransitionScope) -> z3.BoolRef:
    # R509.4c: when the attack's frame closes after the attacker left, every chosen shield still in
    # the shield zone breaks — unless the turn was skipped (Q09)
    return z3.Implies(
        z3.And(t.attack_frame_closed, t.post.attacker_left, z3.Not(t.post.turn_skipped)),
        t.forall_cards(lambda c: z3.Implies(z3.And(t.pre.attack_chosen(c), t.pre.in_shields(c)), t.broken_now(c))))


def _skip_cancels(t: TransitionScope) -> z3.BoolRef:
    # Q09: nothing breaks once the rest of the turn is skipped, in this transition or any later one
    return z3.And(t.breaks_after_skip == 0, z3.Implies(t.pre.turn_skipped, t.breaks_now == 0))


def _count_fixed(t: TransitionScope) -> z3.BoolRef:
    # R509.3, Q07: the shields a frame breaks are those chosen when it began, so no more than chosen
    return t.forall_cards(lambda c: z3.Implies(t.broken_now(c), t.chosen_now(c)))


def _before_break_pending(t: TransitionScope) -> z3.BoolRef:
    bb = t.kind("before_break")
    return z3.And(t.pre.depth > 0, z3.Or([t.pre.pending(bb, p, t.pre.depth) > 0 for p in t.players]))


def _before_break_first(t: TransitionScope) -> z3.BoolRef:
    # R509.4, R603.7b, Q03: while a before-break effect of the innermost frame waits, only such an effect resolves
    return z3.Implies(z3.And(t.resolves, _before_break_pending(t)),
                      z3.And(t.resolved_kind == t.kind("before_break"), t.resolved_frame == t.pre.depth))


def _before_break_uninterrupted(t: TransitionScope) -> z3.BoolRef:
    # S001 (before 2023-04-19): while a frame is open only its before-break effects resolve; what they
    # trigger waits until the shields are broken
    return z3.Implies(z3.And(t.resolves, t.pre.depth > 0),
                      z3.And(t.resolved_kind == t.kind("before_break"), t.resolved_frame == t.pre.depth))


def _frames_lifo(t: TransitionScope) -> z3.BoolRef:
    # R603.7b, Q04: a frame closes only after every frame opened after it has closed
    return z3.And(z3.Not(t.outer_broke_first),
                  t.forall_positions(lambda i, j: z3.Implies(
                      z3.And(i < j, t.pre.frame_open(j), t.closed(i)), t.closed(j)), arity=2))


def _all_left_stops(t: TransitionScope) -> z3.BoolRef:
    # Q10: when the attack's frame closes having broken nothing (every chosen shield had left), the
    # attack is to be stopped and nobody wins; when it broke a shield it is not stopped
    nothing = t.forall_cards(lambda c: z3.Not(t.attack_broke(c)))
    return z3.Implies(z3.And(t.attack_frame_closed, z3.Not(t.post.turn_skipped)),
                      z3.And(t.post.stop_attack == nothing, t.post.winner == t.player("nobody")))


def _stopped_no_winner(s: StateScope) -> z3.BoolRef:
    # Q10: pending effects resolve, then the attack is stopped; a stopped attack wins nothing
    return z3.And(z3.Implies(z3.And(s.stop_attack, z3.Not(s.turn_skipped)), s.attack_stopped),
                  z3.Implies(s.attack_stopped, s.winner == s.player("nobody")))


def _turn_player_first(t: TransitionScope) -> z3.BoolRef:
    # R509.4a-b: the non-turn player resolves an effect only when the turn player has none of the
    # same kind and frame waiting — including one that triggered while the non-turn player's resolved
    return z3.Implies(z3.And(t.resolves, t.resolved_controller == t.pre.nonturn),
                      t.pre.pending(t.resolved_kind, t.pre.turn, t.resolved_frame) == 0)


def _direct_attack_needs_no_shields(t: TransitionScope) -> z3.BoolRef:
    # D0: the attacker's controller wins only by a direct attack on a player with no shields
    return z3.Implies(t.won_now, z3.And(t.pre.shields_of(t.pre.defender) == 0, t.pre.depth == 0,
                                        t.post.winner == t.pre.turn))


def _conservation(s: StateScope) -> z3.BoolRef:
    # every card is in exactly one zone; no card appears or vanishes
    return z3.And(s.strangers == 0, s.forall_cards(lambda c: s.places(c) == 1))


def _some_break(t: TransitionScope) -> z3.BoolRef:
    return t.breaks_now > 0


def _some_before_break(t: TransitionScope) -> z3.BoolRef:
    return z3.And(t.resolves, t.resolved_kind == t.kind("before_break"))


def _some_nested(t: TransitionScope) -> z3.BoolRef:
    return t.opened_depth >= 2


BUILTIN: tuple[Property, ...] = (
    Property("chosen-shields-still-break",
             "The shields chosen for the attack still break after the attacking creature leaves the battle "
             "zone, unless the turn is skipped or they have left the shield zone.",
             ("R509.4c", "Q06"), "always", "transitions", _chosen_still_break),
    Property("skip-cancels-break",
             "A skipped turn cancels the break: no shield breaks after the rest of the turn is skipped.",
             ("Q09",), "always", "transitions", _skip_cancels),
    Property("break-count-fixed",
             "A frame never breaks more shields than were chosen when it began: every shield broken was "
             "chosen by an open frame.",
             ("R509.3", "Q07", "D3"), "always", "transitions", _count_fixed),
    Property("before-break-first",
             "While a before-break effect of the innermost frame is pending, no other effect resolves.",
             ("R509.4", "R603.7b", "Q03"), "always", "transitions", _before_break_first, since=RULE_CHANGE),
    Property("before-break-uninterrupted",
             "Under the rules before 2023-04-19, while a break frame is open only its own before-break "
             "effects resolve; what they trigger waits until the shields are broken.",
             ("S001", "R509.4"), "always", "transitions", _before_break_uninterrupted, until=RULE_CHANGE),
    Property("frames-lifo",
             "Break frames close last-in, first-out: a nested break happens before the break it interrupted.",
             ("R603.7b", "Q04"), "always", "transitions", _frames_lifo),
    Property("all-left-stops-attack",
             "When every shield chosen for the attack has left the zone before its break, the attack is "
             "stopped and nobody wins by it.",
             ("Q10",), "always", "transitions", _all_left_stops),
    Property("stopped-attack-wins-nothing",
             "An attack marked to be stopped ends stopped once the pending effects resolved, and a stopped "
             "attack has no winner.",
             ("Q10",), "always", "outcomes", _stopped_no_winner),
    Property("turn-player-first",
             "Among the effects waiting together, the turn player's resolve before the non-turn player's; a "
             "turn-player effect triggered while the non-turn player's resolve goes next.",
             ("R509.4a", "R509.4b"), "always", "transitions", _turn_player_first),
    Property("direct-attack-needs-no-shields",
             "A direct attack wins only when the defender has no shields.",
             ("D0",), "always", "transitions", _direct_attack_needs_no_shields),
    Property("conservation",
             "Every card is in exactly one zone, and no card appears or vanishes.",
             ("D4", "R701.6b"), "always", "states", _conservation),
    Property("some-shield-breaks",
             "Some way the attack can go breaks a shield.",
             ("D4",), "sometimes", "transitions", _some_break, needs=("shields",)),
    Property("some-before-break-resolves",
             "Some way the attack can go resolves a before-break ability.",
             ("R509.3", "R509.4"), "sometimes", "transitions", _some_before_break, needs=("before_break",)),
    Property("some-nested-frame",
             "Some way the attack can go opens a nested break frame.",
             ("R603.7b",), "sometimes", "transitions", _some_nested, needs=("nested_break",)),
)


def builtin_ids() -> list[str]:
    return [p.id for p in BUILTIN]
