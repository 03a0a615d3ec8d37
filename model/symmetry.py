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
from .footprint import scenario_footprint
from .instr import Instr
from .state import Decl, Replacement, State, Task, Zones, pindex, replace

if TYPE_CHECKING:
    from .game import Game

_ZONE_FIELDS = ("deck", "hand", "mana", "shields", "battle", "graveyard", "resolving", "standby", "attached",
                "face_up", "tapped")
_ID_ARGS = {"card", "castle", "shield"}    # internal instructions name cards in these arguments


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
        classes: dict[tuple[str, str], list[int]] = {}
        for inst in m.instances:
            classes.setdefault((inst.card, inst.owner), []).append(inst.id)
        groups = [(owner, ids) for (_, owner), ids in classes.items() if len(ids) > 1]
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
    """Where the twinned cards lie in one player's zones (position only in the deck, where order
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
        if name == "deck":
            entries = _deck_entries(player, len(cards))
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
_DECK: dict[str, list] = {"A": [], "B": []}


def _deck_entries(player: str, n: int) -> list:
    """The shared (player, "deck", i) entries, i < n."""
    entries = _DECK[player]
    while len(entries) < n:
        entries.append((player, "deck", len(entries)))
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
    """Where and how each of `members` occurs outside the zones: the roles it plays. Most parts name
    no member at all, so each is first tested with a set operation or a membership test."""
    occ: dict[int, list] = {}

    def add(cid: int, *where: Any) -> None:
        if cid in members:
            occ.setdefault(cid, []).append(where)

    add(s.attacker, "attacker")
    add(s.target, "target")
    for c in members.intersection(s.broken):
        add(c, "broken")
    for c in members.intersection(s.cant_attack):
        add(c, "cant_attack")
    for c, amount in s.boosts:
        add(c, "boost", amount)
    for c in members.intersection(s.guards):
        add(c, "guard")
    _touch_roles(s, add, members)
    for p in s.pending:
        if p.source in members:
            add(p.source, "pending", p.kind, p.frame, p.controller, p.card, p.ability)
    for i, f in enumerate(s.frames):
        add(f.by, "frame-by", i)
        for c in members.intersection(f.chosen):
            add(c, "frame-chosen", i)
        for c, r in f.replaced:
            add(c, "frame-replaced", i, r.label)
            add(r.source, "replacement-source", i, r.label)
            add(r.target, "replacement-target", i, r.label)
        for j, t in enumerate(f.resume):
            _task_occurrences(t, add, ("resume", i, j), id_binds, members)
    for j, t in enumerate(s.running):
        _task_occurrences(t, add, ("running", j), id_binds, members)
    for i, ch in enumerate(s.checks):
        for name in ("cards", "granted", "arrived"):
            cards = getattr(ch, name)
            if cards and not members.isdisjoint(cards):
                for c in cards:
                    add(c, "check", i, name)
        for d in ch.declared:
            if d.card in members or d.cost in members:
                add(d.card, "check-declared", i, d.kind)
                add(d.cost, "check-cost", i, d.kind)
        for sh, castle in ch.castles:
            add(sh, "check-castle-shield", i)
            add(castle, "check-castle", i)
    for d in s.queued:
        add(d.card, "queued", d.kind)
        add(d.cost, "queued-cost", d.kind)
    return occ


def _task_occurrences(t: Task, add, where: tuple, id_binds: set[str], members: frozenset[int]) -> None:
    if t.source in members:
        add(t.source, *where, "source", t.ability)
    if t.spell in members:
        add(t.spell, *where, "spell")
    for name, value in t.binds:
        if value in members and name in id_binds:
            add(value, *where, "bind", name)
    if not members.isdisjoint(_program_ids(t.program)):
        for k, ins in enumerate(t.program[t.pc:]):
            for name, value in ins.args:
                if name in _ID_ARGS and isinstance(value, int):
                    add(value, *where, "arg", k, ins.op, name)


def _rename(s: State, mapping: dict[int, int], id_binds: set[str]) -> State:
    """`s` with the cards of `mapping` renamed. Only the parts that hold a renamed card are rebuilt;
    the rest is shared with `s` (unordered parts that are rebuilt are sorted again)."""
    r = _Renamer(mapping, id_binds)
    changes: dict[str, Any] = {}
    zs = (r.zones(s.zones[0]), r.zones(s.zones[1]))
    if zs[0] is not s.zones[0] or zs[1] is not s.zones[1]:
        changes["zones"] = zs
    if s.attacker in mapping:
        changes["attacker"] = r.f(s.attacker)
    if s.target in mapping:
        changes["target"] = r.f(s.target)      # the creature attacked, or the blocker (R507)
    if any(p.source in mapping for p in s.pending):
        changes["pending"] = tuple(sorted(replace(p, source=r.f(p.source)) for p in s.pending))
    if s.frames:
        changes["frames"] = tuple(r.frame(fr) for fr in s.frames)
    if s.running:
        changes["running"] = tuple(r.task(t) for t in s.running)
    if s.checks:
        changes["checks"] = tuple(r.check(ch) for ch in s.checks)
    if s.queued:
        changes["queued"] = tuple(r.decl(d) for d in s.queued)
    if not r.moved.isdisjoint(s.cant_attack):
        changes["cant_attack"] = tuple(sorted(r.ids(s.cant_attack)))
    if not r.moved.isdisjoint(s.broken):
        changes["broken"] = tuple(sorted(r.ids(s.broken)))
    if any(c in mapping for c, _ in s.boosts):
        changes["boosts"] = tuple(sorted((r.f(c), n) for c, n in s.boosts))
    if not r.moved.isdisjoint(s.guards):
        changes["guards"] = tuple(sorted(r.ids(s.guards)))
    _touch_rename(s, r, changes)
    return replace(s, **changes)


def _touch_roles(s: State, add, members: frozenset[int]) -> None:
    """The roles the turn's effects in a state give a card: a power change, a keyword given, having broken
    a shield this attack, a shield-check bonus (model/power.py, model/touch.py)."""
    for c, amount in s.powers:
        add(c, "power", amount)
    for c, kind, value in s.traits:
        add(c, "trait", kind, value)
    for c, word in s.granted:
        add(c, "granted", word)
    for c in members.intersection(s.broke):
        add(c, "broke")
    for c in members.intersection(s.bonus):
        add(c, "bonus")


def _touch_rename(s: State, r: _Renamer, changes: dict) -> None:
    """The renaming of the parts `_touch_roles` reads (sorted again once renamed)."""
    if any(c in r.mapping for c, _ in s.powers):
        changes["powers"] = tuple(sorted((r.f(c), n) for c, n in s.powers))
    if any(p[0] in r.mapping for p in s.traits):
        changes["traits"] = tuple(sorted((r.f(c), k, v) for c, k, v in s.traits))
    if any(c in r.mapping for c, _ in s.granted):
        changes["granted"] = tuple(sorted((r.f(c), w) for c, w in s.granted))
    if not r.moved.isdisjoint(s.broke):
        changes["broke"] = tuple(sorted(r.ids(s.broke)))
    if not r.moved.isdisjoint(s.bonus):
        changes["bonus"] = tuple(sorted(r.ids(s.bonus)))


class _Renamer:
    """One renaming of card ids applied to each kind of record; a record holding no renamed card
    (and already in the form a rebuild gives) is returned as it is."""

    __slots__ = ("mapping", "moved", "get", "id_binds")

    def __init__(self, mapping: dict[int, int], id_binds: set[str]):
        self.mapping, self.moved, self.get, self.id_binds = mapping, frozenset(mapping), mapping.get, id_binds

    def f(self, c: int) -> int:
        return self.get(c, c)

    def ids(self, values) -> tuple[int, ...]:
        get = self.get
        return tuple([get(c, c) for c in values])

    def zones(self, z: Zones) -> Zones:
        get, moved, mapping, f = self.get, self.moved, self.mapping, self.f
        changes = {}
        for name in _ZONE_FIELDS:
            cards = getattr(z, name)
            if cards and not moved.isdisjoint(cards):
                changes[name] = self.ids(cards) if name == "deck" else tuple(sorted([get(c, c) for c in cards]))
        if z.links and any(c in mapping or h in mapping for c, h, _ in z.links):
            changes["links"] = tuple(sorted((f(c), f(h), k) for c, h, k in z.links))
        return replace(z, **changes) if changes else z

    def task(self, t: Task) -> Task:
        mapping, f, id_binds = self.mapping, self.f, self.id_binds
        program = t.program
        if _program_ids(program) & self.moved:
            program = tuple(Instr(ins.op, tuple((n, f(v) if n in _ID_ARGS and isinstance(v, int) else v)
                                                for n, v in ins.args)) for ins in program)
        elif t.source not in mapping and t.spell not in mapping and \
                not any(n in id_binds and v in mapping for n, v in t.binds):
            return t
        return replace(t, program=program, source=f(t.source), spell=f(t.spell),
                       binds=tuple((n, f(v) if n in id_binds else v) for n, v in t.binds))

    def repl(self, r: Replacement) -> Replacement:
        return replace(r, source=self.f(r.source), target=self.f(r.target))

    def decl(self, d: Decl) -> Decl:
        return replace(d, card=self.f(d.card), cost=self.f(d.cost))

    def frame(self, fr):
        mapping = self.mapping
        resume = tuple(self.task(t) for t in fr.resume)
        if fr.by not in mapping and self.moved.isdisjoint(fr.chosen) and _is_sorted(fr.chosen) and \
                all(a is b for a, b in zip(resume, fr.resume)) and \
                not any(c in mapping or r.source in mapping or r.target in mapping for c, r in fr.replaced):
            return fr   # nothing renamed in it, and already in the form a rebuild gives
        return replace(fr, by=self.f(fr.by), chosen=tuple(sorted(self.ids(fr.chosen))), resume=resume,
                       replaced=tuple((self.f(c), self.repl(r)) for c, r in fr.replaced))

    def check(self, ch):
        mapping, moved, f = self.mapping, self.moved, self.f
        if moved.isdisjoint(ch.cards) and moved.isdisjoint(ch.granted) and moved.isdisjoint(ch.arrived) and \
                not any(d.card in mapping or d.cost in mapping for d in ch.declared) and \
                not any(a in mapping or b in mapping for a, b in ch.castles) and \
                _is_sorted(ch.cards) and _is_sorted(ch.granted) and _is_sorted(ch.declared):
            return ch
        return replace(ch, cards=tuple(sorted(self.ids(ch.cards))), granted=tuple(sorted(self.ids(ch.granted))),
                       declared=tuple(sorted(self.decl(d) for d in ch.declared)),
                       arrived=self.ids(ch.arrived), castles=tuple((f(a), f(b)) for a, b in ch.castles))


def _is_sorted(values: tuple) -> bool:
    return all(a <= b for a, b in zip(values, values[1:])) if len(values) > 1 else True


_PROGRAM_IDS: dict[int, tuple[tuple, frozenset[int]]] = {}


def _program_ids(program: tuple[Instr, ...]) -> frozenset[int]:
    """The card ids an internal program names in its arguments (cached per program object)."""
    entry = _PROGRAM_IDS.get(id(program))
    if entry is None or entry[0] is not program:
        if len(_PROGRAM_IDS) > 65536:
            _PROGRAM_IDS.clear()
        found = frozenset(v for ins in program for n, v in ins.args if n in _ID_ARGS and isinstance(v, int))
        entry = _PROGRAM_IDS[id(program)] = (program, found)
    return entry[1]
