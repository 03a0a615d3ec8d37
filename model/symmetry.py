"""Symmetry: states that differ only by which of two identical cards is where are one state.

Two card instances are identical when they have the same pool id and owner: no rule or ability can
tell them apart, so swapping them everywhere in a state gives a state with the same futures (up to
the same swap). `canonical` renames the instances of each such class in a fixed way — ordered by
where and how each one occurs in the state — so that symmetric states become equal and the explorer
stores them once. Choosing among identical cards by one representative (ops.distinct) already
avoids most symmetric branches; this catches the rest (e.g. two vanilla shields broken by different
orders of effects). A renaming is always sound; a class whose members occur identically is left as
it is, which at worst keeps two symmetric states apart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .access import TOP
from .card_ids import IdsNode, Renaming, record_shape
from .footprint import scenario_footprint
from .state import State, Zones, pindex

if TYPE_CHECKING:
    from .game import Game

# where a state names cards, read from its records' declared types (model/card_ids.py): the zones' tuples
# of cards, their links (a pile: `_pile_entries`) and any other part of them; the rest of the state (roles)
_STATE = record_shape(State)
_ZONES = record_shape(Zones)
_ZONE_FIELDS = tuple(name for _, name, node in _ZONES.parts if isinstance(node, IdsNode))
# the piles whose order means something (the deck, the super GR zone): a card there is known by its place
_ORDERED_FIELDS = frozenset(name for _, name, node in _ZONES.parts if isinstance(node, IdsNode) and node.ordered)
_ZONE_OTHER = tuple(part for part in _ZONES.parts if part[1] not in _ZONE_FIELDS and part[1] != "links")
_ROLES = record_shape(State, skip=frozenset({"zones"}))


class Symmetry:
    """The classes of identical cards of one scenario and the renaming that makes a state canonical.

    Only cards with an identical twin (the `members` of a class of two or more) get a signature: a
    card alone in its class is told apart from every other by its pool id and owner already. A
    signature is what a card's zones say of it plus its roles elsewhere in the state (pending
    source, chosen to break, declared, named by a running effect...). The zones' part is computed
    once per `Zones` object (a step rebuilds only the zones it changes, the others are shared), and
    so is the ranking of a class whose members all lie in their owner's zones with no role: most
    states then cost a few dictionary look-ups.
    """

    def __init__(self, m: Game, initial: State | None = None):
        classes: dict[tuple[str, str, int], list[int]] = {}
        for inst in m.instances:   # a double-sided card is paired with its other face: no twin (805.1)
            classes.setdefault((inst.card, inst.owner, inst.id if inst.id in m.faces else -1), []).append(inst.id)
        groups = [(owner, ids) for (_, owner, _), ids in classes.items() if len(ids) > 1]
        self.classes = [ids for _, ids in groups]
        self.class_owner = [pindex(owner) for owner, _ in groups]
        self.members = frozenset(c for ids in self.classes for c in ids)
        self.class_of = {c: k for k, ids in enumerate(self.classes) for c in ids}
        self.member_sets = [frozenset(ids) for ids in self.classes]
        # the classes the canonical form ranks: an inert class never needs it (its members are
        # always where the same moves put them), so a scenario with only inert classes costs nothing
        inert = _inert_classes(m, initial, self.classes, self.class_owner) if initial is not None else set()
        self.active = [k for k in range(len(self.classes)) if k not in inert]
        self.id_binds = {"it", "target", "broken_shield"} | _destroy_binds(m)
        self.pool = tuple(i.card for i in m.instances)   # what each card is (a pile's signature names its cards)
        self._roles: dict[int, tuple[State, dict[int, list]]] = {}
        self._zones: dict[tuple[str, Zones], _ZoneOcc] = {}
        self._last_zones = [_ZoneOcc(Zones(), "A", self), _ZoneOcc(Zones(), "B", self)]
        self._collapse: Renaming | None = None   # `orbit`'s renaming, made on first use

    def signature(self, s: State, cid: int) -> tuple:
        """Where and how a card occurs in `s`: two identical cards with the same signature are
        interchangeable there, so a choice between them needs one representative (ops.distinct).
        () for a card without an identical twin (nothing to tell it apart from)."""
        if cid not in self.members:
            return ()
        za, zb = self._zone_occ(s.zones[0], "A"), self._zone_occ(s.zones[1], "B")
        return _merge(za.occ.get(cid), zb.occ.get(cid), self._role_occ(s).get(cid))

    def _role_occ(self, s: State) -> dict[int, list]:
        """The members' roles outside the zones, computed once per state object."""
        entry = self._roles.get(id(s))
        if entry is None or entry[0] is not s:
            if len(self._roles) > 4096:
                self._roles.clear()
            entry = self._roles[id(s)] = (s, _role_occurrences(s, self.id_binds, self.members))
        return entry[1]

    def _zone_occ(self, z: Zones, player: str) -> _ZoneOcc:
        last = self._last_zones[player == "B"]
        if last.zones is z:                    # the zones the last state of this player had
            return last
        found = self._zones.get((player, z))   # by value: many states share their zones' contents
        if found is None:
            if len(self._zones) > 65536:
                self._zones.clear()
            found = self._zones[player, z] = _ZoneOcc(z, player, self)
        self._last_zones[player == "B"] = found
        return found

    def orbit(self, s: State) -> State:
        """`s` with every member of a ranked class named by its class's first id: two states that
        `canonical` can make equal (a renaming within the classes) give the same orbit, so the number of
        orbits among some states is at most the number of their canonical forms, and one rename with a
        fixed mapping finds it (no signatures, no ranking: about half of `canonical`)."""
        if self._collapse is None:
            self._collapse = Renaming({c: self.classes[k][0] for k in self.active for c in self.classes[k]},
                                      self.id_binds)
        renamed: State = _STATE.rename(s, self._collapse)
        return renamed

    def canonical(self, s: State) -> State:
        if not self.active:
            return s
        roles = self._role_occ(s)
        zocc = (self._zone_occ(s.zones[0], "A"), self._zone_occ(s.zones[1], "B"))
        with_roles = set(map(self.class_of.__getitem__, roles)) if roles else ()
        mapping: dict[int, int] = {}
        for k in self.active:
            ids = self.classes[k]
            own, other = zocc[self.class_owner[k]], zocc[1 - self.class_owner[k]]
            if k in other.present or k in with_roles:
                # the members found elsewhere than in their owner's zones, and where
                key: Any = (k,) + tuple((c, tuple(other.occ.get(c, ())), tuple(roles.get(c, ())))
                                        for c in ids if c in other.occ or c in roles)
            else:
                key = k
            pairs = own.ranked.get(key)
            if pairs is None:
                if key == k and k not in own.multi:
                    pairs = own.ranked[key] = own.rank_plain(ids, self.member_sets[k])
                else:
                    pairs = own.ranked[key] = self._rank(ids, own.occ, other.occ, roles)
            if pairs:
                mapping.update(pairs)
        if not mapping:
            return s
        return _rename(s, mapping, self.id_binds)

    @staticmethod
    def _rank(ids: list[int], own: dict, other: dict, roles: dict) -> tuple[tuple[int, int], ...]:
        """(old id, new id) for the members of a class that a ranking by signature moves: the k-th
        ranked card gets the k-th id (ids are ascending)."""
        def key(c: int) -> tuple:
            entries = own.get(c, _NOTHING)
            if c in other or c in roles:
                entries = sorted(entries + other.get(c, _NOTHING) + roles.get(c, _NOTHING), key=repr)
            return (entries, c)

        ranked = sorted(ids, key=key)
        return tuple((old, new) for new, old in zip(ids, ranked) if new != old)


def _inert_classes(m: Game, initial: State, classes: list[list[int]], owners: list[int]) -> set[int]:
    """The classes whose members no step can tell apart, decided once from the scenario's cards.

    A class is inert when its card is a vanilla (no effect, ability or keyword: no rule and no
    declaration ever picks it), no member is linked to a card, the footprints of all the scenario's
    programs take its owner's deck only from the top into the hand (`top>hand`) and never take a
    card from that hand (a TOP program may do anything: then nothing is inert), and its members lie
    in the owner's deck except at most one, or except those in the shields of a player who is not
    attacked and whose shields no card word takes. The deck's members then leave it in deck order
    for one destination and stay there, the others stay apart from them: every reachable state
    holds them in the arrangement the initial one gives, and no two reachable states differ by a
    renaming of them. Symmetry can never merge states through them, and ranking them was the
    shield check's largest cost.
    """
    footprint = scenario_footprint(m)
    if footprint == TOP:
        return set()
    inert = set()
    for k, ids in enumerate(classes):
        cdef, owner, z = m.card(ids[0]), "AB"[owners[k]], initial.zones[owners[k]]
        if cdef.effect or cdef.abilities or cdef.keywords or cdef.s_trigger_if:
            continue
        if not set(ids).isdisjoint(c for card, host, _ in z.links for c in (card, host)):
            continue   # attached to something, or carrying something
        outside = [c for c in ids if c not in z.deck]
        kept = len(outside) > 1   # they must stay in the shields of a player nobody attacks
        if kept and (owner == initial.defender or not set(outside) <= set(z.shields)):
            continue
        allowed = {"deck": {"r", "top>hand"}, "hand": {"r", "add"}, "shields": {"r", "add"} if kept else None}
        if all(mode in ok for res, player, mode in footprint
               if (ok := allowed.get(res)) is not None and player in (owner, "*")):
            inert.add(k)
    return inert


class _ZoneOcc:
    """Where the twinned cards lie in one player's zones (position only in an ordered pile, where order
    matters), which classes appear there, and the rankings of classes found there alone. Each
    card's entries (`occ`, built on first use) are a list kept sorted by repr (lists compare like
    the signature's tuples)."""

    __slots__ = ("zones", "player", "members", "pool", "_occ", "present", "multi", "ranked")

    def __init__(self, z: Zones, player: str, sym: Symmetry):
        self.zones, self.player, self.members, self.pool = z, player, sym.members, sym.pool
        self._occ: dict[int, list] | None = None
        seen: set[int] = set()
        twice: set[int] = set()
        for name in _ZONE_FIELDS:
            cards = getattr(z, name)
            if cards:
                hit = sym.members.intersection(cards)
                if hit:
                    if not seen.isdisjoint(hit):
                        twice |= seen & hit
                    seen |= hit
        for card, host, _ in z.links:
            twice.update(c for c in (card, host) if c in sym.members)
        for index, _name, node in _ZONE_OTHER:
            node.occ(z[index], (), lambda c, _: twice.add(c), sym.members, set())
        class_of = sym.class_of.__getitem__
        self.present = set(map(class_of, seen))
        self.multi = set(map(class_of, twice))   # classes with a member that occurs more than once
        self.ranked: dict[Any, tuple] = {}

    def rank_plain(self, ids: list[int], mine: frozenset[int]) -> tuple[tuple[int, int], ...]:
        """`Symmetry._rank` for a class lying only here, each member in one zone and nothing else:
        the signature order is the zones' names in order, then the deck's positions, then the ids
        (unordered zones are kept sorted), so the members are read off zone by zone."""
        ranked: list[int] = []
        z = self.zones
        for name in _SORTED_FIELDS:
            cards = getattr(z, name)
            if cards and not mine.isdisjoint(cards):
                ranked += [c for c in cards if c in mine]
        if len(ranked) != len(ids):   # a member in no zone ranks first: let the general rule say
            return Symmetry._rank(ids, self.occ, {}, {})
        return tuple((old, new) for new, old in zip(ids, ranked) if new != old)

    @property
    def occ(self) -> dict[int, list]:
        if self._occ is None:
            self._occ = _zone_entries(self.zones, self.player, self.members, self.pool)
        return self._occ


def _zone_entries(z: Zones, player: str, members: frozenset[int], pool: tuple[str, ...]) -> dict[int, list]:
    """Each member's entries in one player's zones, sorted by repr."""
    occ: dict[int, list] = {}
    get = occ.get
    for name in _ZONE_FIELDS:
        cards = getattr(z, name)
        if not cards:
            continue
        hit = members.intersection(cards)
        if not hit:
            continue
        if name in _ORDERED_FIELDS:
            entries = _pile_places(player, name, len(cards))
            pairs = [(cid, entries[i]) for i, cid in enumerate(cards) if cid in hit]
        else:
            entry = _ENTRIES[player, name]
            pairs = [(cid, entry) for cid in hit]
        for cid, entry in pairs:
            found = get(cid)
            if found is None:
                occ[cid] = [entry]
            else:
                found.append(entry)
    if z.links:
        _pile_entries(z, player, members, pool, occ)
    for index, name, node in _ZONE_OTHER:
        node.occ(z[index], (player, name), lambda c, where: occ.setdefault(c, []).append(where), members, set())
    for found in occ.values():
        if len(found) > 1:
            found.sort(key=repr)
    return occ


def _pile_entries(z: Zones, player: str, members: frozenset[int], pool: tuple[str, ...], occ: dict) -> None:
    """A pile is one object with its cards (model/piles.py): a card lying on another is known by what it
    lies on (its card, where it is, whether it is tapped) and a card carrying another by what it carries,
    so that two piles made alike rank their cards alike and two made differently never look the same."""
    def where(c: int) -> tuple:
        zone = next((name for name in ("battle", "shields", "attached", "standby") if c in getattr(z, name)), "")
        return (pool[c], zone, c in z.tapped)
    for card, host, kind in z.links:
        if card in members:
            occ.setdefault(card, []).append((player, "link-card", kind) + where(host))
        if host in members:
            occ.setdefault(host, []).append((player, "link-host", kind, pool[card]))


_SORTED_FIELDS = tuple(sorted(_ZONE_FIELDS))
_ENTRIES = {(p, name): (p, name, -1) for p in "AB" for name in _ZONE_FIELDS}
_PLACES: dict[tuple[str, str], list] = {}


def _pile_places(player: str, name: str, n: int) -> list:
    """The shared (player, name, i) entries of an ordered pile (the deck, the super GR zone), i < n."""
    entries = _PLACES.setdefault((player, name), [])
    while len(entries) < n:
        entries.append((player, name, len(entries)))
    return entries


_NOTHING: list = []


def _merge(a: list | None, b: list | None, c: list | None) -> tuple:
    """One card's signature from its occurrences: sorted (by repr: they mix strings and ints)."""
    entries = (a or []) + (b or []) + (c or [])
    return tuple(entries) if len(entries) < 2 else tuple(sorted(entries, key=repr))


def _destroy_binds(m: Game) -> set[str]:
    names = set()

    def walk(program) -> None:
        for ins in program:
            if ins.op == "destroy" and ins.get("bind"):
                names.add(ins.get("bind"))
            walk(ins.get("if_done") or ())

    for card in m.pool.ids():
        cdef = m.pool[card]
        walk(cdef.effect)
        for a in cdef.abilities:
            walk(a.effect)
    return names


def _role_occurrences(s: State, id_binds: set[str], members: frozenset[int]) -> dict[int, list]:
    """Where and how each of `members` occurs outside the zones: the roles it plays, each the path to
    the card in the state (a field's name, an ordered tuple's position, what an element of a sorted
    tuple holds besides card ids: model/card_ids.py)."""
    occ: dict[int, list] = {}

    def add(cid: int, where: tuple) -> None:
        occ.setdefault(cid, []).append(where)

    _ROLES.occ(s, (), add, members, id_binds)
    return occ


def _rename(s: State, mapping: dict[int, int], id_binds: set[str]) -> State:
    """`s` with the cards of `mapping` renamed. Only the parts that hold a renamed card are rebuilt;
    the rest is shared with `s` (sorted parts that are rebuilt are sorted again)."""
    renamed: State = _STATE.rename(s, Renaming(mapping, id_binds))
    return renamed


