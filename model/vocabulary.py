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
    "destroyed": "when this card is destroyed: it reached the graveyard face up, with its characteristics (S003)",
    "own_dragon_destroyed": "when another own Dragon is destroyed (face up, with characteristics: Q12); "
                            "with `zone: graveyard` the ability watches from the graveyard",
}

REPLACES = {
    "own_shield_break": "one of its controller's shields would be broken (Shield Saver; decided per shield, D2)",
    "fortified_shield_break": "the shield this castle fortifies would be broken by an opponent's creature (D2)",
    "self_destroy": "this creature would be destroyed (R701.6a: the attempt still happens)",
    "self_leave": "this creature would leave the battle zone (EX Life)",
}

_ZONES = {"enum": ["hand", "graveyard"]}
_BIND = {"type": "string", "pattern": "^[a-z_]+$"}
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
        "doc": "destroy one creature (R701.6a); `bind` names the creature tried (Q13); with `repeat` it is "
               "destroyed again each time a replacement keeps it, until its owner stops replacing (Q14)",
        "properties": {"whose": _WHOSE, "optional": {"type": "boolean"}, "bind": _BIND, "repeat": {"type": "boolean"}},
    },
    "destroy_self": {
        "doc": "destroy this creature (a Shield Saver's replacement)",
        "properties": {},
    },
    "to_mana": {
        "doc": "put one creature into its owner's mana zone",
        "properties": {"whose": _WHOSE, "optional": {"type": "boolean"}},
    },
    "put_self_into_battle": {
        "doc": "put this card from where it is (e.g. the graveyard) into the battle zone",
        "properties": {"optional": {"type": "boolean"}},
    },
    "put_from_graveyard": {
        "doc": "put a creature from own graveyard into the battle zone with cost below that of a bound card",
        "properties": {"cost_below": _BIND, "optional": {"type": "boolean"}},
        "required": ["cost_below"],
    },
    "shield_to_hand": {
        "doc": "put shields of `whose` into their owner's hand (a shield check, SC1-SC5); the owner chooses; "
               "`up_to` lets him choose how many; `s_trigger: false` forbids S-Trigger (Escape); `bind` "
               "remembers how many",
        "properties": {"whose": {"enum": ["own", "opponent"]}, "count": {"type": "integer", "minimum": 1},
                       "up_to": {"type": "boolean"}, "optional": {"type": "boolean"},
                       "s_trigger": {"type": "boolean"}, "bind": _BIND},
    },
    "recover_other_shield": {
        "doc": "put the other shield chosen when this replacement was decided into the hand (a castle, D2)",
        "properties": {},
    },
    "hand_to_shield": {
        "doc": "put a card from own hand into own shield zone",
        "properties": {"optional": {"type": "boolean"}},
    },
    "hand_to_deck_bottom": {
        "doc": "put as many cards from own hand on the deck bottom as a bound count says",
        "properties": {"count": _BIND},
        "required": ["count"],
    },
    "tap": {
        "doc": "tap one creature",
        "properties": {"whose": _WHOSE},
    },
    "cant_attack": {
        "doc": "one creature cannot attack this turn (G-Strike)",
        "properties": {"whose": _WHOSE},
    },
    "ex_life_to_graveyard": {
        "doc": "put this creature's EX Life shield into the graveyard (EX Life's replacement)",
        "properties": {},
    },
}

# Keywords the engine reads (others, such as races and civilizations, are matched by name).
KEYWORDS = {
    "S-Trigger": "may be used for free when it comes from the shield zone in a shield check (SC2)",
    "G-Strike": "may be revealed in a shield check: one opponent creature cannot attack this turn; never fizzles",
    "S-Back:<civ>": "from the hand, discard a card of <civ> coming from the shields to summon this free (SC2)",
    "Sabaki Z": "discard a Judgement Crest that just came from the shields to cast this free (SC3)",
    "Judgement Crest": "what Sabaki Z discards",
    "Revolution 0": "coming from the shields when its owner has no shields: may be summoned free (SC3)",
    "Charger": "a spell that goes to the mana zone after it resolves",
    "Unbreakable": "this shield cannot be broken (the break does not happen; before-break still applies, Q11)",
    "Indestructible": "cannot be destroyed: the attempt happens, the card stays (R701.6a)",
}
