"""Which cards an effect may choose: the `which` filter on the characteristics (rules 106, 201-206).

"One of your opponent's Dragons", "a multicolored creature", "a creature of cost 4 or less", "a creature with
power 3000 or less", "a creature with Rupia in its name": every card word that chooses or reaches creatures
(`destroy`, `return_to_hand`, `to_mana`, `tap`, `cant_attack`, `power`, `add_characteristic`, `untap`,
`grant`, `ignore`, `battle`), and the deck's `look_top` and `search_deck`, takes `which:`, a mapping whose
entries must all hold. The characteristics are read as the rules read them (model/characteristics.py): a
race by its whole words (203.2), a name by its whole words (202.3), the printed cost (201.2, 201.2a; a
twinpact's two, 201.2b and 810.3a), the power now with a negative power read as 0 (108.1b).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..characteristics import (
    CIVILIZATION,
    CIVILIZATIONS,
    COLOURS,
    INFINITY,
    RACE,
    colour,
    contains_words,
    has_race,
)
from ..gods import creature, names
from ..piles import top_of

if TYPE_CHECKING:
    from ..game import Game
    from ..state import State

# model/cards.py FORBIDDEN_PULSE, CEREMONY, NEBULA (the card loader imports this module): the cards read as
# either face outside the battle zone (809.2 forbidden, 812.2 Zero Dragon)
EITHER_FACE = frozenset({"forbidden_pulse", "ceremony", "nebula"})
_NAMES = {"description": "a name or a list of names", "anyOf": [{"type": "string", "minLength": 1},
                    {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1, "maxItems": 50}]}
_CIV = {"enum": [*CIVILIZATIONS, "chosen"]}   # `chosen`: the civilization a `choose` picked (106.3)
_POWER = {"type": "integer", "minimum": 0, "maximum": 1_000_000_000}   # as a card's power and cost (docs/limits.md)
_COST = {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 1000},
                   {"const": "chosen", "description": "the number a `choose` picked (108.1a)"}]}
WHICH = {
    "type": "object", "minProperties": 1, "additionalProperties": False,
    "description": "only creatures with all of: race (a race or a list, any of them: whole words, 203.2), "
                   "civilization (one of the five or a list, any of them, 106.1), color (colorless, mono, "
                   "multicolored, 106.2), name (a part of the name, whole words, 202.3), name_is (the whole name, "
                   "202.3a), cost_max / cost_min (printed cost, 201.2), soul (a soul icon such as 魂・ソウル, one from "
                   "超魂X under it too, 818.1c), power_max / power_min (power now, below 0 read as 0, 108.1b)",
    "properties": {
        "race": _NAMES,
        "civilization": {"description": f"one of {', '.join(CIVILIZATIONS)}, or a list of them",
                         "anyOf": [_CIV, {"type": "array", "items": _CIV, "minItems": 1}]},
        "color": {"enum": list(COLOURS)},
        "name": {"type": "string", "minLength": 1},
        "name_is": {"type": "string", "minLength": 1},
        "soul": {"type": "string", "minLength": 1},
        "cost_max": _COST, "cost_min": _COST, "power_max": _POWER, "power_min": _POWER,
    },
}


def _listed(value: Any) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def civilizations(m: Game, s: State, cid: int) -> tuple[str, ...]:
    """A card's civilizations now: its own and those effects added this turn (R106.4), in the rules' order.
    R806.1f, R808.1e: a cell of a super creature (a psychic or dragheart cell lying under it) has the super
    creature's civilizations."""
    top = top_of(s.zone(m.owner(cid)), cid) if m.card(cid).cell else cid
    own = creature(m, s, top).civs()   # 804.1b: a linked God's are every card's
    added = {v for c, k, v in s.traits if c == cid and k == CIVILIZATION}
    return tuple(c for c in CIVILIZATIONS if c in own or c in added) if added else own


def races(m: Game, s: State, cid: int) -> tuple[str, ...]:
    """A card's races now: its own and those effects added this turn (R203.3)."""
    return creature(m, s, cid).race_names() + tuple(str(v) for c, k, v in s.traits if c == cid and k == RACE)


def costs(m: Game, s: State, cid: int, kind: str = "any") -> tuple[int, ...]:
    """The costs an effect may read of a card: its cost; a twinpact outside the battle zone has two and the
    player reading them may use either (R201.2b), unless the effect asks for one card type, whose side alone
    counts (R810.3a); in the battle zone it is its creature side."""
    card = m.card(cid)
    side = card.spell_side
    if side is None or kind == "creature" or cid in s.zone(m.owner(cid)).battle:
        return (card.cost,)
    return (side.cost,) if kind == "spell" else (card.cost, side.cost)


def card_names(m: Game, s: State, cid: int) -> tuple[str, ...]:
    """The names an effect reads of a card (English and Japanese): its own and those its text adds (202.4); a
    linked God's every card's (202.5); a
    twinpact outside the battle zone has ONE name, its two sides' joined (810.4: `creature/spell`, as printed),
    in the battle zone, where it is a creature, its creature side's alone."""
    card = m.card(cid)
    side = card.spell_side
    if side is None or cid in s.zone(m.owner(cid)).battle:
        return names(m, s, cid) + card.also_named   # 202.4: a name its text adds, besides its own
    return tuple(joined_name(a, b) for a, b in ((card.name, side.name), (card.ja, side.ja)) if a and b)


def joined_name(creature_side: str, spell_side: str) -> str:
    """810.4: a twinpact's name outside the battle zone, its two sides' names joined."""
    return f"{creature_side}/{spell_side}"


def fits(m: Game, s: State, cid: int, which: Any, kind: str = "any") -> bool:
    """Whether card `cid` has every characteristic `which` asks for (`which`: the instruction's frozen
    mapping, (key, value) pairs; None or empty: any card). `kind`: the card type the effect asks for.
    R809.2: a forbidden card outside the battle zone may be read as either face, so it fits if either does."""
    if not which:
        return True
    want = dict(which)
    if either_face(m, s, cid):
        return _fits(m, s, cid, want, kind) or _fits(m, s, m.faces[cid], want, kind)
    return _fits(m, s, cid, want, kind)   # 200.3c: the instance in a zone is the face up, the one read


def blank_fits(which: Any) -> bool:
    """R200.3b: a card whose characteristics cannot be seen (a seal) is read, when an effect chooses it as a card,
    as a card of cost 0 with nothing else: it fits only a `which` asking for a cost range holding 0, or for no
    civilization (`color: colorless`, 106.2c); a race, a civilization, a name, a soul or a power it lacks."""
    if not which:
        return True
    want = dict(which)
    if any(k not in ("cost_max", "cost_min", "color") for k in want) or want.get("color", "colorless") != "colorless":
        return False
    low, high = want.get("cost_min", 0), want.get("cost_max", INFINITY)
    return isinstance(low, int) and isinstance(high, int) and low <= 0 <= high


def either_face(m: Game, s: State, cid: int) -> bool:
    """R809.2, R812.2: a forbidden card (a pulse and its forbidden creature) or a Zero Dragon card (a ceremony or
    nebula and its part of Zero Dragon) in a zone other than the battle zone may be read as either of its faces;
    in the battle zone only the face up is (805.3's reading, the instance there)."""
    face = m.faces.get(cid)
    if face is None or not EITHER_FACE & {m.card(cid).type, m.card(face).type}:
        return False
    return cid not in s.zone(m.owner(cid)).battle


def _fits(m: Game, s: State, cid: int, want: dict, kind: str) -> bool:
    """`fits` on one face."""
    if "race" in want and not any(has_race(races(m, s, cid), r) for r in _listed(want["race"])):
        return False
    if "civilization" in want and not set(_listed(want["civilization"])) & set(civilizations(m, s, cid)):
        return False
    if "color" in want and colour(civilizations(m, s, cid)) != want["color"]:
        return False
    if "name" in want and not any(contains_words(n, want["name"]) for n in card_names(m, s, cid)):   # 202.5
        return False
    if "name_is" in want and want["name_is"] not in card_names(m, s, cid):   # 202.3a: the whole name, exactly
        return False
    if "soul" in want and want["soul"] not in creature(m, s, cid).souls:   # a soul icon, 818.1c: given from under
        return False
    if "cost_max" in want or "cost_min" in want:   # one cost must meet both (R201.2b: the one read)
        low, high = want.get("cost_min", 0), want.get("cost_max", INFINITY)
        if not isinstance(low, int) or not isinstance(high, int):   # a `chosen` no `choose` before it set
            return False
        if not any(low <= c <= high for c in costs(m, s, cid, kind)):
            return False
    if "power_max" in want or "power_min" in want:
        power = m.power(s, cid)   # R108.1b: read as 0 below 0; outside the battle zone the printed power
        if not want.get("power_min", 0) <= power <= want.get("power_max", INFINITY):
            return False
    return True
