"""Card words about power, battles and what an effect gives a creature for the turn.

- `power`: "+N / -N power until the end of the turn" (dmwiki "パワー低下"; the fandom's "Decrease
  Power"): one chosen creature, all of a player's creatures there now, the ability's own creature or
  the attacking creature. A creature left at power 0 or less is destroyed by the state-based check
  (model/power.py, 703.4c), not by this word.
- `battle`: a battle started by an effect ("this creature and the attacking creature battle",
  《勝利の覇闘 ガイラオウ》; "choose one of yours and one of theirs: they battle"): rule 115, the same
  battle as an attack's, outside the battle step (model/power.py `fight`).
- `untap`, `grant` (a keyword until the end of the turn: Blocker, Slayer, S-Trigger on shields...),
  `ignore` (a creature's abilities are ignored this turn), and `_slayer`, Slayer's destruction.
None of them declares a footprint: they reach powers and keywords that battles, blocks and the
state-based check read, so the reduction treats them as TOP (never reordered).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import keyword_table
from ..characteristics import CIVILIZATION, CIVILIZATIONS, DIVIDED_BY, FIXED, INFINITY, RACE, TIMES
from ..counts import SCHEMA as COUNT_SCHEMA
from ..counts import count
from ..events import ev
from ..state import State, replace
from ..vocabulary import IGNORED, STACKS
from . import destruction
from .battle_start import start_battle
from .common import creatures, players_of
from .registry import NONE, WHOSE, deterministic, op
from .selection import WHICH, fits

if TYPE_CHECKING:
    from ..game import Game
    from ..vocabulary import Keyword

TURN = {"enum": ["end_turn"]}
NEXT_TURN_START = "your_next_turn_start"   # "until the start of your next turn" (R500.3, model/turn.py)
# the keywords an effect may give (each read by the engine; model/vocabulary.py KEYWORDS)
GRANTABLE: list[Keyword] = keyword_table.GRANTABLE   # the rows `grantable: true` of model/data/keywords.yaml


def _reached(m: Game, s: State, task, ins, choice) -> list[int]:
    """The creatures a `target` reaches now: the chosen one, every one of `whose`, the ability's own
    creature, the attacking creature or the creature it attacks (only those in the battle zone)."""
    target = ins.get("target", "one")
    if target == "one":
        return [choice[0]] if choice and choice != NONE else []
    if target == "all":
        return [c for p in players_of(task.controller, ins.get("whose", "opponent")) for c in s.zone(p).battle
                if m.card(c).type == "creature" and fits(m, s, c, ins.get("which"))]
    cid = task.source if target == "self" else s.attacker if target == "attacker" else s.target
    return [cid] if cid >= 0 and cid in s.zone(m.owner(cid)).battle else []


def _one_options(verb: str):
    """Options of a word whose `target` is `one`: a creature of `whose` (None otherwise: no decision)."""
    def options(m, s, task, ins):
        if ins.get("target", "one") != "one":
            return None
        me = task.controller
        opts = [((c,), f"{me} {verb} {m.label(c)}")
                for c in creatures(m, s, me, ins.get("whose", "opponent"), which=ins.get("which"))]
        if opts and ins.get("optional", False):
            opts.append((NONE, f"{me} chooses no creature"))
        return opts
    return options


# ---- power ---------------------------------------------------------------------------------------
INFINITE_AMOUNTS = {"+infinity": INFINITY, "-infinity": -INFINITY}   # R108.1c: "+∞ / -∞ power"


def lowering(amount) -> bool:
    """Whether a `power` word's amount lowers a power (a negative number or minus ∞)."""
    return amount == "-infinity" or (isinstance(amount, int) and amount < 0)


def _power(m, s, task, ins, choice, out):
    reached = _reached(m, s, task, ins, choice)
    if not reached:
        return s
    kind = next((k for k in (TIMES, DIVIDED_BY, FIXED) if ins.get(k) is not None), None)
    if kind is not None:   # R108.2, R206.4, R206.3: kept apart from the additions (model/characteristics.py)
        if kind == FIXED:  # R206.3: no other effect changes a fixed power, a second fix neither
            reached = [c for c in reached if not any(t[0] == c and t[1] == FIXED for t in s.traits)]
        return _add_traits(m, s, reached, kind, ins.get(kind), out)
    amount = ins.get("amount")
    n = INFINITE_AMOUNTS.get(amount, amount)
    per = ins.get("for_each")
    if per is not None:   # R608.2b: the number is counted once, now, and never changes afterwards
        n = amount = n * count(m, s, task.controller, per)
        if not n:
            return s
    for c in reached:
        out.append(ev("power", "", card=m.label(c), player=m.owner(c), amount=amount, until="end_turn"))
    return replace(s, powers=tuple(sorted(s.powers + tuple((c, n) for c in reached))))


_SHOWN = {TIMES: "x{}", DIVIDED_BY: "/{}", FIXED: "={}"}


def _add_traits(m, s, cards, kind: str, value, out):
    """Cards get a changed characteristic until the end of the turn (State.traits), one event each: `power`
    for a power (amount x2, /2, =5000), `characteristic` for an added civilization or race."""
    for c in cards:
        if kind in _SHOWN:
            out.append(ev("power", "", card=m.label(c), player=m.owner(c), amount=_SHOWN[kind].format(value),
                          until="end_turn"))
        else:
            out.append(ev("characteristic", "", card=m.label(c), player=m.owner(c), what=kind, value=value))
    new = tuple((c, kind, value) for c in cards if kind in _SHOWN or (c, kind, value) not in s.traits)
    return replace(s, traits=tuple(sorted(s.traits + new))) if new else s


_TARGET: dict[str, Any] = {"enum": ["one", "all", "self", "attacker", "attacked"],
           "description": "one chosen creature of `whose`, all of them, this ability's creature, the attacking "
                          "creature, the creature it attacks"}
_FACTOR = {"type": "integer", "minimum": 2, "maximum": 1000}
_POWER = {"type": "integer", "minimum": 0, "maximum": 1_000_000_000}
_SCHEMA_POWER = {
    "doc": "creatures get +N or -N power (`amount`: a whole number, +infinity or -infinity, R108.1c), or their "
           "power is multiplied (`times`), divided (`divided_by`, rounded down) or fixed (`fixed`: no other effect "
           "changes it, R206.3), until the end of the turn (R511.2); whatever the order they came in, additions "
           "and subtractions apply first, then multiplications, then divisions (R108.2, R206.4). `target`: one "
           "(chosen), all (of `whose`, those there now), self, attacker. With `for_each`, the amount is multiplied by "
           "that count, taken as the effect resolves and fixed from then on (R608.2b)",
    "properties": {"amount": {"description": "a whole number (not 0), +infinity or -infinity",
                              "anyOf": [{"type": "integer", "minimum": -1_000_000_000, "maximum": 1_000_000_000,
                                         "not": {"const": 0}}, {"enum": sorted(INFINITE_AMOUNTS)}]},
                   "times": _FACTOR, "divided_by": _FACTOR, "fixed": _POWER, "for_each": COUNT_SCHEMA,
                   "which": WHICH, "target": _TARGET, "whose": WHOSE, "until": TURN, "optional": {"type": "boolean"}},
    "required": ["until"],
    "oneOf": [{"required": ["amount"]}, {"required": ["times"]}, {"required": ["divided_by"]},
              {"required": ["fixed"]}],
}
op("power", schema=_SCHEMA_POWER)((_one_options("changes the power of"), _power))


# ---- a civilization or a race added (R106.4, R203.3) ----------------------------------------------------
def _add_characteristic(m, s, task, ins, choice, out):
    kind = CIVILIZATION if ins.get(CIVILIZATION) is not None else RACE
    return _add_traits(m, s, _reached(m, s, task, ins, choice), kind, ins.get(kind), out)


_SCHEMA_ADD_CHARACTERISTIC = {
    "doc": "creatures get a civilization (R106.4) or a race (R203.3) besides their own until the end of the turn; "
           "a characteristic, not an ability (R110.6): ignoring the creature's abilities leaves it. `target`: one "
           "(chosen), all (of `whose`, those there now), self, attacker",
    "properties": {CIVILIZATION: {"enum": list(CIVILIZATIONS)}, RACE: {"type": "string", "minLength": 1},
                   "which": WHICH, "target": _TARGET, "whose": WHOSE, "until": TURN, "optional": {"type": "boolean"}},
    "required": ["until"],
    "oneOf": [{"required": [CIVILIZATION]}, {"required": [RACE]}],
}
op("add_characteristic", schema=_SCHEMA_ADD_CHARACTERISTIC)(
    (_one_options("adds a characteristic to"), _add_characteristic))


# ---- a battle started by an effect (rule 115) ----------------------------------------------------
def _side(m, s, task, who: str, whose: str, which=None) -> list[int]:
    if who == "self":
        return [task.source] if task.source in s.zone(m.owner(task.source)).battle else []
    if who == "attacker":
        return [s.attacker] if s.attacker >= 0 and s.attacker in s.zone(s.turn).battle else []
    return creatures(m, s, task.controller, whose, which=which)


def _battle_options(m, s, task, ins):
    mine = _side(m, s, task, ins.get("mine", "one"), "own")
    theirs = _side(m, s, task, ins.get("theirs", "one"), "opponent", ins.get("which"))
    pairs = [(a, b) for a in mine for b in theirs if a != b]
    me = task.controller
    opts = [((a, b), f"{me} has {m.label(a)} battle {m.label(b)}") for a, b in pairs]
    if opts and ins.get("optional", False):
        opts.append((NONE, f"{me} starts no battle"))
    return opts


def _battle(m, s, task, ins, choice, out):
    if choice == NONE:
        return s
    a, b = choice
    if a not in s.zone(m.owner(a)).battle or b not in s.zone(m.owner(b)).battle:
        return s
    if "battle_start" in m.words:   # R101.4f: what its start triggers resolves first, inside this effect
        return start_battle(m, s, a, b, out)
    return m.fight(s, a, b, out, "R115")


_SIDE = {"enum": ["one", "self", "attacker"]}
_SCHEMA_BATTLE = {
    "doc": "two creatures battle (rule 115): `mine` (one of yours, this creature, the attacking creature) "
           "against `theirs` (one of the opponent's, the attacking creature); the loser is destroyed",
    "properties": {"mine": _SIDE, "theirs": _SIDE, "optional": {"type": "boolean"},
                   "which": {**WHICH, "description": "the opponent's creature chosen (`theirs: one`) has: "
                                                     + str(WHICH["description"])}},
}
op("battle", schema=_SCHEMA_BATTLE)((_battle_options, _battle))


def _slayer(m, s, task, ins, choice, out):
    """Slayer: after the battle, the creature the Slayer battled is destroyed, if it is still there."""
    card = ins.get("card")
    return destruction.attempt(m, s, card, out)


op("_slayer")((deterministic, _slayer))


# ---- untap, keywords for the turn, ignored abilities --------------------------------------------------
def _untap(m, s, task, ins, choice, out):
    for c in _reached(m, s, task, ins, choice):
        owner = m.owner(c)
        z = s.zone(owner)
        if c in z.tapped:
            s = s.with_zone(owner, replace(z, tapped=tuple(x for x in z.tapped if x != c)))
            out.append(ev("untap", "", card=m.label(c), player=owner))
            if "untapped" in m.words:   # 603.2c: it becomes untapped (an untapped one does not)
                s = m.trigger(s, "untapped", owner, c, out)
    return s


_SCHEMA_UNTAP = {
    "doc": "untap a creature (`target`: one of `whose`, all of them, self, attacker)",
    "properties": {"which": WHICH, "target": _TARGET, "whose": WHOSE, "optional": {"type": "boolean"}},
    "required": ["target"],
}
op("untap", schema=_SCHEMA_UNTAP)((_one_options("untaps"), _untap))


def _grant_cards(m, s, task, ins, choice) -> list[int]:
    if ins.get("target") == "shields":   # R113.6d: given to the shields there now, kept until they move
        return list(s.zone(task.controller if ins.get("whose", "own") == "own" else
                           ("B" if task.controller == "A" else "A")).shields)
    return _reached(m, s, task, ins, choice)


def _grant(m, s, task, ins, choice, out):
    word = ins.get("keyword")
    # a keyword that works once per copy (110.7: Slayer) is given again by each effect; another is had once
    cards = _grant_cards(m, s, task, ins, choice)
    given = [c for c in cards if word in STACKS or (c, word) not in s.granted]
    for c in given:
        out.append(ev("grant", "", card=m.label(c), player=m.owner(c), keyword=word))
    if ins.get("until") == NEXT_TURN_START:   # kept past the end of this turn (model/power.py, model/turn.py)
        longer = tuple((c, word, task.controller) for c in cards if (c, word, task.controller) not in s.lasting)
        s = replace(s, lasting=tuple(sorted(s.lasting + longer))) if longer else s
    return replace(s, granted=tuple(sorted(s.granted + tuple((c, word) for c in given)))) if given else s


def _grant_options(m, s, task, ins):
    return None if ins.get("target") == "shields" else _one_options("gives a keyword to")(m, s, task, ins)


_SCHEMA_GRANT = {
    "doc": "give a keyword until the end of the turn: to one creature of `whose`, all of them, self, the "
           "attacker, or `shields` (the shields of `whose` there now: S-Trigger, R113.6b-d); with `until: "
           "your_next_turn_start`, until the effect's controller's next turn begins (R500.3)",
    "properties": {"keyword": {"enum": GRANTABLE}, "which": WHICH, "target": {"enum": _TARGET["enum"] + ["shields"]},
                   "whose": WHOSE, "until": {"enum": ["end_turn", NEXT_TURN_START]}, "optional": {"type": "boolean"}},
    "required": ["keyword", "until"],
}
op("grant", schema=_SCHEMA_GRANT)((_grant_options, _grant))


def _ignore(m, s, task, ins, choice, out):
    found = [c for c in _reached(m, s, task, ins, choice) if (c, IGNORED) not in s.granted]
    for c in found:
        out.append(ev("grant", "", card=m.label(c), player=m.owner(c), keyword=IGNORED))
    return replace(s, granted=tuple(sorted(s.granted + tuple((c, IGNORED) for c in found)))) if found else s


_SCHEMA_IGNORE = {
    "doc": "this turn the abilities of a creature are ignored (無視): its keywords, triggers and replacement "
           "effects do nothing while it is in the battle zone (`target`: one of `whose`, all, self, attacker)",
    "properties": {"which": WHICH, "target": _TARGET, "whose": WHOSE, "until": TURN, "optional": {"type": "boolean"}},
    "required": ["until"],
}
op("ignore", schema=_SCHEMA_IGNORE)((_one_options("ignores the abilities of"), _ignore))
