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
    return _new(type(obj), items)


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
        lines.append("    return _new(cls, items)")
        scope: dict[str, Any] = {"_new": _new, "cls": cls}
        exec("\n".join(lines), scope)
        found = _SETTERS[cls, fields] = scope["copy"]
    return found
