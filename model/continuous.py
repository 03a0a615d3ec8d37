"""Continuous effects of static abilities (R604, R608.3): one evaluator for every zone.

A static ability is data on its card (`statics:` in a card file, `Static` below): what it changes (power, a
keyword, a restriction, the state a creature enters in), whose creatures it reaches, which of them (the
`which` filter of model/instructions/selection.py), and the zone its card must be in for it to work. The
evaluator reads the state each time it is asked, so:

- R608.3a: the effect is never fixed; it reaches whatever fits it now (a creature that arrives, that gains
  the race it names, that leaves);
- R608.3b, R604.2: it applies while its card is in its zone: the battle zone by default (R110.4c), the shield
  zone, the mana zone or the graveyard when the ability names that zone (R110.4b), a face-up shield when it
  says so (R110.3d: Shield Go creatures and castles work from the shield zone);
- R608.3c: as it is read, not stored, a creature that enters the zone it reaches has the change at once,
  before any "when it enters" trigger is looked at;
- R608.1: several effects apply together: power additions are additions of R108.2 (model/characteristics.py),
  keywords and restrictions are unions;
- R110.4f: a state-defining effect (`enters: tapped`) sets a creature's state as it enters, before anything
  triggers (model/triggers.py applies it at the `enters` event); several apply together;
- R101.2: a restriction ("cannot block") beats any permission ("gets Blocker"), from a static or an effect of
  any duration: the readers ask model/restrictions.py first, and it reads the statics here too.

A static of a creature in the battle zone does nothing while that creature's abilities are ignored (110.3d:
an ability of an ignored creature does not work). Ignoring reaches the battle zone only, so a static that
works from another zone still applies (model/touch.py `_silenced` says the same of triggers).

The effects of a resolved ability with a duration (this turn, until the end of the attack, until a player's
next turn) stay where they are (State.powers, State.granted, State.restrictions): R608.2a fixes whom they
reach as they resolve, which a static never does.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from . import keyword_table
from .counts import SCHEMA as COUNT_SCHEMA
from .counts import count
from .errors import InputError
from .instructions.selection import WHICH, fits
from .seals import sealed
from .state import other
from .yamlio import key_path, line_of

if TYPE_CHECKING:
    from .game import Game
    from .state import State

POWER: Final = "power"              # R301.3b: +N or -N power, an addition of R108.2
KEYWORD: Final = "keyword"          # R604.2: a keyword the creature has while the effect lasts
RESTRICTION: Final = "restriction"  # R101.2: cannot attack / attack players / block / be blocked
ENTERS: Final = "enters"            # R110.4f: a state-defining effect: the creature enters tapped
BREAKER: Final = "breaker"          # R509.2b-c: a breaker ability breaking N shields (a W-breaker: 2)
COST: Final = "cost"                # R112.2b, R604.3: +N or -N to the mana cost paid for cards in the hand
MANA_NUMBER: Final = "mana_number"  # R207.2: the mana number of the mana-zone cards it reaches becomes N
EXECUTE: Final = "execute_from"     # R110.4d: the cards it reaches may be executed from this zone, not only the hand
CHANGES: Final = (POWER, KEYWORD, RESTRICTION, ENTERS, BREAKER, COST, MANA_NUMBER, EXECUTE)
EXECUTABLE: Final = "executable"    # R604.3: the zone `zone:` names when a static works where its card can be executed
ZONES: Final = ("battle", "shields", "mana", "graveyard", "hand", EXECUTABLE)   # R110.4b-c; hand: R110.4b, R110.4e
ELSEWHERE: Final = ("mana",)        # the zones besides the hand an `execute_from` may open (R110.4d's example)
# the keywords a static may give: those the engine reads through `has_keyword` (an S-Trigger given to a
# shield is read by the shield check, which knows no static)
GIVABLE: Final = keyword_table.GIVABLE   # the rows `givable: true` of model/data/keywords.yaml
# a static reads no power to choose whom it reaches: its own power changes would feed back into the choice
_WHICH_PROPERTIES: dict[str, Any] = WHICH["properties"]  # type: ignore[assignment]
_WHICH_NOW = {k: v for k, v in _WHICH_PROPERTIES.items() if k not in ("power_max", "power_min")}



def schema(restrictions: tuple[str, ...]) -> dict[str, Any]:
    """The JSON schema of one `statics:` entry of a card file; `restrictions`: those model/restrictions.py
    reads (passed in: that module asks this one for the statics' restrictions)."""
    return {
        "type": "object",
        "description": "a static ability (R604): exactly one of power (+N/-N), keyword, restriction, enters "
                       "(tapped: a state-defining effect, R110.4f), breaker (N: a breaker ability, R509.2b) or "
                       "cost (+N/-N to the mana cost paid for the cards it reaches in a hand, R112.2b; "
                       "`zone: hand` with `target: self` for a card's own, R110.4e) or mana_number (N: the mana "
                       "number of the mana-zone cards it reaches, R207.2) or execute_from (mana: the cards it "
                       "reaches, lying in their owner's mana zone, may be executed from there, so their Ninja Strike "
                       "is used from there, R110.4d); whose "
                       "creatures it reaches (own, opponent, any: the card owner's point of view), target (all, "
                       "self, others), which (the filter of `which`, power excepted), zone (where the card must be: "
                       "battle by default, shields, mana, graveyard, hand; R110.4b-c, R110.4e; executable: "
                       "wherever its own card can be executed from, the hand or a zone an execute_from opens to "
                       "it, R604.3), face_up (in the shield zone, only while the card lies face up) and for_each "
                       "(with power: the amount times a count, taken whenever the power is read, R608.3a)",
        "properties": {
            POWER: {"type": "integer", "minimum": -1_000_000_000, "maximum": 1_000_000_000},
            KEYWORD: {"enum": list(GIVABLE)},
            RESTRICTION: {"enum": list(restrictions)},
            ENTERS: {"enum": ["tapped"]},
            BREAKER: {"type": "integer", "minimum": 2, "maximum": 100},
            COST: {"type": "integer", "minimum": -100, "maximum": 100},
            MANA_NUMBER: {"type": "integer", "minimum": 0, "maximum": 100},
            EXECUTE: {"enum": list(ELSEWHERE)},
            "whose": {"enum": ["own", "opponent", "any"]},
            "target": {"enum": ["all", "self", "others"]},
            "which": {**WHICH, "properties": _WHICH_NOW},
            "zone": {"enum": list(ZONES)},
            "face_up": {"type": "boolean"},
            "for_each": COUNT_SCHEMA,
        },
        "oneOf": [{"required": [c]} for c in CHANGES],
        "additionalProperties": False,
    }


@dataclass(frozen=True, slots=True)
class Static:
    """One static ability of a card: the continuous effect it makes while the card is in `zone`."""

    change: str                   # POWER, KEYWORD or RESTRICTION
    value: int | str              # the power added, the keyword given, the restriction
    whose: str = "own"            # whose creatures it reaches, from its card's owner
    target: str = "all"           # all of them, its own card only, or all but its own card
    which: tuple = ()             # the frozen `which` filter (model/instructions/selection.py)
    zone: str = "battle"          # where its card must be for it to work (R110.4b-c)
    face_up: bool = False         # in the shield zone: only while its card lies face up
    for_each: str = ""            # with POWER: the amount times this count now (model/counts.py), R608.3a


def read(raw: dict[str, Any]) -> Static:
    """A checked `statics:` entry of a card file as a Static."""
    change = next(c for c in CHANGES if c in raw)
    which = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in (raw.get("which") or {}).items()))
    return Static(change=change, value=raw[change], whose=str(raw.get("whose", "own")),
                  target=str(raw.get("target", "all")), which=which, zone=str(raw.get("zone", "battle")),
                  face_up=bool(raw.get("face_up", False)), for_each=str(raw.get("for_each", "")))


def check(card: Any, root: Any, here: tuple, file: str) -> None:
    """Refuse, at its line, an `execute_from` with `zone: executable`: where its card can be executed from would
    depend on the permission itself (R110.4d's permissions name where they work, or work from the battle zone)."""
    for j, st in enumerate(card.statics):
        if st.change == EXECUTE and st.zone == EXECUTABLE:
            where = here + ("statics", j, "zone")
            raise InputError(file, line_of(root, where), key_path(where),
                             f"an {EXECUTE} static cannot work from where its own card can be executed "
                             f"(`zone: {EXECUTABLE}`, R604.3): that zone depends on such statics; expected one of "
                             f"{', '.join(z for z in ZONES if z != EXECUTABLE)} (R110.4b-d)")


def as_data(st: Static) -> dict[str, Any]:
    """A static as a card file writes it (`read` gives it back)."""
    out: dict[str, Any] = {st.change: st.value}
    for key, value, default in (("whose", st.whose, "own"), ("target", st.target, "all"), ("zone", st.zone, "battle"),
                                ("face_up", st.face_up, False), ("for_each", st.for_each, "")):
        if value != default:
            out[key] = value
    if st.which:
        out["which"] = {k: list(v) if isinstance(v, tuple) else v for k, v in st.which}
    return out


def sources(m: Game) -> tuple[tuple[int, Static], ...]:
    """(card, static) for every static ability of every card of the scenario: what may ever apply."""
    return tuple((inst.id, st) for inst in m.instances for st in m.pool[inst.card].statics)


def works(m: Game, s: State, src: int, st: Static) -> bool:
    """R608.3b: whether the static of card `src` works now: its card is in its zone (face up if it says so);
    in the battle zone, while its abilities are not ignored."""
    z = s.zone(m.owner(src))
    if st.zone == "battle":
        return src in z.battle and m.abilities_work(s, src)
    if st.zone == "shields":
        return src in z.shields and (not st.face_up or src in z.face_up)
    if st.zone == EXECUTABLE:
        return bool(execution_zone(m, s, src))
    return src in getattr(z, st.zone)


def execution_zone(m: Game, s: State, cid: int) -> str:
    """R110.4d, R604.3: the zone card `cid` can be executed from now, "" when none: its owner's hand (the
    default, 110.4d), or a zone an `execute_from` static in force opens to it while it lies there
    (`m.elsewhere`, read once per model: without such a static only the hand is looked at)."""
    z = s.zone(m.owner(cid))
    if cid in z.hand:
        return "hand"
    for zone in m.elsewhere:
        if cid in getattr(z, zone) and any(st.change == EXECUTE and st.value == zone and works(m, s, src, st)
                                           and _reaches_in(m, s, src, st, cid, zone) for src, st in m.statics):
            return zone
    return ""


def reaches(m: Game, s: State, src: int, st: Static, cid: int) -> bool:
    """Whether the static of `src` reaches creature `cid` now (R608.3a: whatever fits it now). It reaches
    creatures in the battle zone only."""
    if st.target == "self":
        return cid == src
    if st.target == "others" and cid == src:
        return False
    owner = m.owner(src)
    player = m.owner(cid)
    if st.whose != "any" and player != (owner if st.whose == "own" else other(owner)):
        return False
    if cid not in s.zone(player).battle or m.card(cid).type != "creature":
        return False
    if m.sealing and sealed(m, s, cid):
        return False   # 116.2a: a sealed creature is as if it were not in the battle zone
    return fits(m, s, cid, st.which)


def cost_change(m: Game, s: State, cid: int) -> int:
    """R112.2b, R601.1e: what the statics in force add to the mana cost paid for card `cid` of a hand (R604.3:
    a cost change applies to the cards in the zone they are executed from; R110.4e: a card's own works while
    it is there). The printed cost (R201.2a) is what everything else reads."""
    total = 0
    for src, st in m.statics:
        if st.change == COST and works(m, s, src, st) and _reaches_in(m, s, src, st, cid, "hand"):
            total += int(st.value)
    return total


def mana_number(m: Game, s: State, cid: int) -> int:
    """R207.1, R207.2: the mana card `cid` makes when tapped: its printed mana number, or the number a static in
    force sets it to (several: the greatest, none of them lowering what another grants)."""
    printed = m.card(cid).mana
    if not m.statics:
        return printed
    set_to = [int(st.value) for src, st in m.statics
              if st.change == MANA_NUMBER and works(m, s, src, st) and _reaches_in(m, s, src, st, cid, "mana")]
    return max(set_to) if set_to else printed


def _reaches_in(m: Game, s: State, src: int, st: Static, cid: int, zone: str) -> bool:
    """Whether a change of `src` that works on cards of a zone other than the battle zone (a cost change on the
    hand, a mana-number change on the mana zone) reaches card `cid`, lying in its owner's `zone`."""
    if st.target == "self":
        return cid == src
    if st.target == "others" and cid == src:
        return False
    owner, player = m.owner(src), m.owner(cid)
    if st.whose != "any" and player != (owner if st.whose == "own" else other(owner)):
        return False
    return cid in getattr(s.zone(player), zone) and fits(m, s, cid, st.which)


def values(m: Game, s: State, cid: int, change: str) -> Iterator[int | str]:
    """The value of each static effect of kind `change` that applies to `cid` now (R608.1: all together)."""
    for src, st in m.statics:
        if st.change == change and reaches(m, s, src, st, cid) and works(m, s, src, st):
            yield st.value


def power_changes(m: Game, s: State, cid: int) -> tuple[int, ...]:
    """The power the statics in force add to `cid` (R301.3b), each an addition of R108.2; one with `for_each`
    counts now, every time it is read (R608.3a: never fixed)."""
    found = []
    for src, st in m.statics:
        if st.change == POWER and reaches(m, s, src, st, cid) and works(m, s, src, st):
            n = int(st.value)
            found.append(n * count(m, s, m.owner(src), st.for_each) if st.for_each else n)
    return tuple(found)


def gives(m: Game, s: State, cid: int, word: str) -> int:
    """How many statics in force give `cid` the keyword `word` (110.2c: each is a copy of its own)."""
    return sum(1 for v in values(m, s, cid, KEYWORD) if v == word) if m.statics else 0


def keywords_of(m: Game, s: State, cid: int) -> frozenset[str]:
    """The keywords the statics in force give `cid` now (R608.3c: a creature entering has them already)."""
    return frozenset(str(v) for v in values(m, s, cid, KEYWORD)) if m.statics else frozenset()


def enters_tapped(m: Game, s: State, cid: int) -> bool:
    """R110.4f: whether a state-defining effect of a static in force puts `cid`, entering now, tapped (several
    all apply; with one, it is tapped)."""
    return bool(m.statics) and any(v == "tapped" for v in values(m, s, cid, ENTERS))


def restricts(m: Game, s: State, cid: int, what: str) -> bool:
    """Whether a static in force puts restriction `what` on `cid` (R101.2: it beats any permission)."""
    return bool(m.statics) and any(v == what for v in values(m, s, cid, RESTRICTION))


def lowers(m: Game) -> bool:
    """Whether a static of the scenario can lower a power (the power-0 check must watch, R703.4c)."""
    return any(st.change == POWER and int(st.value) < 0 for _, st in m.statics)
