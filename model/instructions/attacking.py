"""Card words about the attack itself (scenarios/attack/)."""

from __future__ import annotations

from ..events import ev
from ..state import replace
from . import destruction, effects
from .registry import deterministic, op


def _destroy_attacker(m, s, task, ins, choice, out):
    """A22 (Kaasguy): destroy the attacking creature, if it is still in the battle zone (R701.6a)."""
    return destruction.attempt(m, s, s.attacker, out)


_SCHEMA_DESTROY_ATTACKER = {
    "doc": "destroy the attacking creature (a \"when an opponent's creature attacks\" ability, A22)",
    "properties": {},
}
op("destroy_attacker", schema=_SCHEMA_DESTROY_ATTACKER)((deterministic, _destroy_attacker))


def ninja_mana(card) -> int | None:
    """The mana count a card's Ninja Strike asks for (None: it has none)."""
    for ability in card.abilities_with("ninja_strike"):
        for ins in ability.effect:
            if ins.op == "ninja_summon":
                return ins.get("mana")
    return None


def _ninja_summon(m, s, task, ins, choice, out):
    """Ninja Strike N (A07): put the declared card from the hand into the battle zone if it is still
    there and its owner has N or more cards in the mana zone, counted now, on resolution (A05, S156,
    since 2022-08-10); before, the count was taken at the declaration (S157) and is not taken again.
    R110.4d: declared from another zone an `execute_from` static opened to it (model/continuous.py), it is
    summoned from there if it can still be executed from there (the card itself counted while it lies in the
    mana zone)."""
    me, card = task.controller, task.source
    where = m.execution_zone(s, card) if m.elsewhere else ("hand" if card in s.zone(me).hand else "")
    if not where:
        return s
    if m.version.ninja_mana_on_resolution and len(s.zone(me).mana) < ins.get("mana"):
        return s
    return effects.summon(m, s, me, card, where, out, summoned=True)   # R112.3c


_SCHEMA_NINJA_SUMMON = {
    "doc": "Ninja Strike's effect: summon this card from the hand (R112.3c) if its owner has `mana` "
           "or more cards in the mana zone (counted on resolution since 2022-08-10, at the declaration before)",
    "properties": {"mana": {"type": "integer", "minimum": 0}},
    "required": ["mana"],
}
op("ninja_summon", schema=_SCHEMA_NINJA_SUMMON)((deterministic, _ninja_summon))


def _stop_attack(m, s, task, ins, choice, out):
    """"Stop that attack" (攻撃の中止; S146): the rest of the attack's steps are skipped — no block, no
    battle, no break, so "is not blocked" never comes — but it is still the end of an attack: what
    has already triggered resolves, and the end-of-attack step comes (R510, A12). Only an attack in
    progress can be stopped (the steps after the attack triggers read `stop_attack`, R505.6a's path)."""
    if s.attacker < 0 or s.phase not in ("attack", "blocked", "battle_start") or s.stop_attack:
        return s
    return replace(s, stop_attack=True)


_SCHEMA_STOP_ATTACK = {
    "doc": "stop the attack in progress (攻撃の中止): no block, battle or break follows; abilities already "
           "triggered still resolve and the end-of-attack step comes (S146)",
    "properties": {},
}
op("stop_attack", schema=_SCHEMA_STOP_ATTACK)((deterministic, _stop_attack))


def _put_blocking(m, s, task, ins, choice, out):
    """Put this card from the hand into the battle zone blocking the attacking creature (R507.4): it is the
    blocking creature, the attack an attack on it and the attacker blocked (R507.2c), but it did not "block":
    no "when it blocks" or "when blocked" ability triggers (model/attack.py `after_block`: no designation).
    Only the defender's card does it, while the attack goes on before its battle; otherwise the card stays
    where it is. An evolution creature, put by `_put_evolution`, does not enter blocking (a limit)."""
    me, card = task.controller, task.source
    if card not in s.zone(me).hand or s.attacker < 0 or me != s.defender or s.stop_attack \
            or s.phase not in ("attack", "blocked") or s.attacker not in s.zone(s.turn).battle:
        return s
    s = effects.summon(m, s, me, card, "hand", out)
    if card not in s.zone(me).battle:
        return s
    out.append(ev("redirect", "R507.4", card=m.label(card), attacker=m.label(s.attacker), player=me,
                  how="entered blocking"))
    return replace(s, target=card, blocked=True)


_SCHEMA_PUT_BLOCKING = {
    "doc": "put this card from the hand into the battle zone blocking the attacking creature (R507.4): the "
           "blocking creature, though it did not block (no \"when it blocks\" trigger); the defender's card only, "
           "during the attack before its battle",
    "properties": {},
}
op("put_blocking", schema=_SCHEMA_PUT_BLOCKING)((deterministic, _put_blocking))
