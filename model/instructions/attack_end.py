"""Card words used at the end of an attack (R510) and for effects that last while attacking
(scenarios/attack/ A12, A25)."""

from __future__ import annotations

from ..events import ev
from ..state import replace
from . import destruction
from .registry import NONE, deterministic, op


# ---- King Bolbalzak: "at the end of this creature's attack, if you have another Dragon, you may put
# all your creatures on the bottom of your deck; if you do, take another turn after this one" --------
def _others_with(m, s, me, keyword, source):
    return [c for c in s.zone(me).battle if c != source and m.card(c).type == "creature" and m.card(c).has(keyword)]


def _extra_turn_options(m, s, task, ins):
    me = task.controller
    need = ins.get("if_another")
    if need and not _others_with(m, s, me, need, task.source):
        return []   # the condition is checked on resolution (A12): nothing happens
    if not ins.get("optional", False):
        return None
    cost = " by putting all its creatures on the bottom of its deck" if ins.get("cost") else ""
    return [(("yes",), f"{me} takes another turn{cost}"), (NONE, f"{me} does not take another turn")]


def _extra_turn(m, s, task, ins, choice, out):
    if choice == NONE:
        return s
    me = task.controller
    if ins.get("cost") == "own_creatures_to_deck_bottom":
        # the owner would choose their order on the deck bottom; the model puts them in id order
        for cid in sorted(c for c in s.zone(me).battle if m.card(c).type == "creature"):
            if cid in s.zone(me).battle:
                s = destruction.move_out(m, s, cid, "deck_bottom", out)
    out.append(ev("extra_turn", "R510", player=me))
    return replace(s, extra_turns=s.extra_turns + (me,))


_SCHEMA_EXTRA_TURN = {
    "doc": "take another turn after this one; `if_another`: only if another own creature has that keyword "
           "(checked on resolution); `cost`: what is done first (own_creatures_to_deck_bottom); `optional`",
    "properties": {"if_another": {"type": "string", "minLength": 1},
                   "cost": {"enum": ["own_creatures_to_deck_bottom"]},
                   "optional": {"type": "boolean"}},
}
op("extra_turn", schema=_SCHEMA_EXTRA_TURN)((_extra_turn_options, _extra_turn))


# ---- "gets +N power until the end of the attack" (A12c) -----------------------------------------------
def _add_power(m, s, task, ins, choice, out):
    """The source (`who: self`) or the attacking creature (`who: attacker`) gets +`power` power until
    the end of the attack (R510 ends it), if it is in the battle zone now."""
    cid = task.source if ins.get("who", "self") == "self" else s.attacker
    owner = m.owner(cid)
    if cid not in s.zone(owner).battle:
        return s
    amount = ins.get("power")
    out.append(ev("power", "A12c", card=m.label(cid), player=owner, amount=amount))
    return replace(s, boosts=tuple(sorted(s.boosts + ((cid, amount),))))


_SCHEMA_ADD_POWER = {
    "doc": "a creature (`who`: self, the ability's source; attacker, the attacking creature) gets +`power` "
           "power `until` end_attack (the end-of-attack step, R510)",
    "properties": {"power": {"type": "integer", "minimum": 0, "maximum": 1_000_000_000},
                   "who": {"enum": ["self", "attacker"]},
                   "until": {"enum": ["end_attack"]}},
    "required": ["power", "until"],
}
op("add_power", schema=_SCHEMA_ADD_POWER)((deterministic, _add_power))


# ---- "cannot be destroyed until the end of the attack" (R506.1d as S105 renders it) -------------------
def _protect(m, s, task, ins, choice, out):
    """The source (`who: self`) or the attacking creature (`who: attacker`) cannot be destroyed until the
    end of the attack, if it is in the battle zone now: a destroy attempt still happens (R701.6a) and
    leaves it there; R510 ends the protection with the attack's other effects."""
    cid = task.source if ins.get("who", "self") == "self" else s.attacker
    owner = m.owner(cid)
    if cid not in s.zone(owner).battle or cid in s.guards:
        return s
    out.append(ev("protect", "R506.1d", card=m.label(cid), player=owner))
    return replace(s, guards=tuple(sorted(s.guards + (cid,))))


_SCHEMA_PROTECT = {
    "doc": "a creature (`who`: self, the ability's source; attacker, the attacking creature) cannot be "
           "destroyed `until` end_attack (the end-of-attack step, R510)",
    "properties": {"who": {"enum": ["self", "attacker"]},
                   "until": {"enum": ["end_attack"]}},
    "required": ["until"],
}
op("protect", schema=_SCHEMA_PROTECT)((deterministic, _protect))
