"""The keywords with a value, read from a card's keyword list, and their checks.

`Evasion:power<=N` (cannot be blocked by creatures with power N or less) and `Ignore:cost<=N` (the
abilities of other creatures with cost N or less are ignored while this one is in the battle zone)
carry a number; a card file giving anything else is refused with its line (bad input:
"a power that is not a number"); Guardman and Attacks Untapped on a card that is no creature are refused
too. The triggers that only a creature in the battle zone can have
(attacks, is attacked, blocks, is blocked, battles, breaks, its attack's end) are refused on a card
of another type; the hidden-zone words are refused on a type they cannot use and with a `zone` other
than the hand they are used from (bad input: "a hidden-zone use from a zone the card is
not in").
"""

from __future__ import annotations

from typing import Any, Final

from . import keyword_table
from .errors import InputError
from .yamlio import key_path, line_of

EVASION: Final = "evasion_power"    # the mechanism parameters of the threshold keywords (model/keyword_table.py)
IGNORE: Final = "ignores_cost"
# triggers about the card itself as a creature in the battle zone: a spell, castle or aura has none
CREATURE_TRIGGERS = frozenset({"attacks", "attacked", "blocks", "blocked", "battle_win", "battle_lose",
                               "breaks", "breaks_one_or_more", "end_of_attack", "not_blocked"})
# the events of model/trigger_patterns.py only a creature in the battle zone has (`card: this` on them)
CREATURE_EVENTS = CREATURE_TRIGGERS | {"battle_start", "tapped", "untapped", "leaves"}
# keywords only a creature in the battle zone uses: it takes an attack (Guardman, R507.1a) or attacks
CREATURE_KEYWORDS = keyword_table.CREATURE_ONLY
# the hidden-zone words and the card types that can be used that way
USED_AS = {"attack_chance": ("spell", "creature"), "oni_end": ("spell",), "kirifu_dash": ("creature", "spell")}
# the abilities declared from the hand (model/declarations.py, model/touch.py): no other zone uses them
FROM_HAND = frozenset({"ninja_strike", "ninja_change", "revolution_change", "invasion"}) | frozenset(USED_AS)


def values(keywords: tuple[str, ...], head: str) -> tuple[int, ...]:
    """The number of each `Head:...N` among a card's keywords (`Evasion:power<=N`, `Ignore:cost<=N`,
    `Power Attacker:+N`, `Extra Break:+N`): a card may have one ability several times, and each copy
    works on its own (110.2c, 110.7), so every copy is read, never only the first."""
    heads = keyword_table.PARAMS.get(head, (head,))
    return tuple(int(k.rpartition(":")[2].rpartition("=")[2].lstrip("+")) for k in keywords
                 if k.partition(":")[0] in heads and ":" in k)


def value(keywords: tuple[str, ...], head: str) -> int | None:
    """The widest of a threshold keyword's copies (`Evasion:power<=N`, `Ignore:cost<=N`): each copy
    works on its own (110.2c), so the one with the greatest N decides; None without one."""
    found = values(keywords, head)
    return max(found) if found else None


def check(card: Any, root: Any, here: tuple, file: str) -> None:
    """Refuse a malformed valued keyword and a trigger the card's type cannot have, at their lines."""
    for k, word in enumerate(card.keywords):
        head = word.partition(":")[0]
        form = keyword_table.FORMS.get(head)
        if form is not None and not form[0].fullmatch(word):
            where = here + ("keywords", k)
            raise InputError(file, line_of(root, where), key_path(where),
                             f"expected `{form[1]}` (N a whole number, e.g. `{form[2]}`), got {word!r}")
        if head in CREATURE_KEYWORDS and card.type != "creature":
            where = here + ("keywords", k)
            raise InputError(file, line_of(root, where), key_path(where),
                             f"a {card.type} cannot have {head}: only a creature in the battle zone takes an attack "
                             f"or attacks (R505.3, R507.1a); expected a creature")
    for j, ability in enumerate(card.abilities):
        where = here + ("abilities", j, "trigger")
        own = ability.pattern is not None and ability.pattern.card == "this" and \
            bool(CREATURE_EVENTS.intersection(ability.pattern.on))
        if (ability.trigger in CREATURE_TRIGGERS or own) and card.type != "creature":
            raise InputError(file, line_of(root, where), key_path(where),
                             f"a {card.type} cannot have the trigger {ability.trigger!r}: only a creature in the "
                             f"battle zone attacks, is attacked, blocks or battles; expected a creature, or one "
                             f"of the triggers that watch others (own_attacked, you_attacked, opponent_attacks)")
        if ability.trigger in FROM_HAND and ability.zone != "battle":
            where = here + ("abilities", j, "zone")
            raise InputError(file, line_of(root, where), key_path(where),
                             f"a {ability.trigger} ability is used from the hand (R506.3, R510), not from the "
                             f"{ability.zone}; expected no `zone` on it")
        allowed = USED_AS.get(ability.trigger)
        if allowed and card.type not in allowed:
            raise InputError(file, line_of(root, where), key_path(where),
                             f"a {card.type} cannot be used by {ability.trigger!r}; expected a card of type "
                             f"{' or '.join(allowed)}")
