"""Model objects as plain data: choices, states, positions and cards named as the scenario names them.

The API (dmcheck/api.py), `export` and `conform` speak to people and to other engines, which know a
card by its scenario label (`Vanilla#2`), never by the model's instance ids or records. Everything
here turns one model object into JSON-able values (str, int, bool, None, lists, dicts) so that no
caller needs to import the model to read them.
"""

from __future__ import annotations

import json
from typing import Any

from dmcheck.model import continuous
from dmcheck.model.characteristics import INFINITY
from dmcheck.model.homes import home_of
from dmcheck.model.instructions.common import attachments, same
from dmcheck.model.state import PLAYERS, Decl, Pending, Replacement, State
from dmcheck.model.vocabulary import TRIGGERS

# instructions whose choices carry numbers that are not cards (the count drawn)
_COUNTS = {"draw"}
# every zone of a player, in the order a state view lists them
ZONES = ("battle", "hand", "mana", "shields", "graveyard", "deck", "resolving", "standby", "attached",
         "hyperspatial", "super_gr", "abyss")


def decision(m: Any, s: State, action: Any) -> str:
    """What is being decided: the action's kind, or for a card word's choice its instruction (`cast_free`)."""
    if action.kind != "choose":
        return action.kind
    task = s.running[-1]
    return task.program[task.pc].op.lstrip("_")


def part(m: Any, value: Any, cards: bool = True) -> Any:
    """One item of a choice as data: a card id becomes its label, a record an object of labels."""
    if isinstance(value, Pending):
        return pending(m, value)
    if isinstance(value, Replacement):
        out = {"replacement": value.label}
        if value.source >= 0:
            out["source"] = m.label(value.source)
        if value.target >= 0:
            out["target"] = m.label(value.target)
        return out
    if isinstance(value, Decl):
        out = {"declare": value.kind, "card": m.label(value.card)}
        if value.cost >= 0:
            out["cost"] = m.label(value.cost)
        if m.card(value.card).spell_side is not None:   # a twinpact: which side's ability (S214, S223)
            out["side"] = value.side or "creature"
        return out
    if isinstance(value, tuple):
        return [part(m, v, cards) for v in value]
    if isinstance(value, bool) or not isinstance(value, int):
        return value
    if cards and 0 <= value < len(m.instances):
        return m.label(value)
    return None if value < 0 else value


def named_cards(value: Any) -> list[str]:
    """Every card label a choice's data names (labels are the strings of `card`-like keys and lists)."""
    found: list[str] = []
    if isinstance(value, dict):
        for key in ("card", "source", "target", "cost"):
            if isinstance(value.get(key), str):
                found.append(value[key])
    elif isinstance(value, list):
        for item in value:
            found += named_cards(item)
    return found


def choice(m: Any, s: State, index: int, action: Any) -> dict[str, Any]:
    """One legal choice labelled by what it does: who, which decision, the cards it names, the text."""
    what = decision(m, s, action)
    items = part(m, tuple(action.choice), cards=what not in _COUNTS)
    labels = {m.label(i.id) for i in m.instances}
    cards = [x for x in _flat(items) if isinstance(x, str) and x in labels] + named_cards(items)
    return {"index": index, "player": action.player, "kind": action.kind, "decision": what,
            "what": items, "cards": sorted(set(cards)), "text": action.text}


def _flat(value: Any) -> list:
    if isinstance(value, list):
        return [x for v in value for x in _flat(v)]
    return [value]


def choice_key(label: dict[str, Any]) -> str:
    """What two choices must share to be the same choice: player, kind, decision and `what` (not the
    text, which is dmcheck's English, nor the index, which is dmcheck's order)."""
    return json.dumps([label.get("player"), label.get("kind"), label.get("decision"), label.get("what")],
                      sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def pending(m: Any, p: Pending) -> dict[str, Any]:
    """A waiting effect: its ability (`Card/ability`), source card, controller, kind and frame."""
    return {"ability": m.ability_label(p.card, p.ability), "source": m.label(p.source),
            "controller": p.controller, "kind": p.kind, "frame": p.frame}


def zones(m: Any, s: State) -> dict[str, dict[str, list[str]]]:
    """Each player's non-empty zones as labels (the deck and the super GR zone top first, the others sorted)."""
    out: dict[str, dict[str, list[str]]] = {}
    for player in PLAYERS:
        z = s.zone(player)
        mine = {}
        for zone in ZONES:
            ids = getattr(z, zone)
            if ids:
                labels = [m.label(c) for c in ids]
                mine[zone] = labels if zone in ("deck", "super_gr") else sorted(labels)
        for mark in ("tapped", "face_up"):
            if getattr(z, mark):
                mine[mark] = sorted(m.label(c) for c in getattr(z, mark))
        if z.links:
            mine["links"] = sorted([m.label(c), m.label(h), kind] for c, h, kind in z.links)
        out[player] = mine
    return out


def state(m: Any, s: State) -> dict[str, Any]:
    """A state as data: the zones, what waits, the break frames, the shields broken, how it ended."""
    out: dict[str, Any] = {"zones": zones(m, s), "pending": [pending(m, p) for p in s.pending],
                           "frames": [{"by": m.label(f.by), "chosen": sorted(m.label(c) for c in f.chosen),
                                       "broken": f.broken} for f in s.frames],
                           "broken": sorted(m.label(c) for c in s.broken),
                           "attacker": m.label(s.attacker) if s.attacker >= 0 else None,
                           "checking": len(s.checks), "running": [t.ability for t in s.running]}
    return out


def copies(m: Any, s: State) -> list[list[str]]:
    """The groups of cards no rule can tell apart in `s` (same card, owner, place and roles): the model
    offers one choice per group, naming its lowest copies; an engine may name any of them."""
    groups: dict[tuple, list[int]] = {}
    for ids in m.symmetry.classes:
        for c in ids:
            key = (same(m, s, c), c == s.attacker, attachments(m, s, c))
            groups.setdefault(key, []).append(c)
    found = [sorted(ids) for ids in groups.values() if len(ids) > 1]
    return sorted([m.label(c) for c in ids] for ids in found)


def position(m: Any, s: State) -> dict[str, Any]:
    """The scenario's position before the attack: whose turn, each zone's cards (and the marks `summoned`,
    creatures put into the battle zone this turn, and `power`, [creature, N] changes until the end of the
    turn), what attacks what (`choose`: the turn player picks the attack, or none, as the first choice)."""
    sc = m.scenario
    attack: dict[str, Any] = {"attacker": m.label(s.attacker)} if s.attacker >= 0 else {"choose": True}
    if s.target >= 0:
        attack["creature"] = m.label(s.target)
    elif s.attacker >= 0:
        attack["player"] = s.defender
    restrictions = {p: {k: list(v) if isinstance(v, tuple) else v for k, v in sorted(r.items())}
                    for p, r in sorted(sc.restrictions.items())}
    table: dict[str, dict[str, list]] = dict(zones(m, s))
    for c in sorted(getattr(m, "summoned", ())):   # put into the battle zone this turn (summoning sickness)
        table[m.instances[c].owner].setdefault("summoned", []).append(m.label(c))
    for c, n in s.powers:                           # a power change until the end of the turn (R511.2)
        table[m.instances[c].owner].setdefault("power", []).append([m.label(c), n])
    for mine in table.values():
        for mark in ("summoned", "power"):
            if mark in mine:
                mine[mark] = sorted(mine[mark])
    found = {"turn": s.turn, "attack": attack, "until": sc.until, "restrictions": restrictions,
             "zones": table,
             "cards": {i.label: {"card": i.card, "name": m.pool[i.card].name, "owner": i.owner}
                       for i in m.instances}}
    if sc.attacks is not None:   # the most attacks of the turn (model/turn_plan.py)
        found["attacks"] = sc.attacks
    return found


def card(cdef: Any) -> dict[str, Any]:
    """A card definition as the card files write it (model/data/cards.yaml)."""
    out: dict[str, Any] = {"id": cdef.id, "name": cdef.name, "ja": cdef.ja, "type": cdef.type,
                           "cost": cdef.cost, "power": cdef.power, "breaker": cdef.breaker,
                           "keywords": list(cdef.keywords)}
    if cdef.home:   # a psychic or GR creature, a dragheart: its card file says where it lives (model/homes.py)
        out["type"] = home_of(cdef).card_type
    if cdef.power >= INFINITY:   # R108.1c
        out["power"] = "infinity"
    if cdef.civilizations:
        out["civilizations"] = list(cdef.civilizations)
    if cdef.races:
        out["races"] = list(cdef.races)
    if cdef.spell_side is not None:   # a twinpact: its creature side here, its spell side under `spell` (S214)
        side = cdef.spell_side
        out["type"] = "twinpact"
        out["spell"] = {"name": side.name, "ja": side.ja, "cost": side.cost, "keywords": list(side.keywords),
                        "effect": [instruction(i) for i in side.effect]}
    if cdef.effect:
        out["effect"] = [instruction(i) for i in cdef.effect]
    # a delayed ability (zone `delayed`) is written inside the `delayed_trigger` that makes it
    written = [a for a in cdef.abilities if a.zone != "delayed"]
    if written:
        out["abilities"] = [_ability(a) for a in written]
    if cdef.statics:   # static abilities (model/continuous.py)
        out["statics"] = [continuous.as_data(st) for st in cdef.statics]
    if cdef.s_trigger_if:
        out["s_trigger_if"] = dict(cdef.s_trigger_if)
    if cdef.omitted:
        out["omitted"] = cdef.omitted
    return out


def _ability(a: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": a.id}
    pattern = getattr(a, "pattern", None)   # a trigger written as a pattern, not as a word of the vocabulary
    out["replaces" if a.replaces else "trigger"] = a.replaces or (
        pattern.as_data() if pattern is not None and a.trigger not in TRIGGERS else a.trigger)
    if a.replaces:
        out["optional"] = a.optional
    if a.zone != "battle":
        out["zone"] = a.zone
    out["effect"] = [instruction(i) for i in a.effect]
    return out


def instruction(ins: Any) -> dict[str, Any]:
    """`{op: {arg: value}}`, as a card file writes one instruction."""
    return {ins.op: {k: _mapping(v) if k in _MAPPINGS else _plain(v) for k, v in ins.args}}


# the arguments a card file writes as a mapping (frozen as sorted pairs in the instruction), and the keys
# inside them that hold a mapping again (`if`'s `cond: {where: {bound, zone}}`)
_MAPPINGS = frozenset({"cond", "which"})
_NESTED = frozenset({"where"})


def _mapping(value: Any) -> dict[str, Any]:
    return {k: _mapping(v) if k in _NESTED else _plain(v) for k, v in value}


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        if value and all(hasattr(v, "op") for v in value):
            return [instruction(v) for v in value]
        return [_plain(v) for v in value]
    return value
