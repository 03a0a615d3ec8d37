"""Card definitions as data: the built-in pool (model/data/cards.yaml) plus users' card files.

A card has a type, a cost, keywords (S-Trigger, Charger, races such as Armored) and abilities built
from the vocabulary (triggers in `vocabulary.py`, instructions in `instructions/`). Nothing here runs
an ability; the instructions do.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from . import continuous, keyword_table
from . import keywords as touch_keywords
from .characteristics import CIVILIZATIONS, INFINITY, has_race
from .errors import InputError, Mistakes, did_you_mean, raise_all
from .homes import HOME_OF_TYPE, HOMES
from .instr import Instr
from .instructions import card_words
from .instructions.declaring import CONDITION_OPS
from .instructions.delayed import compile_delayed
from .instructions.registry import BIND as BIND_SCHEMA
from .instructions.registry import BINDERS
from .restrictions import RESTRICTIONS
from .rules_index import needed_for
from .trigger_patterns import DELAYED_ZONE, TRIGGER_ZONES, TriggerPattern
from .trigger_patterns import SCHEMA as PATTERN_SCHEMA
from .trigger_patterns import read as read_pattern
from .vocabulary import FORBIDDEN_STAR, KEYWORDS, POWER_ATTACKER, REPLACES, SMAX, TRIGGERS
from .yamlio import key_path, line_of, load_yaml, plain, schema_errors, shown, spoilt, validate


@dataclass(frozen=True, slots=True)
class Ability:
    """A triggered ability (`trigger`) or a replacement effect (`replaces`), and its effect."""

    id: str
    trigger: str
    effect: tuple[Instr, ...]
    replaces: str = ""
    optional: bool = True          # a replacement its controller may decline
    zone: str = "battle"           # where the card must be for its trigger to watch
    pattern: TriggerPattern | None = None   # the events it watches (model/trigger_patterns.py); None: declared
    activated: str = ""            # an activated ability's act (602.1): "tap", used instead of an attack (602.3a)


@dataclass(frozen=True, slots=True)
class CardDef:
    id: str
    name: str
    ja: str
    type: str
    cost: int
    power: int = 0
    breaker: int = 1
    keywords: tuple[str, ...] = ()
    effect: tuple[Instr, ...] = ()       # a spell's effect when cast
    abilities: tuple[Ability, ...] = ()
    omitted: str = ""
    s_trigger_if: tuple[tuple[str, int], ...] = ()   # a condition that gives S-Trigger (R113.6b-c)
    spell_side: CardDef | None = None   # a twinpact's spell side (this record is its creature side)
    has_power: bool = True   # False when a card file leaves a creature's power out (it reads 0, model/power.py)
    civilizations: tuple[str, ...] = ()   # `civilizations:` of the card file (106.2; none: colorless, 106.2c)
    races: tuple[str, ...] = ()           # `races:` of the card file (203.1)
    # the zone it lives in besides the battle zone (model/homes.py): `hyperspatial` for `type: psychic_creature`
    # (805.4b), `super_gr` for `type: gr_creature` (811.2b); "" for any other card
    home: str = ""
    # a double-sided card (805.1): the front carries its other face in `back` (a card of the pool under the id
    # `<id>:back`); both faces name the other in `flips_to`; the back is the awakened side (805.6)
    back: CardDef | None = None
    flips_to: str = ""
    awakened: bool = False
    # a face of a dragheart (807.1): a weapon, a fortress or a dragheart creature (whose `type` is `creature`)
    dragheart: bool = False
    # a psychic or dragheart cell (806.1, 808.1, `cell: true` on a back face): never alone in the battle zone
    # (806.1a, 703.4g)
    cell: bool = False
    # a creature with hyper mode (816.1): its back (`hyper_mode:` of the card file) is the same creature with
    # hyper mode released, its front's abilities and the hyper ones, and the hyper power (816.2a-b)
    hyper: bool = False
    # King Cells (814, model/kings.py): a cell (`type: king_cell`) names the King creature it forms in `king`; the
    # King creature (`type: king_creature`, no card of its own: the cells combined) lists its cells' names
    king: str = ""
    king_cells: tuple[str, ...] = ()
    # G-Link (804.2, model/gods.py): (name, side) - this card may link at the `side` of a God with that name
    g_link: tuple[tuple[str, str], ...] = ()
    statics: tuple[continuous.Static, ...] = ()   # static abilities (R604; model/continuous.py)
    # 超魂X (818, model/super_soul.py): the part a card gives the creature it lies under (818.1b), already among
    # its own keywords and abilities (818.1a); its soul icons (818.1c) are among `souls`
    super_soul: CardDef | None = None
    souls: tuple[str, ...] = ()   # soul icons (魂・ソウル...), read by the selection filter `soul:`
    # a field (`type: field`, 308) of the special type D2 (`d2: true`, 204.3c): one D2 field at a time (703.4l)
    d2: bool = False
    # its mana number (207.1): how much mana it makes when tapped in the mana zone; `mana:` of the card file,
    # 1 when left out (the number most cards print; a colorless card's symbol names no civilization, 207.3)
    mana: int = 1
    # 202.4: the names a card's own text adds to its own (`also_named:` of the card file): it has them all at once
    also_named: tuple[str, ...] = ()

    # its keywords and the mechanism parameters they set (model/keyword_table.py), resolved once at load time:
    # what `has` reads on the search's hot path
    marks: frozenset[str] = dataclasses.field(init=False, repr=False, compare=False, default=frozenset())

    def __post_init__(self) -> None:
        object.__setattr__(self, "marks", frozenset(self.keywords) | keyword_table.params_of(self.keywords))

    @property
    def psychic(self) -> bool:
        return self.home == "hyperspatial"

    @property
    def gr(self) -> bool:
        return self.home == "super_gr"

    def has(self, keyword: str) -> bool:
        """Whether it prints `keyword` or a keyword setting the mechanism parameter `keyword` (a G-NEO creature
        sets `neo`: it is a NEO creature, 803.1)."""
        return keyword in self.marks

    def civs(self) -> tuple[str, ...]:
        """Its civilizations (106.2), in the rules' order: those of `civilizations:` and, for a card file
        that lists them among its keywords, those keywords. None: a colorless card (106.2c)."""
        return tuple(c for c in CIVILIZATIONS if c in self.civilizations or c in self.keywords)

    def is_of(self, name: str) -> bool:
        """Whether a condition naming `name` reaches the card: one of its civilizations (106.2), one of its
        races or a part of one (203.2: Dragon reaches Armored Dragon), or a keyword it prints."""
        return name in self.keywords or name in self.civs() or has_race(self.race_names(), name)

    def race_names(self) -> tuple[str, ...]:
        """Its races (203.1): those of `races:` and, for a card file that lists them among its keywords, every
        keyword that is neither an engine keyword nor a civilization (Armored Dragon, Dragon, Hunter)."""
        extra = tuple(k for k in self.keywords if k not in CIVILIZATIONS and k.partition(":")[0] not in ENGINE_WORDS
                      and k not in self.races)
        return self.races + extra

    def is_spell(self) -> bool:
        """A spell, or a twinpact outside the battle zone: it is a creature and a spell at once (S214)."""
        return self.type == "spell" or self.spell_side is not None

    def as_spell(self) -> CardDef:
        """What is cast: the card itself, or a twinpact's spell side (S214)."""
        return self.spell_side if self.spell_side is not None else self

    def is_evolution(self) -> bool:
        """An evolution creature of any kind (801; S-MAX included, S207; forbidden star evolution, 813.1b)."""
        return bool(self.evolution()) or self.has(SMAX) or self.has(FORBIDDEN_STAR)

    def evolution(self) -> int:
        """How many creatures this evolution creature evolves onto (801; the count the rebuild before
        2021-03-16 kept, S206): 1, 2 for a Vortex evolution; 0 for a card that is no evolution or needs
        no source (S-MAX, S207; forbidden star evolution, 813.1b)."""
        if self.has(SMAX) or self.has(FORBIDDEN_STAR):
            return 0
        if self.has("evolution_two"):
            return 2
        return 1 if self.has("evolution_one") else 0

    def s_back(self) -> str | None:
        """The civilization an S-Back discards, or None."""
        for k in self.keywords:
            head, colon, civ = k.partition(":")
            if colon and head in keyword_table.names("s_back"):
                return civ
        return None

    def power_attacker(self) -> int:
        """Power Attacker +N: N more power while it attacks (A12c, A25), or 0; each printed copy adds its
        own (110.7 names Power Attacker among the abilities that work once per copy). Printed only: the
        model reads it through `keyword_total`, which also asks whether the abilities are ignored."""
        return sum(touch_keywords.values(self.keywords, POWER_ATTACKER))

    def count(self, keyword: str) -> int:
        """How many times the card prints a keyword without a value, or keywords setting the parameter
        `keyword` (110.7: Slayer twice is two Slayers)."""
        return sum(self.keywords.count(k) for k in keyword_table.PARAMS.get(keyword, (keyword,)))

    def replacements(self, kind: str) -> tuple[Ability, ...]:
        return tuple(a for a in self.abilities if a.replaces == kind)

    def abilities_with(self, trigger: str) -> tuple[Ability, ...]:
        return tuple(a for a in self.abilities if a.trigger == trigger)


# the heads of the engine's keywords (S-Back:<civ> is S-Back): what a race never is
ENGINE_WORDS = frozenset(k.partition(":")[0] for k in KEYWORDS)
CARD_TYPES = ["creature", "spell", "castle", "aura", "tamaseed", "cross_gear", "twinpact", "king_cell",
              "king_creature", "forbidden_pulse", "ceremony", "nebula", "field",
              *(h.card_type for h in HOMES)]
CEREMONY, NEBULA = "ceremony", "nebula"   # 311.1, 812.1: Zero Dragon's ceremony and nebulas, a part of it behind
FORBIDDEN_PULSE = "forbidden_pulse"   # 307.1, 809.1: the pulse face of a forbidden card, a forbidden creature behind
# Bounds (docs/limits.md): a card's numbers and the whole numbers an instruction takes (counts,
# amounts, costs); anything larger names no real card and only makes a search blow up
MAX_COST = 1000
MAX_POWER = 1_000_000_000
MAX_BREAKER = 100
MAX_ARG = 1000
MAX_ITEMS = 200          # keywords, abilities, instructions in one list, cards in one file
_PROGRAM = {"type": "array", "maxItems": MAX_ITEMS}

_CARD_SCHEMA = {
    "type": "object",
    "properties": {
        "id": {"type": "string", "pattern": "^[a-z0-9_]+$"},
        "name": {"type": "string"},
        "ja": {"type": "string"},
        "type": {"enum": CARD_TYPES},
        "cost": {"type": "integer", "minimum": 0, "maximum": MAX_COST},
        "also_named": {"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": MAX_ITEMS,
                       "uniqueItems": True,
                       "description": "names the card's text adds to its own (202.4): it has both at once"},
        "souls": {"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": MAX_ITEMS,
                  "description": "the icons printed on the card that an effect may read (208.1a), e.g. 魂・ソウル"},
        "mana": {"type": "integer", "minimum": 0, "maximum": MAX_COST,
                 "description": "the number on its mana symbol (207.1): the mana it makes when tapped in the "
                                "mana zone; 1 when left out"},
        "power": {"description": "a whole number, or infinity (∞, R108.1c)",
                  "anyOf": [{"type": "integer", "minimum": 0, "maximum": MAX_POWER}, {"const": "infinity"}]},
        "civilizations": {"type": "array", "items": {"enum": list(CIVILIZATIONS)}, "uniqueItems": True,
                          "description": "the card's civilizations (106.1): Light, Water, Darkness, Fire, Nature; "
                                         "two or more for a multicolored card, [] for a colorless one (106.2)"},
        "races": {"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": MAX_ITEMS,
                  "description": "the card's races (203.1), e.g. [Armored Dragon]; an effect naming Dragon "
                                 "reaches every race containing it (203.2)"},
        "breaker": {"type": "integer", "minimum": 1, "maximum": MAX_BREAKER},
        "keywords": {"type": "array", "items": {"type": "string"}, "maxItems": MAX_ITEMS},
        "effect": _PROGRAM,
        "abilities": {"type": "array", "maxItems": MAX_ITEMS, "items": {
            "type": "object",
            "description": "an ability with id, effect and either trigger or replaces (or activated, 602)",
            "properties": {"id": {"type": "string", "pattern": "^[a-z0-9_]+$"},
                           "trigger": {"if": {"type": "string"}, "then": {"enum": sorted(TRIGGERS)},
                                       "else": PATTERN_SCHEMA},
                           "replaces": {"enum": sorted(REPLACES)},
                           "activated": {"enum": ["tap"], "description": "an activated ability (602.1): `tap`, "
                                         "tapping the creature instead of attacking with it (602.3a)"},
                           "optional": {"type": "boolean"},
                           "zone": {"enum": list(TRIGGER_ZONES)},
                           "effect": _PROGRAM},
            "required": ["id", "effect"],
            "oneOf": [{"required": ["trigger"]}, {"required": ["replaces"]}, {"required": ["activated"]}],
            "additionalProperties": False,
        }},
        "statics": {"type": "array", "maxItems": MAX_ITEMS, "items": continuous.schema(RESTRICTIONS)},
        "s_trigger_if": {"type": "object", "minProperties": 1, "additionalProperties": False,
                         "description": "graveyard_spells_at_least (R113.6b) or shields_at_most (R113.6c)",
                         "properties": {"graveyard_spells_at_least": {"type": "integer", "minimum": 0,
                                                                      "maximum": MAX_ARG},
                                        "shields_at_most": {"type": "integer", "minimum": 0, "maximum": MAX_ARG}}},
        "g_link": {"type": "array", "maxItems": 4, "description": "G-Link (804.2): the Gods this God may link "
                   "beside, each {name: the other God's name, side: left or right - where this card lies}",
                   "items": {"type": "object", "required": ["name", "side"], "additionalProperties": False,
                             "properties": {"name": {"type": "string", "minLength": 1},
                                            "side": {"enum": ["left", "right"]}}}},
        "modelled": {"type": "string"},
        "d2": {"type": "boolean", "description": "a field of the special type D2 (204.3c): when another D2 field "
               "enters the battle zone, this one goes to its owner's graveyard (703.4l)"},
        "cell": {"type": "boolean", "description": "a back face that is a cell: a psychic creature's, a part of a "
                 "psychic super creature (806.1), or a dragheart weapon's or fortress's, a part of a dragheart super "
                 "creature (808.1); cost 0 (806.1d, 808.1c); alone in the battle zone it returns to the hyperspatial "
                 "zone at once (806.1a, 703.4g)"},
        "omitted": {"type": "string"},
        "back": {"type": "object", "description": "a psychic creature's other face, its awakened side (805.1, "
                 "805.2), a dragheart weapon's or fortress's creature face (807.1, 807.2), or a forbidden pulse's "
                 "forbidden creature (809.1): a creature of its own (name, cost, power, keywords, abilities...); the "
                 "`flip` card word turns the card over (awakening 805.1a, release 805.1b, dragsolution 807.1a, dragon "
                 "escape 807.1b), forbidden release a pulse (809.1a)",
                 "properties": {}, "required": ["name", "cost"], "additionalProperties": False},
        "hyper_mode": {"type": "object", "description": "a creature's hyper mode (816.1): its power (816.2b) and "
                       "what it adds to the creature's own (816.2a: breaker, keywords, abilities, statics) while "
                       "hyper mode is released (the card word `release_hyper_mode`)",
                       "properties": {}, "required": ["power"], "additionalProperties": False},
        "super_soul": {"type": "object", "description": "the card's 超魂X (818.1): keywords, abilities, breaker and "
                       "soul icons (`souls:`, 818.1c) that are the card's own (818.1a) and that it gives a creature "
                       "while it lies under it (818.1b)",
                       "properties": {}, "minProperties": 1, "additionalProperties": False},
        "king": {"type": "string", "minLength": 1,
                 "description": "a King Cell's King creature (814.1): the name of the `type: king_creature` it forms"},
        "king_cells": {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 2, "maxItems": 8,
                       "description": "a King creature's King Cells (814.1), by name: the cards combined into it"},
        "spell": {"type": "object", "description": "a twinpact's spell side: name, cost, effect (ja, keywords)",
                  "properties": {"name": {"type": "string"}, "ja": {"type": "string"},
                                 "cost": {"type": "integer", "minimum": 0, "maximum": MAX_COST},
                                 "keywords": {"type": "array", "items": {"type": "string"}, "maxItems": MAX_ITEMS},
                                 "effect": _PROGRAM},
                  "required": ["name", "cost", "effect"], "additionalProperties": False},
    },
    "required": ["id", "name", "type", "cost"],
    "additionalProperties": False,
}

# the back face says what a creature says, but not what only the whole card says (id, type, the other sides)
_CARD_SCHEMA["properties"]["back"]["properties"] = {   # type: ignore[index]
    k: v for k, v in _CARD_SCHEMA["properties"].items()   # type: ignore[attr-defined]
    if k not in ("id", "type", "spell", "back", "effect", "s_trigger_if")}
# hyper mode adds to the creature what a creature may say, but neither its name nor its cost (816.1)
_CARD_SCHEMA["properties"]["hyper_mode"]["properties"] = {   # type: ignore[index]
    k: _CARD_SCHEMA["properties"][k]   # type: ignore[index]
    for k in ("power", "breaker", "keywords", "abilities", "statics", "modelled", "omitted")}
# 超魂X (818.1) says what a creature's abilities say, and soul icons (818.1c)
_CARD_SCHEMA["properties"]["super_soul"]["properties"] = {   # type: ignore[index]
    **{k: _CARD_SCHEMA["properties"][k] for k in ("breaker", "keywords", "abilities")},   # type: ignore[index]
    "souls": {"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": MAX_ITEMS}}
BACK_SUFFIX = ":back"   # the pool id of a back face: its front's id and this (no card file's id has a colon)

CARD_SCHEMA = _CARD_SCHEMA   # what a card of a card file may say (`dmcheck cards --words` lists its keys)

_FILE_SCHEMA = {
    "type": "object",
    "properties": {"cards": {"type": "array", "items": _CARD_SCHEMA, "maxItems": 10_000}},
    "required": ["cards"],
    "additionalProperties": False,
}


def _bounded(args: dict, root: Any, path: tuple, file: str) -> None:
    """Every whole number an instruction takes is at most MAX_ARG (docs/limits.md); an amount of power
    (`power`, e.g. add_power's) at most MAX_POWER, like a card's power."""
    for key, value in args.items():
        limit = MAX_POWER if key in ("power", "amount", "fixed") and args.get("until") else MAX_ARG   # a power change
        if isinstance(value, int) and not isinstance(value, bool) and value > limit:
            raise InputError(file, line_of(root, path + (key,)), key_path(path + (key,)),
                             f"expected a number <= {limit}, got {value}; the limit is {limit} (docs/limits.md)")


def _program(raw: Any, root: Any, path: tuple, file: str) -> tuple[Instr, ...]:
    """Check and freeze a list of instructions; unknown ops and bad arguments name their line, every
    instruction's mistake with the others'."""
    out, mistakes = [], Mistakes()
    for i, item in enumerate(raw):
        found = mistakes.check(_instruction, item, root, path + (i,), file)
        if found is not None:
            out.append(found)
    mistakes.raise_all()
    return tuple(out)


def _instruction(item: Any, root: Any, here: tuple, file: str) -> Instr:
    """One instruction of a program, checked against its card word's schema and frozen."""
    if not isinstance(item, dict) or len(item) != 1:
        raise InputError(file, line_of(root, here), key_path(here),
                         "expected a mapping with one instruction, e.g. {draw: {count: 1}}")
    op, args = next(iter(item.items()))
    words = card_words()
    if not isinstance(op, str) or op not in words:
        raise InputError(file, line_of(root, here), key_path(here),
                         f"unknown instruction {shown(op)}{did_you_mean(str(op), words)}; expected one of "
                         f"{', '.join(words)} (`dmcheck cards --words` lists them with their arguments)")
    spec = words[op]
    args = {} if args is None else args
    schema = {"type": "object", "properties": spec["properties"], "additionalProperties": False,
              "required": spec.get("required", [])}
    if "oneOf" in spec:   # exactly one of several arguments (power's amount, times, divided_by)
        schema["oneOf"] = spec["oneOf"]
        schema["description"] = "exactly one of " + ", ".join(k for o in spec["oneOf"] for k in o["required"])
    try:
        validate(args, schema, file, whole=False)
    except InputError as err:  # re-anchor the key paths at the instruction
        raise_all([_anchored(e, root, here + (op,), file) for e in err.all()])
    _bounded(args, root, here + (op,), file)
    frozen = []
    for key in sorted(args):
        value = args[key]
        if key in PROGRAM_ARGS:
            value = _program(value, root, here + (op, key), file)
        elif key in PROGRAMS_ARGS:   # a list of programs (choose_mode's modes, R700.2)
            value = tuple(_program(v, root, here + (op, key, i), file) for i, v in enumerate(value))
        elif isinstance(value, list):
            value = tuple(plain(value))
        elif isinstance(value, dict):
            value = _frozen(plain(value))   # a mapping argument (the condition of an `if`)
        else:
            value = plain(value)
        frozen.append((key, value))
    return Instr(op, tuple(frozen))


def _anchored(err: InputError, root: Any, where: tuple, file: str) -> InputError:
    """A mistake in an instruction's arguments, named from the card file's top (`cards[0].effect[1].draw.count`)."""
    sub = err.key if err.key != "(top)" else ""
    return InputError(file, err.line if err.line and err.line > 1 else line_of(root, where),
                      key_path(where) + (("." + sub) if sub else ""), err.expected)


def _frozen(value: Any) -> Any:
    """A mapping as sorted (key, value) pairs, nested mappings and lists frozen too: instructions are
    hashable records."""
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


# the arguments that hold a program of their own (discard's `if_done`, `if`'s do / else)
PROGRAM_ARGS = frozenset({"if_done", "do", "else", "win", "lose"})   # win, lose: a Gachinko Judge (R701.21b)
PROGRAMS_ARGS = frozenset({"modes"})


# names a program binds for its later instructions (model/instructions/registry.py `bind`): the `bind:`
# argument of any instruction, and "it", the creature deck_top_and_back puts back (Texas Storm)
_BINDS_IT = {"deck_top_and_back"}


def _references(op: str, args: Any) -> list[tuple[str, str]]:
    """(argument, bound name) for each argument of an instruction that reads a bound name."""
    spec = card_words().get(op, {}).get("properties", {})
    out = [(key, str(args[key])) for key, schema in spec.items()
           if key not in BINDERS and key in args and schema == BIND_SCHEMA]
    if op == "break_shields" and args.get("by") == "it":
        out.append(("by", "it"))
    where = (args.get("cond") or {}).get("where") if op == "if" and isinstance(args.get("cond"), dict) else None
    if isinstance(where, dict) and "bound" in where:     # `if: {cond: {where: {bound: NAME, ...}}}`
        out.append(("cond.where.bound", str(where["bound"])))
    return out


_IF_DONE_ALONE = "; an if_done program runs on its own, without the binds around it"


def _check_binds(program: Any, root: Any, path: tuple, file: str, around: tuple[str, ...] = ()) -> None:
    """A name an instruction reads must be bound by an earlier instruction of the same program (an
    `if_done` program runs as a task of its own, with no binds; an `if`'s `do` and `else` run with the
    binds `around` them): otherwise it reads nothing and the instruction silently does nothing (an
    `if` on where an unbound card is never holds)."""
    bound: list[str] = list(around)
    for i, item in enumerate(program or []):
        op, args = next(iter(item.items()))
        args = args or {}
        for key, name in _references(op, args):
            if name not in bound:
                where = path + (i, op, *key.split("."))
                raise InputError(file, line_of(root, where), key_path(where),
                                 f"{name!r} is bound by no earlier instruction of this effect"
                                 f"{did_you_mean(name, bound)}; names bound before it: {', '.join(bound) or 'none'} "
                                 f"(an instruction binds one with `bind: NAME`; deck_top_and_back binds `it`"
                                 f"{_IF_DONE_ALONE if 'if_done' in path else ''})")
        bound += [str(args[key]) for key in BINDERS if key in args]
        if op in _BINDS_IT:
            bound.append("it")
        if isinstance(args.get("if_done"), list):
            _check_binds(args["if_done"], root, path + (i, op, "if_done"), file)
        for branch in ("do", "else") if op == "if" else ():
            if isinstance(args.get(branch), list):
                _check_binds(args[branch], root, path + (i, op, branch), file, tuple(bound))
        for k, mode in enumerate(args.get("modes") or []) if op == "choose_mode" else ():
            if isinstance(mode, list):
                _check_binds(mode, root, path + (i, op, "modes", k), file, tuple(bound))


# the triggers whose ability resolves with its card still in the hand: `cast_self` casts it from there
CAST_SELF_TRIGGERS = ("attack_chance", "oni_end")


def _check_cast_self(raw: Any, root: Any, here: tuple, file: str) -> None:
    """`cast_self` casts (or summons) its card from the hand: only a declared Attack Chance or Oni End
    resolves while its card is there. Anywhere else (a creature's trigger, a spell's own effect, a nested
    program) the card is in the battle zone or resolving, and the word would silently do nothing."""
    programs = [(here + ("effect",), raw.get("effect"), "")]
    if isinstance(raw.get("spell"), dict):
        programs.append((here + ("spell", "effect"), raw["spell"].get("effect"), ""))
    programs += [(here + ("abilities", j, "effect"), a.get("effect"), str(a.get("trigger", "")))
                 for j, a in enumerate(raw.get("abilities") or [])]
    for path, program, trigger in programs:
        for where, top in _words(program or [], path):
            if where[-1] == "cast_self" and not (top and trigger in CAST_SELF_TRIGGERS):
                now = f"under trigger {trigger}" if trigger else "here"
                raise InputError(file, line_of(root, where), key_path(where),
                                 f"cast_self casts this card from the hand, where only a declared Attack Chance or "
                                 f"Oni End leaves it; expected it in an ability with trigger "
                                 f"{' or '.join(CAST_SELF_TRIGGERS)} ({now} the card is not in the hand, so it "
                                 f"would do nothing)")


def _words(program: list, path: tuple, top: bool = True) -> Iterator[tuple[tuple, bool]]:
    """(the path of each instruction's word, whether it is at the top of its program) in a program and
    the programs nested in it."""
    for i, item in enumerate(program):
        if not isinstance(item, dict) or not item:
            continue
        op, args = next(iter(item.items()))
        yield path + (i, op), top
        for key in PROGRAM_ARGS:
            if isinstance(args, dict) and isinstance(args.get(key), list):
                yield from _words(args[key], path + (i, op, key), False)


def _check_keywords(card: CardDef, root: Any, here: tuple, file: str) -> None:
    """A keyword spelt like an engine keyword but not exactly (`S-trigger`, `Blockr`, `S-Back` without its
    civilization) is read by nothing: the card silently lacks it. Races and civilizations are free."""
    engine = {k.partition(":")[0]: k for k in KEYWORDS}    # S-Back -> S-Back:<civ>

    def plain_form(text: str) -> str:
        return re.sub(r"[\s_-]", "", text.casefold())
    for k, word in enumerate(card.keywords):
        head, sep, value = word.partition(":")
        if head in engine and (":" in engine[head]) == bool(sep and value):
            continue
        close = [e for e in engine if plain_form(e) == plain_form(head)] or \
            difflib.get_close_matches(head, list(engine), n=1, cutoff=0.88)
        if head in engine or close:
            right = engine[head if head in engine else close[0]]
            where = here + ("keywords", k)
            raise InputError(file, line_of(root, where), key_path(where),
                             f"{word!r} is not an engine keyword as written; expected {right!r} exactly "
                             f"(`dmcheck cards --words` lists the engine keywords; a race or civilization may be "
                             f"any other word)")


def _check_declared(card: CardDef, root: Any, here: tuple, file: str) -> None:
    """A Revolution Change or Invasion ability carries its condition in its own instruction (A03, A06):
    without it, the declaration would have no condition to check."""
    for j, ability in enumerate(card.abilities):
        word = CONDITION_OPS.get(ability.trigger)
        if word and not any(i.op == word for i in ability.effect):
            path = here + ("abilities", j, "effect")
            raise InputError(file, line_of(root, path), key_path(path),
                             f"a {ability.trigger} ability needs a `{word}` instruction (its condition on the "
                             f"attacking creature: any_of, all_of, cost_min), e.g. {{{word}: {{all_of: [Fire]}}}}")


def _names_of(card: CardDef) -> tuple[str, ...]:
    """What a card is called by: its id, names, and a twinpact's spell-side names."""
    side = card.spell_side
    return (card.id, card.name, card.ja) + ((side.name, side.ja) if side is not None else ())


class CardPool:
    """Cards by pool id, English name or Japanese name (names compare case-insensitively)."""

    def __init__(self) -> None:
        self._by_id: dict[str, CardDef] = {}
        self._by_name: dict[str, str] = {}

    def __contains__(self, name: str) -> bool:
        return self.resolve(name) is not None

    def copy(self) -> CardPool:
        """A pool a scenario may add its own cards to without touching this one. The cards are frozen
        records, so the two look-up tables are all there is to copy (a deep copy cost verify about
        0.3 s over the corpus's scenarios)."""
        new = CardPool()
        new._by_id, new._by_name = dict(self._by_id), dict(self._by_name)
        return new

    def resolve(self, name: str) -> str | None:
        """The pool id a name refers to, or None."""
        return self._by_name.get(str(name).strip().casefold())

    def __getitem__(self, pool_id: str) -> CardDef:
        return self._by_id[pool_id]

    def ids(self) -> list[str]:
        return sorted(self._by_id)

    def names(self) -> list[str]:
        """The English name of every card (what an error suggests for a misspelt name)."""
        return [self._by_id[i].name for i in sorted(self._by_id)]

    def add_file(self, path: str | Path) -> None:
        """Add every card of a card file; a name already taken is an error (every card's mistake of the
        file comes with the others)."""
        file = str(path)
        mistakes = Mistakes()
        root, cards = _read_card_file(file)
        try:
            for i, card in cards:
                mistakes.check(self._add, card, root, ("cards", i), file)
        except InputError as exc:     # the cards' own mistakes, met once every card was read
            mistakes.add(exc)
        mistakes.raise_all()

    def _add(self, card: CardDef, root: Any, here: tuple, file: str) -> None:
        named = _names_of(card) if not card.hyper else (card.id,)   # 816.1: hyper mode keeps the front's name
        for key in named:
            if not key:
                continue
            taken = self._by_name.get(key.casefold())
            if taken is not None and taken != card.id:
                raise InputError(file, line_of(root, here), key_path(here),
                                 f"the name {key!r} already belongs to card {taken!r}")
            if taken == card.id and key == card.id:
                raise InputError(file, line_of(root, here + ("id",)), key_path(here + ("id",)),
                                 f"card id {card.id!r} is defined twice")
        self._by_id[card.id] = card
        for key in named:
            if key:
                self._by_name[key.casefold()] = card.id
        if card.back is not None:   # 805.1: its other face is a card of the pool too, named by its own name
            self._add(card.back, root, here + ("hyper_mode" if card.back.hyper else "back",), file)

    @classmethod
    def builtin(cls) -> CardPool:
        pool = cls()
        with resources.as_file(resources.files(__package__) / "data" / "cards.yaml") as path:
            pool.add_file(path)
        return pool


_CARD_FILES: dict[tuple[str, int, int], tuple[Any, tuple[tuple[int, CardDef], ...]]] = {}
# where each card read from a file came from: id(card) -> (the file's key in _CARD_FILES, its place there);
# the cards stay in _CARD_FILES for the process's life, so their ids are never reused
_ORIGIN: dict[int, tuple[tuple[str, int, int], int]] = {}


def card_origin(card: CardDef) -> tuple[str, int, int, int] | None:
    """Where a card definition was read (its file's path, modification time and size, and its place in
    the file), for a process that has read the same file to use its own copy (model/shared_pickle.py);
    None for a card read from no file."""
    found = _ORIGIN.get(id(card))
    return None if found is None else (*found[0], found[1])


def card_at(origin: tuple[str, int, int, int]) -> CardDef:
    """This process's card definition at `origin` (see `card_origin`), its file read if not yet read;
    LookupError if the file is gone or has changed since."""
    path, mtime, size, place = origin
    key = (path, mtime, size)
    if key not in _CARD_FILES:
        try:
            _, cards = _read_card_file(path)
            for _ in cards:
                pass
        except (OSError, InputError) as exc:
            raise LookupError(f"card file {path} cannot be read again: {exc}") from exc
    found = _CARD_FILES.get(key)
    if found is None or place >= len(found[1]):
        raise LookupError(f"card file {path} has changed since the card was read")
    return found[1][place][1]


def _read_card_file(file: str) -> tuple[Any, Iterator[tuple[int, CardDef]]]:
    """A card file's YAML tree (for the lines of errors) and its cards, read once per process while
    the file is unchanged: scenarios sharing a card file (17 corpus scenarios name answers.yaml) do
    not parse it again. The cards are immutable; each pool still checks their names itself. On a
    first reading the cards come one at a time, so an error is met where it always was met."""
    stat = os.stat(file)
    key = (os.path.realpath(file), stat.st_mtime_ns, stat.st_size)
    found = _CARD_FILES.get(key)
    if found is not None:
        return found[0], iter(found[1])
    root = load_yaml(file)
    schema = schema_errors(root, _FILE_SCHEMA, file)
    refused = _unmodelled(root, file)
    schema = [e for e in schema if e.key not in {r.key for r in refused}]   # said once, with the rules it needs
    if not isinstance(root, dict) or not isinstance(root.get("cards"), list):
        raise_all(refused + schema)

    def cards() -> Iterator[tuple[int, CardDef]]:
        made, problems = [], refused + schema
        for i, raw in enumerate(root["cards"]):
            if spoilt(schema, ("cards", i)) or any(e.key.startswith(f"cards[{i}].") for e in refused):
                continue      # its schema mistakes are listed; the rest of it is not read
            try:
                made.append((i, _card(raw, root, ("cards", i), file)))
            except InputError as exc:      # every card's mistake is reported at once
                problems.append(exc)
                continue
            yield made[-1]
        raise_all(problems)
        _CARD_FILES[key] = (root, tuple(made))
        for place, (_, card) in enumerate(made):
            _ORIGIN[id(card)] = (key, place)

    return root, cards()


def _unmodelled(root: Any, file: str) -> list[InputError]:
    """A card type or keyword of a feature the model lacks (a psychic creature, a God, Guardman...): refused
    with the rules it would need (model/data/rules_index.yaml), never read as a race or explored without it."""
    found = []
    cards = root.get("cards") if isinstance(root, dict) else None
    for i, raw in enumerate(cards if isinstance(cards, list) else []):
        if not isinstance(raw, dict):
            continue
        kind = raw.get("type")
        why = needed_for(kind) if isinstance(kind, str) and kind not in CARD_TYPES else ""
        if why:
            at: tuple = ("cards", i, "type")
            found.append(InputError(file, line_of(root, at), key_path(at), f"the card type {kind!r} is not known{why}"))
        words = raw.get("keywords")
        for k, word in enumerate(words if isinstance(words, list) else []):
            head = str(word).partition(":")[0]
            why = needed_for(head)
            if why:
                at = ("cards", i, "keywords", k)
                found.append(InputError(file, line_of(root, at), key_path(at),
                                        f"the keyword {head!r} is read by nothing{why}"))
    return found


def _twinpact(raw: Any, root: Any, here: tuple, file: str) -> CardDef | None:
    """A twinpact's spell side (S214: one card, a creature side and a spell side); None for another card.
    A twinpact must have both sides: its creature side at the top level (with `power`), its spell side
    under `spell:`; a `spell:` on any other card type is a mistake."""
    side = raw.get("spell")
    if raw["type"] != "twinpact":
        if side is not None:
            raise InputError(file, line_of(root, here + ("spell",)), key_path(here + ("spell",)),
                             f"only a twinpact has a spell side; this card's type is {raw['type']} "
                             f"(write `type: twinpact` for a card with a creature side and a spell side)")
        return None
    missing = [what for what, present in (("its spell side (`spell: {name, cost, effect}`)", side is not None),
                                          ("its creature side's power (`power:`)", "power" in raw)) if not present]
    if missing:
        raise InputError(file, line_of(root, here + ("type",)), key_path(here + ("type",)),
                         f"a twinpact has two sides, a creature side (the card's own cost, power, keywords and "
                         f"abilities) and a spell side (`spell: {{name, cost, effect}}`); {' and '.join(missing)} "
                         f"is missing")
    return CardDef(id=str(raw["id"]), name=str(side["name"]), ja=str(side.get("ja", "")), type="spell",
                   cost=side["cost"], keywords=tuple(str(k) for k in side.get("keywords", [])),
                   effect=_program(side["effect"], root, here + ("spell", "effect"), file))


def _card(raw: Any, root: Any, here: tuple, file: str) -> CardDef:
    """One card of a card file, checked: each of its programs and each check on its own, so that the
    card's independent mistakes come together."""
    mistakes = Mistakes()
    spell_side = mistakes.check(_twinpact, raw, root, here, file)
    effect = mistakes.check(_program, raw.get("effect", []), root, here + ("effect",), file)
    abilities = []
    for j, a in enumerate(raw.get("abilities", [])):
        program = mistakes.check(_program, a["effect"], root, here + ("abilities", j, "effect"), file)
        raw_trigger = a.get("trigger", "")
        pattern = mistakes.check(read_pattern, raw_trigger, root, here + ("abilities", j, "trigger"), file) \
            if raw_trigger else None
        word = raw_trigger if isinstance(raw_trigger, str) else (pattern.text() if pattern else "pattern")
        abilities.append(Ability(str(a["id"]), word, program or (),
                                 replaces=str(a.get("replaces", "")), optional=bool(a.get("optional", True)),
                                 zone=str(a.get("zone", "battle")), pattern=pattern,
                                 activated=str(a.get("activated", ""))))
    card = CardDef(
        id=str(raw["id"]), name=str(raw["name"]), ja=str(raw.get("ja", "")),
        # a twinpact in the battle zone is its creature side (S216); a psychic or GR creature is a creature
        # (805.1, 811.1); a dragheart weapon or fortress keeps its type (305, 306)
        # King Cells and the King creature they form (814.1; alone a cell is read as a creature card that the
        # rules do not let stand alone, 814.1d)
        type="creature" if spell_side is not None or raw["type"] in ("king_cell", "king_creature") or (
            raw["type"] in HOME_OF_TYPE and HOME_OF_TYPE[raw["type"]].creature) else str(raw["type"]),
        home=HOME_OF_TYPE[raw["type"]].zone if raw["type"] in HOME_OF_TYPE else "",
        cost=raw["cost"], power=INFINITY if raw.get("power") == "infinity" else raw.get("power", 0),
        breaker=raw.get("breaker", 1), has_power="power" in raw,
        civilizations=tuple(str(c) for c in raw.get("civilizations", [])),
        races=tuple(str(r) for r in raw.get("races", [])),
        keywords=tuple(str(k) for k in raw.get("keywords", [])), effect=effect or (), abilities=tuple(abilities),
        omitted=str(raw.get("omitted", "")),
        s_trigger_if=tuple(sorted((str(k), int(v)) for k, v in (raw.get("s_trigger_if") or {}).items())),
        spell_side=spell_side, statics=tuple(continuous.read(st) for st in raw.get("statics", [])),
        g_link=tuple((str(g["name"]), str(g["side"])) for g in raw.get("g_link", [])),
        dragheart=str(raw["type"]) in DRAGHEART_TYPES,
        cell=bool(raw.get("cell", False)), d2=bool(raw.get("d2", False)), mana=int(raw.get("mana", 1)),
        also_named=tuple(str(n) for n in raw.get("also_named", [])), souls=tuple(str(x) for x in raw.get("souls", [])),
        king=str(raw.get("king", "")), king_cells=tuple(str(n) for n in raw.get("king_cells", [])),
    )
    card = _faces(card, raw, root, here, file, mistakes)
    whole = not mistakes    # a program with a mistake is read in part: what reads programs waits for the fix
    if whole:
        card = mistakes.check(_with_delayed, card, raw, root, here, file) or card
    for check in (_check_keywords, touch_keywords.check, continuous.check) + \
            ((_check_declared, _check_forms) if whole else ()):
        mistakes.check(check, card, root, here, file)   # touch_keywords: valued keywords, triggers the type cannot have
    if whole:
        mistakes.check(_check_cast_self, raw, root, here, file)
    if not whole:
        mistakes.raise_all()
    programs = [(raw.get("effect"), here + ("effect",))]
    if spell_side is not None:
        programs.append((raw["spell"]["effect"], here + ("spell", "effect")))
    programs += [(a["effect"], here + ("abilities", j, "effect")) for j, a in enumerate(raw.get("abilities", []))]
    for program, where in programs:
        mistakes.check(_check_binds, program, root, where, file)
    mistakes.raise_all()
    return card


def _with_back(card: CardDef, raw: Any, root: Any, here: tuple, file: str) -> CardDef:
    """R805.1, R805.2: a psychic creature with a back face: each face a creature with its own characteristics,
    each naming the other as the face it flips to; the back is the awakened side (805.6). R807.1, R807.2: a
    dragheart weapon or fortress with a back face: the back is its dragheart creature (what dragsolution turns
    it into, 807.1a), with characteristics of its own. 307.1, 809.1: a forbidden pulse's back is its forbidden
    creature (a creature), the face its forbidden release turns up."""
    if raw["type"] not in _BACK_TYPE:
        raise InputError(file, line_of(root, here + ("back",)), key_path(here + ("back",)),
                         f"only a psychic creature (805.1), a dragheart weapon or fortress (807.1), a forbidden "
                         f"pulse (809.1), a Zero Dragon ceremony or nebula (812.1) or a WD field (819.1) has a "
                         f"back face; this card's "
                         f"type is {raw['type']}")
    if raw["back"].get("cell"):
        _check_cell(raw, root, here + ("back",), file)
    back_id = str(raw["id"]) + BACK_SUFFIX
    back = _card({**raw["back"], "id": raw["id"], "type": _BACK_TYPE[raw["type"]]}, root, here + ("back",), file)
    back = dataclasses.replace(back, id=back_id, flips_to=card.id,
                               awakened=raw["type"] in ("psychic_creature", FORBIDDEN_PULSE))
    return dataclasses.replace(card, back=back, flips_to=back_id)


def _faces(card: CardDef, raw: Any, root: Any, here: tuple, file: str, mistakes: Mistakes) -> CardDef:
    """The parts of a card made of several faces or cards, each checked where it is written: a psychic cell
    (806.1), King Cells (814.1), a back face (805.1, 807.1, 809.1: a forbidden pulse must have one) and hyper
    mode (816.1); a card with 超魂X is read with it first (818.1a)."""
    if "super_soul" in raw:
        return mistakes.check(_with_super_soul, card, raw, root, here, file) or card
    if raw.get("cell") and here[-1:] != ("back",):
        mistakes.check(_front_cell, raw, root, here, file)
    mistakes.check(_check_king, raw, root, here, file)
    mistakes.check(_check_field, raw, root, here, file)
    if "back" in raw:
        card = mistakes.check(_with_back, card, raw, root, here, file) or card
    elif raw["type"] in (CEREMONY, NEBULA):   # 812.1: the other front is a part of the Zero Dragon creature
        mistakes.add(InputError(file, line_of(root, here + ("type",)), key_path(here + ("type",)),
                                "a Zero Dragon ceremony or nebula has a part of the Zero Dragon creature on its "
                                "other face (812.1); write it under `back:`"))
    elif raw["type"] == FORBIDDEN_PULSE:   # 809.1: the other front of a forbidden pulse is its forbidden creature
        mistakes.add(InputError(file, line_of(root, here + ("type",)), key_path(here + ("type",)),
                                "a forbidden pulse has a forbidden creature on its other face (809.1); write it "
                                "under `back:` (name, cost, power...)"))
    if "hyper_mode" in raw:
        card = mistakes.check(_with_hyper, card, raw, root, here, file) or card
    return card


def _check_cell(raw: Any, root: Any, at: tuple, file: str) -> None:
    """R806.1, R808.1: a cell is the back face of a psychic creature (a psychic cell) or of a dragheart weapon or
    fortress (a dragheart cell). R806.1d, R808.1c: a cell alone has no cost (0 when read); R808.1c: a dragheart
    cell alone has no race."""
    cell, kind = raw["back"], raw["type"]
    wrong = [(key, why) for key, why, bad in (
        ("cell", "a cell is the back face of a psychic creature (806.1) or of a dragheart weapon or fortress "
                 f"(808.1); this card's type is {kind}", kind not in _CELL_FRONTS),
        ("cost", "a cell alone has cost 0 (806.1d, 808.1c); expected `cost: 0`", cell.get("cost") != 0),
        ("races", "a dragheart cell alone has no race (808.1c); remove `races:`",
         kind != "psychic_creature" and bool(cell.get("races"))))
        if bad]
    if wrong:
        key, why = wrong[0]
        at = at + (key,) if key in cell else at
        raise InputError(file, line_of(root, at), key_path(at), why)


# the fronts whose back face may be a cell: a psychic creature (806.1), a dragheart weapon or fortress (808.1)
_CELL_FRONTS = ("psychic_creature", "dragheart_weapon", "dragheart_fortress")


def _front_cell(raw: Any, root: Any, here: tuple, file: str) -> None:
    """R806.1: a psychic cell is the other face of a psychic creature that links, never a card's front."""
    raise InputError(file, line_of(root, here + ("cell",)), key_path(here + ("cell",)),
                     "a psychic cell is a psychic creature's back face (806.1); expected `cell:` under `back:`")


# the type of a double-sided card's back face: a psychic creature's awakened side (805.1), a dragheart weapon's
# or fortress's creature face (807.1)
_BACK_TYPE = {"psychic_creature": "psychic_creature", "dragheart_weapon": "dragheart_creature",
              "dragheart_fortress": "dragheart_creature", "forbidden_pulse": "creature",
              "ceremony": "creature", "nebula": "creature",   # 812.1: a ceremony's or nebula's other front
              "field": "field"}   # 819.1: a WD field, two fields on one card, the back the side upside down
DRAGHEART_TYPES = frozenset({"dragheart_weapon", "dragheart_fortress", "dragheart_creature"})


def _check_field(raw: Any, root: Any, here: tuple, file: str) -> None:
    """308, 301.3, 204.3c: a field is no creature, so it has no power and breaks no shield (power is a
    characteristic of creatures only, 301.3); D2 is a special type of fields alone (204.3c)."""
    kind = raw["type"]
    wrong = [(key, f"a field is not a creature and has no `{key}:` (301.3: only creatures have power; 308)")
             for key in ("power", "breaker") if kind == "field" and key in raw]
    if raw.get("d2") and kind != "field":
        wrong.append(("d2", "D2 is a special type of fields (204.3c); `d2: true` needs `type: field`"))
    if wrong:
        key, why = wrong[0]
        raise InputError(file, line_of(root, here + (key,)), key_path(here + (key,)), why)


def _check_king(raw: Any, root: Any, here: tuple, file: str) -> None:
    """R814.1, R814.1a: a King Cell names its King creature and has, alone, no cost (0) and no race; a King
    creature lists its cells; `king:` and `king_cells:` belong to those types only."""
    kind = raw["type"]
    wrong = [(key, f"only a {owner} has `{key}:` (814.1)") for key, owner in (("king", "king_cell"),
                                                                             ("king_cells", "king_creature"))
             if key in raw and kind != owner]
    if kind == "king_cell":
        wrong += [(key, why) for key, why, bad in (
            ("king", "expected `king: NAME`, the King creature this cell forms (814.1)", "king" not in raw),
            ("cost", "a King Cell alone has cost 0 (814.1a); expected `cost: 0`", raw.get("cost") != 0),
            ("races", "a King Cell alone has no race (814.1a); remove `races:`", bool(raw.get("races"))))
            if bad]
    if kind == "king_creature" and "king_cells" not in raw:
        wrong.append(("type", "expected `king_cells: [NAME, ...]`, the King Cells combined into it (814.1)"))
    if wrong:
        key, why = wrong[0]
        at = here + (key,) if key in raw else here
        raise InputError(file, line_of(root, at), key_path(at), why)


def _with_super_soul(card: CardDef, raw: Any, root: Any, here: tuple, file: str) -> CardDef:
    """R818.1, R818.1a: a card with 超魂X has its 超魂X abilities besides its others, as its own (the merged card
    file is read again, with its other faces); the part alone is kept for the creature it lies under (818.1b,
    model/super_soul.py). The part is read first on its own, so that its mistakes are shown where written."""
    at = here + ("super_soul",)
    soul = raw["super_soul"]
    part = _card({k: v for k, v in soul.items() if k != "souls"} | {"id": raw["id"], "name": raw["name"],
                 "type": "creature", "cost": 0}, root, at, file)
    souls = tuple(str(x) for x in soul.get("souls", []))
    part = dataclasses.replace(part, souls=souls)
    merged = {k: v for k, v in raw.items() if k != "super_soul"}
    for k in ("keywords", "abilities"):
        merged[k] = list(raw.get(k, [])) + list(soul.get(k, []))
    if "breaker" in soul:
        merged["breaker"] = max(int(raw.get("breaker", 1)), int(soul["breaker"]))
    own = _card(merged, root, here, file)
    return dataclasses.replace(own, super_soul=part, souls=own.souls + souls)


_HYPER_ADDS = ("keywords", "abilities", "statics")   # 816.2a: what hyper mode adds to the creature's own


def _with_hyper(card: CardDef, raw: Any, root: Any, here: tuple, file: str) -> CardDef:
    """R816.1, R816.2a-b: a creature with hyper mode is a double-sided card of a kind (model/table.py
    `faces`, the card word `release_hyper_mode`): its back is the same creature with hyper mode released, the
    same name and cost, its own abilities and the hyper ones, the hyper power (and breaker) in place of its
    own. The hyper part is read first on its own, so that its mistakes are shown where they are written."""
    at = here + ("hyper_mode",)
    if raw["type"] != "creature" or "back" in raw:
        raise InputError(file, line_of(root, at), key_path(at),
                         f"only a creature (type: creature, with no `back:`) has hyper mode (816.1); this card's "
                         f"type is {raw['type']}" + (" and it has a back face" if "back" in raw else ""))
    hyper = raw["hyper_mode"]
    _card({**hyper, "id": raw["id"], "name": raw["name"], "type": "creature", "cost": raw["cost"]}, root, at, file)
    merged = {k: v for k, v in raw.items() if k not in ("hyper_mode", "modelled", "omitted")}
    merged.update({k: hyper[k] for k in ("power", "breaker", "modelled", "omitted") if k in hyper})
    for k in _HYPER_ADDS:
        merged[k] = list(raw.get(k, [])) + list(hyper.get(k, []))
    back = _card(merged, root, here, file)
    back = dataclasses.replace(back, id=str(raw["id"]) + BACK_SUFFIX, flips_to=card.id, hyper=True)
    return dataclasses.replace(card, back=back, flips_to=back.id)


def _with_delayed(card: CardDef, raw: Any, root: Any, here: tuple, file: str) -> CardDef:
    """The card with an ability for each delayed triggered ability its effects create (R603.6,
    model/instructions/delayed.py): it waits in no zone, and resolves like any other ability of the card."""
    programs = [(raw.get("effect"), card.effect, here + ("effect",), "effect")]
    if card.spell_side is not None:
        programs.append((raw["spell"].get("effect"), card.spell_side.effect, here + ("spell", "effect"), "effect"))
    programs += [(a.get("effect"), ability.effect, here + ("abilities", j, "effect"), ability.id)
                 for j, (a, ability) in enumerate(zip(raw.get("abilities", []), card.abilities))]
    made = compile_delayed(programs, root, file, tuple(sorted(PROGRAM_ARGS)))
    if not made:
        return card
    extra = tuple(Ability(key, pattern.text(), program, zone=DELAYED_ZONE, pattern=pattern)
                  for key, pattern, program in made)
    return dataclasses.replace(card, abilities=card.abilities + extra)


def _check_forms(card: CardDef, root: Any, here: tuple, file: str) -> None:
    """Valued keywords written as their form says, burn_shield only where it belongs, a cast effect
    only on a spell."""
    mistakes = Mistakes()
    for k, word in enumerate(card.keywords):
        where = here + ("keywords", k)
        head, colon, value = word.partition(":")
        if colon and head in keyword_table.names("s_back") and value not in CIVILIZATIONS:
            mistakes.add(InputError(file, line_of(root, where), key_path(where),
                                    f"expected `{head}:<civilization>` with one of {', '.join(CIVILIZATIONS)} "
                                    f"(e.g. `{head}:Nature`), got {word!r}"))
    for j, a in enumerate(card.abilities):
        if a.replaces != "self_break" and any(ins.op == "burn_shield" for ins in a.effect):
            where = here + ("abilities", j, "effect")
            mistakes.add(InputError(file, line_of(root, where), key_path(where),
                                    "burn_shield is the effect of a `replaces: self_break` ability (it burns the "
                                    "shield whose break it replaces, A19); use it there"))
    if card.effect and card.type != "spell":
        mistakes.add(InputError(file, line_of(root, here + ("effect",)), key_path(here + ("effect",)),
                                "only a spell has a cast effect; give a creature abilities instead"))
    mistakes.raise_all()
