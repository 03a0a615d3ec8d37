"""The immutable, hashable state of a direct attack step.

Only tuples, ints, strings, bools and nested frozen records: two states that are equal compare and
hash equal, and `fingerprint` gives the same id under any PYTHONHASHSEED. Cards are referred to by
instance id (an int); what a card is (name, owner, label) is static and lives in the model's table.
Unordered zones are kept sorted so that the order in which cards arrived does not split states.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, fields

_REPLACERS: dict[type, Any] = {}


def replace(obj, **changes):
    """A copy of a frozen record with some fields changed: `dataclasses.replace` without the
    generic machinery, which was the explorer's largest cost. The records here have no
    __post_init__ and no init=False fields, so copying field by field is the same thing. Each
    record type gets its own copier, generated once (straight-line code, no loop over names).
    As before, a name that is not a field is ignored."""
    copier = _REPLACERS.get(type(obj))
    if copier is None:
        copier = _REPLACERS[type(obj)] = _make_replacer(type(obj))
    return copier(obj, changes)


def _make_replacer(cls):
    """`copy(obj, changes)` for one record type as straight-line code that sets each slot through
    its own descriptor (about twice as fast as a loop of object.__setattr__)."""
    names = [f.name for f in fields(cls)]
    lines = ["def copy(obj, changes):",
             "    new = new_(cls)"]
    scope: dict = {"new_": object.__new__, "cls": cls}
    for i, name in enumerate(names):
        scope[f"set_{i}"] = cls.__dict__[name].__set__   # the slot's member descriptor
        lines.append(f"    set_{i}(new, changes[{name!r}] if {name!r} in changes else obj.{name})")
    lines.append("    return new")
    exec("\n".join(lines), scope)
    return scope["copy"]


_SETTERS: dict[tuple[type, str], Any] = {}


def setter(cls, field: str):
    """`copy(obj, value)`: a copy of a `cls` record with one field set, as straight-line code (what
    the hottest replaces of the procedure use: the running stack, a task's pc, the zones)."""
    found = _SETTERS.get((cls, field))
    if found is None:
        names = [f.name for f in fields(cls)]
        if field not in names:
            raise TypeError(f"{cls.__name__} has no field {field!r}")
        lines = ["def copy(obj, value):", "    new = new_(cls)"]
        scope: dict = {"new_": object.__new__, "cls": cls}
        for i, name in enumerate(names):
            scope[f"set_{i}"] = cls.__dict__[name].__set__
            lines.append(f"    set_{i}(new, {'value' if name == field else 'obj.' + name})")
        lines.append("    return new")
        exec("\n".join(lines), scope)
        found = _SETTERS[cls, field] = scope["copy"]
    return found


from typing import Any

from .instr import Instr

PLAYERS = ("A", "B")


def other(player: str) -> str:
    return "B" if player == "A" else "A"


def pindex(player: str) -> int:
    return 0 if player == "A" else 1


@dataclass(frozen=True, slots=True)
class Zones:
    """One player's zones. `deck` is top first; `deck_added` counts cards put on its bottom."""

    deck: tuple[int, ...] = ()
    hand: tuple[int, ...] = ()
    mana: tuple[int, ...] = ()
    shields: tuple[int, ...] = ()
    battle: tuple[int, ...] = ()
    graveyard: tuple[int, ...] = ()
    resolving: tuple[int, ...] = ()   # spells being cast (on their way to resolution)
    standby: tuple[int, ...] = ()     # shields on their way to the hand: in the zone, not counted (R113.6a)
    attached: tuple[int, ...] = ()    # auras, seals, evolution sources (battle zone) and castles (shield zone)
    links: tuple[tuple[int, int, str], ...] = ()   # (card, host, kind): aura, seal, under, castle, ex_life
    face_up: tuple[int, ...] = ()     # shields lying face up
    tapped: tuple[int, ...] = ()
    deck_added: int = 0

    UNORDERED = ("hand", "mana", "shields", "battle", "graveyard", "resolving", "standby", "attached")

    def add(self, zone: str, card: int) -> "Zones":
        if zone == "deck_top":
            return replace(self, deck=(card,) + self.deck)
        if zone == "deck_bottom":
            return replace(self, deck=self.deck + (card,), deck_added=self.deck_added + 1)
        return replace(self, **{zone: tuple(sorted(getattr(self, zone) + (card,)))})

    def remove(self, zone: str, card: int) -> "Zones":
        if zone == "deck":
            i = self.deck.index(card)
            deck = self.deck[:i] + self.deck[i + 1:]
            # a card taken from the bottom part reduces the count of cards put there
            added = self.deck_added - (1 if i >= len(self.deck) - self.deck_added else 0)
            return replace(self, deck=deck, deck_added=added)
        cards = list(getattr(self, zone))
        cards.remove(card)
        return replace(self, **{zone: tuple(cards)})

    def hosted(self, host: int, kind: str | None = None) -> tuple[int, ...]:
        """The cards linked to `host` (of one kind, or all)."""
        return tuple(c for c, h, k in self.links if h == host and (kind is None or k == kind))

    def host_of(self, card: int) -> tuple[int, str] | None:
        for c, h, k in self.links:
            if c == card:
                return h, k
        return None

    def unlink(self, card: int) -> "Zones":
        """Forget every link from or to `card`; face-up and tapped marks go with it."""
        return replace(self, links=tuple(l for l in self.links if card not in (l[0], l[1])),
                       face_up=tuple(c for c in self.face_up if c != card),
                       tapped=tuple(c for c in self.tapped if c != card))

    def where(self, card: int) -> str | None:
        for zone in ("battle", "hand", "shields", "mana", "graveyard", "resolving", "standby", "attached", "deck"):
            if card in getattr(self, zone):
                return zone
        return None


@dataclass(frozen=True, slots=True, order=True)
class Pending:
    """A triggered ability waiting to resolve ("待機"), tagged with the break frame it belongs to."""

    kind: str          # "before_break" or "triggered"
    frame: int         # depth of the innermost open break frame when it triggered (0: none)
    controller: str
    card: str          # pool id of the source card
    ability: str       # ability id on that card
    source: int        # card instance id


@dataclass(frozen=True, slots=True)
class Task:
    """An effect being carried out: a program, where it is, and what it has bound so far."""

    program: tuple[Instr, ...]
    pc: int
    controller: str
    source: int            # the card whose ability or spell this is
    ability: str           # "Card/ability" or the spell's name, for events
    spell: int = -1        # the spell card being resolved, or -1
    then: str = ""         # where that spell goes afterwards: "", "deck_bottom", "graveyard"
    binds: tuple[tuple[str, int], ...] = ()

    def bound(self, name: str) -> int | None:
        for key, value in self.binds:
            if key == name:
                return value
        return None


@dataclass(frozen=True, slots=True, order=True)
class Replacement:
    """A replacement effect chosen for an event: whose ability, and what it needs (a target)."""

    label: str             # "Card/ability" or a static effect such as "cannot be broken"
    source: int = -1       # the card whose ability it is (-1: a static effect)
    card: str = ""         # pool id of that card
    ability: str = ""
    target: int = -1       # e.g. the other shield a castle recovers


@dataclass(frozen=True, slots=True, order=True)
class Decl:
    """A declaration made in a shield check (SC2/SC3): which ability, which card, what it discards."""

    kind: str              # S-Trigger, G-Strike, S-Back, Sabaki Z, Revolution 0
    card: int
    cost: int = -1         # the card discarded for it (S-Back, Sabaki Z)


@dataclass(frozen=True, slots=True)
class Check:
    """A shield check in progress (S004, SC1-SC5): its cards, declarations and what waits on them."""

    player: str
    cards: tuple[int, ...]            # the cards moving to the hand (standby until SC3)
    s_trigger_ok: bool = True         # False for a recovery that forbids S-Trigger (Escape)
    granted: tuple[int, ...] = ()     # given S-Trigger by the state just before standby (R113.6b)
    declared: tuple[Decl, ...] = ()
    arrived: tuple[int, ...] = ()     # moved to the hand at SC3
    castles: tuple[tuple[int, int], ...] = ()   # (shield, castle): the castle leaves after that S-Trigger
    collecting: bool = True           # a break's check still takes recovered shields (D4)
    deferred: bool = False            # Q14: inside an Escape chain, uses wait until the chain ends


@dataclass(frozen=True, slots=True)
class Frame:
    """One choice of shields to break and everything that waits for it (R603.7b nests them)."""

    by: int                  # the creature (or spell) that breaks
    by_creature: bool
    defender: str
    chosen: tuple[int, ...]  # shields chosen; their number is fixed now (Q07)
    is_attack: bool          # the attacking creature's own break (Q10 stops the attack)
    resume: tuple[Task, ...] = ()   # the effect suspended by this break, continued afterwards
    broken: bool = False     # the break has happened; the shield check is under way
    replaced: tuple[tuple[int, Replacement], ...] = ()   # (shield, the replacement decided for it) D2
    breaking: bool = False   # the break (D2 at the break, then D4) has begun


@dataclass(frozen=True, slots=True)
class State:
    turn: str
    zones: tuple[Zones, Zones]
    attacker: int
    defender: str
    started: bool = False            # D1 has happened (or D0)
    attacker_left: bool = False      # the attacking creature left the battle zone (R509.4c)
    pending: tuple[Pending, ...] = ()
    frames: tuple[Frame, ...] = ()
    running: tuple[Task, ...] = ()
    checks: tuple[Check, ...] = ()   # shield checks in progress, innermost last
    queued: tuple[Decl, ...] = ()    # Q14: declarations waiting for an Escape chain to end
    cant_attack: tuple[int, ...] = ()
    spells_cast: tuple[int, int] = (0, 0)
    extra_breaks: tuple[int, int] = (0, 0)
    breaks_left: int = 0             # before 2017-03-25: single breaks the attack still makes (S007)
    broken: tuple[int, ...] = ()     # shields broken so far (sorted)
    uses: tuple[tuple[str, int], ...] = ()
    stop_attack: bool = False        # Q10: every chosen shield left before the break
    attack_stopped: bool = False
    turn_skipped: bool = False
    winner: str = ""
    over: bool = False
    # the whole attack (issue 10): R506 declaration, R507 block, R508 battle, R510 end of attack, R511
    phase: str = ""                  # "" the direct attack step as before; see procedure.PHASES
    target: int = -1                 # the creature attacked (R506.1e), or the blocker after a block (R507)
    blocked: bool = False            # R507.2: the attack was blocked
    loser: str = ""                  # R104.2a / R509.1: the player who lost
    wins: tuple[str, ...] = ()       # R104.2c: "you win the game" effects met, decided together with
    losses: tuple[str, ...] = ()     # the losses met at the same time
    ntp_declared: bool = False       # R506.3 (A25): the non-turn player's hidden-zone declarations are made
    # the rest of the attack (brief "afterattack"; model/attack_end.py)
    extra_turns: tuple[str, ...] = ()   # players who take another turn after this one (King Bolbalzak, A12)
    boosts: tuple[tuple[int, int], ...] = ()   # (card, power) given "until the end of the attack" (A12c), sorted
    guards: tuple[int, ...] = ()     # cards that cannot be destroyed until the end of the attack (R506.1d, S105), sorted

    def zone(self, player: str) -> Zones:
        return self.zones[0 if player == "A" else 1]

    def with_zone(self, player: str, zones: Zones) -> "State":
        pair = (zones, self.zones[1]) if player == "A" else (self.zones[0], zones)
        return _with_zones(self, pair)

    def depth(self) -> int:
        """How many break frames are open and not yet broken."""
        if not self.frames:
            return 0
        return sum(1 for f in self.frames if not f.broken)

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
    names = _RECORD_FIELDS.get(t)
    if names is None:
        if not hasattr(value, "__dataclass_fields__"):
            return repr(value)
        names = _RECORD_FIELDS[t] = tuple(value.__dataclass_fields__)
    return t.__name__ + "(" + ",".join([_encode(getattr(value, f)) for f in names]) + ")"


_RECORD_FIELDS: dict[type, tuple[str, ...]] = {}


_with_zones = setter(State, "zones")
