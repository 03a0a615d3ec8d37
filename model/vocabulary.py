"""The words a card file may use: triggers, effect instructions and their arguments.

Cards are data. Each ability is a trigger from TRIGGERS and an effect: a list of instructions from
EFFECTS, each a one-key mapping `{op: {arg: value}}`. The schemas here are what the card loader
checks, so a user's card file fails with the line and the word it did not know.
"""

from __future__ import annotations

TRIGGERS = {
    "before_break": "before each break of this creature: one pending effect per shield chosen (R509.3, R603.7)",
    "enters": "when this creature is put into the battle zone (R112.3a for an S-Trigger creature)",
    "first_spell": "the first time its controller casts a spell each turn",
    "opponent_cast_or_summon": "when an opponent casts a spell or puts a creature into the battle zone",
}

_ZONES = {"enum": ["hand", "graveyard"]}
_WHOSE = {"enum": ["own", "opponent", "any"]}

_PROGRAM: dict = {"type": "array"}  # each item is checked as an instruction by the card loader

EFFECTS: dict[str, dict] = {
    "cast_free": {
        "doc": "may cast one spell for free from the given zones with cost at most a limit",
        "properties": {
            "from": {"type": "array", "items": _ZONES, "minItems": 1},
            "cost_max": {"description": "a number or the word mana (cards in own mana zone)",
                         "anyOf": [{"type": "integer", "minimum": 0}, {"enum": ["mana"]}]},
            "then": {"enum": ["deck_bottom", "graveyard"]},
            "optional": {"type": "boolean"},
        },
        "required": ["from", "cost_max"],
    },
    "return_to_hand": {
        "doc": "return one creature in the battle zone to its owner's hand",
        "properties": {"whose": _WHOSE, "optional": {"type": "boolean"}},
    },
    "deck_top_and_back": {
        "doc": "put one own non-evolution creature on the deck top, then from there into the battle zone; "
               "later instructions call it 'it'",
        "properties": {},
    },
    "break_shields": {
        "doc": "break opponent shields: by 'it' (the creature chosen earlier, its before-break abilities "
               "trigger) or by 'self' (this spell or ability, nothing triggers)",
        "properties": {"count": {"type": "integer", "minimum": 1}, "by": {"enum": ["it", "self"]}},
        "required": ["count", "by"],
    },
    "extra_break": {
        "doc": "this turn, own creatures break that many more shields",
        "properties": {"amount": {"type": "integer", "minimum": 1}},
    },
    "draw": {
        "doc": "draw cards; with up_to the controller picks how many",
        "properties": {"count": {"type": "integer", "minimum": 1}, "up_to": {"type": "boolean"}},
        "required": ["count"],
    },
    "discard": {
        "doc": "discard one card from own hand per count; with optional the controller may decline, and "
               "'if_done' runs only if a card was discarded",
        "properties": {"count": {"type": "integer", "minimum": 1}, "optional": {"type": "boolean"},
                       "if_done": _PROGRAM},
    },
    "skip_turn": {
        "doc": "skip the rest of the turn (Q09)",
        "properties": {"optional": {"type": "boolean"}},
    },
    "mechraid": {
        "doc": "look at the top 3 cards of own deck, may use one with the keyword and cost at most n free, "
               "the rest to the deck bottom in any order",
        "properties": {"n": {"type": "integer", "minimum": 0}, "keyword": {"type": "string"}},
        "required": ["n", "keyword"],
    },
    "add_shield_from_deck": {
        "doc": "put the top card of own deck into own shield zone",
        "properties": {"count": {"type": "integer", "minimum": 1}},
    },
    "destroy": {
        "doc": "destroy one creature (R701.6a)",
        "properties": {"whose": _WHOSE, "optional": {"type": "boolean"}},
    },
}
