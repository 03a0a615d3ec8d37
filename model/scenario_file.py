"""Load a scenario YAML file (docs/scenario-format.md) into a Scenario, strictly.

Every mistake a user can make — YAML syntax, an unknown key, an unknown card or ability, a wrong
type, a missing attacker — raises an InputError naming the file, the line and the key.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import keyword_table
from .cards import CardPool
from .census import CANNOT_BE_BROKEN, EVENT_ABILITIES, Census, counted
from .errors import InputError, Mistakes, did_you_mean, raise_all
from .keyword_table import GRANTABLE
from .main_plan import SCHEMA as MAIN_SCHEMA
from .main_plan import main_plan_of
from .piles import LINKED, STACKED
from .positions import refuse
from .readings import CHOICES, choice_named
from .rules import parse_date, rules_date_problem
from .scenario import ZONE_KEYS, Expectation, PlayerSetup, Scenario
from .table import MARKS, CardTable
from .turn_plan import UNTIL
from .vocabulary import ATTACKS_UNTAPPED, IGNORED, POWER_ATTACKER
from .yamlio import inner_path, key_path, line_of, load_yaml, plain, schema_errors, shown, spoilt, validate

# Bounds on counts (docs/limits.md): a zone, a count in an expectation, a frame depth
MAX_CARDS = 100          # cards in one zone (a number of vanilla cards or a list)
MAX_LIST = 1000          # names in any other list (sources, card files, outcome zones)
MAX_COUNT = 10_000       # a count in an expectation (shields broken, uses, ...)

_NAMES = {"type": "array", "items": {"type": "string"}, "maxItems": MAX_LIST}
_COUNT = {"type": "integer", "minimum": 0, "maximum": MAX_COUNT}
_ZONE_NAMES = {"type": "array", "items": {"type": "string"}, "maxItems": MAX_CARDS}
_CARDS = {"type": "integer", "minimum": 0, "maximum": MAX_CARDS}
_ZONE = {"description": "a number of vanilla cards or a list of card names",
         "anyOf": [_CARDS, _ZONE_NAMES]}
# battle and shield entries may be a mapping naming what lies on the card (docs/scenario-extensions.md)
_BATTLE_ENTRY = {"type": "object", "required": ["card"], "additionalProperties": False,
                 "properties": {"card": {"type": "string"}, "aura": _NAMES, "seal": _NAMES, "under": _NAMES,
                                "cross": _NAMES, "weapon": _NAMES, "ex_life": {"type": "string"},
                                "tapped": {"type": "boolean"},
                                # linked Gods beside the card, out from it (804, model/gods.py)
                                "god_left": _NAMES, "god_right": _NAMES,
                                # the other King Cells of a King creature (814, model/kings.py)
                                "king": _NAMES,
                                # put into the battle zone this turn; a power change of this turn
                                "summoned": {"type": "boolean"},
                                # hyper mode released (816.2, model/hyper.py): the creature is its hyper face
                                "hyper_mode": {"type": "boolean"},
                                "power": {"type": "integer", "minimum": -1_000_000_000, "maximum": 1_000_000_000,
                                          "description": "a whole number of power, e.g. -2000"}}}
_SHIELD_ENTRY = {"type": "object", "required": ["card"], "additionalProperties": False,
                 "properties": {"card": {"type": "string"}, "castle": {"type": "string"},
                                "face_up": {"type": "boolean"}, "stack": _NAMES}}


def _entries(entry: dict) -> dict:
    return {"description": "a number of vanilla cards or a list of card names (or {card: ..., ...} mappings)",
            "anyOf": [_CARDS, {"type": "array", "maxItems": MAX_CARDS,
                               "items": {"anyOf": [{"type": "string"}, entry]}}]}


_PLAYER = {"type": "object", "properties": {**{z: _ZONE for z in ZONE_KEYS},
                                            "battle": _entries(_BATTLE_ENTRY), "shields": _entries(_SHIELD_ENTRY)},
           "additionalProperties": False}
_RESTRICTIONS = {"type": "object", "additionalProperties": False,
                 "properties": {"no_s_trigger": {"type": "boolean"}, "no_g_strike": {"type": "boolean"},
                                "locked_types": {"type": "array", "items": {"enum": ["creature", "spell", "castle",
                                                                                     "aura", "tamaseed"]}}}}
_PER_PLAYER = lambda value: {"type": "object", "properties": {"A": value, "B": value},  # noqa: E731
                             "additionalProperties": False}

OUTCOME_KEYS: dict[str, dict] = {
    "winner": {"enum": ["A", "B", "none"]},
    "attack_stopped": {"type": "boolean"},
    "turn_skipped": {"type": "boolean"},
    "shields_broken": _COUNT,
    "shields": _PER_PLAYER(_COUNT),
    "hand": _PER_PLAYER(_NAMES),
    "battle": _PER_PLAYER(_NAMES),
    "graveyard": _PER_PLAYER(_NAMES),
    "mana": _PER_PLAYER({"description": "a number or a list of card names",
                         "anyOf": [_COUNT, _NAMES]}),
    "deck_bottom": _PER_PLAYER(_NAMES),
    "uses": {"type": "object", "additionalProperties": _COUNT},
    "blocked": {"type": "boolean"},
    "loser": {"enum": ["A", "B", "none", "both"]},   # both: a draw, both lost at once (S109)
    "loop": {"type": "boolean"},
}
_OUTCOME = {"type": "object", "properties": OUTCOME_KEYS, "additionalProperties": False, "minProperties": 1,
            "description": "an outcome pattern with at least one key"}

EVENT_KEYS: dict[str, list[str]] = {
    # cards made of several cards: only the top card left and what was under it stays (801.4)
    "rebuild": ["card", "player", "top"],
    # a creature of several cards leaves the battle zone with its sources and auras (801, 310.8)
    "leave_together": ["card", "player", "to"],
    # a God links beside another (804.1a); a card of a linked God comes out of it (804.7, 703.4e)
    "god_link": ["card", "player", "beside", "side"],
    "god_unlink": ["card", "player", "stays"],
    "choose_shields": ["player", "shields", "by", "frame"],
    "trigger": ["ability", "source", "controller", "frame"],
    "resolve": ["ability", "source", "controller", "frame"],
    "cast": ["card", "player"],
    "put": ["card", "player", "from", "to", "onto"],   # onto: the card an evolution goes on (Invasion, A06)
    "move": ["card", "player", "from", "to"],
    "break": ["shield", "player", "by", "frame"],
    "shield_trigger": ["card", "player", "ability"],
    "destroy": ["card", "player"],
    "destroyed": ["card", "player", "face_down", "characteristics"],
    "replace": ["replaced", "by", "card", "shield"],   # `replaced`: the kind of the replaced event
    "declare": ["card", "player", "ability", "cost"],
    "fizzle": ["card", "player", "ability", "with"],   # `with`: the creature a failed swap left in place (S150)
    "tap": ["card", "player"],
    "cant_attack": ["card", "player"],
    "skip_turn": ["player"],
    "attack_stopped": ["attacker"],
    "win": ["player"],
    # the whole attack (R506-R511, R104)
    "attack": ["card", "player", "target"],
    "block": ["card", "attacker", "player"],
    # the attack taken by a creature that is no blocking creature: Guardman (R507.2b), or one that entered
    # the battle zone blocking (R507.4); `how`: Guardman, or `entered blocking`
    "redirect": ["card", "attacker", "player", "how"],
    "battle": ["card", "against", "winner"],
    "end_attack": ["attacker"],
    "end_turn": ["player"],
    "start_turn": ["player"],   # the next turn begins (R512, R500.5 for an extra turn; model/turn.py)
    "lose": ["player"],
    # the rest of the attack: extra turns, power, effects that end, protection
    "extra_turn": ["player"],
    "power": ["card", "player", "amount", "until"],
    "expire": ["card", "effect"],
    "protect": ["card", "player"],
    # power 0, untapping, given keywords, bonuses, no attack (model/power.py, model/touch.py, model/legality.py)
    "power_zero": ["card", "player", "power"],
    "characteristic": ["card", "player", "what", "value"],
    "choose": ["player", "what", "value"],   # a name, race, civilization or number chosen (202.2, 203.4, ...)
    "untap": ["card", "player"],
    "grant": ["card", "player", "keyword"],
    "restrict": ["card", "player", "restriction", "until"],
    # a mana charge from the hand (R701.8a), a castle put onto a shield (R701.19a)
    "charge": ["card", "player"],
    "fortify": ["card", "player", "shield"],
    # a cross gear generated (R701.16a) and crossed onto a creature (R701.17a)
    "generate": ["card", "player"],
    "cross": ["card", "player", "onto"],
    # a field deployed (R701.27a); an older D2 field sent to the graveyard by a newer one (R703.4l)
    "deploy": ["card", "player"],
    "displace": ["card", "player"],
    # a psychic creature turned over (805.1a awakening, 805.1b release): from face `card` to face `face`
    "flip": ["card", "face", "player", "how"],
    # a psychic cell put under the top of a psychic super creature by an awakening link (805.1c, 806.1)
    "link": ["card", "onto", "player"],
    "equip": ["card", "player", "onto"],   # a dragheart weapon equipped to a creature (R305.2)
    "bonus": ["card", "player"],
    "no_attack": ["player"],
    "pay": ["card", "player", "mana_cost", "tapped"],
    "end_main": ["player"],
    "reveal": ["card", "player"],   # a card shown to both players (R701.21a)
    "gachinko": ["player", "won"],  # a Gachinko Judge's result for the player who used it (R701.21b)
}
# what `declare`, `fizzle` and `shield_trigger` events name as their ability: an engine keyword
_PLACES = ["battle", "deck", "deck_bottom", "graveyard", "hand", "hyperspatial", "mana", "resolving", "shields",
           "standby", "super_gr", "abyss", "attached"]
# what an event key's value must be where it is not a card or an ability (those are resolved by name);
# a typo here would make a pattern match nothing, and a never_order hold vacuously
EVENT_VALUES: dict[str, dict] = {
    "player": {"enum": ["A", "B"]},
    "controller": {"enum": ["A", "B"]},
    "from": {"enum": _PLACES},
    "to": {"enum": _PLACES},
    "frame": {"type": "integer", "minimum": 0, "maximum": MAX_COUNT},
    "shields": {"type": "array", "items": {"type": "string"}, "maxItems": MAX_CARDS},
    "face_down": {"type": "boolean"},
    "characteristics": {"type": "boolean"},
    "replaced": {"enum": ["break", "destroy", "leave", "lose", "draw"]},   # lose: R104.2; draw: R609.6
    "amount": {"anyOf": [{"type": "integer", "minimum": -1_000_000_000, "maximum": 1_000_000_000},   # R108.2, 108.1c
                         {"type": "string", "pattern": "^([x/=][0-9]+|[+-]infinity)$"}]},
    "until": {"enum": ["end_attack", "end_turn"]},
    "power": {"anyOf": [{"type": "integer", "minimum": -1_000_000_000, "maximum": 1_000_000_000},
                        {"enum": ["∞", "-∞"]}]},   # R108.1c
    "keyword": {"type": "string"},
    "what": {"enum": ["civilization", "race", "name", "number"]},   # `name`, `number`: a `choose` event
    "value": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    "won": {"type": "boolean"},
}
_EVENT = {"type": "object", "properties": {"event": {"enum": sorted(EVENT_KEYS)}}, "required": ["event"]}
_ORDER = {"type": "array", "items": _EVENT, "minItems": 1, "maxItems": MAX_LIST}

_EXPECT_ITEM = {
    "type": "object",
    "description": "one of always, never, sometimes (an outcome pattern) or in_order, possible_order, "
                   "never_order (a list of event patterns)",
    "properties": {"always": _OUTCOME, "never": _OUTCOME, "sometimes": _OUTCOME,
                   "in_order": _ORDER, "possible_order": _ORDER, "never_order": _ORDER},
    "additionalProperties": False, "minProperties": 1, "maxProperties": 1,
}

SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "source": {"anyOf": [{"type": "string"}, _NAMES], "description": "a citation or a list of them"},
        "rules": {},
        "interpretation": {"type": "object", "additionalProperties": {"type": "string"}},
        "cards": _NAMES,
        "turn": {"enum": ["A", "B"]},
        "players": _PER_PLAYER(_PLAYER),
        "attack": {"type": "object",
                   "description": "{attacker: X, player: B}, {attacker: X, creature: Y} (Y tapped) or {choose: true} "
                                  "(the turn player chooses among the legal attacks, model/legality.py)",
                   "properties": {"attacker": {"type": "string"}, "player": {"enum": ["A", "B"]},
                                  "creature": {"type": "string"}, "choose": {"const": True}},
                   "additionalProperties": False},
        "until": {"type": "string"},
        "main": MAIN_SCHEMA,
        "attacks": {"type": "integer", "minimum": 1, "maximum": MAX_COUNT,
                    "description": "the most attacks the turn player declares this turn (model/turn_plan.py)"},
        "expect": {"type": "array", "items": _EXPECT_ITEM, "maxItems": MAX_LIST},
        "restrictions": {"type": "object", "properties": {"A": _RESTRICTIONS, "B": _RESTRICTIONS},
                         "additionalProperties": False},
    },
    "required": ["name", "turn", "attack"],
    "additionalProperties": False,
}

CARD_KEYS = {"card", "shield", "source", "attacker", "cost", "onto", "with", "top", "face"}


class _Names:
    """Resolves card and ability names of one file, raising errors that point at the line."""

    def __init__(self, pool: CardPool, root: Any, file: str):
        self.pool, self.root, self.file = pool, root, file
        self.census: Census | None = None    # set once the zones are read: what expectations may name

    def fail(self, path: tuple, expected: str) -> InputError:
        return InputError(self.file, line_of(self.root, path), key_path(path), expected)

    def check(self, value: Any, schema: dict, path: tuple) -> None:
        """Validate one value against a schema, the error pointing at the value's line in the file."""
        try:
            validate(value, schema, self.file, whole=False)
        except InputError as err:
            raise self.fail(path, err.expected) from None

    def card(self, name: Any, path: tuple) -> str:
        pool_id = self.pool.resolve(str(name))
        if pool_id is None:
            raise self.fail(path, f"unknown card {shown(name)}{did_you_mean(str(name), self.pool.names())}; "
                                  f"expected a pool id, English or Japanese name "
                                  f"(`dmcheck cards` lists the pool) or a card from a file under `cards:`")
        return pool_id

    def present(self, name: Any, path: tuple, suffix: str = "") -> str:
        """A card an expectation names, which the scenario must hold (copy `#suffix`, if given)."""
        pool_id = self.card(name, path)
        problem = self.census.copy_problem(pool_id, suffix) if self.census is not None else ""
        if problem:
            raise self.fail(path, problem)
        return pool_id

    def label(self, name: Any, path: tuple) -> str:
        """A card name as events print it: English name, keeping a `#k` suffix."""
        text = str(name)
        base, _, suffix = text.partition("#")
        english = self.pool[self.present(base, path, suffix)].name
        return f"{english}#{suffix}" if suffix else english

    def ability(self, text: Any, path: tuple, kind: str = "triggered") -> str:
        """`Card/ability` of a card the scenario holds: a triggered ability (trigger, resolve, uses)
        or a replacement (what a `replace` event names as `by`)."""
        card, sep, ability = str(text).partition("/")
        if not sep:
            raise self.fail(path, f"expected Card/ability, got {shown(text)}")
        cdef = self.pool[self.present(card, path)]
        mine = [a for a in cdef.abilities if bool(a.replaces) == (kind == "replacement")]
        if ability not in {a.id for a in mine}:
            known = ", ".join(a.id for a in mine) or "none"
            other = "a replacement" if kind == "triggered" else "a triggered ability"
            also = f" ({ability} is {other})" if ability in {a.id for a in cdef.abilities} else \
                did_you_mean(ability, [a.id for a in mine])
            raise self.fail(path, f"{cdef.name} has no {kind} ability {shown(ability)}{also}; "
                                  f"its {kind} abilities: {known}")
        return f"{cdef.name}/{ability}"


def _zone(value: Any, default: tuple[str, ...], names: _Names, path: tuple, zone: str,
          extras: list) -> tuple[str, ...]:
    """A zone's cards as pool ids; mapping entries add what lies on a card to `extras`."""
    if value is None:
        return default
    if isinstance(value, int):
        return ("vanilla",) * value
    out, problems = [], []
    for i, v in enumerate(value):
        try:
            out.append(_entry(v, i, names, path + (i,), zone, extras))
        except InputError as exc:      # every unknown card of the zone is reported at once
            problems.append(exc)
    raise_all(problems)
    return tuple(out)


def _entry(v: Any, i: int, names: _Names, here: tuple, zone: str, extras: list) -> str:
    """One card of a zone (a name, or a mapping naming what lies on or under it) as a pool id."""
    if not isinstance(v, dict):
        return names.card(v, here)
    card_id = names.card(v["card"], here + ("card",))
    for kind in LINKED + (STACKED,):
        for j, name in enumerate(v.get(kind) or []):
            extras.append((zone, i, kind, names.card(name, here + (kind, j))))
    for kind in ("ex_life", "castle"):
        if v.get(kind):
            extras.append((zone, i, kind, names.card(v[kind], here + (kind,))))
    if v.get("face_up"):
        extras.append((zone, i, "face_up", ""))
    if v.get("tapped"):
        extras.append((zone, i, "tapped", ""))
    if v.get("summoned"):
        extras.append((zone, i, "summoned", ""))
    if v.get("power"):
        extras.append((zone, i, "power", str(int(v["power"]))))
    if v.get("king"):
        _king_entry(names, card_id, [e[3] for e in extras if e[:3] == (zone, i, "king")], here)
    if v.get("hyper_mode"):
        back = names.pool[card_id].back
        if back is None or not back.hyper:
            raise names.fail(here + ("hyper_mode",), f"expected a creature with hyper mode (816.1, `hyper_mode:` in "
                                                    f"its card file); {names.pool[card_id].name} has none")
        extras.append((zone, i, "hyper_mode", ""))
    return card_id


def _king_entry(names: _Names, head: str, others: list[str], here: tuple) -> None:
    """R814.1: a King creature is exactly its King's cells combined, each once: the entry's card and `king:`."""
    cell = names.pool[head]
    king_id = names.pool.resolve(cell.king) if cell.king else None
    if king_id is None or not names.pool[king_id].king_cells:
        raise names.fail(here + ("card",), f"expected a King Cell whose King creature is in the card files (814.1); "
                                           f"{cell.name} is " + (f"a cell of {cell.king!r}, which no card file has"
                                                                 if cell.king else "no King Cell"))
    king = names.pool[king_id]
    if sorted([head] + others) != sorted(names.pool.resolve(n) or n for n in king.king_cells):
        raise names.fail(here + ("king",), f"expected the King Cells of {king.name}, each once (814.1): "
                                           f"{', '.join(king.king_cells)}")


def _players(root: Any, names: _Names, mistakes: Mistakes, schema: list[InputError]) -> dict[str, PlayerSetup]:
    """Both players' zones; every unknown card of every zone is reported at once (a zone the schema
    refused is left empty)."""
    players = {}
    raw_players = root.get("players")
    default = PlayerSetup()
    for p in ("A", "B"):
        raw = raw_players.get(p) if isinstance(raw_players, dict) else None
        raw = raw if isinstance(raw, dict) else {}
        extras: list = []
        zones = {}
        for z in ZONE_KEYS:
            empty = getattr(default, z) if z in ("deck", "shields") else ()
            zones[z] = empty
            if not spoilt(schema, ("players", p, z)):
                found = mistakes.check(_zone, raw.get(z), empty, names, ("players", p, z), z, extras)
                zones[z] = empty if found is None else found
        players[p] = PlayerSetup(**zones, extras=tuple(extras))
    return players


def _outcome(raw: dict, names: _Names, path: tuple) -> dict:
    out: dict[str, Any] = {}
    for key, value in raw.items():
        here = path + (key,)
        if key in ("hand", "battle", "graveyard", "deck_bottom", "mana"):
            out[key] = {p: (v if isinstance(v, int) else sorted(names.pool[names.present(n, here + (p, i))].name
                                                                for i, n in enumerate(v)))
                        for p, v in value.items()}
        elif key == "uses":
            out[key] = {names.ability(k, here + (k,)): int(v) for k, v in value.items()}
        elif key == "shields":
            out[key] = {p: int(v) for p, v in value.items()}
        else:
            out[key] = value if not isinstance(value, bool) else bool(value)
    return out


def _pattern(raw: dict, names: _Names, path: tuple) -> dict:
    event = str(raw["event"])
    allowed = EVENT_KEYS[event]
    out: dict[str, Any] = {"event": event}
    for key, value in raw.items():
        here = path + (key,)
        if key == "event":
            continue
        if key not in allowed:
            raise names.fail(here, f"unknown key {shown(key)}{did_you_mean(str(key), allowed)} for a {event} event; "
                                   f"expected one of {', '.join(allowed)}")
        if key in EVENT_VALUES:
            names.check(value, EVENT_VALUES[key], here)
        out[key] = _pattern_value(event, key, value, names, here)
    _pattern_refers(out, names, path)
    return out


def _pattern_value(event: str, key: str, value: Any, names: _Names, here: tuple) -> Any:
    """One key of an event pattern, with the names it gives resolved against the scenario."""
    if key == "ability" and event in ("trigger", "resolve"):
        return names.ability(value, here)
    if key == "ability":        # declare, fizzle, shield_trigger: the keyword used (SC2, SC3, R506.3)
        names.check(value, {"enum": list(EVENT_ABILITIES[event])}, here)
        return value
    if key == "by" and event == "replace":
        return _replacement(value, names, here)
    if event in ATTACK_EVENTS and key in ATTACK_LABEL_KEYS:
        return _attack_label(value, names, here)
    if key in CARD_KEYS or key == "by":
        return names.label(value, here)
    if key == "shields":
        return [names.label(v, here + (i,)) for i, v in enumerate(value or [])]
    if key == "effect":
        return _expired(value, names, here)
    if key == "frame":
        _frame(event, value, names, here)
    return value if isinstance(value, (int, bool)) else str(value)


def _replacement(value: Any, names: _Names, here: tuple) -> str:
    """What a `replace` event names as `by`: a replacement ability, or an Unbreakable shield's rule."""
    if "/" in str(value):
        return names.ability(value, here, kind="replacement")
    if str(value) == CANNOT_BE_BROKEN and names.census is not None and not names.census.unbreakable():
        raise names.fail(here, f"no card of the scenario is Unbreakable, so nothing is replaced by "
                               f"{CANNOT_BE_BROKEN!r}")
    if str(value) != CANNOT_BE_BROKEN:
        raise names.fail(here, f"expected Card/ability of a replacement ability (e.g. Bucket Bucket/shield_saver) or "
                               f"{CANNOT_BE_BROKEN!r}, got {shown(value)}")
    return CANNOT_BE_BROKEN


# a battle-zone entry also carries the turn's power changes (`power -2000`) and keywords given for the turn (R511.2)
# (the keywords: those an effect may grant and the attack-power ones, from model/data/keywords.yaml)
_EXPIRED = re.compile("|".join(re.escape(k) for k in (*keyword_table.names(POWER_ATTACKER), *GRANTABLE, IGNORED)) +
                      r"|protection from destruction|power [+-][1-9][0-9]*|"
                      r"cannot_attack|cannot_attack_players|cannot_block|cannot_be_blocked")   # model/restrictions.py


def _expired(value: Any, names: _Names, here: tuple) -> str:
    """What an `expire` event says stopped applying at R510 (model/attack_end.py)."""
    if not _EXPIRED.fullmatch(str(value)):
        raise names.fail(here, f"expected Power Attacker, power +N or -N (a whole number), protection from "
                               f"destruction, a keyword given for the turn or a restriction (cannot_block...), "
                               f"got {shown(value)}")
    if str(value) == keyword_table.name(POWER_ATTACKER) and names.census is not None and \
            not any(c.power_attacker() for c in names.census.cards()):
        raise names.fail(here, "no card of the scenario has Power Attacker")
    return str(value)


def _frame(event: str, value: int, names: _Names, here: tuple) -> None:
    """A break frame the scenario can open: 1 is the attack's, 2 and more need an effect that breaks
    shields (R603.7b); 0 (outside any frame) only for an effect that triggered outside one."""
    if value < 1 and event in ("choose_shields", "break"):
        raise names.fail(here, f"expected a frame >= 1 for a {event} event (1 is the attack's own break), got {value}")
    if value > 1 and names.census is not None and not names.census.can_nest():
        raise names.fail(here, f"no card of the scenario breaks shields with an effect, so no break opens "
                               f"inside the attack's (R603.7b) and no frame {value} exists; expected 0 or 1")


def _pattern_refers(out: dict, names: _Names, path: tuple) -> None:
    """What one key of a pattern cannot know alone: the ability a card can declare, a card that is cast."""
    census, event = names.census, out["event"]
    if census is None:
        return
    card = names.pool.resolve(out["card"].partition("#")[0]) if "card" in out else None
    if "ability" in out and event in EVENT_ABILITIES:
        problem = census.ability_problem(event, out["ability"], card)
        if problem:
            raise names.fail(path + ("ability",), problem)
    if event == "cast" and card is not None and not names.pool[card].is_spell():   # a twinpact is cast too
        raise names.fail(path + ("card",), f"{names.pool[card].name} is a {names.pool[card].type}; only a "
                                           f"spell is cast (expected a spell, or a `put` event)")


def _readings(raw: dict, names: _Names, mistakes: Mistakes) -> dict[str, str]:
    """The scenario's readings (its `interpretation:` key), each checked against the open choices."""
    out = {}
    for key, value in raw.items():
        choice = choice_named(str(key))
        if choice is None:
            mistakes.add(names.fail(("interpretation", key), f"unknown interpretation choice {shown(key)}"
                                                             f"{did_you_mean(str(key), [c.name for c in CHOICES])}; "
                                                             f"expected one of {', '.join(c.name for c in CHOICES)}"))
            continue
        readings = [r for r, _ in choice.readings]
        if str(value) not in readings:
            mistakes.add(names.fail(("interpretation", key), f"expected one of {', '.join(readings)}, got "
                                                             f"{shown(value)}{did_you_mean(str(value), readings)}"))
            continue
        out[str(key)] = str(value)
    return out


def _attack(attack: dict, turn: str, players: dict, pool: CardPool, names: _Names) -> tuple[str, str]:
    """The defender and the attacker's pool id: the turn player attacks the other with a creature of his."""
    defender = str(attack.get("player", "B" if turn == "A" else "A"))   # {creature: Y}: the other player
    if defender == turn:
        raise names.fail(("attack", "player"), f"expected the non-turn player ({'B' if turn == 'A' else 'A'}): "
                                               f"the turn player attacks the other player")
    if "attacker" not in attack:
        raise names.fail(("attack",), "expected `attacker: NAME` (with `player` or `creature`), or `choose: true` "
                                      "to let the turn player choose among the legal attacks")
    attacker = names.card(attack["attacker"], ("attack", "attacker"))
    if attacker not in players[turn].battle:
        where = [z for z in ZONE_KEYS if attacker in getattr(players[turn], z)]
        hint = f"it is in {turn}'s {where[0]}, not the battle zone" if where else \
            f"it is not in players.{turn}.battle"
        raise names.fail(("attack", "attacker"), f"expected a creature in the turn player's battle zone; {hint}")
    if pool[attacker].type != "creature":
        raise names.fail(("attack", "attacker"),
                         f"expected a creature, {pool[attacker].name} is a {pool[attacker].type}")
    return defender, attacker


def _attacker_index(attacker: str, setup: PlayerSetup, names: _Names) -> int:
    """Which copy of the attacker attacks: the first untapped one that is not summoning sick. R506.1 (A01):
    a creature attacks by being tapped, so a tapped creature cannot attack; one put into the battle zone
    this turn (`summoned: true`) cannot attack (summoning sickness, 301.5) unless it has Speed Attacker
    (101.2's example) or is an evolution creature (801.3); model/legality.py asks the same of
    `attack: {choose: true}`."""
    here = [i for i, c in enumerate(setup.battle) if c == attacker]
    untapped = [n for n, i in enumerate(here) if ("battle", i, "tapped", "") not in setup.extras]
    if not untapped:
        raise names.fail(("attack", "attacker"), f"expected an untapped creature (R506.1: the attack taps it); "
                                                 f"every {names.pool[attacker].name} of the turn player is tapped")
    card = names.pool[attacker]
    sick = not (card.has("no_summoning_sickness") or card.is_evolution())
    able = [n for n in untapped if not (sick and ("battle", here[n], "summoned", "") in setup.extras)]
    if not able:
        raise names.fail(("attack", "attacker"), f"{card.name} was put into the battle zone this turn (summoned: "
                                                 f"true) and has no Speed Attacker: summoning sickness keeps it "
                                                 f"from attacking (301.5, 801.3); expected a creature that can "
                                                 f"attack")
    return able[0]


def _expectations(root: Any, names: _Names, mistakes: Mistakes, schema: list[InputError]) -> list[Expectation]:
    """The `expect` items, every name in them resolved against what the scenario holds (an item the
    schema refused is left out; every other item's mistake is reported with it)."""
    expect = []
    if spoilt(schema, ("expect",)) and not isinstance(root.get("expect"), list):
        return []
    for i, item in enumerate(root.get("expect") or []):
        if spoilt(schema, ("expect", i)):
            continue
        kind, value = next(iter(item.items()))
        here = ("expect", i, kind)
        if kind in ("always", "never", "sometimes"):
            parsed: Any = mistakes.check(_outcome, value, names, here)
        else:
            parsed = mistakes.check(_patterns, value, names, here)
        if parsed is not None:
            expect.append(Expectation(kind, parsed, plain(item), line_of(root, ("expect", i))))
    return expect


def _patterns(value: list, names: _Names, here: tuple) -> list[dict]:
    return [_pattern(v, names, here + (j,)) for j, v in enumerate(value)]


def _census(players: dict[str, PlayerSetup], pool: CardPool, varied: dict) -> Census:
    """The cards the scenario holds (a template: the most any of its positions holds)."""
    zones = []
    for p, setup in players.items():
        zones += [getattr(setup, z) for z in ZONE_KEYS if f"{p}.{z}" not in varied]
        zones.append(tuple(card for _, _, kind, card in setup.extras if card and kind not in MARKS))
    return counted(pool, zones, list(varied.values()))


def load_scenario(path: str | Path, pool: CardPool | None = None) -> Scenario:
    """Read, check and resolve one scenario file."""
    file = str(path)
    root = load_yaml(path)
    if root is None:
        raise InputError(file, 1, "(top)", "the file is empty; expected a scenario mapping")
    if isinstance(root, dict) and set(root) == {"cards"}:
        # a card file among scenarios (a folder given as FILE): said as such, not as a scenario's mistakes
        raise InputError(file, 1, "(top)", "a card file (only `cards:`), not a scenario; expected a scenario "
                                           "(name, players, attack, ...): a scenario reads a card file through "
                                           "its own `cards:` list, and folders of scenarios keep card files in "
                                           "a subfolder (as scenarios/attack/cards/)")
    return scenario_from_root(root, file, pool)


Varied = Callable[[CardPool], dict[str, tuple[tuple[str, ...], int, bool]]]


def scenario_from_root(root: Any, file: str, pool: CardPool | None = None, varied: Varied | None = None) -> Scenario:
    """A scenario from an already loaded YAML mapping (line information kept), e.g. a sweep template's;
    `varied(pool)` gives a template's varied zones ({"A.hand": (pool ids, most cards, distinct)}), whose
    cards its expectations may name.

    Every part is checked even when another part has a mistake, so that all the file's independent
    mistakes come in one run; a part whose value the schema refused is not read further, and what
    depends on the zones (which cards the scenario holds) is not checked when a zone has a mistake."""
    mistakes = Mistakes()
    schema = schema_errors(root, SCHEMA, file)
    if not isinstance(root, dict):
        raise_all(schema)    # nothing else can be read
    for e in schema:
        mistakes.add(e)
    pool = pool or CardPool.builtin()
    mistakes.check(_card_files, root, file, pool, schema)
    names = _Names(pool, root, file)
    rules = mistakes.check(_rules, root, names) if not spoilt(schema, ("rules",)) else None
    readings = _readings(root.get("interpretation") or {}, names, mistakes) \
        if not spoilt(schema, ("interpretation",)) else {}
    before = len(mistakes.found)
    players = _players(root, names, mistakes, schema)
    zones_read = len(mistakes.found) == before and not spoilt(schema, ("players",))
    varied_zones = mistakes.check(varied, pool) if varied else {}
    if zones_read and varied_zones is not None:
        names.census = _census(players, pool, varied_zones)
    restrictions = {p: {k: (tuple(v) if isinstance(v, list) else bool(v)) for k, v in r.items()}
                    for p, r in plain(root.get("restrictions") or {}).items()} \
        if not spoilt(schema, ("restrictions",)) else {}
    turn = str(root.get("turn"))
    if zones_read:
        mistakes.check(_reachable, players, turn, pool, names)
    attack_read = not any(spoilt(schema, (key,)) or key not in root for key in ("turn", "attack"))
    attack = mistakes.check(_the_attack, root, turn, players, pool, names, zones_read) \
        if attack_read else None
    if attack is not None and zones_read and attack[1]:
        mistakes.check(_block_patterns, root, names, schema)
    expect = _expectations(root, names, mistakes, schema)
    mistakes.raise_all()
    assert attack is not None   # its mistakes, or the schema's that kept it from being read, were raised
    defender, attacker, attacker_index, target, target_index, until = attack
    source = root.get("source") or ()
    source = (str(source),) if isinstance(source, str) else tuple(str(s) for s in source)
    scenario = Scenario(name=str(root["name"]), turn=turn, players=players, attacker=attacker,
                        attacker_index=attacker_index, defender=defender, pool=pool, rules=rules,
                        readings=readings, source=source, expect=tuple(expect), file=file,
                        restrictions=restrictions, target=target, target_index=target_index, until=until,
                        attacks=root.get("attacks"), main=main_plan_of(root.get("main")))
    if scenario.main is not None:
        _check_main(root, scenario, names)
    elif not attacker:
        _some_attack_is_legal(scenario, names)
    return scenario


def _reachable(players: dict[str, PlayerSetup], turn: str, pool: CardPool, names: _Names) -> None:
    """The initial position is one a game can reach: every check of model/positions.py that refuses."""
    turn = turn if turn in ("A", "B") else "A"
    table = CardTable(Scenario(name="", turn=turn, players=players, attacker="", attacker_index=0,
                               defender="B" if turn == "A" else "A", pool=pool))
    refuse(table._build_initial(), table, players, names.root, names.fail)


def _card_files(root: Any, file: str, pool: CardPool, schema: list[InputError]) -> None:
    """The scenario's own card files added to its pool, each file's mistakes with the others."""
    if spoilt(schema, ("cards",)):
        return
    mistakes = Mistakes()
    for i, extra in enumerate(root.get("cards", []) or []):
        card_file = mistakes.check(inner_path, file, extra, root, ("cards", i), "card file")
        if card_file is not None:
            mistakes.check(pool.add_file, card_file)
    mistakes.raise_all()


def _rules(root: Any, names: _Names) -> dt.date | None:
    """The scenario's `rules:` date, which must name a rules version (never run under newer rules)."""
    rules = root.get("rules")
    if rules is not None and not isinstance(rules, dt.date):
        try:
            rules = parse_date(rules)
        except ValueError:
            raise names.fail(("rules",), f"expected a date YYYY-MM-DD, got {shown(rules)}") from None
    if rules is not None and rules_date_problem(rules):
        raise names.fail(("rules",), rules_date_problem(rules))
    return rules


def _the_attack(root: Any, turn: str, players: dict, pool: CardPool, names: _Names,
                zones_read: bool) -> tuple[str, str, int, str, int, str]:
    """Who attacks what: (defender, attacker, its copy, attacked creature, its copy, until). With a
    mistake in the zones, only the attack's own names are checked (where they stand is not known)."""
    if root["attack"].get("choose"):   # the declaration is a choice (model/legality.py)
        return _chosen_attack(root, turn, names)
    if not zones_read:
        for key in ("attacker", "creature"):
            if key in root["attack"]:
                names.card(root["attack"][key], ("attack", key))
        return "", "", 0, "", 0, ""
    defender, attacker = _attack(root["attack"], turn, players, pool, names)
    attacker_index = _attacker_index(attacker, players[turn], names)
    target, target_index, until = _whole_attack(root, defender, players, names)
    return defender, attacker, attacker_index, target, target_index, until



# ---- the whole attack (docs/scenario-extensions.md) ---------------------------------------------
ATTACK_EVENTS = ("attack", "block", "battle", "end_attack")
ATTACK_LABEL_KEYS = ("target", "against", "winner")


def _attack_label(value: Any, names: _Names, path: tuple) -> str:
    """A card label, or a player / `none` where the event allows one (attack target, battle winner)."""
    if str(value) in ("A", "B", "none"):
        return str(value)
    return names.label(value, path)


def _whole_attack(root: dict, defender: str, players: dict, names: _Names) -> tuple[str, int, str]:
    """The attacked creature (R506.1e: one of the defender's TAPPED creatures), `until`, and checks
    of `block` patterns: exit 2 with the line and what is allowed."""
    attack = root["attack"]
    until = _until(root, names)
    target, index = "", 0
    if "creature" in attack:
        if "player" in attack:
            raise names.fail(("attack", "creature"), "expected either `player` or `creature`, not both")
        target = names.card(attack["creature"], ("attack", "creature"))
        setup = players[defender]
        here = [i for i, c in enumerate(setup.battle) if c == target]
        tapped = [i for i in here if (("battle", i, "tapped", "") in setup.extras)]
        if not here:
            raise names.fail(("attack", "creature"), f"expected a creature in players.{defender}.battle; "
                                                     f"{names.pool[target].name} is not there")
        if not tapped and not _attacks_untapped(attack, names):
            raise names.fail(("attack", "creature"), f"expected a tapped creature (R506.1e: only the opponent's "
                                                     f"tapped creatures can be attacked, unless the attacker has "
                                                     f"Attacks Untapped); write it as "
                                                     f"{{card: {names.pool[target].name}, tapped: true}}")
        index = here.index(tapped[0]) if tapped else 0
    elif "player" not in attack:
        raise names.fail(("attack",), "expected `player: A|B` or `creature: NAME` (a tapped creature)")
    return target, index, until


def _attacks_untapped(attack: dict, names: _Names) -> bool:
    """Whether the attacker may attack an untapped creature (the permission `Attacks Untapped`, printed or
    given by a card of the scenario); a restriction that beats it is the model's to read (R101.2)."""
    if "attacker" not in attack:
        return False
    cdef = names.pool[names.card(attack["attacker"], ("attack", "attacker"))]
    return cdef.has(ATTACKS_UNTAPPED) or (names.census is not None and names.census.grants(ATTACKS_UNTAPPED))


def _until(root: dict, names: _Names) -> str:
    """How far the game is played (model/turn_plan.py): one of UNTIL."""
    until = str(root.get("until", "end_attack"))
    if until not in UNTIL:
        raise names.fail(("until",), f"unknown step {until!r}; expected one of {', '.join(UNTIL)} "
                                     f"(in the order the game reaches them)")
    return until


def _block_patterns(root: dict, names: _Names, schema: list[InputError]) -> None:
    """Every `block` pattern of the expectations names a creature that can block (R507.1); an
    expectation the schema refused is not read."""
    if spoilt(schema, ("expect",)):
        return
    mistakes = Mistakes()
    for i, item in enumerate(root.get("expect") or []):
        kind, value = next(iter(item.items()))
        if kind in ("in_order", "possible_order", "never_order"):
            for j, pattern in enumerate(value):
                if isinstance(pattern, dict) and pattern.get("event") == "block" and "card" in pattern:
                    mistakes.check(_check_blocker, pattern["card"], names, ("expect", i, kind, j, "card"))
    mistakes.raise_all()


def _check_blocker(name: Any, names: _Names, path: tuple) -> None:
    """R507.1: only a creature with Blocker can block."""
    cdef = names.pool[names.card(str(name).partition("#")[0], path)]
    if cdef.type == "creature" and names.census is not None and names.census.grants("redirect_block"):
        return   # an effect of the scenario can give it Blocker
    if cdef.type == "creature" and any((d := names.pool[i].super_soul) is not None and d.has("redirect_block")
                                       for i in names.pool.ids()):
        return   # a card with a 超魂X Blocker may lie under it (818.1b)
    if cdef.type != "creature" or not cdef.has("redirect_block"):
        raise names.fail(path, f"{cdef.name} cannot block; expected a creature with Blocker (R507.1)")


# ---- a scenario that starts before the declaration (model/legality.py) ---------------------------
def _chosen_attack(root: dict, turn: str, names: _Names) -> tuple[str, str, int, str, int, str]:
    """`attack: {choose: true}`: no attacker, target or player of its own (the choice names them)."""
    attack = root["attack"]
    for key in ("attacker", "player", "creature"):
        if key in attack:
            raise names.fail(("attack", key), f"`choose: true` lets the turn player choose the attack; expected "
                                              f"no `{key}` beside it (or drop `choose` and name the attack)")
    until = _until(root, names)
    return ("B" if turn == "A" else "A"), "", 0, "", 0, until


def _check_main(root: dict, scenario: Scenario, names: _Names) -> None:
    """`main:` (model/main_plan.py): the attack is chosen after the main step (500.1: the attack step
    follows it), so `attack: {choose: true}`; `play` names cards of the turn player's hand (504.1: he
    executes cards of his hand)."""
    if scenario.attacker:
        raise names.fail(("attack",), "a scenario with `main:` plays the main step before the attack step "
                                      "(R500.1); expected `attack: {choose: true}`")
    hand = {scenario.pool[c].name for c in scenario.players[scenario.turn].hand}
    assert scenario.main is not None
    mine = scenario.players[scenario.turn]
    homed = {scenario.pool[c].name: zone for zone in ("super_gr", "hyperspatial") for c in getattr(mine, zone)}
    for i, name in enumerate(scenario.main.play):
        if name in homed and name not in hand:   # 112.4, 201.1b, 805.4a, 807.4a: a cost, but never paid from there
            where = "super GR zone" if homed[name] == "super_gr" else "hyperspatial zone"
            raise names.fail(("main", "play", i), f"{name!r} is in {scenario.turn}'s {where}, whose cards are never "
                                                  "executed by paying their cost (R112.4, R201.1b); expected the "
                                                  "name of a card of the turn player's hand (R504.1)")
        if name not in hand:
            raise names.fail(("main", "play", i), f"{name!r} is not in {scenario.turn}'s hand; expected the "
                                                  f"name of a card of the turn player's hand (R504.1)")


def _some_attack_is_legal(scenario: Scenario, names: _Names) -> None:
    """Exit 2 when the turn player has no legal attack (R506.1): the scenario could show nothing."""
    from .procedure import BreakModel  # the legality is the model's; loaded only for such a scenario
    model = BreakModel(scenario)
    if model.legal_attacks(model.initial_state()):
        return
    reasons = "; ".join(model.attack_reasons(model.initial_state())) or f"{scenario.turn} has no creature"
    raise names.fail(("attack", "choose"), f"no legal attack: {reasons}; expected an untapped creature of "
                                            f"{scenario.turn} without summoning sickness (or with Speed Attacker) "
                                            f"that may attack the opponent or one of his tapped creatures (R506.1)")
