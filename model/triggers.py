"""What triggers when: one matcher of triggered abilities against the events a step emits (R603.2,
R700.1), and the pending effects it adds (R509.3, R112.3a, R701.6b).

A mixin of the procedure: it reads the card table and adds pending effects to a state; it decides
nothing about when they resolve (that is the procedure's eligibility, R509.4 and R603.7). The
procedure calls `trigger(s, kind, player, card)` where an event that abilities may watch happens
(model/trigger_patterns.py EVENTS lists them); every ability's pattern (model/trigger_patterns.py)
is compared with it:
- the card's own abilities about itself (`card: this`) wherever the card is: it may just have left
  the battle zone (R701.6b, 603.5c);
- the abilities of the cards watching others, from the zone each ability works in (battle zone or
  graveyard or mana zone, R110.4b and R110.4g), each player's in turn;
- the delayed triggered abilities effects created (R603.6): each triggers once and is gone.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Final

from . import gods
from .continuous import enters_tapped, keywords_of
from .events import Event
from .host import Host
from .record import build
from .seals import is_command
from .state import PLAYERS, Frame, Pending, State, pindex, replace, setter
from .trigger_patterns import DELAYED_ZONE, EVENTS, LEAVING, TRIGGER_ZONES, TriggerPattern

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .cards import Ability, CardDef, CardPool

BEFORE_BREAK: Final = "before_break"   # the kinds of pending effect (model/state.py PendingKind)
TRIGGERED: Final = "triggered"
RULES = {"enters": "R112.3a", "destroyed": "R701.6b", "attacks": "R506.3", "battle_win": "R508",
         "breaks": "D6", "breaks_one_or_more": "D6", "end_of_turn": "R511.1",
         "shield_leaves": "D6", "end_of_attack": "R510", "blocks": "R507.3", "not_blocked": "R507.3c",
         "battle_lose": "R703.4d", "attacked": "R506.3", "player_attacked": "R506.3", "blocked": "R507.3"}


@dataclass(frozen=True)
class TriggerIndex:
    """The scenario's abilities by the events they watch: built once per model."""

    own: dict[tuple[str, str], tuple[Ability, ...]]          # (pool id, event) -> abilities about the card itself
    watchers: dict[str, dict[int, tuple[Ability, ...]]]      # event -> watching instance -> its abilities

    @staticmethod
    def build(pool: CardPool, instances: Iterable) -> TriggerIndex:
        own: dict[tuple[str, str], list[Ability]] = {}
        watchers: dict[str, dict[int, list[Ability]]] = {}
        for inst in instances:
            for a in pool[inst.card].abilities:
                if a.pattern is None or a.zone == DELAYED_ZONE:
                    continue
                for kind in a.pattern.on:
                    # 603.5c-d: an ability watching any card leave sees its own card's leaving too
                    if a.pattern.card == "this" or (kind in LEAVING and a.pattern.card == "any" and a.zone == "battle"):
                        found = own.setdefault((inst.card, kind), [])
                        if a not in found:
                            found.append(a)
                    if a.pattern.card != "this":
                        watchers.setdefault(kind, {}).setdefault(inst.id, []).append(a)
        return TriggerIndex({k: tuple(v) for k, v in own.items()},
                            {k: {c: tuple(v) for c, v in by.items()} for k, by in watchers.items()})


def listened(pool: CardPool, instances: Iterable) -> frozenset[str]:
    """The events some ability of the scenario's cards watches (delayed ones included)."""
    return frozenset(k for inst in instances for a in pool[inst.card].abilities if a.pattern is not None
                     for k in a.pattern.on)


def watching(pool: CardPool, instances: Iterable) -> frozenset[int]:
    """The instances with an ability that watches other cards' events (not only its own card's)."""
    return frozenset(inst.id for inst in instances if any(
        a.pattern is not None and a.pattern.card != "this" and a.zone != DELAYED_ZONE
        for a in pool[inst.card].abilities))


def matches(p: TriggerPattern, s: State, player: str, card: int, cdef: CardDef | None,
            me: int, owner: str, to: str = "", given: frozenset[str] = frozenset()) -> bool:
    """Whether an event (its player, its card and what that card is, where a leaving card goes) meets
    pattern `p` of an ability of card `me` controlled by `owner` (603.2: its characteristics as the event
    happens, R507.3b; `given`: the keywords statics give the card then, R608.3c)."""
    if p.player != "any" and (player == owner) != (p.player == "you"):
        return False
    if p.to and to not in p.to:
        return False
    if p.card == "other" and card == me:
        return False
    if p.has or p.type:
        if cdef is None or not all(cdef.has(w) or w in given for w in p.has):
            return False
        if p.type and not (cdef.is_spell() if p.type == "spell" else cdef.type == p.type):
            return False
    return not p.first_this_turn or p.on != ("cast",) or s.spells_cast[pindex(player)] == 1


_with_pending = setter(State, "pending")
_NO_KEYWORDS: frozenset[str] = frozenset()


def _weapon_watchers(z, watchers) -> list[tuple[int, str]]:
    """R305.2: an equipped weapon is in the battle zone (the model keeps it attached to its creature), so its
    abilities watch from there, its dragsolution (807.1a) among them."""
    return [(c, "battle") for c, _, k in z.links if k == "weapon" and c in watchers]


class Triggers(Host):
    """Adds pending effects; expects the card table's `card`, `owner`, `label`, `instances`."""

    @cached_property
    def trigger_index(self) -> TriggerIndex:
        return TriggerIndex.build(self.pool, self.instances)

    def add_pending(self, s: State, p: Pending, out: list[Event], rule: str) -> State:
        # ev("trigger", rule, ability=..., source=..., controller=..., frame=...) without a keyword dict
        out.append(build(Event, ("Event", "trigger", (("ability", self.ability_label(p.card, p.ability)),
                                 ("source", self.label(p.source)), ("controller", p.controller), ("frame", p.frame)),
                                 rule)))
        pending = s.pending
        return _with_pending(s, tuple(sorted(pending + (p,))) if pending else (p,))

    def trigger(self, s: State, what: str, player: str, card: int, out: list[Event], to: str = "") -> State:
        """The abilities whose pattern the event `what` of `player` about `card` (-1: none; `to`: the zone
        a card leaving the battle zone goes to) meets trigger."""
        depth = s.depth()
        found: list[Pending] = []
        index = self.trigger_index
        printed = cdef = self.card(card) if card >= 0 else None
        god_rule = self.god_rule
        if cdef is not None and god_rule:
            cdef = gods.creature(self, s, card)   # 804.1b: what a linked God is, for the patterns' conditions
        # R608.3c: the keywords statics give the card apply as it enters, before its triggers are looked at
        given = keywords_of(self, s, card) if cdef is not None and self.statics else _NO_KEYWORDS
        if cdef is not None:
            owner = self.owner(card)
            # 804.1b: a linked God has the abilities of each of its cards, about the one creature
            for part in gods.parts(self, s, card) if god_rule else (card,):
                pdef = printed if printed is not None and not god_rule else self.card(part)
                for ability in index.own.get((pdef.id, what), ()):
                    if matches(ability.pattern, s, player, card, cdef, card, owner, to, given):   # type: ignore[arg-type]
                        found.append(Pending(TRIGGERED, depth, player, pdef.id, ability.id, card))
        watchers = index.watchers.get(what)
        if watchers:
            for watcher in PLAYERS:
                z = s.zone(watcher)
                # R110.4b-c, R110.4g: each ability watches from the zone it works in; the cards of a linked God
                # beside the one standing for it watch from the battle zone too (804.1b)
                for cid, zone in [(c, where) for where in TRIGGER_ZONES for c in getattr(z, where) if c in watchers] + \
                        (self._god_watchers(z, watchers) if self.god_rule and z.links else []) + \
                        (_weapon_watchers(z, watchers) if z.attached else []):
                    me = gods.head_of(z, cid) if self.god_rule and zone == "battle" and z.links else cid
                    for ability in watchers[cid]:
                        if ability.zone == zone and (me != card or what not in LEAVING) and \
                                matches(ability.pattern, s, player, card, cdef, me, watcher, to, given):  # type: ignore[arg-type]
                            found.append(Pending(TRIGGERED, depth, watcher, self.instances[cid].card, ability.id, me))
        if what == "enters" and self.statics and card not in s.zone(self.owner(card)).tapped and \
                enters_tapped(self, s, card):   # R110.4f: its state is set as it is put, before anything triggers
            z = s.zone(self.owner(card))
            s = s.with_zone(self.owner(card), replace(z, tapped=tuple(sorted(z.tapped + (card,)))))
        if what == "enters" and self.seal_rule and is_command(self, s, card):
            s = replace(s, unsealing=s.unsealing + (card,))   # 703.4j: applied between two steps (procedure.py)
        if s.delayed:
            s = self._delayed(s, what, player, card, cdef, depth, found, to)
        rule = RULES.get(what) or EVENTS.get(what, ("", "R509.4"))[1]
        for p in found:
            s = self._add_once(s, p, out, rule) if self.once_per_turn else self.add_pending(s, p, out, rule)
        return s

    @cached_property
    def god_rule(self) -> bool:
        """Whether a card of the scenario can link as a God (804): only then are rows of Gods read."""
        return any(self.pool[i.card].g_link for i in self.instances)

    @staticmethod
    def _god_watchers(z, watchers) -> list[tuple[int, str]]:
        """The cards of linked Gods beside the card standing for them: their abilities watch from the battle
        zone (804.1b)."""
        return [(c, "battle") for c, _, k in z.links if k in gods.GOD_KINDS and c in watchers]

    @cached_property
    def once_per_turn(self) -> dict[tuple[str, str], bool]:
        """(card, ability) of the scenario's abilities with a memory of the turn -> whether it remembers
        the event met even when the ability did not trigger (ignored): "the first time each turn" does,
        "once each turn" remembers only its own triggering. A first spell is counted by `spells_cast`."""
        return {(i.card, a.id): a.pattern.first_this_turn for i in self.instances for a in self.pool[i.card].abilities
                if a.pattern is not None and (a.pattern.once_per_turn or (a.pattern.first_this_turn
                                                                          and a.pattern.on != ("cast",)))}

    def _add_once(self, s: State, p: Pending, out: list[Event], rule: str) -> State:
        """An ability with a memory of the turn (`State.fired`) that has met its event this turn does not
        trigger again; one that meets it now is remembered for the rest of the turn."""
        first = self.once_per_turn.get((p.card, p.ability))
        if first is None:
            return self.add_pending(s, p, out, rule)
        key = (p.source, p.ability)
        if key in s.fired:
            return s
        after = self.add_pending(s, p, out, rule)
        if after is s and not first:
            return s
        return replace(after, fired=tuple(sorted(after.fired + (key,))))

    def _delayed(self, s: State, what: str, player: str, card: int, cdef: CardDef | None, depth: int,
                 found: list[Pending], to: str) -> State:
        """R603.6: a delayed ability whose event happens triggers once and is gone (603.6a: it never saw
        what happened before it was made)."""
        kept = []
        for d in s.delayed:
            ability = next(a for a in self.pool[d.card].abilities if a.id == d.ability)
            p = ability.pattern
            if p is not None and what in p.on and (p.card != "this" or card == d.source) and \
                    matches(p, s, player, card, cdef, d.source, d.controller, to):
                found.append(Pending(TRIGGERED, depth, d.controller, d.card, d.ability, d.source))
            else:
                kept.append(d)
        return s if len(kept) == len(s.delayed) else replace(s, delayed=tuple(kept))

    def trigger_before_break(self, s: State, frame: Frame, n: int, out: list[Event]) -> State:
        """R509.3: a before-break ability triggers once per shield to break ("each break")."""
        if not frame.by_creature:
            return s
        depth = s.depth()
        by = frame.by
        for ability in self.card(by).abilities_with("before_break"):
            for _ in range(n):
                s = self.add_pending(s, Pending(BEFORE_BREAK, depth, self.owner(by), self.instances[by].card,
                                                ability.id, by), out, "R509.3")
        return s
