"""Where a state names cards, read from the declared types of its records.

A field of a record in model/state.py says in its type whether it holds card instance ids (`CardId`,
alone, in tuples, in nested records) and whether a tuple is kept sorted (`Sorted`). `shape` turns a
type into a small tree of nodes that know, for a value of that type, where each card id occurs
(`occ`: the path to it, for the symmetry's signatures) and how to rename card ids (`rename`: a new
value, sorted again where the type says so, or the value itself when it names no renamed card). So
a card-id field added to a record is renamed and told apart by model/symmetry.py without an edit
there, as Stateright's `Representative` has each state type say how it is renamed.

Two parts name cards in data rather than in types, and have their own node: a program's internal
instructions carry card ids in the arguments named `ID_ARGS`, and a task binds cards under names
(`Bound`), the symmetry telling which names bind cards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, get_args, get_origin, get_type_hints

from .instr import Instr
from .record import make
from .state import BOUND, CARD_ID, SORTED

# the arguments in which internal instructions (model/instructions/, `instr("_...")`) name cards: a swap's
# `old` is the creature that leaves for the card from the hand (declaring.py `swap`)
ID_ARGS = frozenset({"card", "castle", "shield", "old"})

Add = Callable[..., None]   # add(card, path): one occurrence of a card
_EMPTY: tuple = ()   # CPython's one empty tuple (a part that is another empty tuple is walked as before)


class Renaming:
    """One renaming of card ids: `mapping` (old id -> new id) and the names under which programs bind
    cards."""

    __slots__ = ("mapping", "moved", "get", "id_binds")

    def __init__(self, mapping: dict[int, int], id_binds: set[str]):
        self.mapping, self.moved, self.get, self.id_binds = mapping, frozenset(mapping), mapping.get, id_binds


class Node:
    """How card ids sit in values of one type."""

    def occ(self, value: Any, path: tuple, add: Add, members: frozenset[int], id_binds: set[str]) -> None:
        raise NotImplementedError

    def rename(self, value: Any, r: Renaming) -> Any:
        raise NotImplementedError


class CardNode(Node):
    """A card id."""

    def occ(self, value, path, add, members, id_binds):
        if value in members:
            add(value, path)

    def rename(self, value, r):
        return r.get(value, value)


class IdsNode(Node):
    """A tuple of card ids: in an order that means something (a card is known by its position), or
    sorted (only by being there)."""

    def __init__(self, ordered: bool):
        self.ordered = ordered

    def occ(self, value, path, add, members, id_binds):
        if not value:
            return
        hit = members.intersection(value)
        if not hit:
            return
        if self.ordered:
            for i, c in enumerate(value):
                if c in hit:
                    add(c, path + (i,))
        else:
            for c in hit:
                add(c, path)

    def rename(self, value, r):
        if not value or r.moved.isdisjoint(value):
            return value
        get = r.get
        renamed = [get(c, c) for c in value]
        return tuple(renamed) if self.ordered else tuple(sorted(renamed))


class SeqNode(Node):
    """A tuple of values that hold card ids: an element of an ordered one is known by its position,
    an element of a sorted one by what it holds besides card ids (`context`)."""

    def __init__(self, item: Node, ordered: bool):
        self.item, self.ordered = item, ordered

    def occ(self, value, path, add, members, id_binds):
        item = self.item
        for i, element in enumerate(value):
            where = path + (i,) if self.ordered else path + context(item, element)
            item.occ(element, where, add, members, id_binds)

    def rename(self, value, r):
        if not value:
            return value
        rename = self.item.rename
        renamed = [rename(e, r) for e in value]
        if all(a is b for a, b in zip(renamed, value)):
            return value
        return tuple(renamed) if self.ordered else tuple(sorted(renamed))


class FixedNode(Node):
    """A tuple of fixed length: the parts that hold card ids, and the plain ones (its context)."""

    def __init__(self, parts: tuple[tuple[int, Node], ...], plain: tuple[int, ...]):
        self.parts, self.plain = parts, plain

    def occ(self, value, path, add, members, id_binds):
        for i, node in self.parts:
            node.occ(value[i], path + (i,), add, members, id_binds)

    def rename(self, value, r):
        renamed = list(value)
        changed = False
        for i, node in self.parts:
            new = node.rename(value[i], r)
            if new is not value[i]:
                renamed[i], changed = new, True
        return tuple(renamed) if changed else value


class RecordNode(Node):
    """A record: its fields that hold card ids (by item index and name), and its plain fields."""

    def __init__(self, parts: tuple[tuple[int, str, Node], ...], plain: tuple[int, ...], pc: int | None = None):
        self.parts, self.plain, self.pc = parts, plain, pc

    def occ(self, value, path, add, members, id_binds):
        for i, name, node in self.parts:
            part = value[i]
            if part is _EMPTY:   # an empty tuple names no card (most of a state's parts: no call for them)
                continue
            if self.pc is not None and isinstance(node, ProgramNode):
                node.occ(part, path + (name,), add, members, id_binds, start=value[self.pc])
            else:
                node.occ(part, path + (name,), add, members, id_binds)

    def rename(self, value, r):
        items = None   # the record's items, copied at the first part renamed
        for i, _name, node in self.parts:
            old = value[i]
            if old is _EMPTY:
                continue
            new = node.rename(old, r)
            if new is not old:
                if items is None:
                    items = list(value)
                items[i] = new
        return value if items is None else make(type(value), items)


class BindsNode(Node):
    """A task's bindings, (name, value): the value is a card id when the name is one that binds cards."""

    def occ(self, value, path, add, members, id_binds):
        for name, v in value:
            if v in members and name in id_binds:
                add(v, path + (name,))

    def rename(self, value, r):
        get, id_binds = r.get, r.id_binds
        if not any(n in id_binds and v in r.mapping for n, v in value):
            return value
        return tuple((n, get(v, v) if n in id_binds else v) for n, v in value)


class ProgramNode(Node):
    """A program (a tuple of instructions): internal instructions name cards in their `ID_ARGS`. In a
    record with a program counter (`pc`: a task) only the instructions still to come count: those
    done tell nothing of what may happen (positions are counted from the counter)."""

    def occ(self, value, path, add, members, id_binds, start: int = 0):
        if members.isdisjoint(program_ids(value)):
            return
        for k, ins in enumerate(value[start:]):
            for name, v in ins.args:
                if name in ID_ARGS and v in members and isinstance(v, int):
                    add(v, path + (k, ins.op, name))

    def rename(self, value, r):
        if r.moved.isdisjoint(program_ids(value)):
            return value
        get = r.get
        return tuple(Instr(ins.op, tuple((n, get(v, v) if n in ID_ARGS and isinstance(v, int) else v)
                                         for n, v in ins.args)) for ins in value)


def context(node: Node, value: Any) -> tuple:
    """What an element of a sorted tuple holds besides card ids: how it is known there (its plain parts,
    and those of the records in it)."""
    if isinstance(node, RecordNode):
        return tuple([value[i] for i in node.plain])
    if isinstance(node, FixedNode):
        found = [value[i] for i in node.plain]
        for i, part in node.parts:
            if isinstance(part, RecordNode):
                found.append(context(part, value[i]))
        return tuple(found)
    return ()


_PROGRAM_IDS: dict[int, tuple[tuple, frozenset[int]]] = {}


def program_ids(program: tuple[Instr, ...]) -> frozenset[int]:
    """The card ids an internal program names in its arguments (cached per program object)."""
    entry = _PROGRAM_IDS.get(id(program))
    if entry is None or entry[0] is not program:
        if len(_PROGRAM_IDS) > 65536:
            _PROGRAM_IDS.clear()
        found = frozenset(v for ins in program for n, v in ins.args if n in ID_ARGS and isinstance(v, int))
        entry = _PROGRAM_IDS[id(program)] = (program, found)
    return entry[1]


_SHAPES: dict[Any, Node | None] = {}


def shape(tp: Any) -> Node | None:
    """The node for values of type `tp` (a type as `typing.get_type_hints` gives it), or None when
    such values hold no card id."""
    key = repr(tp)
    if key not in _SHAPES:
        _SHAPES[key] = _shape(tp)
    return _SHAPES[key]


def record_shape(cls: type, skip: frozenset[str] = frozenset()) -> RecordNode:
    """The node of a record class, read from its declared field types (leaving out the fields `skip`)."""
    hints = get_type_hints(cls, include_extras=True)
    parts, plain = [], []
    for name, index in cls._index.items():   # type: ignore[attr-defined]
        node = shape(hints[name])
        if node is not None and name not in skip:
            parts.append((index, name, node))
        elif node is None and _is_plain(hints[name]):
            plain.append(index)
    return RecordNode(tuple(parts), tuple(plain), cls._index.get("pc"))   # type: ignore[attr-defined]


def _shape(tp: Any) -> Node | None:
    origin, args = get_origin(tp), get_args(tp)
    if origin is Annotated:
        base, meta = args[0], args[1:]
        if CARD_ID in meta:
            return CardNode()
        if BOUND in meta:
            raise TypeError("a `Bound` value stands only in a (name, value) pair of a tuple of bindings")
        if SORTED in meta:
            return _sequence(get_args(base)[0], ordered=False)
        return shape(base)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _sequence(args[0], ordered=True)
        parts = tuple((i, node) for i, a in enumerate(args) if (node := shape(a)) is not None)
        plain = tuple(i for i, a in enumerate(args) if shape(a) is None and _is_plain(a))
        return FixedNode(parts, plain) if parts else None
    if isinstance(tp, type) and "_index" in tp.__dict__:   # a record
        node = record_shape(tp)
        return node if node.parts else None
    return None


def _sequence(item: Any, ordered: bool) -> Node | None:
    if item is Instr:
        return ProgramNode()
    if get_origin(item) is tuple and any(get_origin(a) is Annotated and BOUND in get_args(a)[1:]
                                         for a in get_args(item)):
        return BindsNode()
    node = shape(item)
    if node is None:
        return None
    if isinstance(node, CardNode):
        return IdsNode(ordered)
    return SeqNode(node, ordered)


def _is_plain(tp: Any) -> bool:
    """Whether a value of type `tp` is a single plain value (a number, a string, a flag, a literal)."""
    origin = get_origin(tp)
    if origin is Annotated:
        return _is_plain(get_args(tp)[0])
    return origin is not tuple and not (isinstance(tp, type) and (tp is tuple or "_index" in tp.__dict__))


