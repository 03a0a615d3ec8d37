"""Events: what a step made happen, in the vocabulary of the scenario format (docs/scenario-format.md)."""

from __future__ import annotations

from typing import Any, Literal

from .record import Record, build, record

# Every kind of event, as the scenario format names them (model/scenario_file.py EVENT_KEYS gives the
# fields of each; docs/scenario-format.md describes them)
EventKind = Literal[
    # the direct attack step, the shield check, replacements and destruction
    "choose_shields", "trigger", "resolve", "cast", "put", "move", "break", "shield_trigger", "destroy",
    "destroyed", "replace", "declare", "fizzle", "tap", "cant_attack", "skip_turn", "attack_stopped", "win",
    # cards made of several cards (801, 310.8)
    "rebuild", "leave_together",
    # God links (804; model/gods.py)
    "god_link", "god_unlink",
    # the whole attack (R506-R511, R104)
    "attack", "block", "redirect", "battle", "end_attack", "end_turn", "lose",
    # the next turn (R512, R501; model/turn.py)
    "start_turn",
    # the rest of the attack: extra turns, power, effects that end, protection
    "extra_turn", "power", "expire", "protect",
    # power 0, untapping, given keywords, S-Trigger bonuses, no attack at all
    "power_zero", "untap", "grant", "bonus", "no_attack",
    # a characteristic added (R106.4, R203.3; model/characteristics.py)
    "characteristic",
    # a name, race, civilization or number chosen (106.3, 108.1a, 202.2, 203.4; model/instructions/choosing.py)
    "choose",
    # a restriction on attacking or blocking for a time (model/restrictions.py)
    "restrict",
    # keyword processes of rule 701 with an event of their own (model/instructions/keyword_process.py)
    "charge", "fortify", "generate", "cross",
    # a field deployed (701.27a), an older D2 field sent away by a newer one (703.4l; model/fields.py)
    "deploy", "displace",
    # the main step (R504, R601.1f; model/main_step.py): a cost paid, the step over
    "pay", "end_main",
    # a double-sided card turned over (805.1a-b), a psychic cell linked (806.1): model/instructions/hyperspatial.py
    "flip", "link",
    # a dragheart weapon equipped to a creature (R305.2; model/instructions/hyperspatial.py)
    "equip",
    # a card shown (revealed) and the result of a Gachinko Judge (R701.21; model/instructions/gachinko.py)
    "reveal", "gachinko",
]


@record
class Event(Record):
    """One thing that happened. `fields` are the format's keys; `rule` cites why it happened."""

    kind: EventKind
    fields: tuple[tuple[str, Any], ...] = ()
    rule: str = ""

    def get(self, key: str, default: Any = None) -> Any:
        if key == "event":
            return self.kind
        for k, v in self.fields:
            if k == key:
                return v
        return default

    def to_json(self) -> dict:
        out: dict[str, Any] = {"event": self.kind}
        for k, v in self.fields:
            out[k] = list(v) if isinstance(v, tuple) else v
        if self.rule:
            out["rule"] = self.rule
        return out


def ev(kind: EventKind, rule: str = "", **fields: Any) -> Event:
    """An Event (every step makes a few: built from its items, without a keyword call)."""
    return build(Event, ("Event", kind, tuple(fields.items()), rule))
