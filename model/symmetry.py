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

from typing import TYPE_CHECKING, Any, Callable

from .instr import Instr
from .state import Decl, Replacement, State, Task, Zones, replace

if TYPE_CHECKING:
    from .game import Game

_ZONE_FIELDS = ("deck", "hand", "mana", "shields", "battle", "graveyard", "resolving", "standby", "attached",
                "face_up", "tapped")
_ID_ARGS = {"card", "castle", "shield"}    # internal instructions name cards in these arguments


class Symmetry:
    """The classes of identical cards of one scenario and the renaming that makes a state canonical."""

    def __init__(self, m: "Game"):
        classes: dict[tuple[str, str], list[int]] = {}
        for inst in m.instances:
            classes.setdefault((inst.card, inst.owner), []).append(inst.id)
        self.classes = [ids for ids in classes.values() if len(ids) > 1]
        self.id_binds = {"it", "target"} | _destroy_binds(m)
        self._signatures: dict[int, tuple[State, dict[int, tuple]]] = {}

    def signature(self, s: State, cid: int) -> tuple:
        """Where and how a card occurs in `s`: two identical cards with the same signature are
        interchangeable there, so a choice between them needs one representative (ops.distinct)."""
        entry = self._signatures.get(id(s))
        if entry is None or entry[0] is not s:
            if len(self._signatures) > 4096:
                self._signatures.clear()
            entry = self._signatures[id(s)] = (s, _occurrences(s, self.id_binds))
        return entry[1].get(cid, ())

    def canonical(self, s: State) -> State:
        if not self.classes:
            return s
        mapping: dict[int, int] = {}
        for ids in self.classes:
            ranked = sorted(ids, key=lambda c: (self.signature(s, c), c))
            for new, old in zip(ids, ranked):   # ids are ascending: the k-th ranked card gets the k-th id
                if new != old:
                    mapping[old] = new
        if not mapping:
            return s
        return _rename(s, lambda c: mapping.get(c, c), self.id_binds)


def _destroy_binds(m: "Game") -> set[str]:
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


def _occurrences(s: State, id_binds: set[str]) -> dict[int, tuple]:
    """Where and how each card occurs, with positions only where order matters (the deck)."""
    occ: dict[int, list] = {}

    def add(cid: int, *where: Any) -> None:
        if cid >= 0:
            occ.setdefault(cid, []).append(where)

    for p, z in zip("AB", s.zones):
        for name in _ZONE_FIELDS:
            for i, cid in enumerate(getattr(z, name)):
                add(cid, p, name, i if name == "deck" else -1)
        for card, host, kind in z.links:
            add(card, p, "link-card", kind)
            add(host, p, "link-host", kind)
    add(s.attacker, "attacker")
    add(s.target, "target")
    for c in s.broken:
        add(c, "broken")
    for c in s.cant_attack:
        add(c, "cant_attack")
    for p in s.pending:
        add(p.source, "pending", p.kind, p.frame, p.controller, p.card, p.ability)
    for i, f in enumerate(s.frames):
        add(f.by, "frame-by", i)
        for c in f.chosen:
            add(c, "frame-chosen", i)
        for c, r in f.replaced:
            add(c, "frame-replaced", i, r.label)
            add(r.source, "replacement-source", i, r.label)
            add(r.target, "replacement-target", i, r.label)
        for j, t in enumerate(f.resume):
            _task_occurrences(t, add, ("resume", i, j), id_binds)
    for j, t in enumerate(s.running):
        _task_occurrences(t, add, ("running", j), id_binds)
    for i, ch in enumerate(s.checks):
        for name in ("cards", "granted", "arrived"):
            for c in getattr(ch, name):
                add(c, "check", i, name)
        for d in ch.declared:
            add(d.card, "check-declared", i, d.kind)
            add(d.cost, "check-cost", i, d.kind)
        for sh, castle in ch.castles:
            add(sh, "check-castle-shield", i)
            add(castle, "check-castle", i)
    for d in s.queued:
        add(d.card, "queued", d.kind)
        add(d.cost, "queued-cost", d.kind)
    return {c: tuple(sorted(v, key=repr)) for c, v in occ.items()}


def _task_occurrences(t: Task, add, where: tuple, id_binds: set[str]) -> None:
    add(t.source, *where, "source", t.ability)
    add(t.spell, *where, "spell")
    for name, value in t.binds:
        if name in id_binds:
            add(value, *where, "bind", name)
    for k, ins in enumerate(t.program[t.pc:]):
        for name, value in ins.args:
            if name in _ID_ARGS and isinstance(value, int):
                add(value, *where, "arg", k, ins.op, name)


def _rename(s: State, f: Callable[[int], int], id_binds: set[str]) -> State:
    def ids(values) -> tuple[int, ...]:
        return tuple(f(c) for c in values)

    def zones(z: Zones) -> Zones:
        changes = {name: ids(getattr(z, name)) for name in _ZONE_FIELDS}
        for name in changes:
            if name != "deck":
                changes[name] = tuple(sorted(changes[name]))
        changes["links"] = tuple(sorted((f(c), f(h), k) for c, h, k in z.links))
        return replace(z, **changes)

    def task(t: Task) -> Task:
        program = t.program
        if any(name in _ID_ARGS for ins in program for name, _ in ins.args):
            program = tuple(Instr(ins.op, tuple((n, f(v) if n in _ID_ARGS and isinstance(v, int) else v)
                                                for n, v in ins.args)) for ins in program)
        return replace(t, program=program, source=f(t.source), spell=f(t.spell),
                       binds=tuple((n, f(v) if n in id_binds else v) for n, v in t.binds))

    def repl(r: Replacement) -> Replacement:
        return replace(r, source=f(r.source), target=f(r.target))

    def decl(d: Decl) -> Decl:
        return replace(d, card=f(d.card), cost=f(d.cost))

    frames = tuple(replace(fr, by=f(fr.by), chosen=tuple(sorted(ids(fr.chosen))),
                           resume=tuple(task(t) for t in fr.resume),
                           replaced=tuple((f(c), repl(r)) for c, r in fr.replaced)) for fr in s.frames)
    checks = tuple(replace(ch, cards=tuple(sorted(ids(ch.cards))), granted=tuple(sorted(ids(ch.granted))),
                           declared=tuple(sorted(decl(d) for d in ch.declared)),
                           arrived=ids(ch.arrived), castles=tuple((f(a), f(b)) for a, b in ch.castles))
                   for ch in s.checks)
    return replace(
        s, zones=(zones(s.zones[0]), zones(s.zones[1])), attacker=f(s.attacker),
        target=f(s.target) if s.target >= 0 else -1,
        pending=tuple(sorted(replace(p, source=f(p.source)) for p in s.pending)),
        frames=frames, running=tuple(task(t) for t in s.running), checks=checks,
        queued=tuple(decl(d) for d in s.queued), cant_attack=tuple(sorted(ids(s.cant_attack))),
        broken=tuple(sorted(ids(s.broken))))
