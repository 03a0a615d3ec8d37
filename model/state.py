"""The immutable, hashable state of an attack (its declaration, block, battle, shield breaks and end).

Only tuples, ints, strings, bools and nested frozen records: two states that are equal compare and
hash equal, and `fingerprint` gives the same id under any PYTHONHASHSEED. Cards are referred to by
instance id (an int); what a card is (name, owner, label) is static and lives in the model's table.
Unordered zones are kept sorted so that the order in which cards arrived does not split states.

The fields say what they hold in their types: `CardId` marks a card instance id and `Sorted` a tuple
kept sorted, so that model/symmetry.py reads from the declarations which parts of a state name cards
(and which it must sort again once it renamed them) instead of keeping its own list.
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Any, Literal, TypeVar

from .instr import Instr
from .record import Record, interned, is_record, maker, record, replace, setter

__all__ = ["BOUND", "CARD_ID", "PLAYERS", "SORTED", "Bound", "CardId", "Check", "Decl", "Delayed", "Frame",
           "Pending", "PendingKind", "Phase", "Replacement", "Sorted", "State", "Task", "Zones", "other", "pindex",
           "replace", "setter"]


PLAYERS = ("A", "B")

_T = TypeVar("_T")
CARD_ID = "card id"   # the metadata of `CardId`
SORTED = "sorted"     # the metadata of `Sorted`
BOUND = "bound"       # the metadata of `Bound`
CardId = Annotated[int, CARD_ID]
"""A card instance id (-1: none): identical cards' ids are what the symmetry renames."""
Sorted = Annotated[tuple[_T, ...], SORTED]
"""A tuple kept sorted (an unordered collection): the order cards arrived in does not split states."""
Bound = Annotated[int, BOUND]
"""A value a program bound under a name: a card id when the name is one a program binds cards to
(model/symmetry.py `Symmetry.id_binds`), a number otherwise."""


def other(player: str) -> str:
    return "B" if player == "A" else "A"


def pindex(player: str) -> int:
    return 0 if player == "A" else 1


@interned
@record
class Zones(Record):
    """One player's zones. `deck` is top first; `deck_added` counts cards put on its bottom. `super_gr`
    is a face-down pile too (R408.2), top first: a card added to it goes to its bottom (R118.1)."""

    deck: tuple[CardId, ...] = ()
    hand: Sorted[CardId] = ()
    mana: Sorted[CardId] = ()
    shields: Sorted[CardId] = ()
    battle: Sorted[CardId] = ()
    graveyard: Sorted[CardId] = ()
    resolving: Sorted[CardId] = ()   # spells being cast (on their way to resolution)
    standby: Sorted[CardId] = ()     # shields on their way to the hand: in the zone, not counted (R113.6a)
    attached: Sorted[CardId] = ()    # auras, seals, evolution sources (battle zone) and castles (shield zone)
    links: Sorted[tuple[CardId, CardId, str]] = ()   # (card, host, kind): aura, seal, under, castle, ex_life
    face_up: Sorted[CardId] = ()     # shields lying face up
    tapped: Sorted[CardId] = ()
    deck_added: int = 0
    hyperspatial: Sorted[CardId] = ()   # psychic creatures (R407.1; model/instructions/hyperspatial.py)
    super_gr: tuple[CardId, ...] = ()    # GR creatures, top first (R408.1, R408.2; model/instructions/gr.py)
    abyss: Sorted[CardId] = ()   # cards sent to the abyss, never to leave it (R410.1, R410.4; instructions/abyss.py)
    face_down: Sorted[CardId] = ()   # mana cards lying face down (R405.4; model/mana.py): the mark leaves with them
    held: Sorted[CardId] = ()   # pending on their way to the battle zone, still in their zone (R409.1)

    def add(self, zone: str, card: int) -> Zones:
        items = list(self)
        _put(items, zone, card)
        return _zones(items)

    def remove(self, zone: str, card: int) -> Zones:
        items = list(self)
        if zone == "mana" and items[_FACE_DOWN]:
            _turn_up(items, card)
        if items[_HELD]:
            _release(items, card)
        _take(items, zone, card)
        return _zones(items)

    def move(self, src: str, dst: str, card: int) -> Zones:
        """`remove(src, card).add(dst, card)` in one copy (what every move of a card does); a move
        between two unordered zones, or from the deck's top part, inline (`_take`, `_put` otherwise).
        Kept by its zones object and its arguments (`_MOVED`): the searches make the same move from
        the same zones again and again (78-98 % of the moves of the benchmark families)."""
        key = (self, src, dst, card)   # (the zones are interned: hashed by identity, see `_zones`)
        found = _MOVED.get(key)
        if found is not None:
            return found
        if len(_MOVED) >= MOVES_KEPT:
            _MOVED.clear()
        found = _MOVED[key] = self._moved(src, dst, card)
        return found

    def _moved(self, src: str, dst: str, card: int) -> Zones:
        items = list(self)
        if src == "mana" and items[_FACE_DOWN]:
            _turn_up(items, card)
        if items[_HELD]:
            _release(items, card)
        i = _ZONE.get(src)
        if i is not None and src != "deck":   # list.remove keeps the super GR zone's order
            cards = list(items[i])
            cards.remove(card)
            items[i] = tuple(cards)
        elif i == _DECK and items[_DECK] and items[_DECK][0] == card and len(items[_DECK]) > items[_DECK_ADDED]:
            items[_DECK] = items[_DECK][1:]   # the top card, not one put on the bottom
        else:
            _take(items, src, card)
        j = _ZONE.get(dst)
        if j is not None and dst not in _ORDERED:
            items[j] = tuple(sorted(items[j] + (card,)))
        else:
            _put(items, dst, card)
        return _zones(items)

    def hosted(self, host: int, kind: str | None = None) -> tuple[int, ...]:
        """The cards linked to `host` (of one kind, or all)."""
        return tuple(c for c, h, k in self.links if h == host and (kind is None or k == kind))

    def unlink(self, card: int) -> Zones:
        """Forget every link from or to `card`; face-up and tapped marks go with it."""
        if card not in self.face_up and card not in self.tapped and \
                not any(card == link[0] or card == link[1] for link in self.links):
            return self   # nothing to forget: the copy would equal this record
        return replace(self, links=tuple(link for link in self.links if card not in (link[0], link[1])),
                       face_up=tuple(c for c in self.face_up if c != card),
                       tapped=tuple(c for c in self.tapped if c != card))

    def where(self, card: int) -> str | None:
        for zone in ("battle", "hand", "shields", "mana", "graveyard", "resolving", "standby", "attached", "deck",
                     "hyperspatial", "super_gr", "abyss"):
            if card in getattr(self, zone):
                return zone
        return None



_ZONE = Zones._index            # field name -> item index
_zones = maker(Zones)   # one Zones object per value (model/record.py `interned`)
_MOVED: dict[tuple[Zones, str, str, int], Zones] = {}   # (zones, from, to, card) -> the zones after that move
MOVES_KEPT = 1 << 15   # moves kept before `_MOVED` starts again
_DECK, _DECK_ADDED = _ZONE["deck"], _ZONE["deck_added"]
_FACE_DOWN, _HELD = _ZONE["face_down"], _ZONE["held"]


def _release(items: list, card: int) -> None:
    """409.1: a pending card stops pending once it moves to another zone."""
    items[_HELD] = tuple(c for c in items[_HELD] if c != card)


def _turn_up(items: list, card: int) -> None:
    """400.5: a face-down mana card (405.4) that leaves the mana zone is a new object: the mark stays behind."""
    items[_FACE_DOWN] = tuple(c for c in items[_FACE_DOWN] if c != card)
_ORDERED = ("deck", "super_gr")   # the piles whose order means something (the others are kept sorted)


def _put(items: list, zone: str, card: int) -> None:
    """Zones.add on a list of a Zones' items: unordered zones stay sorted, the deck takes the card on
    top or at the bottom (counted in `deck_added`), the super GR zone at the bottom (R118.1)."""
    if zone == "super_gr":
        items[_ZONE[zone]] += (card,)
    elif zone == "deck_top":
        items[_DECK] = (card,) + items[_DECK]
    elif zone == "deck_bottom":
        items[_DECK] = items[_DECK] + (card,)
        items[_DECK_ADDED] += 1
    else:
        i = _ZONE[zone]
        items[i] = tuple(sorted(items[i] + (card,)))


def _take(items: list, zone: str, card: int) -> None:
    """Zones.remove on a list of a Zones' items."""
    if zone == "deck":
        deck = items[_DECK]
        i = deck.index(card)
        # a card taken from the bottom part reduces the count of cards put there
        if i >= len(deck) - items[_DECK_ADDED]:
            items[_DECK_ADDED] -= 1
        items[_DECK] = deck[:i] + deck[i + 1:]
    else:
        i = _ZONE[zone]
        cards = list(items[i])
        cards.remove(card)
        items[i] = tuple(cards)


# a pending effect waits for a break (R509.3, resolved before it) or is any other triggered ability
# (model/triggers.py BEFORE_BREAK, TRIGGERED)
PendingKind = Literal["before_break", "triggered"]


@record
class Pending(Record):
    """A triggered ability waiting to resolve ("待機"), tagged with the break frame it belongs to."""

    kind: PendingKind
    frame: int         # depth of the innermost open break frame when it triggered (0: none)
    controller: str
    card: str          # pool id of the source card
    ability: str       # ability id on that card
    source: CardId     # card instance id


@record
class Delayed(Record):
    """A delayed triggered ability an effect created (R110.3b, R603.6): it waits for its event, triggers
    once and is gone. Its pattern and effect are an ability of its card (model/instructions/delayed.py)."""

    controller: str
    card: str          # pool id of the card whose effect created it
    ability: str       # the id of the delayed ability on that card
    source: int        # the card instance whose effect created it


@record
class Task(Record):
    """An effect being carried out: a program, where it is, and what it has bound so far."""

    program: tuple[Instr, ...]
    pc: int
    controller: str
    source: CardId         # the card whose ability or spell this is
    ability: str           # "Card/ability" or the spell's name, for events
    spell: CardId = -1     # the spell card being resolved, or -1
    then: str = ""         # where that spell goes afterwards: "", "deck_bottom", "graveyard"
    binds: tuple[tuple[str, Bound], ...] = ()

    def bound(self, name: str) -> int | None:
        for key, value in self.binds:
            if key == name:
                return value
        return None


@record
class Replacement(Record):
    """A replacement effect chosen for an event: whose ability, and what it needs (a target)."""

    label: str             # "Card/ability" or a static effect such as "cannot be broken"
    source: CardId = -1    # the card whose ability it is (-1: a static effect)
    card: str = ""         # pool id of that card
    ability: str = ""
    target: CardId = -1    # e.g. the other shield a castle recovers


@record
class Decl(Record):
    """A declaration made in a shield check (SC2/SC3): which ability, which card, what it discards."""

    kind: str              # S-Trigger, G-Strike, S-Back, Sabaki Z, Revolution 0
    card: CardId
    cost: CardId = -1      # the card discarded for it (S-Back, Sabaki Z)
    side: str = ""         # "spell": a twinpact's spell side is used (its S-Trigger casts it, S214)


@record
class Check(Record):
    """A shield check in progress (S004, SC1-SC5): its cards, declarations and what waits on them."""

    player: str
    cards: Sorted[CardId]             # the cards moving to the hand (standby until SC3)
    s_trigger_ok: bool = True         # False for a recovery that forbids S-Trigger (Escape)
    granted: Sorted[CardId] = ()      # given S-Trigger by the state just before standby (R113.6b)
    declared: Sorted[Decl] = ()
    arrived: tuple[CardId, ...] = ()  # moved to the hand at SC3
    castles: tuple[tuple[CardId, CardId], ...] = ()   # (shield, castle): the castle leaves after that S-Trigger
    collecting: bool = True           # a break's check still takes recovered shields (D4)
    deferred: bool = False            # Q14: inside an Escape chain, uses wait until the chain ends


@record
class Frame(Record):
    """One choice of shields to break and everything that waits for it (R603.7b nests them)."""

    by: CardId               # the creature (or spell) that breaks
    by_creature: bool
    defender: str
    chosen: Sorted[CardId]   # shields chosen; their number is fixed now (Q07)
    is_attack: bool          # the attacking creature's own break (Q10 stops the attack)
    resume: tuple[Task, ...] = ()   # the effect suspended by this break, continued afterwards
    broken: bool = False     # the break has happened; the shield check is under way
    replaced: Sorted[tuple[CardId, Replacement]] = ()   # (shield, the replacement decided for it) D2
    breaking: bool = False   # the break (D2 at the break, then D4) has begun
    to_choose: int = 0       # shields still to choose, after the before-break effects (`before_break_order`)


# where the attack is (model/attack.py PHASES says what each means): "" is the direct attack step (D0-D7)
Phase = Literal["", "declare", "attack", "tp_declare", "ntp_declare", "block", "blocked", "battle_start", "battle",
                "end_attack", "end_turn",
                "start_turn", "draw",   # the next turn's steps (model/turn.py)
                "charge", "main"]       # the charge and main steps (model/main_step.py)


@record
class State(Record):
    turn: str
    zones: tuple[Zones, Zones]
    attacker: CardId
    defender: str
    started: bool = False            # D1 has happened (or D0)
    attacker_left: bool = False      # the attacking creature left the battle zone (R509.4c)
    pending: Sorted[Pending] = ()
    frames: tuple[Frame, ...] = ()
    running: tuple[Task, ...] = ()
    checks: tuple[Check, ...] = ()   # shield checks in progress, innermost last
    queued: tuple[Decl, ...] = ()    # Q14: declarations waiting for an Escape chain to end
    cant_attack: Sorted[CardId] = ()
    spells_cast: tuple[int, int] = (0, 0)
    extra_breaks: Sorted[tuple[CardId, int]] = ()   # (creature, n): n more shields this turn (110.2e)
    breaks_left: int = 0             # before 2017-03-25: single breaks the attack still makes (S007)
    broken: Sorted[CardId] = ()      # shields broken so far
    uses: tuple[tuple[str, int], ...] = ()
    stop_attack: bool = False        # Q10: every chosen shield left before the break
    attack_stopped: bool = False
    turn_skipped: bool = False
    winner: str = ""
    over: bool = False
    # the whole attack: R506 declaration, R507 block, R508 battle, R510 end of attack, R511
    phase: Phase = ""                # "" the direct attack step; see model/attack.py PHASES
    target: CardId = -1              # the creature attacked (R506.1e), or the blocker after a block (R507)
    blocked: bool = False            # R507.2: the attack was blocked
    loser: str = ""                  # R104.2a / R509.1: the player who lost
    wins: tuple[str, ...] = ()       # R104.2c: "you win the game" effects met, decided together with
    losses: tuple[str, ...] = ()     # the losses met at the same time
    ntp_declared: bool = False       # R506.3 (A25): the non-turn player's declaration window has passed (he
                                     # declared, or his own waiting effects began to resolve: 506.3d-e)
    # the rest of the game an attack touches (model/power.py, model/touch.py)
    powers: Sorted[tuple[CardId, int]] = ()    # (creature, +/-N) "until the end of the turn" (R511.2)
    traits: Sorted[tuple[CardId, str, int | str]] = ()   # (card, kind, value): characteristics changed this turn
                                     # (model/characteristics.py TRAITS: x2, /2, a fixed power, an added race)
    granted: Sorted[tuple[CardId, str]] = ()   # (card, keyword) given until the end of the turn
    broke: Sorted[CardId] = ()       # creatures that broke a shield during this attack (Kirifu Dash)
    bonus: Sorted[CardId] = ()       # cards used with their Super S-Trigger / S-Trigger Plus bonus
    # the rest of the attack (model/attack_end.py)
    extra_turns: tuple[str, ...] = ()   # players who take another turn after this one (King Bolbalzak, A12)
    boosts: Sorted[tuple[CardId, int]] = ()    # (card, power) given "until the end of the attack" (A12c)
    guards: Sorted[CardId] = ()      # cards not to be destroyed until the end of the attack (R506.1d, S105)
    attack_effects_ended: bool = False   # 510.2: the "while attacking" effects have ended (model/attack_end.py)
    # the turn (model/turn.py), kept only when the scenario plays several attacks (505.5)
    attacks: int = 0                 # the attacks declared this turn
    entered: Sorted[CardId] = ()     # the turn player's creatures put into the battle zone this turn
    lasting: Sorted[tuple[CardId, str, str]] = ()   # (card, keyword, player): a keyword of `granted` given
                                                     # until that player's next turn begins (R500.3), sorted
    delayed: tuple[Delayed, ...] = ()    # delayed triggered abilities waiting for their event (R603.6), sorted
    fired: tuple[tuple[int, str], ...] = ()   # (card, ability) "once each turn" abilities triggered this turn, sorted
    restrictions: Sorted[tuple[CardId, str, str]] = ()   # (card, restriction, until) made by an effect
                                     # (model/restrictions.py: until "turn", "attack" or a player's next turn)
    unsealing: tuple[CardId, ...] = ()   # Commands that entered, each to remove a seal (703.4j, model/seals.py)

    def forget(self, card: int) -> State:
        """`card` left the battle zone: it is a new object, the effects that reached it end (110.2e,
        S159): its additional breaks, its power boosts and changes, the keywords given to it for the
        turn, its protection, "cannot attack" (dmwiki "パワー低下"; model/power.py)."""
        if not self._reached(card):
            return self
        return replace(self, extra_breaks=tuple(e for e in self.extra_breaks if e[0] != card),
                       boosts=tuple(b for b in self.boosts if b[0] != card),
                       guards=tuple(c for c in self.guards if c != card),
                       cant_attack=tuple(c for c in self.cant_attack if c != card),
                       powers=tuple(p for p in self.powers if p[0] != card),
                       traits=tuple(p for p in self.traits if p[0] != card),
                       granted=tuple(g for g in self.granted if g[0] != card),
                       lasting=tuple(g for g in self.lasting if g[0] != card),
                       restrictions=tuple(r for r in self.restrictions if r[0] != card))

    def _reached(self, card: int) -> bool:
        """Whether an effect that belongs to creatures (those `forget` ends and `inherit` moves) reaches
        `card`."""
        return (any(c == card for c, _ in self.extra_breaks) or any(c == card for c, _ in self.boosts)
                or card in self.guards or card in self.cant_attack
                or any(c == card for c, _ in self.powers) or any(c == card for c, _ in self.granted)
                or any(p[0] == card for p in self.traits)
                or bool(self.lasting and any(c == card for c, _, _ in self.lasting))
                or bool(self.restrictions and any(r[0] == card for r in self.restrictions)))

    def inherit(self, old: int, new: int) -> State:
        """`new` evolved onto `old`: the effects that reached `old` apply to `new` (S160, the official
        Q&A of 2021-04-16: continuous effects given to the evolution source carry over)."""
        def move(pairs):
            return tuple(sorted((new if c == old else c, n) for c, n in pairs))

        def ids(cards):
            return tuple(sorted(new if c == old else c for c in cards))
        if not self._reached(old):
            return self
        return replace(self, extra_breaks=move(self.extra_breaks), boosts=move(self.boosts),
                       guards=ids(self.guards), cant_attack=ids(self.cant_attack),
                       powers=move(self.powers), granted=move(self.granted),
                       traits=tuple(sorted((new if c == old else c, k, v) for c, k, v in self.traits)),
                       lasting=tuple(sorted((new if c == old else c, w, p) for c, w, p in self.lasting)),
                       restrictions=tuple(sorted((new if c == old else c, k, u) for c, k, u in self.restrictions)))

    def zone(self, player: str) -> Zones:
        return self.zones[0 if player == "A" else 1]

    def with_zone(self, player: str, zones: Zones) -> State:
        pair = (zones, self.zones[1]) if player == "A" else (self.zones[0], zones)
        return _with_zones(self, pair)

    def depth(self) -> int:
        """How many break frames are open and not yet broken."""
        n = 0
        for f in self.frames:
            if not f.broken:
                n += 1
        return n

    def fingerprint(self) -> str:
        """A canonical id of this state: the same under any PYTHONHASHSEED."""
        return self.digest().hex()

    def digest(self) -> bytes:
        """The fingerprint as 16 bytes: what the compact store keeps of a state."""
        return hashlib.blake2b(_encode(self).encode(), digest_size=16).digest()


def _encode(value: Any) -> str:
    # repr of tuples of ints/strs/bools is canonical; frozen records are encoded field by field:
    # Name(field,field,...), tuples as (item,item,...) without spaces. Dispatch on the exact type.
    t = type(value)
    if t is tuple:
        return "(" + ",".join([_encode(v) for v in value]) + ")"
    if t in _RECORDS:
        return t.__name__ + "(" + ",".join([_encode(v) for v in value[1:]]) + ")"
    if is_record(value):
        _RECORDS.add(t)
        return _encode(value)
    return repr(value)


_RECORDS: set[type] = set()


_with_zones = setter(State, "zones")
