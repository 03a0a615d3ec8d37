"""The fast paths (caches and shortcuts) give what the plain definitions give.

- Symmetry (model/symmetry.py): the canonical form is computed from zone tables cached per zones
  value, rankings read off the zones and roles scanned apart. Here every state of several scenarios
  is also ranked by the plain definition — every twinned card's occurrences in the whole state,
  sorted, then the ids in that order — and both must rename the same way.
- `state.replace` and `state.setter` against building the record anew by keyword; records of
  different types (or a record and a plain tuple) never equal; `Zones.move` is `remove` then `add`.
- The fingerprint's encoder against the plain recursive definition.
"""

from __future__ import annotations

import hashlib
import pickle
import sys

import pytest
from conftest import ROOT

from dmcheck.explorer.bfs import explore
from dmcheck.model.events import Event
from dmcheck.model.procedure import BreakModel
from dmcheck.model.record import is_interned
from dmcheck.model.scenario_file import load_scenario
from dmcheck.model.state import Check, Decl, Frame, Pending, Replacement, State, Task, Zones, replace, setter
from dmcheck.model.symmetry import _ZONE_FIELDS, _rename

RULES_DIR = ROOT / "scenarios" / "rulings"

sys.path.insert(0, str(ROOT / "benchmarks"))
import families  # noqa: E402


def _plain_signatures(sym, s: State) -> dict[int, tuple]:
    """Every twinned card's occurrences: zones (position only in the deck) and roles, sorted."""
    occ: dict[int, list] = {}
    for p, z in zip("AB", s.zones):
        for name in _ZONE_FIELDS:
            for i, cid in enumerate(getattr(z, name)):
                occ.setdefault(cid, []).append((p, name, i if name == "deck" else -1))
        for card, host, kind in z.links:
            occ.setdefault(card, []).append((p, "link-card", kind))
            occ.setdefault(host, []).append((p, "link-host", kind))
    _plain_roles(s, sym.id_binds, lambda cid, *where: occ.setdefault(cid, []).append(where))
    return {c: tuple(sorted(v, key=repr)) for c, v in occ.items() if c in sym.members}


def _plain_roles(s: State, id_binds, add) -> None:
    """Every role of every card outside the zones, visited one by one: the path to it in the state (a
    field's name, an ordered tuple's position, a sorted tuple's element by what it holds besides card ids;
    an internal program's instructions from its counter on)."""
    add(s.attacker, "attacker")
    add(s.target, "target")
    for name in ("broken", "cant_attack", "broke", "bonus", "guards"):
        for c in getattr(s, name):
            add(c, name)
    for name in ("extra_breaks", "powers", "granted", "boosts"):
        for c, value in getattr(s, name):
            add(c, name, value, 0)
    for p in s.pending:
        add(p.source, "pending", p.kind, p.frame, p.controller, p.card, p.ability, "source")

    def task(t, *where):
        add(t.source, *where, "source")
        add(t.spell, *where, "spell")
        for name, value in t.binds:
            if name in id_binds:
                add(value, *where, "binds", name)
        for k, ins in enumerate(t.program[t.pc:]):
            for name, value in ins.args:
                if name in ("card", "castle", "shield", "old") and isinstance(value, int):
                    add(value, *where, "program", k, ins.op, name)

    for i, f in enumerate(s.frames):
        add(f.by, "frames", i, "by")
        for c in f.chosen:
            add(c, "frames", i, "chosen")
        for c, r in f.replaced:
            known = ((r.label, r.card, r.ability),)
            add(c, "frames", i, "replaced", *known, 0)
            add(r.source, "frames", i, "replaced", *known, 1, "source")
            add(r.target, "frames", i, "replaced", *known, 1, "target")
        for j, t in enumerate(f.resume):
            task(t, "frames", i, "resume", j)
    for j, t in enumerate(s.running):
        task(t, "running", j)
    for i, ch in enumerate(s.checks):
        for name in ("cards", "granted"):
            for c in getattr(ch, name):
                add(c, "checks", i, name)
        for j, c in enumerate(ch.arrived):
            add(c, "checks", i, "arrived", j)
        for d in ch.declared:
            add(d.card, "checks", i, "declared", d.kind, d.side, "card")
            add(d.cost, "checks", i, "declared", d.kind, d.side, "cost")
        for j, (sh, castle) in enumerate(ch.castles):
            add(sh, "checks", i, "castles", j, 0)
            add(castle, "checks", i, "castles", j, 1)
    for j, d in enumerate(s.queued):
        add(d.card, "queued", j, "card")
        add(d.cost, "queued", j, "cost")


def _plain_canonical(sym, s: State) -> State:
    sigs = _plain_signatures(sym, s)
    mapping = {}
    for ids in sym.classes:
        ranked = sorted(ids, key=lambda c: (sigs.get(c, ()), c))
        mapping.update({old: new for new, old in zip(ids, ranked) if new != old})
    return _rename(s, mapping, sym.id_binds) if mapping else s


SCENARIOS = [
    lambda: load_scenario(RULES_DIR / "Q14_escape_chain.yaml"),
    lambda: load_scenario(RULES_DIR / "Q01_bolshack_rider.yaml"),
    lambda: load_scenario(RULES_DIR / "D3_saved_shield_no_before_break.yaml"),
    lambda: load_scenario(RULES_DIR / "Q11d_savark_saver.yaml"),
    lambda: families.kakumeijin(4),
    lambda: families.shield_check(5),
]
# the whole attack: a tapped creature attacked and a blocker (the state's `target`); their identical
# cards (vanilla shields, decks) never diverge far enough to be renamed, so only equality is asserted
ATTACK = [RULES_DIR.parent / "attack" / "A10b_battle_tie.yaml",
          RULES_DIR.parent / "attack" / "A09_block_dai_league.yaml"]


@pytest.mark.parametrize("make", SCENARIOS)
def test_canonical_form_is_the_plain_definition(make):
    model = BreakModel(make())
    sym = model.symmetry
    assert sym.classes, "the scenario should have identical cards"
    renamed = 0
    for s in explore(model).states:   # unreduced: raw states, most of them not canonical
        fast, plain = sym.canonical(s), _plain_canonical(sym, s)
        assert fast == plain
        renamed += fast is not s
        for cid in sym.members:
            assert sym.signature(s, cid) == _plain_signatures(sym, s).get(cid, ())
    assert renamed > 0


@pytest.mark.parametrize("path", ATTACK, ids=lambda p: p.stem)
def test_canonical_form_is_the_plain_definition_in_the_whole_attack(path):
    model = BreakModel(load_scenario(path))
    sym = model.symmetry
    states = explore(model).states
    assert any(s.target >= 0 for s in states)          # the attacked or blocking creature is a role
    for s in states:
        assert sym.canonical(s) == _plain_canonical(sym, s)
        for cid in sym.members:
            assert sym.signature(s, cid) == _plain_signatures(sym, s).get(cid, ())


def test_a_card_without_a_twin_has_no_signature():
    model = BreakModel(families.shield_check(4))
    s = model.initial_state()
    alone = [i.id for i in model.instances if i.id not in model.symmetry.members]
    assert alone and all(model.symmetry.signature(s, c) == () for c in alone)


def _records():
    task = Task(program=(), pc=0, controller="A", source=3, ability="x", binds=(("it", 4),))
    yield State(turn="A", zones=(Zones(deck=(1, 2)), Zones(hand=(3,))), attacker=1, defender="B",
                pending=(Pending("triggered", 0, "B", "c", "a", 5),), running=(task,))
    yield Zones(deck=(1, 2, 3), deck_added=1, links=((4, 5, "aura"),))
    yield task
    yield Check(player="B", cards=(7, 8), declared=(Decl("S-Trigger", 7),))
    yield Frame(by=1, by_creature=True, defender="B", chosen=(7,), is_attack=True)


def _rebuilt(record, **changes):
    """The record built anew through its constructor, by keyword, with some fields changed."""
    values = {name: getattr(record, name) for name in record._fields}
    values.update(changes)
    return type(record)(**values)


@pytest.mark.parametrize("record", list(_records()), ids=lambda r: type(r).__name__)
def test_replace_is_building_anew(record):
    names = record._fields
    for name in names:
        value = getattr(record, name)
        if isinstance(value, bool):
            other = not value
        elif isinstance(value, int):
            other = 7
        else:
            other = ()
        changed = replace(record, **{name: other})
        assert changed == _rebuilt(record, **{name: other}) and getattr(changed, name) == other
        assert type(changed) is type(record)
        assert setter(type(record), name)(record, other) == changed
    assert replace(record) == record
    assert replace(record, no_such_field=1) == record   # an unknown name is ignored, as before
    for name in names:
        assert setter(type(record), name)(record, getattr(record, name)) == record
    first, last = names[0], names[-1]
    both = setter(type(record), first, last)(record, (), ())
    assert both == _rebuilt(record, **{first: (), last: ()})
    with pytest.raises(TypeError):
        setter(type(record), "no_such_field")
    copy = replace(record, **{first: getattr(record, first)})
    # an interned record (the zones) is one object per value; the others are copies
    assert copy == record and (copy is record) == is_interned(type(record)) and hash(copy) == hash(record)
    assert pickle.loads(pickle.dumps(record)) == record
    with pytest.raises(AttributeError):
        setattr(record, first, getattr(record, first))


def test_records_of_different_types_never_equal():
    # the same items in two record types, and a record against the plain tuple of its values
    assert Decl("S-Trigger", 3, -1) != Event("S-Trigger", 3, -1)   # equal as plain tuples of fields
    assert Replacement("x") != Replacement("x", -1, "", "", 0)
    assert Decl("S-Trigger", 3) != ("S-Trigger", 3, -1) and ("S-Trigger", 3, -1) != Decl("S-Trigger", 3)
    assert Pending("triggered", 0, "B", "c", "a", 5) != ("triggered", 0, "B", "c", "a", 5)
    assert len({Decl("S-Trigger", 3), ("S-Trigger", 3, -1)}) == 2
    # records of one type order field by field, as the dataclasses with order=True did
    assert sorted([Decl("S-Trigger", 3), Decl("G-Strike", 9), Decl("S-Trigger", 1)]) == \
        [Decl("G-Strike", 9), Decl("S-Trigger", 1), Decl("S-Trigger", 3)]


def test_two_record_types_cannot_share_a_name():
    from dmcheck.model.record import record

    with pytest.raises(TypeError, match="Decl"):
        @record
        class Decl:   # noqa: F811  (what the check refuses: a second record type named Decl)
            kind: str


def test_move_is_remove_then_add():
    z = Zones(deck=(1, 2, 3, 9), hand=(4, 8), graveyard=(5,), deck_added=2)
    for src, card in (("deck", 1), ("deck", 3), ("deck", 9), ("hand", 8), ("graveyard", 5)):
        for dst in ("hand", "graveyard", "mana", "deck_top", "deck_bottom"):
            assert z.move(src, dst, card) == z.remove(src, card).add(dst, card)
    assert z.remove("deck", 9).deck_added == 1 and z.remove("deck", 2).deck_added == 2   # the bottom part is 3, 9
    assert z.add("deck_bottom", 4).deck == (1, 2, 3, 9, 4) and z.add("deck_bottom", 4).deck_added == 3
    assert z.add("hand", 6).hand == (4, 6, 8)


def _plain_encode(value) -> str:
    if hasattr(type(value), "_fields"):
        return type(value).__name__ + "(" + ",".join(
            _plain_encode(getattr(value, f)) for f in value._fields) + ")"
    if isinstance(value, tuple):
        return "(" + ",".join(_plain_encode(v) for v in value) + ")"
    return repr(value)


def test_fingerprint_is_the_plain_encoding():
    model = BreakModel(load_scenario(RULES_DIR / "Q14_escape_chain.yaml"))
    states = explore(model).states
    assert len(states) > 1000
    for s in states:
        assert s.digest() == hashlib.blake2b(_plain_encode(s).encode(), digest_size=16).digest()
