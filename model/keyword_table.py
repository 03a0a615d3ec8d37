"""The keyword table: every keyword a card file may use is a row of model/data/keywords.yaml (issue 33).

A keyword is data: its row names the engine mechanism parameters it sets (`sets:`), and each mechanism
asks a card for a parameter (`CardDef.sets`, `has_param`), never for a keyword's name. The names are
resolved to parameters once, when this module is imported, so the search reads a precomputed tuple.
A new keyword made of parameters below needs no Python: one row in the table (docs/architecture.md).
The table is checked on load; a mistake is an InputError naming the file, the line and the key.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Final

from .errors import InputError, did_you_mean
from .yamlio import key_path, line_of, load_yaml, validate

FILE: Final = Path(__file__).parent / "data" / "keywords.yaml"

# the parameters the mechanisms read, and where (what a keyword's `sets:` may name)
PARAMETERS: Final = {
    "shield_trigger": "used free from the shields in a shield check (SC2; instructions/shield_check.py)",
    "bonus_without_shields": "its S-Trigger bonus when its owner has no shields (touch.py)",
    "bonus_two_broken": "its S-Trigger bonus after two shields broken that turn (touch.py)",
    "g_strike": "revealed in a shield check: one creature cannot attack (instructions/shield_check.py)",
    "s_back": "summoned free by discarding a card of a civilization from the shields (value: the civ)",
    "sabaki": "cast free by discarding a `sabaki_discard` card from the shields (SC3)",
    "sabaki_discard": "what a `sabaki` card discards (SC3)",
    "free_without_shields": "summoned free from the shields when its owner has none (SC3)",
    "to_mana_after_resolving": "a spell that goes to the mana zone after it resolves (procedure.py)",
    "cannot_be_broken": "a shield whose break does not happen (instructions/breaking.py)",
    "cannot_be_destroyed": "the destruction is attempted, the card stays (R701.6a)",
    "stays_at_zero_power": "the 700.3 rule does not destroy it at power 0 (power.py)",
    "cannot_leave": "whatever would move it out of the battle zone leaves it there (R701.26a)",
    "extra_breaks": "breaks N more shields (value: +N; instructions/effects.py)",
    "redirect_block": "the Blocker redirection: may block, the attacker is blocked (R507.2a; redirection.py)",
    "redirect_guard": "the Guardman redirection: takes an attack on another creature, no block (R507.2b)",
    "evolution_one": "an evolution creature on one creature (801)",
    "evolution_two": "an evolution creature on two creatures (S206)",
    "evolution_no_source": "an evolution creature needing no source (S207)",
    "evolution_source_optional": "an evolution creature put alone or on a creature (813.1b; cards.py)",
    "dream_unique": "no second Dream card of one name in its owner's battle zone (817.2; dream.py)",
    "neo": "may be put as an evolution creature or alone (802)",
    "under_cards_leave_instead": "its under-cards leave instead of it (803.2, a replacement)",
    "top_card_leaves_instead": "only its top card leaves (813.1, a replacement)",
    "release_when_unsealed": "turns over when its last seal leaves (809.1a)",
    "link_release": "a linked psychic creature returns one cell instead of leaving (806.1b)",
    "attack_power": "more power while it attacks (value: +N; attack_end.py)",
    "destroys_battled": "destroys the creature it battled after the battle (power.py)",
    "wins_battles": "wins every battle, no power compared (700.5)",
    "no_summoning_sickness": "may attack the turn it was put into the battle zone (legality.py)",
    "attacks_untapped_creatures": "a permission: may attack untapped creatures (R101.2; legality.py)",
    "cannot_attack": "the restriction `cannot_attack` as a static of the creature (restrictions.py)",
    "cannot_attack_players": "the restriction `cannot_attack_players` (restrictions.py)",
    "cannot_block": "the restriction `cannot_block` (restrictions.py)",
    "cannot_be_blocked": "the restriction `cannot_be_blocked` (restrictions.py)",
    "must_attack": "attacks if able (legality.py)",
    "must_block": "blocks if able (touch.py)",
    "evasion_power": "cannot be blocked by creatures with power N or less (value: N; touch.py)",
    "ignores_cost": "abilities of other creatures with cost N or less are ignored (value: N)",
}
SCHEMA: Final = {
    "type": "object", "required": ["keywords"], "additionalProperties": False,
    "properties": {"keywords": {"type": "array", "items": {
        "type": "object", "required": ["name", "sets", "doc"], "additionalProperties": False,
        "properties": {
            "name": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9 -]*$"},
            "form": {"type": "string"}, "value": {"type": "string"}, "example": {"type": "string"},
            "sets": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "grantable": {"type": "boolean"}, "givable": {"type": "boolean"}, "stacks": {"type": "boolean"},
            "creature_only": {"type": "boolean"}, "doc": {"type": "string"}}}}},
}


def _pattern(row: dict, root: Any, where: tuple, file: str) -> re.Pattern[str] | None:
    """A valued keyword's whole form as a regular expression: the `form` up to its <civ>, N or +N, then the
    `value` expression (`Evasion:power<=` then `[0-9]{1,10}`); None for a keyword without `value`."""
    form = row.get("form")
    if form is None:
        return None
    prefix = re.sub(r"(<civ>|\+N|N)$", "", form)
    if not form.startswith(row["name"] + ":") or prefix == form or ("value" in row) != ("example" in row):
        raise InputError(file, line_of(root, where + ("form",)), key_path(where + ("form",)),
                         f"expected `{row['name']}:...` ending in <civ>, N or +N, with both `value` and `example` "
                         f"or neither, got {form!r}")
    if "value" not in row:
        return None
    pattern = re.compile(re.escape(prefix) + row["value"])
    if not pattern.fullmatch(row["example"]):
        raise InputError(file, line_of(root, where + ("example",)), key_path(where + ("example",)),
                         f"the example {row['example']!r} does not fit its form {form!r} and value {row['value']!r}")
    return pattern


def load(path: Path = FILE) -> tuple[dict, ...]:
    """The rows of the table, checked: known parameters, no name twice, a well-formed `form`."""
    file = str(path)
    root = load_yaml(path)
    validate(root, SCHEMA, file)
    rows, seen = [], set()
    for i, row in enumerate(root["keywords"]):
        where = ("keywords", i)
        if row["name"] in seen:
            raise InputError(file, line_of(root, where + ("name",)), key_path(where + ("name",)),
                             f"the keyword {row['name']!r} is already in the table; expected each name once")
        seen.add(row["name"])
        for j, p in enumerate(row["sets"]):
            if p not in PARAMETERS:
                raise InputError(file, line_of(root, where + ("sets", j)), key_path(where + ("sets", j)),
                                 f"no mechanism reads {p!r}{did_you_mean(p, PARAMETERS)}; expected one of "
                                 f"the parameters of model/keyword_table.py PARAMETERS")
        rows.append({**row, "sets": tuple(row["sets"]), "pattern": _pattern(row, root, where, file)})
    return tuple(rows)


ROWS: Final = load()
# the keyword (its form when valued) and its description, in the table's order
KEYWORDS: Final = {r.get("form", r["name"]): r["doc"] for r in ROWS}
NAMES: Final = tuple(r["name"] for r in ROWS)
# each parameter and the keywords setting it: what a mechanism asks a card about
PARAMS: Final[dict[str, tuple[str, ...]]] = {p: tuple(r["name"] for r in ROWS if p in r["sets"]) for p in PARAMETERS}
GRANTABLE: Final = [r["name"] for r in ROWS if r.get("grantable")]
GIVABLE: Final = tuple(r["name"] for r in ROWS if r.get("givable"))
STACKS: Final = frozenset(r["name"] for r in ROWS if r.get("stacks"))
CREATURE_ONLY: Final = tuple(r["name"] for r in ROWS if r.get("creature_only"))
# a valued keyword's name, its form's expression, the form and an example (checked on card load)
FORMS: Final = {r["name"]: (r["pattern"], r["form"], r["example"]) for r in ROWS if r["pattern"] is not None}


def names(param: str) -> tuple[str, ...]:
    """The keywords that set `param` (a KeyError for a parameter no mechanism declared: a typo in code)."""
    return PARAMS[param]


def name(param: str) -> str:
    """The first keyword setting `param`: the name an event shows for it (a declared S-Trigger, G-Strike)."""
    return PARAMS[param][0]


def params_of(keywords: tuple[str, ...]) -> frozenset[str]:
    """The parameters a card's keywords set (valued ones by their head): computed once per card."""
    return frozenset(p for k in keywords for p in _SETS.get(k.partition(":")[0], ()))


_SETS: Final = {r["name"]: r["sets"] for r in ROWS}
