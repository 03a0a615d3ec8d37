"""What a scenario can hold, so that every name its expectations use refers to something there.

A pattern naming a card the scenario does not have, a copy it does not have (`Vanilla#7`), an
ability no card of it can use or a frame no break can open matches nothing, and an expectation
that matches nothing holds for nothing: a `never_order` would say "ok, every trace checked"
without checking anything. The loader asks the census instead and refuses such a name (exit 2).

A sweep template's census counts, for each varied zone, the most copies of each card any of its
positions can hold, so a template's `expect` may name a card that only some positions have.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import CardDef, CardPool
from .errors import did_you_mean
from .keyword_table import PARAMS
from .vocabulary import ATTACK_DECLARED, NINJA_CHANGE, REVOLUTION_CHANGE, S_TRIGGERS, SHIELD_CHECK_DECLARED

# what each event that names a keyword ability can carry (model/instructions/shield_check.py, declarations.py):
# a G-Strike never fizzles (SC4), and the abilities declared at an attack are never used in a shield check
EVENT_ABILITIES = {
    "declare": SHIELD_CHECK_DECLARED + tuple(ATTACK_DECLARED.values()),
    # a swap that cannot happen in full fizzles too (R701.26a, S150: Revolution Change, Ninja Change)
    "fizzle": tuple(k for k in SHIELD_CHECK_DECLARED if k != SHIELD_CHECK_DECLARED[1])   # G-Strike never fizzles
    + (REVOLUTION_CHANGE, NINJA_CHANGE),
    "shield_trigger": SHIELD_CHECK_DECLARED,
}
_TRIGGER_OF = {name: trigger for trigger, name in ATTACK_DECLARED.items()}
CANNOT_BE_BROKEN = "cannot be broken"   # what a `replace` event names as `by` for an Unbreakable shield


def carries(card: CardDef, ability: str) -> bool:
    """Whether a `declare`, `fizzle` or `shield_trigger` event can name this card with this ability."""
    if ability == SHIELD_CHECK_DECLARED[0]:   # R113.6b-c: S-Trigger under a condition; a twinpact's spell side (S214);
        # Super S-Trigger and S-Trigger Plus are S-Triggers
        return any(card.has(k) for k in S_TRIGGERS) or bool(card.s_trigger_if) or \
            (card.spell_side is not None and any(card.spell_side.has(k) for k in S_TRIGGERS))
    if ability == SHIELD_CHECK_DECLARED[2]:
        return card.s_back() is not None
    if ability in _TRIGGER_OF:
        return bool(card.abilities_with(_TRIGGER_OF[ability]))
    return card.has(ability)


@dataclass(frozen=True)
class Census:
    """The most copies of each card (pool id) the scenario, or any position of a template, holds."""

    pool: CardPool
    copies: dict[str, int]
    holder: str = "the scenario"        # how messages name what holds the cards

    def cards(self) -> list[CardDef]:
        return [self.pool[c] for c in sorted(self.copies) if self.copies[c] > 0]

    def names(self) -> list[str]:
        return sorted({c.name for c in self.cards()})

    def copy_problem(self, pool_id: str, suffix: str) -> str:
        """Why `Name` or `Name#k` names no card of the scenario ('' when it names one)."""
        name, n = self.pool[pool_id].name, self.copies.get(pool_id, 0)
        if n == 0:
            return (f"{self.holder} has no {name}{did_you_mean(name, self.names())}; expected one of its cards: "
                    f"{', '.join(self.names())}")
        if not suffix:
            return ""
        if not suffix.isdigit() or suffix != str(int(suffix)) or int(suffix) < 1:
            return f"expected {name} or {name}#k with k a copy number from 1, got {name}#{suffix}"
        if n == 1:
            return f"{self.holder} has one {name}, named {name} (copies are numbered only when there are several)"
        if int(suffix) > n:
            most = "at most " if self.holder != "the scenario" else ""
            return f"{self.holder} has {most}{n} copies of {name}: {name}#1 to {name}#{n}"
        return ""

    def ability_problem(self, event: str, ability: str, pool_id: str | None) -> str:
        """Why a `declare`/`fizzle`/`shield_trigger` event can never carry this ability (and card)."""
        allowed = EVENT_ABILITIES[event]
        if ability not in allowed:
            return f"a {event} event names one of {', '.join(allowed)}, not {ability!r}"
        if self.grants(ability):
            return ""   # a card of the scenario can give it (`grant`), to any card
        have = [card.name for card in self.cards() if carries(card, ability)]
        if pool_id is not None and not carries(self.pool[pool_id], ability):
            name = self.pool[pool_id].name
            return (f"{name} has no {ability} ability, so no {event} event names it with {name}; cards of "
                    f"{self.holder} with {ability}: {', '.join(have) or 'none'}")
        if not have:
            return f"no card of {self.holder} has {ability}, so no {event} event can name it"
        return ""

    def can_nest(self) -> bool:
        """Whether a break can open inside another (R603.7b): only an effect's `break_shields` opens one."""
        return any(_breaks(card) for card in self.cards())

    def grants(self, keyword: str) -> bool:
        """Whether a card of the scenario can give `keyword`: for the turn (`grant`) or by a static ability
        (`statics:`, model/continuous.py)."""
        names = PARAMS.get(keyword, (keyword,))   # a mechanism parameter: any keyword setting it
        return any(ins.op == "grant" and ins.get("keyword") in names
                   for card in self.cards() for ins in _instructions(card)) or \
            any(st.change == "keyword" and st.value in names for card in self.cards() for st in card.statics)

    def unbreakable(self) -> bool:
        return any(card.has("cannot_be_broken") for card in self.cards())


def ops_of(card: CardDef) -> frozenset[str]:
    """The card words a card's programs use, nested ones included."""
    return frozenset(ins.op for ins in _instructions(card))


def _instructions(card: CardDef):
    """Every instruction of a card's programs, nested ones (if_done, do, else) included."""
    programs = [card.effect] + [a.effect for a in card.abilities]
    while programs:
        for ins in programs.pop():
            yield ins
            for key in ("if_done", "do", "else"):
                if ins.get(key):
                    programs.append(ins.get(key))


def _breaks(card: CardDef) -> bool:
    programs = [card.effect] + [a.effect for a in card.abilities]
    while programs:
        for ins in programs.pop():
            if ins.op == "break_shields":
                return True
            for key in ("if_done", "do", "else"):   # `if` holds programs too
                if ins.get(key):
                    programs.append(ins.get(key))
    return False


def counted(pool: CardPool, zones: list[tuple[str, ...]], varied: Sequence[tuple[tuple[str, ...], int, bool]] = ()
            ) -> Census:
    """The census of fixed zones (pool ids, one entry per card) and varied zones ((cards, most, distinct))."""
    copies: dict[str, int] = {}
    for zone in zones:
        for card in zone:
            copies[card] = copies.get(card, 0) + 1
    for cards, most, distinct in varied:
        for card in cards:
            copies[card] = copies.get(card, 0) + (min(most, 1) if distinct else most)
    for card, n in list(copies.items()):   # 805.1: a double-sided card brings its other face (model/table.py)
        flips_to = pool[card].flips_to
        if flips_to:
            copies[flips_to] = copies.get(flips_to, 0) + n
    return Census(pool, copies, "the template (in any position)" if varied else "the scenario")
