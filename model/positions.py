"""The positions a game can be in: one registry of checks over a state, each citing its rule.

A scenario's initial position must be one a game can reach (issue 34). Each check reads a `State` and
the card table (what each card instance is and whose it is) and says what is wrong, card by card,
with the Ver.1.48 rule it breaks. A check is of one of two kinds:

- `unreachable`: no game reaches such a position (an evolution creature with nothing under it, 801.1a).
  The scenario loader refuses it at the line of the card's entry; the property `position-reachable`
  (properties/builtin.py) asks that no explored state has one.
- `repaired`: the rules themselves put it right at once, and the model does the same to the initial
  position (`repaired`, called by model/procedure.py) rather than the loader refusing it: a spell or a
  castle alone in the battle zone goes to the graveyard (302.3, 703.4i), a weapon alone to the hyperspatial
  zone (117.2); a player with two S-MAX evolution creatures keeps one, his choice, before the attack is
  declared (815.1a).

The loader's part (`refuse`) maps each card instance back to its entry in the file: the instances
are numbered as model/table.py's CardTable numbers them (player A then B; in each, the zones in
ZONE_KEYS order, then the cards lying on or under others in the order of the entries).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from . import gods, kings
from .errors import InputError, raise_all
from .homes import ALONE, HOME_OF_ZONE, HOMES, home_of
from .instructions import piles as pile_words
from .piles import STACKED, under
from .scenario import ZONE_KEYS, PlayerSetup
from .state import PLAYERS, State, Zones, replace
from .vocabulary import SMAX

Kind = Literal["unreachable", "repaired"]
# marks on an entry that are no card (model/table.py MARKS, face_up): they get no instance id
_MARKS = ("tapped", "summoned", "power", "face_up", "hyper_mode")
# the kinds of linked card whose host is a shield (the others lie on a card of the battle zone)
_ON_SHIELD = ("castle", STACKED)


@dataclass(frozen=True, slots=True)
class Problem:
    """One card at fault in a position: the rule, what is wrong, and the part of its entry to point at
    (`card`: the entry's card when the entry is a mapping)."""

    check: str
    rule: str
    card: int
    text: str
    key: str = ""


@dataclass(frozen=True, slots=True)
class PositionCheck:
    """One rule on what a position may hold: what finds its problems, and how the rules put them right."""

    name: str
    rules: tuple[str, ...]
    kind: Kind
    find: Callable[[State, Any], Iterator[Problem]]
    fix: Callable[[State, Any, Problem], State] | None = None   # the rules' repair (kind `repaired`)


CHECKS: list[PositionCheck] = []


def check(name: str, rules: tuple[str, ...], kind: Kind = "unreachable",
          fix: Callable[[State, Any, Problem], State] | None = None) -> Callable:
    """Register a check: `find(state, cards)` yields its problems (cards: a CardTable or the model)."""
    def register(find: Callable[[State, Any], Iterator[Problem]]) -> Callable[[State, Any], Iterator[Problem]]:
        CHECKS.append(PositionCheck(name, rules, kind, find, fix))
        return find
    return register


def problems(s: State, cards: Any, kind: Kind = "unreachable") -> tuple[Problem, ...]:
    """Every problem of the position of one kind (by default what makes `s` a position no game reaches:
    what the loader refuses, and what the property `position-reachable` wants none of)."""
    return tuple(p for c in CHECKS if c.kind == kind for p in c.find(s, cards))


def repaired(s: State, cards: Any) -> State:
    """The initial position once the rules' own repairs are made (703.4i, 815.1a)."""
    for c in CHECKS:
        if c.fix is not None:
            for p in tuple(c.find(s, cards)):
                s = c.fix(s, cards, p)
    return s


def _creature(cdef: Any) -> bool:
    return cdef.type in ("creature", "twinpact")   # a twinpact in the battle zone is its creature side (810.4)


def _article(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word.replace("_", " ")


# ---- where each card is ---------------------------------------------------------------------------
# each player's own zones (400.1)
_OWN_ZONES = ("hand", "mana", "graveyard", "deck", "shields", "hyperspatial", "super_gr", "abyss")
_ALL_ZONES = ("battle", "hand", "mana", "graveyard", "deck", "shields", "resolving", "standby", "attached",
              "hyperspatial", "super_gr", "abyss")


@check("one_place", ("400.1",))
def one_place(s: State, cards: Any) -> Iterator[Problem]:
    """400.1: every card is in exactly one zone, and a zone other than the battle zone is its owner's."""
    seen: dict[int, int] = {}
    for player in PLAYERS:
        z = s.zone(player)
        for zone in _ALL_ZONES:
            for c in getattr(z, zone):
                seen[c] = seen.get(c, 0) + 1
                if zone in _OWN_ZONES and 0 <= c < len(cards.instances) and cards.owner(c) != player:
                    yield Problem("one_place", "400.1", c, f"{cards.label(c)} is in {player}'s {zone}; expected its "
                                                           f"owner's ({cards.owner(c)})")
    faces = getattr(cards, "faces", {})   # 805.1: a double-sided card is one of its two faces (model/table.py)
    for c in range(len(cards.instances)):
        face = faces.get(c, c)
        if face < c:
            continue   # counted with its other face
        n = seen.get(c, 0) + (seen.get(face, 0) if face != c else 0)
        if n != 1:
            yield Problem("one_place", "400.1", c, f"{cards.label(c)} is in {n} places; expected one")


@check("battle_zone_types", ("403.1", "302.3", "310.5", "703.4i"), kind="repaired",
       fix=lambda s, cards, p: _to_graveyard(s, cards, p.card))
def battle_zone_types(s: State, cards: Any) -> Iterator[Problem]:
    """403.1: a spell or a castle is never in the battle zone (302.3), nor an aura lying on nothing (310.5);
    the rules put such a card into its owner's graveyard at once (703.4i)."""
    for player in PLAYERS:
        for c in s.zone(player).battle:
            kind = cards.card(c).type
            if kind in ("spell", "castle", "aura"):
                alone = " lying on no creature" if kind == "aura" else ""
                yield Problem("battle_zone_types", "703.4i", c, f"{cards.label(c)} is {_article(kind)}{alone} in the "
                                                               f"battle zone; the rules put it into the graveyard")


@check("one_d2_field", ("703.4l",))
def one_d2_field(s: State, cards: Any) -> Iterator[Problem]:
    """703.4l: when a D2 field enters the battle zone, the D2 field there before goes to its owner's
    graveyard, so no game has two D2 fields in the battle zone (of one player or of both)."""
    found = [c for p in PLAYERS for c in s.zone(p).battle if cards.card(c).type == "field" and cards.card(c).d2]
    for c in found[1:]:
        yield Problem("one_d2_field", "703.4l", c, f"{cards.label(c)} is a second D2 field in the battle zone "
                                                   f"(with {cards.label(found[0])}); expected one: the older one "
                                                   f"went to its owner's graveyard when the other entered")


def _to_graveyard(s: State, cards: Any, card: int) -> State:
    """703.4i: the card leaves the battle zone for its owner's graveyard."""
    player = next(p for p in PLAYERS if card in s.zone(p).battle)
    s = s.with_zone(player, s.zone(player).unlink(card).remove("battle", card))
    owner = cards.owner(card)
    return s.with_zone(owner, s.zone(owner).add("graveyard", card)).forget(card)


@check("home_zones", ("407.1", "805.4b", "408.1", "118.2", "811.2b"))
def home_zones(s: State, cards: Any) -> Iterator[Problem]:
    """407.1, 408.1 (118.2): the hyperspatial zone holds psychic creatures only, the super GR zone GR creatures
    only; 117.1, 805.4b, 118.1, 811.2b: such a card is in the battle zone (or under a creature there) or in
    its own zone, never anywhere else (model/homes.py). Only the kinds of card are checked: that a super GR
    zone starts with exactly twelve (408.1) is deck building, and a scenario may show fewer."""
    for player in PLAYERS:
        z = s.zone(player)
        for home in HOME_OF_ZONE.values():   # one per zone (the hyperspatial zone is several kinds' home)
            for c in getattr(z, home.zone):
                if cards.card(c).home != home.zone:
                    yield Problem("home_zones", home.holds, c,
                                  f"{cards.label(c)} is in the {_ZONE_NAME[home.zone]}; expected {_KINDS[home.zone]}")
        for zone in ("hand", "mana", "graveyard", "deck", "shields", "attached"):
            for c in getattr(z, zone):
                own = home_of(cards.card(c)) if cards.card(c).home else None
                if own is not None and not (zone == "attached" and _on_a_creature(z, c)):
                    yield Problem("home_zones", own.returns, c,
                                  f"{cards.label(c)} is {own.what} in the {zone}; expected it in the battle zone "
                                  f"or the {_ZONE_NAME[own.zone]} (one put elsewhere returns there at once)")


_ZONE_NAME = {"hyperspatial": "hyperspatial zone", "super_gr": "super GR zone"}
# what each home zone holds, as a message says it: "a psychic creature (type: psychic_creature) or a dragheart ..."
_KINDS = {zone: " or ".join(f"{what} (type: {', '.join(h.card_type for h in HOMES if h.what == what)})"
                            for what in dict.fromkeys(h.what for h in HOMES if h.zone == zone))
          for zone in HOME_OF_ZONE}


def _on_a_creature(z: Zones, card: int) -> bool:
    """Whether `card` lies under a card of the battle zone as an evolution source (801), or is a weapon
    equipped to one (305.2): in the battle zone either way."""
    return any(c == card and kind in ("under", "weapon") for c, _, kind in z.links)


def _home_alone(s: State, cards: Any, p: Problem) -> State:
    """117.2, 806.1a: the lone weapon or psychic cell goes to its owner's hyperspatial zone."""
    player = next(q for q in PLAYERS if p.card in s.zone(q).battle)
    s = s.with_zone(player, s.zone(player).unlink(p.card).remove("battle", p.card))
    owner = cards.owner(p.card)
    return s.with_zone(owner, s.zone(owner).add(home_of(cards.card(p.card)).zone, p.card))


@check("lone_weapon", ("117.2", "305.3"), kind="repaired", fix=_home_alone)
def lone_weapon(s: State, cards: Any) -> Iterator[Problem]:
    """305.3: a weapon is never alone in the battle zone; the rules send one that is to its owner's hyperspatial
    zone at once (117.2; the procedure does it between steps, model/homes.py)."""
    for player in PLAYERS:
        for c in s.zone(player).battle:
            if cards.card(c).type in ALONE:
                yield Problem("lone_weapon", "117.2", c, f"{cards.label(c)} is a weapon equipped to no creature; the "
                                                         f"rules put it into the hyperspatial zone")


@check("lone_cell", ("806.1a", "703.4g"), kind="repaired", fix=_home_alone)
def lone_cell(s: State, cards: Any) -> Iterator[Problem]:
    """806.1a: a psychic cell is never alone in the battle zone (it is there only as a part of a psychic super
    creature); the rules send one that is to its owner's hyperspatial zone at once (703.4g; the procedure does it
    between steps, model/homes.py)."""
    for player in PLAYERS:
        for c in s.zone(player).battle:
            if cards.card(c).cell:
                yield Problem("lone_cell", "806.1a", c, f"{cards.label(c)} is a psychic cell alone in the battle zone; "
                                                        f"the rules put it into the hyperspatial zone")


# ---- cards made of several cards (801, 303, 310, 304, 406) ------------------------------------------
@check("evolution_has_source", ("801.1a", "815.1"))
def evolution_has_source(s: State, cards: Any) -> Iterator[Problem]:
    """801.1a: an evolution creature lies on a creature (an S-MAX evolution needs none, 815.1; a NEO
    creature may lie alone, 802.1, and so may a G-NEO creature, a NEO creature too, 803.1)."""
    for player in PLAYERS:
        z = s.zone(player)
        for c in z.battle:
            cdef = cards.card(c)
            if needs_a_source(cdef) and not under(z, c):
                yield Problem("evolution_has_source", "801.1a", c,
                              f"{needs_a_source(cdef)}; write {{card: {cdef.name}, under: [a creature]}} (only an "
                              f"S-MAX evolution needs no source)", key="card")


def needs_a_source(cdef: Any) -> str:
    """Why a card cannot lie in the battle zone with nothing under it (801.1a), or "" when it can."""
    return f"{cdef.name} is an evolution creature with nothing to evolve onto (801.1a)" if cdef.evolution() else ""


@check("pile_base_is_a_creature", ("801.1a",))
def pile_base_is_a_creature(s: State, cards: Any) -> Iterator[Problem]:
    """801.1a: the bottom card of an evolution creature's pile is a creature; or an aura, which 310.8b puts
    under a card with its creature, in any order (403.4a, model/instructions/under.py)."""
    for player in PLAYERS:
        z = s.zone(player)
        for c in z.battle if z.links else ():
            sources = under(z, c)
            if sources and not _creature(cards.card(sources[-1])) and cards.card(sources[-1]).type != "aura":
                base = cards.card(sources[-1])
                yield Problem("pile_base_is_a_creature", "801.1a", sources[-1],
                              f"expected a creature at the bottom of the pile (an evolution lies on a creature, "
                              f"801.1a); {base.name} is {_article(base.type)}")


# what only a creature carries, with the rule that says so (a seal lies on any card of the battle zone, 116.1)
_CARRIED = {"under": "801.1a", "aura": "310.5", "cross": "303.3", "weapon": "305.2"}


# the cards besides creatures a rebuild may leave on top of the rest of a pile (801.4a-b: any card that can stand
# alone keeps the cards under it; model/instructions/pile_moves.py STANDING)
_REBUILT_TOPS = ("tamaseed", "cross_gear", "dragheart_fortress")


@check("carried_by_a_creature", ("303.3", "310.5", "801.1a", "305.2", "801.4b"))
def carried_by_a_creature(s: State, cards: Any) -> Iterator[Problem]:
    """303.3, 310.5, 801.1a, 305.2: only a creature carries sources, auras, cross gear and weapons (and a card a
    rebuild left on top of the rest, 801.4b, the cards under it)."""
    for player in PLAYERS:
        z = s.zone(player)
        for c in z.battle if z.links else ():
            kinds = [k for k in _CARRIED if any(h == c and kind == k for _, h, kind in z.links)
                     and not (k == "under" and cards.card(c).type in _REBUILT_TOPS)]
            if kinds and not _creature(cards.card(c)):
                cdef = cards.card(c)
                yield Problem("carried_by_a_creature", _CARRIED[kinds[0]], c,
                              f"expected a creature at the base of a pile (`{'`, `'.join(kinds)}`: only a creature "
                              f"carries them); {cdef.name} is {_article(cdef.type)}", key="card")


_LINK_TYPES = {"aura": ("aura", "310.5", "an aura"), "cross": ("cross_gear", "303.3", "a cross gear"),
               "weapon": ("dragheart_weapon", "305.2", "a dragheart weapon"),
               "castle": ("castle", "304.2", "a castle")}


@check("linked_card_types", ("303.3", "304.2", "310.5", "305.2"))
def linked_card_types(s: State, cards: Any) -> Iterator[Problem]:
    """An aura lying on a creature is an aura (310), a crossed card a cross gear (303.3), an equipped card a
    dragheart weapon (305.2), a card fortifying a shield a castle (304.2)."""
    for player in PLAYERS:
        for c, _, kind in s.zone(player).links:
            if kind in _LINK_TYPES and cards.card(c).type != _LINK_TYPES[kind][0]:
                want, rule, name = _LINK_TYPES[kind]
                where = "" if kind == "castle" else f" under `{kind}:`"
                yield Problem("linked_card_types", rule, c, f"expected {name}{where}, {cards.card(c).name} is "
                                                            f"{_article(cards.card(c).type)}")


@check("links_in_place", ("403.4", "406.2"))
def links_in_place(s: State, cards: Any) -> Iterator[Problem]:
    """A card lying on or under another is there only while that card is: sources, auras, seals and cross
    gear on a battle-zone card, the sources as one chain (403.4); castles and stacked cards on a shield
    (406.2); and every attached card lies on exactly one card."""
    waiting = _in_the_middle(s)
    for player in PLAYERS:
        z = s.zone(player)
        yield from _links_of(player, z, cards, waiting)


def _in_the_middle(s: State) -> frozenset[int]:
    """The cards whose links a rule is putting right now: a fortified shield on its way to the hand and its
    castle, which leaves after the shield's S-Trigger (304.3); the top card of a pile that left, whose
    sources wait for their owner's choice (801.4 before 2021-03-16)."""
    found = {card for check in s.checks for pair in check.castles for card in pair}
    found.update(c for z in s.zones for c in z.standby)
    for task in s.running:
        if task.pc < len(task.program) and task.program[task.pc].op == "_rebuild_old":
            found.add(task.program[task.pc].get("card"))
    return frozenset(found)


def _links_of(player: str, z: Zones, cards: Any, waiting: frozenset[int]) -> Iterator[Problem]:
    linked = [c for c, _, _ in z.links]
    for c in z.attached:
        if linked.count(c) != 1 and c not in waiting:
            yield Problem("links_in_place", "403.4", c, f"{cards.label(c)} is attached to {linked.count(c)} cards "
                                                        f"of {player}; expected one")
    sources: set[int] = set()
    chained = {c for c, _, k in z.links if k == "under"}   # a source may lie under another source
    in_rows = {c for c, _, k in z.links if k in gods.GOD_KINDS}   # a linked God lies beside another
    for c, host, kind in z.links:
        home = "shields" if kind == "ex_life" else "attached"
        if c not in getattr(z, home):
            yield Problem("links_in_place", "403.4", c, f"{cards.label(c)} lies on {cards.label(host)} ({kind}) but "
                                                        f"is not in {player}'s {home}")
        if kind == "under":
            if host in sources:
                yield Problem("links_in_place", "403.4", c, f"two cards lie right under {cards.label(host)}; "
                                                            f"expected one chain of sources (403.4)")
            sources.add(host)
        ok = (host in z.shields) if kind in _ON_SHIELD else (host in z.battle or (kind == "under" and host in chained)
                                                          or (kind in gods.GOD_KINDS and host in in_rows))
        if not ok and host not in waiting:
            where = "a shield" if kind in _ON_SHIELD else "a card of the battle zone"
            yield Problem("links_in_place", "406.2" if kind in _ON_SHIELD else "403.4", c,
                          f"{cards.label(c)} lies on {cards.label(host)} ({kind}), which is not {where}")


# ---- God links (804) ------------------------------------------------------------------------------------
@check("god_rows", ("804.1", "804.2"))
def god_rows(s: State, cards: Any) -> Iterator[Problem]:
    """804.1, 804.2: only God creatures (cards with a G-Link) link, and a card has one neighbour on each side."""
    for player in PLAYERS:
        z = s.zone(player)
        sides: set[tuple[int, str]] = set()
        for c, host, kind in z.links if z.links else ():
            if kind not in gods.GOD_KINDS:
                continue
            for card in (c, host):
                cdef = cards.card(card)
                if not (_creature(cdef) and cdef.g_link):
                    yield Problem("god_rows", "804.1", card, f"{cards.label(card)} is linked as a God but "
                                                             f"{cdef.name} is no creature with a G-Link (`g_link:`)")
            for key in ((host, kind), (c, gods.RIGHT if kind == gods.LEFT else gods.LEFT)):
                if key in sides:
                    yield Problem("god_rows", "804.2", c, f"two Gods lie on one side of {cards.label(key[0])}; "
                                                          f"expected one on each side")
                sides.add(key)


def _cut(s: State, cards: Any, p: Problem) -> State:
    player = next(q for q in PLAYERS if p.card in s.zone(q).attached or p.card in s.zone(q).battle)
    z = s.zone(player)
    host = next((h for c, h, k in z.links if c == p.card and k in gods.GOD_KINDS), None)
    return s if host is None else gods.cut(s, player, p.card, host)   # an earlier cut may have undone it


@check("god_links_proper", ("804.2b", "703.4e"), kind="repaired", fix=_cut)
def god_links_proper(s: State, cards: Any) -> Iterator[Problem]:
    """804.2, 804.2a: a link needs a G-Link naming the other card on that side (each card read alone); an
    improper link comes apart at once (804.2b, 703.4e), each part staying a creature of its own."""
    for player in PLAYERS:
        z = s.zone(player)
        if z.links:
            for c, host in gods.improper(cards, z):
                yield Problem("god_links_proper", "703.4e", c, f"no G-Link lets {cards.label(c)} lie beside "
                                                               f"{cards.label(host)}; the link comes apart")


# ---- marks that mean something in one zone only -------------------------------------------------------
@check("tapped_in_play", ("400.5", "105.4a"))
def tapped_in_play(s: State, cards: Any) -> Iterator[Problem]:
    """105.4a: only cards of the battle zone and the mana zone are tapped; a card that changes zones comes
    untapped (400.5)."""
    for player in PLAYERS:
        z = s.zone(player)
        for c in z.tapped:
            if c not in z.battle and c not in z.mana:
                yield Problem("tapped_in_play", "105.4a", c, f"{cards.label(c)} is tapped in {player}'s "
                                                             f"{z.where(c) or 'nowhere'}")


@check("face_up_shields", ("406.2", "400.5"))
def face_up_shields(s: State, cards: Any) -> Iterator[Problem]:
    """406.2: only a shield lies face up or down (face up by an effect, 113.6d); elsewhere the mark means
    nothing and a card that changes zones does not keep it (400.5)."""
    for player in PLAYERS:
        z = s.zone(player)
        for c in z.face_up:
            if c not in z.shields and c not in z.standby:
                yield Problem("face_up_shields", "406.2", c, f"{cards.label(c)} lies face up in {player}'s "
                                                             f"{z.where(c) or 'nowhere'}")


@check("face_down_mana", ("405.4", "400.5"))
def face_down_mana(s: State, cards: Any) -> Iterator[Problem]:
    """405.4: a card lies face down in the mana zone only; one that leaves it does not keep the mark (400.5)."""
    for player in PLAYERS:
        z = s.zone(player)
        for c in z.face_down:
            if c not in z.mana:
                yield Problem("face_down_mana", "405.4", c, f"{cards.label(c)} lies face down in {player}'s "
                                                            f"{z.where(c) or 'nowhere'}; expected the mana zone")


@check("held_while_entering", ("409.2",))
def held_while_entering(s: State, cards: Any) -> Iterator[Problem]:
    """409.1a, 409.2: a card pends on its way to the battle zone only while the effect putting it runs; once it
    entered or could not, it pends no more."""
    for player in PLAYERS:
        z = s.zone(player)
        for c in z.held if not s.running else ():
            yield Problem("held_while_entering", "409.2", c, f"{cards.label(c)} is pending in {player}'s "
                                                            f"{z.where(c) or 'nowhere'} while no effect runs")


@check("effects_in_play", ("400.5",))
def effects_in_play(s: State, cards: Any) -> Iterator[Problem]:
    """400.5: a card that changes zones is a new card, so what effects gave a creature (a power change, a
    boost until the end of the attack, protection, "cannot attack", additional breaks, a restriction) reaches only
    creatures in the battle zone (keywords given for the turn may also reach a shield: S-Trigger)."""
    battle = set(s.zones[0].battle) | set(s.zones[1].battle)
    for name, given in (("a power change", [c for c, _ in s.powers]), ("a boost", [c for c, _ in s.boosts]),
                        ("a changed characteristic", [p[0] for p in s.traits]),
                        ("protection", s.guards), ("cannot attack", s.cant_attack),
                        ("additional breaks", [c for c, _ in s.extra_breaks]),
                        ("a restriction", [r[0] for r in s.restrictions])):
        for c in given:
            if c not in battle:
                yield Problem("effects_in_play", "400.5", c, f"{cards.label(c)} has {name} but is not in the battle "
                                                             f"zone")


# ---- rules that put a position right by a choice ------------------------------------------------------
def _keep_one_smax(s: State, cards: Any, p: Problem) -> State:
    """815.1a: the player chooses the one he keeps before anything else happens, the turn player first (the
    model's own rule, model/instructions/piles.py `_smax_one`, run before the declaration)."""
    player = next(q for q in PLAYERS if p.card in s.zone(q).battle)
    task = pile_words.one_smax(player)
    if task in s.running:
        return s
    return replace(s, running=s.running + (task,) if player == s.turn else (task,) + s.running)


@check("one_smax", ("815.1a",), kind="repaired", fix=_keep_one_smax)
def one_smax(s: State, cards: Any) -> Iterator[Problem]:
    """815.1a: a player has one S-MAX evolution creature at most; with more, he keeps one of his choice and
    the others return to his hand at once."""
    for player in PLAYERS:
        found = [c for c in s.zone(player).battle if cards.card(c).has(SMAX)]
        for c in found[1:]:
            yield Problem("one_smax", "815.1a", c, f"{player} has {len(found)} S-MAX evolution creatures in the "
                                                   f"battle zone; he keeps one, the others return to his hand")


@check("hyper_face", ("816.3",))
def hyper_face(s: State, cards: Any) -> Iterator[Problem]:
    """816.3: hyper mode is released only for a creature in the battle zone; a card of any other zone, or under
    a card there, has none released (model/hyper.py turns such a card back to its front at once)."""
    for player in PLAYERS:
        z = s.zone(player)
        for zone in _ALL_ZONES:
            if zone == "battle":
                continue
            for c in getattr(z, zone):
                if cards.card(c).hyper:
                    yield Problem("hyper_face", "816.3", c, f"{cards.label(c)} has its hyper mode released in the "
                                                           f"{zone}; expected that only in the battle zone")


def _bury_cell(s: State, cards: Any, p: Problem) -> State:
    """814.1d: the lone King Cell goes to its owner's graveyard."""
    return _to_graveyard(s, cards, p.card)


@check("king_cells", ("814.1", "814.1d"), kind="repaired", fix=_bury_cell)
def king_cells(s: State, cards: Any) -> Iterator[Problem]:
    """814.1d: a King Cell never stands in the battle zone without the other cells of its King creature; the
    rules put one that does into the graveyard at once (model/kings.py)."""
    for player in PLAYERS:
        z = s.zone(player)
        for c in z.battle:
            if cards.card(c).king and not kings.cells(z, c):
                yield Problem("king_cells", "814.1d", c, f"{cards.label(c)} is a King Cell alone in the battle zone; "
                                                        f"the rules put it into the graveyard")


@check("king_creature_no_card", ("814.1",))
def king_creature_no_card(s: State, cards: Any) -> Iterator[Problem]:
    """814.1: a King creature is its cells combined, never a card of its own in any zone."""
    for player in PLAYERS:
        z = s.zone(player)
        for zone in _ALL_ZONES:
            for c in getattr(z, zone):
                if cards.card(c).king_cells:
                    yield Problem("king_creature_no_card", "814.1", c,
                                  f"{cards.label(c)} is a King creature, no card (814.1); expected its King Cells "
                                  f"(`{{card: CELL, king: [OTHER CELLS]}}` in the battle zone)")


# ---- the loader's part ------------------------------------------------------------------------------
def entry_paths(players: dict[str, PlayerSetup], pool: Any = None) -> list[tuple]:
    """The scenario path of each card instance's entry, by instance id (model/table.py's numbering); with the
    card pool, the other face of each double-sided card (made last, 805.1) at the entry of the face placed."""
    paths: list[tuple] = []
    cards: list[str] = []
    for player in PLAYERS:
        setup = players[player]
        for zone in ZONE_KEYS:
            paths += [("players", player, zone, i) for i in range(len(getattr(setup, zone)))]
            cards += getattr(setup, zone)
        counts: dict[tuple, int] = {}
        for zone, index, kind, card in setup.extras:
            if kind in _MARKS or not card:
                continue
            cards.append(card)
            if kind in ("ex_life", "castle"):
                paths.append(("players", player, zone, index, kind))
                continue
            j = counts.get((zone, index, kind), 0)
            counts[zone, index, kind] = j + 1
            paths.append(("players", player, zone, index, kind, j))
    if pool is not None:
        paths += [where for where, card in zip(list(paths), cards) if pool[card].flips_to]
    return paths


def refuse(s: State, cards: Any, players: dict[str, PlayerSetup], root: Any,
           fail: Callable[[tuple, str], InputError]) -> None:
    """Raise every problem of a scenario's initial position that the loader refuses, each at its card's
    entry with its rule (`fail(path, text)` makes the InputError with the line)."""
    paths = entry_paths(players, getattr(cards, "pool", None))
    found = []
    for p in problems(s, cards):
        path = paths[p.card]
        if p.key and isinstance(_node(root, path), dict):
            path += (p.key,)
        text = p.text if p.rule in p.text else f"{p.text} ({p.rule})"
        found.append(fail(path, text))
    raise_all(found)


def _node(root: Any, path: tuple) -> Any:
    node = root
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node
