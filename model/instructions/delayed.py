"""Delayed triggered abilities (R110.3b, R603.6, R607.2): an effect that says "at the end of this turn,
do X" or "when this creature is next destroyed, do X" creates an ability that waits for its event.

`delayed_trigger: {when: PATTERN, do: [...]}` is the card word. The card loader turns each one into an
ability of its card (`compile_delayed`: its pattern and its program, zone `delayed`, an id named after
the ability or effect that makes it), so a delayed ability resolves, is named and has a footprint like
any other. Running the word records it in the state (`State.delayed`, model/state.py Delayed); the trigger matcher
(model/triggers.py) triggers it once, at the first event that meets its pattern after it was made
(603.6a), and forgets it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..instr import Instr
from ..state import Delayed, replace
from ..trigger_patterns import ALIASES, DELAYED_ZONE, TriggerPattern
from ..trigger_patterns import SCHEMA as PATTERN_SCHEMA
from ..trigger_patterns import read as read_pattern
from ..yamlio import key_path, line_of
from .registry import PROGRAM, deterministic, op

if TYPE_CHECKING:
    from ..game import Game

WORD = "delayed_trigger"
# what `when` may name besides a pattern: "the end of this turn", or a trigger word (an alias of a pattern)
END_OF_TURN = "end_of_turn"
WHEN_WORDS = sorted({END_OF_TURN} | set(ALIASES))


def when_pattern(raw: Any, root: Any, where: tuple, file: str) -> TriggerPattern:
    """The pattern a `when` names (its word, or its mapping read as a trigger's)."""
    if raw == END_OF_TURN:
        return TriggerPattern(on=(END_OF_TURN,))
    found = read_pattern(raw, root, where, file)
    if found is None:   # the schema admits only the words that have a pattern
        raise InputError(file, line_of(root, where), key_path(where), f"{raw!r} watches no event")
    return found


def compile_delayed(programs: list[tuple[Any, tuple[Instr, ...], tuple, str]], root: Any, file: str,
                    nested: tuple[str, ...]) -> list[tuple[str, TriggerPattern, tuple[Instr, ...]]]:
    """(id, pattern, program) of every `delayed_trigger` in a card's programs, each program given as (its
    YAML, the instructions read from it, its key path, the name of what holds it: an ability's id, or
    `effect`); `nested` names the arguments holding programs. The id is that name and `later` (`later2`,
    ... for more than one): `Card/attack_later` is what `attack` left for later."""
    found: list[tuple[str, TriggerPattern, tuple[Instr, ...]]] = []
    for raw, built, path, host in programs:
        made = 0
        for where, raw_args, ins in _walk(raw or [], built, path, nested):
            pattern = when_pattern(raw_args["when"], root, where + ("when",), file)
            if any(p == pattern and do == ins.get("do") for _, p, do in found):
                continue   # the same ability twice: one ability, made twice (R603.6)
            made += 1
            key = ("later" if host == "effect" else f"{host}_later") + (str(made) if made > 1 else "")
            found.append((key, pattern, ins.get("do")))
    return found


def ability_of(m: Game, card: str, ins: Instr) -> str:
    """The id of the delayed ability a `delayed_trigger` instruction of `card` makes (`compile_delayed`)."""
    when = ins.get("when")
    pattern = when_pattern(when if isinstance(when, str) else dict(when), None, (), "")
    return next(a.id for a in m.pool[card].abilities
                if a.zone == DELAYED_ZONE and a.pattern == pattern and a.effect == ins.get("do"))


def _walk(raw: list, built: tuple[Instr, ...], path: tuple, nested: tuple[str, ...]) -> Iterator[tuple]:
    for i, (item, ins) in enumerate(zip(raw, built)):
        args = item.get(ins.op) if isinstance(item, dict) else None
        if ins.op == WORD:
            yield path + (i, WORD), args, ins
        for key in nested:
            sub = ins.get(key)
            if sub and isinstance(args, dict):
                yield from _walk(args.get(key) or [], sub, path + (i, ins.op, key), nested)


def _create(m: Game, s, task, ins, choice, out):
    """Record the delayed ability, controlled by the effect's controller, its source the effect's card."""
    card = m.instances[task.source].card
    d = Delayed(task.controller, card, ability_of(m, card, ins), task.source)
    return replace(s, delayed=tuple(sorted(s.delayed + (d,))))


_SCHEMA = {
    "doc": "create a delayed triggered ability (R603.6): `when` its event (end_of_turn: at the end of this turn; "
           "a trigger word; or a pattern as a trigger's, `card: this` being this effect's card), `do` its effect; "
           "it triggers once, at the first such event after it was made",
    "properties": {"when": {"if": {"type": "string"}, "then": {"enum": WHEN_WORDS}, "else": PATTERN_SCHEMA},
                   "do": PROGRAM},
    "required": ["when", "do"],
}
# its footprint is TOP (none declared): the ability it leaves may trigger at any later event
op(WORD, schema=_SCHEMA)((deterministic, _create))
