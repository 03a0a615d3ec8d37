"""Actions: plain data naming one choice a player makes (never a closure)."""

from __future__ import annotations

from .record import Record, record


@record
class Action(Record):
    """A choice. `kind` says which decision, `choice` the option, `text` how a judge would say it."""

    kind: str          # "direct_attack", "choose_shields", "resolve", "choose", "shield_trigger"
    player: str
    choice: tuple = ()
    text: str = ""

    def to_json(self) -> dict:
        return {"kind": self.kind, "player": self.player, "text": self.text}
