"""The model's behaviour does not depend on the order of BreakModel's base classes.

A mechanism that extends another (Touch reading every ability through the one place that knows about
ignoring, PowerRules' battles over the attack's steps, the turn around the attack) names what it extends
as its base class, so Python's method resolution puts it first whatever order BreakModel lists them in.
Were two unrelated mixins to define one name, swapping them would change which one runs: these tests
fail then.
"""

from __future__ import annotations

import itertools

from dmcheck.model.procedure import BreakModel

SKIP = {"_is_protocol", "_abc_impl", "__init__", "__module__", "__qualname__", "__doc__", "__dict__",
        "__weakref__", "__annotations__", "__parameters__", "__orig_bases__", "__protocol_attrs__",
        "__non_callable_proto_members__", "__subclasshook__", "__abstractmethods__", "__slots__",
        "__firstlineno__", "__static_attributes__"}


def _definers(cls: type) -> dict[str, list[type]]:
    """Each name some class of `cls`'s resolution order defines -> the classes that define it."""
    found: dict[str, list[type]] = {}
    for base in cls.__mro__:
        if base is object:
            continue
        for name in vars(base):
            if name not in SKIP:
                found.setdefault(name, []).append(base)
    return found


def _unrelated(cls: type) -> list[tuple[str, str, str]]:
    """(name, class, class) for every name two classes of `cls` define with neither extending the other."""
    return [(name, a.__name__, b.__name__) for name, classes in _definers(cls).items()
            for a, b in itertools.combinations(classes, 2) if not (issubclass(a, b) or issubclass(b, a))]


def test_a_name_defined_twice_is_defined_along_one_line_of_inheritance():
    """Every class defining a name that another also defines inherits from it (or is inherited by it):
    the overriding is explicit, never an accident of the listed order."""
    assert _unrelated(BreakModel) == []


def _resolution(cls: type) -> dict[str, object]:
    return {name: getattr(cls, name) for name in _definers(cls) if not name.startswith("__")}


def test_every_order_of_the_bases_resolves_every_name_alike():
    bases = BreakModel.__bases__
    expected = _resolution(BreakModel)
    tried = 0
    for order in itertools.permutations(bases):
        cls = type("Permuted", order, dict(vars(BreakModel)))
        assert _resolution(cls) == expected, [b.__name__ for b in order]
        tried += 1
    assert tried == len(list(itertools.permutations(bases))) >= 2


def test_the_check_finds_two_unrelated_mixins_defining_one_name():
    class A:
        def rule(self):
            return "a"

    class B:
        def rule(self):
            return "b"

    assert type("AB", (A, B), {})().rule() != type("BA", (B, A), {})().rule()   # the order would decide
    assert _unrelated(type("AB", (A, B), {})) == [("rule", "A", "B")]
