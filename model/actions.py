"""Actions: plain data naming one choice a player makes (never a closure)."""

from __future__ import annotations

from typing import Literal

from .record import Record, record

# Every kind of decision, by the step that offers it (the value appears in JSON outputs and traces):
ActionKind = Literal[
    "mana_charge", "no_charge", "execute", "end_main",   # the charge and main steps (model/main_step.py)
    "choose_attack", "no_attack",                  # which attack, if any (model/legality.py, R506.1)
    "activate",                                    # a tap ability used instead of an attack (model/activated.py)
    "declare_attack",                              # the declaration as a step of its own (model/attack.py)
    "tp_declare", "no_tp_declare",                 # Revolution Change, Invasion (model/declarations.py)
    "ninja_declare", "no_ninja_declare",           # Ninja Strike, Ninja Change (model/attack.py)
    "block", "no_block",                           # R507.1 (model/attack.py, model/touch.py)
    "direct_attack",                               # D0: no shields left (model/procedure.py)
    "choose_shields", "break_later", "choose_late",   # D1 and S166 (model/procedure.py)
    "resolve",                                     # which pending effect resolves next (R509.4)
    "choose",                                      # a choice an instruction asks for (model/instructions/)
]


@record
class Action(Record):
    """A choice. `kind` says which decision, `choice` the option, `text` how a judge would say it."""

    kind: ActionKind
    player: str
    choice: tuple = ()
    text: str = ""

    def to_json(self) -> dict:
        return {"kind": self.kind, "player": self.player, "text": self.text}
