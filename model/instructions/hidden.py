"""Card words of hidden-zone uses at other times: Attack Chance, Oni End (鬼エンド)
and Kirifu Dash. When they may be declared is model/touch.py's business; these are their conditions
and what the declared ability does when it resolves.

- Attack Chance (dmwiki "アタック・チャンス", 2024-10-20): declared from the hand when the turn player's
  creature of the named kind attacks, at the moment the attack triggers (with Revolution Change and
  Invasion); any number per attack; a card reaching the hand later cannot be declared. Its condition
  is written as `attack_chance: {any_of, all_of, cost_min}` on the attacking creature.
- Oni End (dmwiki "鬼エンド", 2021-11-12 and 2024-11-19): declared when any creature attacks (the
  turn player's own too), if a player has no shields and the declaring player's mana zone has the
  named civilizations: `oni_end: {mana_all_of: [Darkness, Fire]}`.
- Kirifu Dash (dmwiki "キリフダッシュ", 2020-02-18 and 2020-03-28): at the end of the attack of the turn
  player's creature that broke a shield during it and is still in the battle zone, the card may be
  used by paying its Kirifu Dash cost: `kirifu_dash: {mana: N}` (the mana zone must hold N cards;
  which mana is tapped is not modelled).
`cast_self` is what a declared Attack Chance or Oni End does: the card, still in the hand, is cast
(or summoned) for free; one that left the hand does nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..characteristics import CIVILIZATIONS
from ..state import State
from . import effects
from .declaring import _CONDITION
from .registry import NONE, deterministic, op

if TYPE_CHECKING:
    from ..game import Game

_CIVS = {"type": "array", "items": {"enum": list(CIVILIZATIONS)}, "minItems": 1, "maxItems": 5}


def use_from_hand(m: Game, s: State, player: str, card: int, out) -> State:
    """Cast the card from the hand for free, or summon it when it is a creature."""
    if m.card(card).type == "spell":
        return effects.cast(m, s, player, card, "hand", "graveyard", out)
    return effects.summon(m, s, player, card, "hand", out, summoned=True)


def _cast_self(m, s, task, ins, choice, out):
    me, card = task.controller, task.source
    if card not in s.zone(me).hand:
        return s   # declared, then left the hand: nothing happens (as SC4's fizzle)
    return use_from_hand(m, s, me, card, out)


_SCHEMA_CAST_SELF = {
    "doc": "a declared Attack Chance or Oni End: this card, if still in the hand, is cast (a creature "
           "summoned) for free",
    "properties": {},
}
op("cast_self", schema=_SCHEMA_CAST_SELF)((deterministic, _cast_self))

_SCHEMA_ATTACK_CHANCE = {
    "doc": "Attack Chance's condition on the attacking creature (checked when declared); does nothing itself",
    "properties": dict(_CONDITION),
}
op("attack_chance", schema=_SCHEMA_ATTACK_CHANCE)((deterministic, lambda m, s, t, i, c, o: s))

_SCHEMA_ONI_END = {
    "doc": "Oni End's condition (checked when declared): a player has no shields, and the declaring "
           "player's mana zone holds a card of each civilization of `mana_all_of`; does nothing itself",
    "properties": {"mana_all_of": _CIVS},
}
op("oni_end", schema=_SCHEMA_ONI_END)((deterministic, lambda m, s, t, i, c, o: s))


def _kirifu_options(m, s, task, ins):
    me, card = task.controller, task.source
    if card not in s.zone(me).hand or len(s.zone(me).mana) < ins.get("mana"):
        return []   # left the hand, or the cost cannot be paid: nothing happens
    verb = "casts" if m.card(card).type == "spell" else "summons"
    return [(("use",), f"{me} {verb} {m.label(card)} by its Kirifu Dash (paying {ins.get('mana')})"),
            (NONE, f"{me} does not use the Kirifu Dash of {m.label(card)}")]


def _kirifu(m, s, task, ins, choice, out):
    return s if choice == NONE else use_from_hand(m, s, task.controller, task.source, out)


_SCHEMA_KIRIFU_DASH = {
    "doc": "Kirifu Dash's use: if this card is still in the hand and its owner's mana zone holds `mana` "
           "cards, he may cast or summon it",
    "properties": {"mana": {"type": "integer", "minimum": 0, "maximum": 1000}},
    "required": ["mana"],
}
op("kirifu_dash", schema=_SCHEMA_KIRIFU_DASH)((_kirifu_options, _kirifu))
