"""Triggered abilities as patterns over events (R603.1-2, R700.1): which event, whose, which card.

A triggered ability's condition is data: the kind of event it watches (`on`), whose event it is
relative to the ability's controller (`player`), whether the event's card is the ability's own card
or another (`card`), and what that card must be (`has`, `type`). The procedure emits trigger events
(model/triggers.py `Triggers.trigger`: the kind, its player, its card) and one matcher compares every
pattern with them. Every trigger word of the vocabulary that watches an event is an alias of a
pattern (`ALIASES`), so `trigger: destroyed` and `trigger: {on: destroyed, card: this}` are one
thing; the words that declare from the hand (Ninja Strike, Revolution Change, ...) and before-break
abilities keep their own mechanisms and have no pattern.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import InputError
from .yamlio import key_path, line_of

# the events an ability can watch, with what their `player` and `card` are and the rule that says
# when they trigger (docs/scenario-extensions.md "Triggers as patterns over events"; `dmcheck cards --words`)
EVENTS: dict[str, tuple[str, str]] = {
    "enters": ("a creature is put into the battle zone: the player who puts it, the creature", "R112.3a"),
    "summoned": ("a creature is summoned, besides its `enters` (R701.3a: S-Trigger, S-Back, Sabaki Z, Revolution 0, "
                 "Ninja Strike, a Mechraid or Kirifu Dash use; never a creature an effect puts into the battle zone, "
                 "nor one Revolution Change, Invasion or Ninja Change brings in): the summoner, the creature",
                 "R701.3a"),
    "cast": ("a spell is cast: its caster, the spell", "R509.4"),
    "destroyed": ("a card is destroyed: its owner, the card", "R701.6b"),
    "leaves": ("a creature leaves the battle zone, whatever its new zone (destroyed, returned, put into the "
               "mana zone, ...; a pile's top card alone too): its owner, the card, seen as it was just before "
               "(603.5c)", "R603.5c"),
    "tapped": ("a creature becomes tapped: by attacking, by blocking, by an effect; never one put into a zone "
               "tapped or tapped already (603.2c): its owner, the creature", "R603.2c"),
    "untapped": ("a creature becomes untapped by an effect; never one untapped already (603.2c): its owner, "
                 "the creature", "R603.2c"),
    "charged": ("a card is charged from the hand into the mana zone (R701.8a, the card word `charge`); never a "
                "card put into the mana zone another way (from the deck, a creature, a Charger spell): the charger, "
                "the card", "R701.8a"),
    "fortified": ("a castle fortifies a shield, put onto it from the hand (R701.19a, R304.2; the card word "
                  "`fortify`); never a castle the position started with: the castle's owner, the castle",
                  "R701.19a"),
    "generated": ("a cross gear is generated into the battle zone (R701.16a, the card word `generate`): its "
                  "owner, the gear", "R701.16a"),
    "crossed": ("a cross gear is crossed onto a creature, or onto another one (R701.17a, 303.4; the card word "
                "`cross`): its owner, the gear", "R701.17a"),
    "draw": ("a card is drawn, one event per card drawn (R114.2; a move to the hand without the word "
             "'draw' is none, R114.3; a draw from an empty deck is none, R114.6a): the drawer, the card", "R114.2"),
    "attacks": ("a creature attacks: the turn player, the attacker", "R506.3"),
    "attacked": ("a creature is attacked: its owner, the creature attacked", "R506.3"),
    "player_attacked": ("a player is attacked: the player attacked, the attacker", "R506.3"),
    "blocks": ("a creature blocks: its owner, the blocker (its characteristics at the block, R507.3b)", "R507.3"),
    "blocked": ("an attacking creature is blocked: the turn player, the attacker", "R507.3"),
    "not_blocked": ("a creature attacks a player and is not blocked: the turn player, the attacker", "R507.3c"),
    "battle_start": ("a battle begins, one event per creature in it, resolved before the powers are "
                     "compared (R115.2): its owner, the creature", "R115.2"),
    "battle_win": ("a creature wins a battle, never on a tie: its owner, the creature", "R115.3d"),
    "battle_lose": ("a creature loses a battle, both on a tie: its owner, the creature", "R115.3d"),
    "breaks": ("a creature breaks a shield, once per shield: its controller, the creature", "D6"),
    "breaks_one_or_more": ("a creature breaks one or more shields, once per break: its controller, the creature",
                           "D6"),
    "shield_leaves": ("a card leaves the shield zone by a break or with its castle: its owner, the card", "D6"),
    "end_of_attack": ("the end-of-attack step begins: the turn player, the attacker", "R510"),
    "end_of_turn": ("the end step of the turn begins (with `until: end_turn`): the turn player, no card",
                    "R511.1"),
    "start_of_turn": ("the start step of a turn begins, after its player untapped his cards (a scenario playing on "
                      "to the next turn, model/turn.py): the turn player, no card", "R501.2"),
}
# the events that name no card: a pattern on them cannot ask about the event's card
NO_CARD = frozenset({"end_of_turn", "start_of_turn"})
# the events of a card leaving the battle zone: an ability watching any card's also sees its own card's,
# judged as it was just before (603.5c, 603.5d)
LEAVING = frozenset({"destroyed", "leaves"})
# where a card leaving the battle zone may go (a `leaves` pattern's `to`; the deck's top and bottom are `deck`)
LEAVES_TO = ("hand", "mana", "graveyard", "deck", "shields")
WHOSE = ("you", "opponent", "any")
# where a watching ability may work (`zone:` of an ability): the battle zone (R110.4c), or a zone it names
# (R110.4b, R110.4g: the graveyard, the mana zone)
TRIGGER_ZONES = ("battle", "graveyard", "mana")
DELAYED_ZONE = "delayed"   # the `zone` of a delayed ability (R603.6): in no zone, an effect made it
WHICH = ("this", "other", "any")


@dataclass(frozen=True, slots=True)
class TriggerPattern:
    """What an event must be for an ability to trigger. `player` and `card` are relative to the ability:
    `you` is its controller, `this` its own card."""

    on: tuple[str, ...]
    player: str = "any"
    card: str = "any"
    has: tuple[str, ...] = ()      # words (race, civilization, keyword) the event's card prints, all of them
    type: str = ""                 # the event's card's type
    first_this_turn: bool = False  # the first such event this turn (a cast: the player's first spell)
    once_per_turn: bool = False    # the ability triggers at most once each turn (State.fired)
    to: tuple[str, ...] = ()       # `leaves`: the zones the card goes to (any when empty)

    def text(self) -> str:
        """A short name (what events and labels show for an ability written as a pattern)."""
        parts = ["on " + "/".join(self.on)]
        parts += [f"{k} {v}" for k, v in (("player", self.player), ("card", self.card)) if v != "any"]
        if self.has:
            parts.append("has " + "+".join(self.has))
        if self.type:
            parts.append("type " + self.type)
        if self.first_this_turn:
            parts.append("first this turn")
        if self.once_per_turn:
            parts.append("once per turn")
        if self.to:
            parts.append("to " + "/".join(self.to))
        return ", ".join(parts)

    def as_data(self) -> dict[str, Any]:
        """The pattern as a card file writes it (the keys that differ from their defaults)."""
        out: dict[str, Any] = {"on": self.on[0] if len(self.on) == 1 else list(self.on)}
        for key, value, default in (("player", self.player, "any"), ("card", self.card, "any"),
                                    ("has", list(self.has), []), ("type", self.type, ""),
                                    ("first_this_turn", self.first_this_turn, False),
                                    ("once_per_turn", self.once_per_turn, False), ("to", list(self.to), [])):
            if value != default:
                out[key] = value
        return out

    def about_card(self) -> bool:
        return self.card != "any" or bool(self.has) or bool(self.type)


def _this(kind: str) -> TriggerPattern:
    return TriggerPattern(on=(kind,), card="this")


# every trigger word that watches an event, as its pattern (model/vocabulary.py TRIGGERS says what each means)
ALIASES: dict[str, TriggerPattern] = {
    **{w: _this(w) for w in ("enters", "summoned", "destroyed", "attacks", "battle_win", "battle_lose", "breaks",
                             "breaks_one_or_more", "end_of_attack", "blocks", "not_blocked", "attacked", "blocked")},
    "end_of_your_turn": TriggerPattern(on=("end_of_turn",), player="you"),
    "start_of_your_turn": TriggerPattern(on=("start_of_turn",), player="you"),
    "first_spell": TriggerPattern(on=("cast",), player="you", first_this_turn=True),
    "opponent_cast_or_summon": TriggerPattern(on=("cast", "enters"), player="opponent"),
    "own_dragon_destroyed": TriggerPattern(on=("destroyed",), player="you", card="other", has=("Dragon",)),
    "opponent_attacks": TriggerPattern(on=("attacks",), player="opponent"),
    "own_creature_breaks": TriggerPattern(on=("breaks",), player="you"),
    "opponent_shield_leaves": TriggerPattern(on=("shield_leaves",), player="opponent"),
    "own_attacked": TriggerPattern(on=("attacked",), player="you"),
    "you_attacked": TriggerPattern(on=("player_attacked",), player="you"),
    "opponent_summons": TriggerPattern(on=("summoned",), player="opponent"),
    "opponent_creature_enters": TriggerPattern(on=("enters",), player="opponent"),
    "you_charge": TriggerPattern(on=("charged",), player="you"),
    "you_draw": TriggerPattern(on=("draw",), player="you"),
}

SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "a pattern over events: on (an event or a list of them), player (you, opponent, any), "
                   "card (this, other, any), has (words the event's card prints), type, first_this_turn, "
                   "once_per_turn, to (with on: leaves, where the card goes)",
    "properties": {
        "on": {"if": {"type": "string"}, "then": {"enum": sorted(EVENTS)},
               "else": {"type": "array", "items": {"enum": sorted(EVENTS)}, "minItems": 1, "maxItems": 20}},
        "player": {"enum": list(WHOSE)},
        "card": {"enum": list(WHICH)},
        "has": {"type": "array", "items": {"type": "string"}, "maxItems": 20},
        "type": {"enum": ["creature", "spell", "castle", "aura", "tamaseed", "cross_gear"]},
        "first_this_turn": {"type": "boolean"},
        "once_per_turn": {"type": "boolean"},
        "to": {"type": "array", "items": {"enum": list(LEAVES_TO)}, "minItems": 1, "maxItems": 10},
    },
    "required": ["on"],
    "additionalProperties": False,
}


def read(raw: Any, root: Any, where: tuple, file: str) -> TriggerPattern | None:
    """The pattern of a `trigger:` value (a word or a mapping the schema accepted); None for a word that
    watches no event (a declaration from the hand, before_break). A pattern that can never match is
    refused at its line."""
    if isinstance(raw, str):
        return ALIASES.get(raw)
    on = (raw["on"],) if isinstance(raw["on"], str) else tuple(raw["on"])
    pattern = TriggerPattern(on=on, player=raw.get("player", "any"), card=raw.get("card", "any"),
                             has=tuple(str(w) for w in raw.get("has", ())), type=str(raw.get("type", "")),
                             first_this_turn=bool(raw.get("first_this_turn", False)),
                             once_per_turn=bool(raw.get("once_per_turn", False)),
                             to=tuple(str(z) for z in raw.get("to", ())))
    cardless = [k for k in on if k in NO_CARD]
    if cardless and pattern.about_card():
        raise InputError(file, line_of(root, where), key_path(where),
                         f"the event {cardless[0]!r} names no card, so `card`, `has` and `type` cannot be asked of "
                         f"it; expected a pattern with only `on` and `player` for it")
    if pattern.to and set(on) != {"leaves"}:
        raise InputError(file, line_of(root, where + ("to",)), key_path(where + ("to",)),
                         "`to` names where a card leaving the battle zone goes; expected it with `on: leaves` only")
    if pattern.first_this_turn and "cast" in on and len(on) > 1:
        raise InputError(file, line_of(root, where + ("first_this_turn",)), key_path(where + ("first_this_turn",)),
                         "first_this_turn on a cast counts the spells a player cast this turn, on another event the "
                         "events this ability saw; expected `on: cast` alone, or events without cast")
    return pattern
