"""The built-in properties: the break procedure's rules and rulings, each as a Z3 formula over facts.

Each one cites where it comes from, by the corpus's ids (scenarios/corpus.yaml). Together they are what
`dmcheck check` verifies on every explored scenario; a model that breaks one gets its shortest
counterexample. The `sometimes` properties at the end guard against a model that is safe only
because nothing ever happens in it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import z3

from ..model.census import carries
from ..model.piles import STACKED
from .property import NEEDS, Property
from .symbols import StateScope, TransitionScope

RULE_CHANGE = dt.date(2023, 4, 19)   # S001: before-break effects may be interrupted from this date


def _chosen_still_break(t: TransitionScope) -> z3.BoolRef:
    # R509.4c: when the attack's frame closes after the attacker left, every chosen shield still in
    # the shield zone breaks — unless the turn was skipped (Q09) or its break is replaced (D2: a Shield
    # Saver decided at the choice still protects under S002's reading, a shield that cannot be broken)
    return z3.Implies(
        z3.And(t.attack_frame_closed, t.post.attacker_left, z3.Not(t.post.turn_skipped)),
        t.forall_cards(lambda c: z3.Implies(z3.And(t.pre.attack_chosen(c), t.pre.in_shields(c),
                                                   z3.Not(t.replaced_now(c))), t.broken_now(c))))


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
    # attack is to be stopped and nobody wins; when it broke a shield it is not stopped — nor when a
    # replacement took a chosen shield's break (D2: the shield was still there)
    nothing = t.forall_cards(lambda c: z3.And(z3.Not(t.attack_broke(c)),
                                              z3.Not(z3.And(t.chosen_now(c), t.replaced_now(c)))))
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


# ---- the shield check, replacement effects and destruction (S002 D2-D4, S003, S004) ----------------
def _no_resolve_during_check(t: TransitionScope) -> z3.BoolRef:
    # R509.5e, R101.4, SC4: while a shield check is in progress, or its declared abilities wait for an
    # Escape chain to end (Q14), no pending triggered ability resolves: the declared ones are used first
    return z3.Implies(t.resolves, z3.And(t.pre.checks == 0, t.pre.queued == 0))


def _standby_not_counted(t: TransitionScope) -> z3.BoolRef:
    # R113.6a (SC1): from the break until the shield check moves them to the hand, the cards checked
    # are in standby — still in the shield zone, but not counted as shields; only they are in standby
    return t.forall_cards(lambda c: z3.And(
        t.post.checking(c) == t.post.in_standby(c),
        z3.Implies(z3.Or(t.post.checking(c), t.broken_now(c)), z3.Not(t.post.in_shields(c)))))


def _discard_pays_once(t: TransitionScope) -> z3.BoolRef:
    # SC2/SC3: each declaration that costs a discard (S-Back, Sabaki Z) discards a card of its own; the
    # card goes to the graveyard now (R509.5c), and no ability declared for that card, now or before,
    # shares it
    return t.forall_cards(lambda c: z3.And(
        t.paid_now(c) <= 1,
        (t.paid_now(c) == 1) == t.discarded_now(c),
        z3.Implies(t.paid_now(c) >= 1, z3.And(t.declared_now(c) == 0, z3.Not(t.pre.declared(c))))))


def _castle_after_s_trigger(t: TransitionScope) -> z3.BoolRef:
    # R304.3: a castle leaves when its shield goes to the hand — after that shield's S-Trigger has been
    # used, if one was declared: never while the shield is in standby, declared, or its spell resolving
    return t.forall_cards(lambda c: z3.Implies(
        z3.And(t.pre.castled(c), z3.Not(t.post.castled(c))),
        z3.Not(z3.Or(t.post.in_standby(c), t.post.in_resolving(c), t.post.declared(c)))))


def _replaced_break_not_broken(t: TransitionScope) -> z3.BoolRef:
    # D2, D4: a replaced break does not happen — no `break` for that shield and no shield check of it
    return t.forall_cards(lambda c: z3.Implies(
        t.replaced_now(c), z3.And(z3.Not(t.broken_now(c)), z3.Not(t.post.checking(c)))))


def _destroyed_follows_destroy(t: TransitionScope) -> z3.BoolRef:
    # R701.6a-b: a card is destroyed as the result of a destroy attempt on it (or a replacement of its
    # leaving) — made earlier in the transition or still waiting for its owner's replacement choice —
    # or because the card it lay on was tried, replaced or left the battle zone first (an aura, a seal,
    # a card under an evolution creature go to the graveyard with it, Q12)
    def before(at: z3.ArithRef, when: z3.ArithRef) -> z3.BoolRef:
        return z3.And(at > 0, at < when)

    return t.forall_cards(lambda c: z3.Implies(t.destroyed_at(c) > 0, z3.Or(
        t.pre.attempted(c), before(t.attempted_at(c), t.destroyed_at(c)),
        t.pre.host_attempted(c), before(t.host_left_at(c), t.destroyed_at(c)))))


def _no_hidden_destroyed_trigger(t: TransitionScope) -> z3.BoolRef:
    # Q12, R701.6b: a "when destroyed" ability triggers only for a card destroyed face up with its
    # characteristics: at most once per such destruction it watches
    return t.forall_cards(lambda w: t.destroy_triggers(w) <= t.watched_destroyed(w) - t.watched_hidden(w))


def _some_declaration(t: TransitionScope) -> z3.BoolRef:
    return t.exists_cards(lambda c: t.declared_now(c) > 0)


def _some_replacement(t: TransitionScope) -> z3.BoolRef:
    return t.replacements_now > 0


# ---- `needs` of the shield-check properties --------------------------------------------------------
# property.py's NEEDS belongs to the property values; these two are read here, from the scenario's
# initial state and card definitions, by the subclass below.
SHIELD_NEEDS = {
    "declaration": "by card text: a defender's shield with any S-Trigger (Super S-Trigger, S-Trigger Plus, a "
                   "conditional one, a twinpact's spell side), G-Strike or Revolution 0, a card giving shields "
                   "S-Trigger, or an S-Back or Sabaki Z card in the defender's hand (SC2/SC3)",
    "replacement": "by card text: a card of the scenario with a replacement ability (Shield Saver, castle, "
                   "Skull Moon, Escape, EX Life...) or a shield that cannot be broken (D2, R701.6a)",
    "pile": "a creature with cards under it or an aura on it (801, 310)",
}
# Judged from the card text only, never from what can happen: whether the thing can happen is what
# the search finds out, and a sanity property without an example says "no example in this scenario"
# (properties/checker.py) instead of failing.


# ---- the whole attack (model/attack.py; scenarios/corpus.d/attack.yaml) ---------------------------------------
def _replaced_break_no_trigger(t: TransitionScope) -> z3.BoolRef:
    # A18: a break a replacement effect took is no break: a transition that breaks no shield triggers
    # no "when it breaks a shield" ability (A17: they trigger with the break itself)
    return z3.Implies(t.breaks_now == 0, t.break_triggers_now == 0)


def _end_of_attack_comes(s: StateScope) -> z3.BoolRef:
    # R510 (A12): every attack reaches its end-of-attack step, stopped or not, unless the rest of the
    # turn was skipped (Q09) or the game ended (R104.2; a draw too, S109); a scenario that starts
    # before the declaration may end with no attack at all
    return z3.Implies(z3.And(s.over, s.after_declaration, z3.Not(s.turn_skipped), s.winner == s.player("nobody"),
                             s.loser == s.player("nobody")), s.attack_ended)


def _position_reachable(s: StateScope) -> z3.BoolRef:
    # issue 34: every explored state is a position a game can reach, one the scenario loader would accept
    # (model/positions.py: each check cites its rule)
    return s.unreachable == 0


def _power_zero_at_once(s: StateScope) -> z3.BoolRef:
    # R703.1, R703.3, R703.4c: the state-based check runs between any two automatic steps, so a state that
    # waits for a choice never has a creature the rules would destroy now (model/power.py)
    return z3.Implies(s.after_declaration, s.zero_power == 0)


def _turn_effects_end(s: StateScope) -> z3.BoolRef:
    # R511.2 (the 2021-06-24 change, S328): the turn's effects end together in the end step
    return z3.Implies(s.turn_over, s.turn_effects == 0)


def _some_power_zero(t: TransitionScope) -> z3.BoolRef:
    return t.zero_destroyed_now > 0


def _some_battle(t: TransitionScope) -> z3.BoolRef:
    return t.battles_now > 0


def _loser_is_not_winner(s: StateScope) -> z3.BoolRef:
    # R104.2a, R509.1, R104.2c (A14, A21): the game ends with one winner and the other player as loser;
    # S109: or both players lost at the same moment, and nobody won
    nobody, both = s.player("nobody"), s.player("both")
    return z3.And(z3.Implies(s.winner != nobody, z3.And(s.loser != nobody, s.loser != both, s.loser != s.winner)),
                  z3.Implies(z3.And(s.loser != nobody, s.loser != both), s.winner != nobody),
                  z3.Implies(s.loser == both, s.winner == nobody))


def _instructions(program) -> Iterator:
    for ins in program:
        yield ins
        for key in ("if_done", "do", "else"):   # the programs an instruction holds (discard, `if`)
            yield from _instructions(ins.get(key) or ())


def _card_instructions(card) -> Iterator:
    yield from _instructions(card.effect)
    for ability in card.abilities:
        yield from _instructions(ability.effect)


def _can_declare(m: Any, s: Any) -> bool:
    """Whether a shield check of the defender could declare anything, by card text: a shield card (a stacked
    one too) with any S-Trigger (S-Trigger, Super S-Trigger, S-Trigger Plus, one under a condition, a
    twinpact's spell side's: model/census.py `carries`), G-Strike or Revolution 0; a card of the scenario
    giving S-Trigger to shields; an S-Back or Sabaki Z card in his hand."""
    z = s.zone(s.defender)
    cards = list(z.shields) + [c for c, _, k in z.links if k == STACKED]
    if any(carries(m.card(c), "S-Trigger") or m.card(c).has("G-Strike") or m.card(c).has("Revolution 0")
           for c in cards):
        return True
    if any(ins.op == "grant" and ins.get("keyword") == "S-Trigger"
           for i in m.instances for ins in _card_instructions(m.pool[i.card])):
        return True
    return any(m.card(b).s_back() or m.card(b).has("Sabaki Z") for b in z.hand)


_REPLACES = ("own_shield_break", "fortified_shield_break", "self_destroy", "self_leave")


def _can_replace(m: Any, s: Any) -> bool:
    for cid in range(len(m.instances)):
        card = m.card(cid)
        if card.has("Unbreakable") or any(card.replacements(kind) for kind in _REPLACES):
            return True
    return False


def shield_features(model: Any) -> set[str]:
    """Which of SHIELD_NEEDS the scenario has, read from its initial state and card definitions."""
    s = model.initial_state()
    out: set[str] = set()
    if any(k in ("under", "aura") for z in s.zones for _, _, k in z.links):
        out.add("pile")
    if not s.zone(s.defender).shields:
        return out
    if _can_declare(model, s):
        out.add("declaration")
    if _can_replace(model, s):
        out.add("replacement")
    return out


# ---- cards made of several cards (model/piles.py, model/instructions/pile_moves.py) --------------------
def _pile_cards_follow(t: TransitionScope) -> z3.BoolRef:
    # 801 (S201, S221), 310.8 (S209): when a creature leaves the battle zone, the cards under it and its
    # auras go to the same zone - unless only its top card left and the rest was rebuilt (801.4, 813.1); a
    # psychic or GR card among them goes there too, then at once on to its own zone (805.4b, 811.2b)
    battle = t.zone("battle")
    return t.forall_cards(lambda c: t.forall_cards(lambda h: z3.Implies(
        z3.And(t.pre.lies_on(c, h), t.pre.follows(c), t.pre.zone_of(h) == battle, t.post.zone_of(h) != battle,
               z3.Not(t.top_only_now(h))),
        z3.Or(t.post.zone_of(c) == t.post.zone_of(h), t.went_home_now(c)))))


def _stack_breaks_whole(t: TransitionScope) -> z3.BoolRef:
    # S212, S213: a stack is one shield: when its card is broken, every card of it leaves the shield zone
    # with it (to standby for the shield check, or further)
    return t.forall_cards(lambda c: t.forall_cards(lambda h: z3.Implies(
        z3.And(t.pre.lies_on(c, h), t.pre.stacked(c), t.broken_now(h)),
        z3.And(z3.Not(t.post.stacked(c)), t.post.zone_of(c) != t.zone("attached"), z3.Not(t.post.in_shields(c))))))


def _some_pile_leaves(t: TransitionScope) -> z3.BoolRef:
    # a creature put under another card with its auras (403.4a, 310.8b) stays in the battle zone, attached
    battle, attached = t.zone("battle"), t.zone("attached")
    return t.exists_cards(lambda c: t.exists_cards(lambda h: z3.And(
        t.pre.lies_on(c, h), t.pre.follows(c), t.pre.zone_of(h) == battle, t.post.zone_of(h) != battle,
        t.post.zone_of(h) != attached, z3.Not(t.top_only_now(h)))))


@dataclass(frozen=True)
class ShieldProperty(Property):
    """A built-in property whose `needs` may also name SHIELD_NEEDS."""

    def _base(self) -> Property:
        return Property(self.id, self.text, self.citations, self.kind, self.over, self.condition, self.since,
                        self.until, tuple(n for n in self.needs if n not in SHIELD_NEEDS), self.origin)

    def __post_init__(self) -> None:
        self._base()   # validates the kind, what it ranges over and the other needs
        unknown = [n for n in self.needs if n not in NEEDS and n not in SHIELD_NEEDS]
        if unknown:
            raise ValueError(f"property {self.id}: unknown needs {unknown}")

    def applies(self, model: Any) -> str:
        why = self._base().applies(model)
        if why:
            return why
        own = [n for n in self.needs if n in SHIELD_NEEDS]
        if not own:
            return ""
        have = shield_features(model)
        missing = [n for n in own if n not in have]
        if missing:
            return "the scenario lacks what it needs: " + "; ".join(SHIELD_NEEDS[n] for n in missing)
        return ""


BUILTIN: tuple[Property, ...] = (
    Property("chosen-shields-still-break",
             "The shields chosen for the attack still break after the attacking creature leaves the battle "
             "zone, unless the turn is skipped, they have left the shield zone or their break is replaced.",
             ("R509.4c", "Q06", "D2"), "always", "transitions", _chosen_still_break),
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
             ("Q10", "D2"), "always", "transitions", _all_left_stops),
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
    Property("no-resolve-during-check",
             "No pending triggered ability resolves while a shield check is in progress or its declared abilities "
             "wait for an Escape chain to end: the declared abilities are all used first.",
             ("R509.5e", "R101.4", "SC4", "Q14"), "always", "transitions", _no_resolve_during_check),
    Property("standby-not-counted",
             "From its break until the shield check moves it to the hand, a shield is in standby and is not "
             "counted as a shield; no other card is in standby.",
             ("R113.6a", "SC1"), "always", "transitions", _standby_not_counted),
    Property("discard-pays-once",
             "Each card discarded for a shield-check declaration (S-Back, Sabaki Z) pays for exactly one ability, "
             "goes to the graveyard at once, and is not a card declared for an ability itself.",
             ("SC2", "SC3", "R509.5c"), "always", "transitions", _discard_pays_once),
    Property("castle-after-s-trigger",
             "A castle leaves its shield only once that shield has left standby and any S-Trigger declared for "
             "it has been used to its end.",
             ("R304.3", "SC4"), "always", "transitions", _castle_after_s_trigger),
    Property("replaced-break-not-broken",
             "A shield whose break is replaced is not broken: no break event and no shield check for it.",
             ("D2", "D4", "Q11"), "always", "transitions", _replaced_break_not_broken),
    Property("destroyed-follows-destroy",
             "A card is destroyed only after a destroy attempt on it or a replacement of its leaving, or with the "
             "card it lay on (destroyed or leaving the battle zone).",
             ("R701.6a-b", "Q12", "Q13"), "always", "transitions", _destroyed_follows_destroy),
    Property("no-hidden-destroyed-trigger",
             "No \"when destroyed\" ability triggers for a card destroyed face down or without characteristics: "
             "each triggers at most once per card destroyed face up whose destruction it sees.",
             ("Q12", "R701.6b"), "always", "transitions", _no_hidden_destroyed_trigger),
    Property("some-shield-breaks",
             "Some way the attack can go breaks a shield.",
             ("D4",), "sometimes", "transitions", _some_break, needs=("shields",)),
    Property("some-before-break-resolves",
             "Some way the attack can go resolves a before-break ability.",
             ("R509.3", "R509.4"), "sometimes", "transitions", _some_before_break, needs=("before_break",)),
    Property("some-nested-frame",
             "Some way the attack can go opens a nested break frame.",
             ("R603.7b",), "sometimes", "transitions", _some_nested, needs=("nested_break",)),
    Property("replaced-break-no-break-trigger",
             "A transition that breaks no shield (a replaced break included) triggers no \"when it breaks a "
             "shield\" ability.",
             ("S110", "D2"), "always", "transitions", _replaced_break_no_trigger),
    Property("end-of-attack-comes",
             "Every attack that does not end the game reaches its end-of-attack step, stopped or not, unless the "
             "rest of the turn was skipped.",
             ("R510", "S105", "Q09"), "always", "outcomes", _end_of_attack_comes),
    Property("one-winner-one-loser",
             "A game that ends has a winner and a loser, two different players, or two losers and no winner (a "
             "draw, S109; a player meeting a win and a "
             "loss condition at once wins).",
             ("R104.2a", "R104.2c", "R509.1", "S109"), "always", "outcomes", _loser_is_not_winner),
    ShieldProperty("some-declaration",
                   "Some way the attack can go declares an ability in a shield check.",
                   ("SC2", "SC3"), "sometimes", "transitions", _some_declaration, needs=("shields", "declaration")),
    Property("pile-cards-follow",
             "When a creature leaves the battle zone, the cards under it and its auras go to the same zone, unless "
             "only its top card left and the rest was rebuilt (a psychic or GR card among them then goes on to its "
             "own zone).",
             ("R801", "R310.8", "R801.4", "R813.1", "R805.4b"), "always", "transitions", _pile_cards_follow),
    Property("stack-breaks-whole",
             "A stacked shield is one shield: when it is broken, every card of it leaves the shield zone with it.",
             ("S212", "S213"), "always", "transitions", _stack_breaks_whole),
    ShieldProperty("some-pile-leaves",
                   "Some way the attack can go moves a creature of several cards out of the battle zone.",
                   ("R801",), "sometimes", "transitions", _some_pile_leaves, needs=("pile",)),
    ShieldProperty("some-replacement",
                   "Some way the attack can go replaces an event (a break, a destruction, leaving the battle zone).",
                   ("D2", "R701.6a"), "sometimes", "transitions", _some_replacement, needs=("replacement",)),
    # the rest of the game an attack touches (model/power.py, scenarios/corpus.d/touch.yaml)
    Property("power-zero-destroyed-at-once",
             "Once the attack is declared, no choice is ever made while a creature that can be destroyed has power "
             "0 or less and no destruction is under way: the rules destroy it before anything else is handled.",
             ("R703.1", "R703.3", "R703.4c", "S300", "S304"), "always", "states", _power_zero_at_once),
    Property("position-reachable",
             "Every state explored is a position a game can reach, one the scenario loader would not refuse: each "
             "card in one zone and its owner's, no evolution creature with nothing under it, no card lying on a card "
             "that is not there, marks only where they mean something.",
             ("R400.1", "R403.4", "R406.2", "R801.1a", "R303.3", "R310.5"), "always", "states", _position_reachable),
    Property("turn-effects-end-with-the-turn",
             "When the turn is over, no power change or keyword given for the turn applies any more.",
             ("R511.2", "S328"), "always", "outcomes", _turn_effects_end),
    Property("some-power-zero",
             "Some way the attack can go destroys a creature at power 0 or less by the rules.",
             ("R703.4c",), "sometimes", "transitions", _some_power_zero, needs=("power_change",)),
    Property("some-battle",
             "Some way the attack can go fights a battle (the attack's, or one an effect starts).",
             ("R508", "S112"), "sometimes", "transitions", _some_battle, needs=("battle",)),
)

