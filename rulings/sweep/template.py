"""A sweep template (docs/sweeps.md): a scenario plus `vary` (the cards each zone may hold) and an
optional `compare` (a choice's readings, or two rules dates).

Loading is strict like a scenario's: every mistake is an InputError naming the file, the line, the
key and what is allowed, so `dmcheck sweep` exits 2 before any position runs.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from math import comb, prod
from pathlib import Path
from typing import Any

from ...model.cards import CardPool
from ...model.errors import InputError, Mistakes, did_you_mean, raise_all
from ...model.positions import needs_a_source
from ...model.readings import CHOICES, choice_named
from ...model.rules import parse_date
from ...model.scenario import ZONE_KEYS, Scenario
from ...model.scenario_file import SCHEMA, scenario_from_root
from ...model.yamlio import key_path, line_of, load_yaml, plain, schema_errors, shown, spoilt

MAX_SIZE = 40   # the most cards a varied zone may hold (a deck's worth)
# the most positions a template may generate (docs/limits.md): at about a second each, a million keep two
# cores busy for a week and fill gigabytes of database; a larger template is a mistake (sizes up to 40
# from a few cards make more positions than any machine can run)
MAX_POSITIONS = 1_000_000

_VARY_ITEM = {
    "type": "object", "required": ["from", "size"], "additionalProperties": False,
    "properties": {"from": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                   "size": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
                            "description": "[lo, hi]: two whole numbers"},
                   "distinct": {"type": "boolean"}}}
_COMPARE = {
    "type": "object", "additionalProperties": False, "minProperties": 1, "maxProperties": 1,
    "description": "{interpretation: NAME} or {rules: [DATE, DATE]}",
    "properties": {"interpretation": {"anyOf": [
                       {"type": "string"},
                       {"type": "object", "required": ["name"], "additionalProperties": False,
                        "properties": {"name": {"type": "string"},
                                       "readings": {"type": "array", "items": {"type": "string"}, "minItems": 2}}}],
                       "description": "a choice name, or {name: NAME, readings: [R1, R2, ...]}"},
                   "rules": {"type": "array", "minItems": 2, "maxItems": 2,
                             "description": "two rules dates [YYYY-MM-DD, YYYY-MM-DD]"}}}
_SCENARIO_SCHEMA: dict[str, Any] = SCHEMA
TEMPLATE_SCHEMA = {**_SCENARIO_SCHEMA,
                   "properties": {**_SCENARIO_SCHEMA["properties"], "vary": {"type": "object", "minProperties": 1,
                                                                   "additionalProperties": _VARY_ITEM},
                                  "compare": _COMPARE},
                   "required": [*_SCENARIO_SCHEMA["required"], "vary"]}


@dataclass(frozen=True)
class Vary:
    """One varied zone: every multiset of lo..hi cards drawn from `cards` (pool ids, in file order)."""

    player: str
    zone: str
    cards: tuple[str, ...]
    lo: int
    hi: int
    distinct: bool

    @property
    def key(self) -> str:
        return f"{self.player}.{self.zone}"


@dataclass(frozen=True)
class Setting:
    """One side of a comparison: a label, a rules date or None, and readings to impose."""

    label: str
    rules: dt.date | None
    readings: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Template:
    file: str
    scenario: Scenario
    vary: tuple[Vary, ...]
    compare: tuple[Setting, ...]        # empty: nothing compared
    compare_text: str                   # "nested_other_pending" or "rules 2023-01-01 vs 2024-06-19"
    digest: str                         # identifies the template's content (not its comments)


def _fail(root: Any, file: str, path: tuple, expected: str) -> InputError:
    return InputError(file, line_of(root, path), key_path(path), expected)


def _vary(root: Any, file: str, scenario: Scenario, key: str, raw: Any) -> Vary:
    here = ("vary", key)
    player, dot, zone = str(key).partition(".")
    if not dot or player not in ("A", "B") or zone not in ZONE_KEYS:
        raise _fail(root, file, here, f"expected PLAYER.ZONE with PLAYER A or B and ZONE one of "
                                      f"{', '.join(ZONE_KEYS)}, got {key!r}")
    if player == scenario.turn and zone == "battle":
        raise _fail(root, file, here, f"the attacker stands in {player}.battle, which cannot vary; expected "
                                      f"another zone, or the other player's battle zone")
    if any(extra[0] == zone for extra in scenario.players[player].extras):
        raise _fail(root, file, here, f"players.{player}.{zone} has cards on cards (aura, castle, ...), "
                                      f"which a varied zone cannot keep; expected a zone without them")
    lo, hi = raw["size"]
    if not (0 <= lo <= hi <= MAX_SIZE):
        raise _fail(root, file, here + ("size",), f"expected [lo, hi] with 0 <= lo <= hi <= {MAX_SIZE}, "
                                                  f"got [{lo}, {hi}]")
    cards = _from_cards(root, file, key, raw, scenario.pool)
    for i, card in enumerate(cards if zone == "battle" else ()):   # each card lies alone there
        alone = needs_a_source(scenario.pool[card])
        if alone:
            raise _fail(root, file, here + ("from", i), f"{alone}: a varied battle zone holds cards with nothing "
                                                        f"under them; expected creatures that stand alone")
    distinct = bool(raw.get("distinct", False))
    if distinct and hi > len(cards):
        raise _fail(root, file, here + ("size",), f"distinct: true allows at most {len(cards)} cards from "
                                                  f"{len(cards)} names; expected hi <= {len(cards)}")
    return Vary(player, zone, tuple(cards), lo, hi, distinct)


def _from_cards(root: Any, file: str, key: str, raw: Any, pool: CardPool, lines: Any = None) -> tuple[str, ...]:
    """The pool ids of a varied zone's `from`, each once (`lines`: the mapping whose lines to quote,
    when `root` no longer holds `vary`)."""
    cards: list[str] = []
    for i, name in enumerate(raw["from"]):
        here = ("vary", key, "from", i)
        line = line_of(lines, here[1:]) if lines is not None else line_of(root, here)
        pool_id = pool.resolve(str(name))
        if pool_id is None:
            raise InputError(file, line, key_path(here), f"unknown card {shown(name)}"
                             f"{did_you_mean(str(name), pool.names())}; expected a card of the pool "
                             f"(`dmcheck cards` lists the pool, or a file under `cards:`)")
        if pool_id in cards:
            raise InputError(file, line, key_path(here), f"{shown(name)} is listed twice; expected each card once")
        cards.append(pool_id)
    return tuple(cards)


def _varied(root: Any, file: str, raw_vary: Any) -> Callable[[CardPool], dict]:
    """What the base scenario's loader needs to know of `vary` before its expectations are read: the
    cards each well-formed PLAYER.ZONE may hold, at most how many (the rest is checked by `_vary`)."""
    def varied(pool: CardPool) -> dict[str, tuple[tuple[str, ...], int, bool]]:
        out = {}
        for key, raw in raw_vary.items():
            player, dot, zone = str(key).partition(".")
            if dot and player in ("A", "B") and zone in ZONE_KEYS:
                cards = _from_cards(root, file, str(key), raw, pool, lines=raw_vary)
                out[str(key)] = (cards, max(0, min(raw["size"][1], MAX_SIZE)), bool(raw.get("distinct", False)))
        return out
    return varied


def zone_count(v: Vary) -> int:
    """How many multisets a varied zone holds: sum C(n+k-1, k) over its sizes, C(n, k) when distinct."""
    n = len(v.cards)
    return sum(comb(n, k) if v.distinct else comb(n + k - 1, k) for k in range(v.lo, v.hi + 1))


def _bounded(root: Any, file: str, vary: tuple[Vary, ...]) -> None:
    """The number of positions, computed (never enumerated) and refused above MAX_POSITIONS."""
    counts = [zone_count(v) for v in vary]
    total = prod(counts)
    if total > MAX_POSITIONS:
        per_zone = ", ".join(f"{v.key} {n:,}" for v, n in zip(vary, counts))
        raise _fail(root, file, ("vary",), f"the template generates {total:,} positions ({per_zone}); the limit is "
                                          f"{MAX_POSITIONS:,} (docs/limits.md): expected smaller sizes, fewer cards "
                                          f"in `from`, or `distinct: true`")


def _date(root: Any, file: str, path: tuple, value: Any) -> dt.date:
    if isinstance(value, dt.date):
        return value
    try:
        return parse_date(str(value))
    except ValueError:
        raise _fail(root, file, path, f"expected a date YYYY-MM-DD, got {value!r}") from None


def _compare(root: Any, file: str, raw: Any) -> tuple[tuple[Setting, ...], str]:
    if raw is None:
        return (), ""
    if "rules" in raw:
        dates = [_date(root, file, ("compare", "rules", i), v) for i, v in enumerate(raw["rules"])]
        if dates[0] == dates[1]:
            raise _fail(root, file, ("compare", "rules"), "expected two different rules dates")
        sides = tuple(Setting(f"rules {d.isoformat()}", d) for d in dates)
        return sides, f"rules {dates[0].isoformat()} vs {dates[1].isoformat()}"
    spec = raw["interpretation"]
    name = spec if isinstance(spec, str) else spec["name"]
    here = ("compare", "interpretation") + (() if isinstance(spec, str) else ("name",))
    choice = choice_named(str(name))
    if choice is None:
        raise _fail(root, file, here, f"unknown interpretation choice {name!r}"
                                      f"{did_you_mean(str(name), [c.name for c in CHOICES])}; expected one of "
                                      f"{', '.join(c.name for c in CHOICES)}")
    known = [r for r, _ in choice.readings]
    readings = known if isinstance(spec, str) else [str(r) for r in spec.get("readings", known)]
    for i, r in enumerate(readings):
        if r not in known or readings.index(r) != i:
            raise _fail(root, file, ("compare", "interpretation", "readings", i),
                        f"expected distinct readings of {name}: {', '.join(known)}; got {r!r}"
                        f"{did_you_mean(r, known) if r not in known else ''}")
    return tuple(Setting(f"{name}={r}", None, ((str(name), r),)) for r in readings), str(name)


def digest(root: Any) -> str:
    """The template's content as canonical JSON, hashed: comments and layout do not change it."""
    text = json.dumps(_json_keys(plain(root)), sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _json_keys(node: Any) -> Any:
    """Every mapping key as the text JSON writes it (1 -> "1", True -> "true"), so that sort_keys can
    order a mapping whose keys are of mixed types (a bad template, refused once it is read)."""
    if isinstance(node, dict):
        return {k if isinstance(k, str) else json.dumps(k, default=str): _json_keys(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_json_keys(v) for v in node]
    return node


def load_template(path: str | Path) -> Template:
    """Read and check a sweep template; the base scenario is loaded as a scenario file would be. Every
    part is checked even when another has a mistake: the file's independent mistakes come together."""
    file = str(path)
    root = load_yaml(path)
    if root is None:
        raise InputError(file, 1, "(top)", "the file is empty; expected a sweep template mapping")
    schema = schema_errors(root, TEMPLATE_SCHEMA, file)
    if not isinstance(root, dict):
        raise_all(schema)
    mistakes = Mistakes()
    for e in schema:
        mistakes.add(e)
    fingerprint = digest(root)
    raw_vary, raw_compare = root.pop("vary", None), root.pop("compare", None)
    vary_read = raw_vary is not None and not spoilt(schema, ("vary",))
    scenario = mistakes.check(scenario_from_root, root, file, None,
                              _varied(root, file, raw_vary) if vary_read else None)
    if raw_vary is not None:
        root["vary"] = raw_vary                    # put back so errors below point at their lines
    if raw_compare is not None:
        root["compare"] = raw_compare
    vary: tuple[Vary, ...] = ()
    if vary_read and scenario is not None:
        found = [mistakes.check(_vary, root, file, scenario, str(k), v) for k, v in raw_vary.items()]
        vary = tuple(v for v in found if v is not None)
        if len(vary) == len(found):
            mistakes.check(_bounded, root, file, vary)
    elif vary_read:      # the scenario has mistakes: what the varied zones say on their own
        for k, v in raw_vary.items():
            mistakes.check(_vary_form, root, file, str(k), v)
    compared = mistakes.check(_compare, root, file, raw_compare) if not spoilt(schema, ("compare",)) else None
    mistakes.raise_all()
    assert scenario is not None and compared is not None   # their mistakes were raised above
    return Template(file, scenario, vary, compared[0], compared[1], fingerprint)


def _vary_form(root: Any, file: str, key: str, raw: Any) -> None:
    """A varied zone's key and sizes, checked without the scenario (when the scenario has mistakes)."""
    player, dot, zone = key.partition(".")
    if not dot or player not in ("A", "B") or zone not in ZONE_KEYS:
        raise _fail(root, file, ("vary", key), f"expected PLAYER.ZONE with PLAYER A or B and ZONE one of "
                                               f"{', '.join(ZONE_KEYS)}, got {key!r}")
    lo, hi = raw["size"]
    if not (0 <= lo <= hi <= MAX_SIZE):
        raise _fail(root, file, ("vary", key, "size"), f"expected [lo, hi] with 0 <= lo <= hi <= {MAX_SIZE}, "
                                                       f"got [{lo}, {hi}]")
