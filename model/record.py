"""Frozen records stored as tuples: what states are made of.

Why not frozen dataclasses: the explorer hashes, compares and copies states millions of times, and a
dataclass does all three in Python (a generated `__hash__`/`__eq__`, a copier setting slot after
slot). A tuple does them in C. `@record` turns a class written like a frozen dataclass (annotated
fields with defaults, methods) into a `tuple` subclass: item 0 is the class's name, then the fields
in order; each field is read through a C-level item getter, so `s.phase` works as before.

The name in item 0 keeps records of different types apart: a `Pending` never equals a `Decl` or a
plain tuple of the same items, so two different states can never compare (or hash) equal through a
record standing where another was. Records order like a dataclass with `order=True` (field by field,
the names being equal within one type). They are immutable (no `__dict__`, read-only fields) and
pickle by value.
"""

from __future__ import annotations

import sys
from collections import _tuplegetter  # type: ignore[attr-defined]  # namedtuple's C field getter, not in typeshed
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, dataclass_transform

R = TypeVar("R", bound="Record")

if TYPE_CHECKING:
    class Record(tuple[Any, ...]):
        """What type checkers see of a record: a tuple (item 0 its name) with its fields' names and
        indexes; `@record` adds the fields' getters and the constructor of a frozen, ordered dataclass."""

        _fields: ClassVar[tuple[str, ...]]
        _index: ClassVar[dict[str, int]]

    def build(cls: type[R], items: Iterable[Any], /) -> R:
        """A record of `cls` from all its items, its name first (a copy's list)."""
else:
    Record = tuple   # the base a record class is written with; `record` makes a tuple subclass of it anyway

_new = tuple.__new__
if not TYPE_CHECKING:
    build = _new   # build(cls, items): a record of `cls` from all its items, its name first (a copy's list)
_NAMES: dict[str, str] = {}   # record name -> its module
_SKIP = {"__dict__", "__weakref__", "__module__", "__qualname__", "__doc__"}   # the annotations stay:
# `typing.get_type_hints` reads a record's declared field types from them (model/symmetry.py does)


@dataclass_transform(frozen_default=True)   # ordered as tuples are (item by item, the name first)
def record(cls: type[R]) -> type[R]:
    """The record version of `cls` (written `@record class Name(Record): ...`): its annotated fields (with
    their defaults) and its methods and class attributes, on a tuple. `Cls(a, b=...)` builds one by
    position or keyword as a dataclass would; `replace` and `setter` below copy one with fields changed."""
    if cls.__name__ in _NAMES:   # item 0 tells the types apart: two of one name could compare equal
        raise TypeError(f"a record named {cls.__name__!r} exists already ({_NAMES[cls.__name__]})")
    _NAMES[cls.__name__] = cls.__module__
    names = tuple(cls.__dict__.get("__annotations__", {}))
    defaults = {n: cls.__dict__[n] for n in names if n in cls.__dict__}
    seen_default = False
    params = []
    scope: dict[str, Any] = {"_new": _new, "_name": cls.__name__}
    for n in names:
        if n in defaults:
            seen_default = True
            scope[f"_d_{n}"] = defaults[n]
            params.append(f"{n}=_d_{n}")
        elif seen_default:
            raise TypeError(f"{cls.__name__}: field {n!r} without a default follows one with a default")
        else:
            params.append(n)
    body = ", ".join(names) + ("," if len(names) == 1 else "")
    source = (f"def __new__(cls, {', '.join(params)}):\n"
              f"    return _new(cls, (_name, {body}))\n")
    exec(source, scope)
    namespace: dict[str, Any] = {k: v for k, v in cls.__dict__.items() if k not in _SKIP and k not in names}
    namespace.update(
        __slots__=(), __doc__=cls.__doc__, __module__=cls.__module__, __qualname__=cls.__qualname__,
        __new__=scope["__new__"], _fields=names, _index={n: i + 1 for i, n in enumerate(names)},
        __repr__=_repr, __reduce__=_reduce, __copy__=_same, __deepcopy__=_same_memo)
    for i, n in enumerate(names):
        namespace[n] = _tuplegetter(i + 1, f"field {n}")
    made: type[R] = type(cls.__name__, (tuple,), namespace)
    return made


def is_record(value: Any) -> bool:
    return "_index" in type(value).__dict__ and isinstance(value, tuple)


def _repr(self) -> str:
    # as a dataclass prints itself: Name(field=value, ...)
    return f"{type(self).__qualname__}(" + ", ".join(
        f"{n}={v!r}" for n, v in zip(self._fields, self[1:])) + ")"


def _reduce(self):
    return _new, (type(self), tuple(self))


def _same(self):
    return self


def _same_memo(self, memo):
    return self


def replace(obj: R, **changes: Any) -> R:
    """A copy of a record with some fields changed (a name that is not a field is ignored, as
    before). One list, one tuple: about as cheap as copying gets in Python."""
    index = obj._index
    items = list(obj)
    for name, value in changes.items():
        i = index.get(name)
        if i is not None:
            items[i] = value
    cls = type(obj)
    intern = _MAKERS.get(cls)
    return _new(cls, items) if intern is None else intern(items)


_SETTERS: dict[tuple[type, tuple[str, ...]], Callable[..., Any]] = {}


def setter(cls: type[R], *fields: str) -> Callable[..., R]:
    """`copy(obj, value, ...)`: a copy of a `cls` record with the named fields set, in that order,
    as straight-line code (the hottest copies of the procedure: the running stack, a task's pc,
    the zones, the pending effects with what resolving one of them changes)."""
    found = _SETTERS.get((cls, fields))
    if found is None:
        index = cls.__dict__.get("_index", {})
        for f in fields:
            if f not in index:
                raise TypeError(f"{cls.__name__} has no field {f!r}")
        values = [f"v{k}" for k in range(len(fields))]
        lines = [f"def copy(obj, {', '.join(values)}):", "    items = list(obj)"]
        lines += [f"    items[{index[f]}] = {v}" for f, v in zip(fields, values)]
        intern = _MAKERS.get(cls)
        lines.append("    return _new(cls, items)" if intern is None else "    return intern(items)")
        scope: dict[str, Any] = {"_new": _new, "cls": cls, "intern": intern}
        exec("\n".join(lines), scope)
        found = _SETTERS[cls, fields] = scope["copy"]
    return found


# ---- interned records ------------------------------------------------------------------------------
_MAKERS: dict[type, Callable[[Iterable[Any]], Any]] = {}   # interned record class -> its maker
_TABLES: dict[type, dict[int, Any]] = {}   # interned record class -> its table
SWEEP_FROM = 4096   # entries an interning table holds before its first sweep


def interned(cls: type[R]) -> type[R]:
    """`cls` (a record) made one object per value: every way of making one (its constructor, `replace`,
    `setter`, `make`, unpickling) returns the object already made with equal items, so its hash can be
    its identity (C, no walk of its items). Why: the explorer hashes every successor state, and a
    record that a state holds and that most steps leave alone (the zones) was most of that hash,
    taken again for every state that shares it.

    The table holds each value once. Values nothing else refers to any more are dropped when the table
    has doubled since it was last swept (a reference count of the table's own alone: no live object
    equals one made later, so dropping it cannot split two equal values)."""
    table: dict[int, Any] = {}   # the value hash of the items -> the record (a list when hashes collide)
    tuple_hash, tuple_eq = tuple.__hash__, tuple.__eq__
    sweep_at = SWEEP_FROM   # the size that triggers the next sweep

    def make(items: Iterable[Any]) -> R:
        nonlocal sweep_at
        made = _new(cls, items)
        h = tuple_hash(made)
        found = table.get(h)
        if found is None:
            if len(table) >= sweep_at:
                _sweep(table)
                sweep_at = max(SWEEP_FROM, 2 * len(table))
            table[h] = made
            return made
        if type(found) is cls:
            if tuple_eq(found, made):
                return found
            table[h] = [found, made]   # two values under one hash: both kept, told apart by their items
            return made
        for old in found:
            if tuple_eq(old, made):
                return old
        found.append(made)
        return made

    plain_new = cls.__new__

    def __new__(c: type[R], *args: Any, **kwargs: Any) -> R:
        return make(plain_new(c, *args, **kwargs))

    cls.__new__ = __new__   # type: ignore[method-assign,assignment]
    cls.__hash__ = object.__hash__   # type: ignore[method-assign]  # one object per value
    cls.__reduce__ = _reduce_interned   # type: ignore[method-assign]
    _MAKERS[cls] = make
    _TABLES[cls] = table
    return cls


def is_interned(cls: type) -> bool:
    return cls in _MAKERS


def interned_count(cls: type) -> int:
    """How many values of an interned class its table holds (the figures, the tests)."""
    return sum(len(v) if type(v) is list else 1 for v in _TABLES[cls].values())


def maker(cls: type[R]) -> Callable[[Iterable[Any]], R]:
    """The maker of an interned record class: its items (its name first) -> the one record with them."""
    return _MAKERS[cls]


def make(cls: type[R], items: Iterable[Any]) -> R:
    """A record of `cls` from all its items, its name first: `build`, interned when `cls` is."""
    intern = _MAKERS.get(cls)
    return _new(cls, items) if intern is None else intern(items)


def _reduce_interned(self):
    return make, (type(self), tuple(self))


def _sweep(table: dict[int, Any]) -> None:
    """Drop the records that only the table refers to (a list of colliding ones is kept whole)."""
    alone = _ALONE
    for h in [h for h, v in table.items() if type(v) is not list and sys.getrefcount(v) <= alone]:
        del table[h]


def _alone() -> int:
    """The reference count `_sweep` sees for a record only its table holds (the table, the items
    iterator's pair, the comprehension's variable, the call's argument), read the way it reads them."""
    table: dict[int, Any] = {0: (object(),)}
    return [sys.getrefcount(v) for h, v in table.items() if type(v) is not list][0]


_ALONE = _alone()
