"""A property as a value: what a rule says, where it comes from, and its condition as a Z3 formula.

A property has an id, one sentence in rules language, its citations (R…, Q…, S00x, D…), the rules
versions it applies to, what it ranges over (states, transitions or outcomes) and whether it must
hold `always` or have an example `sometimes` (the latter guards against a model that is vacuously
safe). Its condition is a function from a scope of fact symbols (`symbols.py`) to a Z3 formula, so
the same property can be checked on any scenario — and, later, reasoned about symbolically.
`needs` names what a scenario must contain for a `sometimes` property to apply (a nested frame can
only open where some card breaks shields).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, get_args

import z3

from ..model.cards import Instr

# (file, line, key) of a formula in a user's property file
FormulaAt = tuple[str, int | None, str]

# what a property claims of its condition: on every item, or on at least one
PropertyKind: TypeAlias = Literal["always", "sometimes"]
# what its condition is about: each state, each transition, or each terminal state's outcome
Over: TypeAlias = Literal["states", "transitions", "outcomes"]
KINDS: tuple[PropertyKind, ...] = get_args(PropertyKind)
OVER: tuple[Over, ...] = get_args(Over)
NEEDS = {
    "shields": "the defender has a shield when the attack begins, and the attack is on him with no "
               "\"when an opponent's creature attacks\" ability or game-ending effect in play",
    "before_break": "the attacker has a before-break ability (R509.3) and the defender a shield",
    "nested_break": "the attacker has a before-break ability and its controller a card that breaks shields "
                    "with an effect, so a break can open inside the attack's (R603.7b); the defender has a shield",
    # power and battles (model/power.py)
    "power_change": "a card of the scenario lowers a creature's power (`power` with a negative amount), or the "
                    "position starts with a creature whose power changed this turn",
    "battle": "a battle can happen: the attack is on a creature, the defender has a Blocker, or a card starts "
              "a battle (`battle`)",
}


@dataclass(frozen=True)
class Property:
    """A rule as a checkable property (see the module docstring)."""

    id: str
    text: str
    citations: tuple[str, ...]
    kind: PropertyKind
    over: Over
    condition: Callable[[Any], z3.BoolRef]     # scope -> formula
    since: dt.date | None = None               # applies to rules versions in force from this date ...
    until: dt.date | None = None               # ... and before this one
    needs: tuple[str, ...] = ()
    origin: str = "built-in"                   # or FILE:LINE of a user's property file
    cards: tuple[str, ...] = ()                # card labels its formula names (|Kakumeijin|, |Vanilla#2|)
    formula_at: FormulaAt | None = None        # where a user's formula is, for errors about its names

    def __post_init__(self) -> None:
        if self.kind not in KINDS or self.over not in OVER:
            raise ValueError(f"property {self.id}: kind {self.kind!r} over {self.over!r}")
        unknown = [n for n in self.needs if n not in NEEDS]
        if unknown:
            raise ValueError(f"property {self.id}: unknown needs {unknown}")

    @property
    def label(self) -> str:
        """`always/transitions`, `sometimes/states`, ..."""
        return f"{self.kind}/{self.over}"

    def rules_text(self) -> str:
        if self.since and self.until:
            return f"rules from {self.since} until before {self.until}"
        if self.since:
            return f"rules from {self.since}"
        if self.until:
            return f"rules before {self.until}"
        return "every rules version"

    def applies(self, model: Any) -> str:
        """Why the property does not apply to this model's scenario, or '' when it does."""
        version = model.version
        if self.since and version.date < self.since:
            return f"applies to {self.rules_text()}; the scenario uses {version.name}"
        if self.until and version.date >= self.until:
            return f"applies to {self.rules_text()}; the scenario uses {version.name}"
        if self.cards:
            labels = {i.label for i in model.instances}
            missing = [c for c in self.cards if c not in labels]
            if missing:
                return ("the scenario has no card " + ", ".join(f"|{c}|" for c in missing)
                        + " (dmcheck check --list FILE shows the names of its cards)")
        have = scenario_features(model)
        missing = [n for n in self.needs if n not in have]
        if missing:
            return "the scenario lacks what it needs: " + "; ".join(NEEDS[n] for n in missing)
        return ""


def _breaks(program: tuple[Instr, ...]) -> bool:
    for instr in program:
        if instr.op == "break_shields":
            return True
        sub = instr.get("if_done")
        if sub and _breaks(sub):
            return True
    return False


def _reaches_direct_attack(model: Any, s: Any) -> bool:
    """The attack is on the player and no "when an opponent's creature attacks" ability (which may
    end it, R505.6a) is in play: the direct attack step is reached (model/attack.py)."""
    if getattr(s, "target", -1) >= 0 or "opponent_attacks" in getattr(model, "words", ()):
        return False
    ends = {"win_game", "lose_game"}   # an effect that may end the game before the break
    return not any(ins.op in ends for cid in range(len(model.instances)) for a in model.card(cid).abilities
                   for ins in a.effect)


def scenario_features(model: Any) -> set[str]:
    """What the scenario contains, for `needs`: read from its initial state and card definitions."""
    s = model.initial_state()
    out: set[str] = _touch_features(model, s)
    if s.attacker < 0 or not s.zone(s.defender).shields or not _reaches_direct_attack(model, s):
        return out   # (no attacker yet: the scenario starts before the declaration, model/legality.py)
    out.add("shields")
    if not model.card(s.attacker).abilities_with("before_break"):
        return out
    out.add("before_break")
    # a break opens inside the attack's frame only through what runs before its break: the attacker's
    # before-break effects and what they cast or put into play, all the turn player's cards
    for cid in range(len(model.instances)):
        card = model.card(cid)
        if model.owner(cid) == s.turn and (_breaks(card.effect) or any(_breaks(a.effect) for a in card.abilities)):
            out.add("nested_break")
            break
    return out


def _touch_features(model: Any, s: Any) -> set[str]:
    """The `needs` of the rest of the game an attack touches: a power that can drop to 0, a battle that
    can be fought."""
    out = {"power_change"} if getattr(model, "power_checks", False) else set()
    cards = [model.card(cid) for cid in range(len(model.instances))]
    starts = any(ins.op == "battle" for card in cards
                 for program in (card.effect,) + tuple(a.effect for a in card.abilities) for ins in program)
    if starts or getattr(s, "target", -1) >= 0 or getattr(model, "scenario", None) is not None and \
            any(card.has("Blocker") or card.type == "creature" and model.scenario.attacker == "" for card in cards):
        out.add("battle")
    return out
