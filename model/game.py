"""What card instructions may ask of the game they run in (a typing.Protocol, for annotations only).

Instructions (model/instructions/) receive the model as `m` and call back into it: which card an
instance is, triggering abilities, opening a break frame. Typing them against this protocol instead
of the procedure's class keeps the import graph one-way: the procedure imports the instructions,
never the reverse. This is the one declaration of these members: model/host.py `Host`, the interface
of the procedure's mixins, extends it with what only the mixins ask of one another, so a type checker
checks each mixin's definitions against the declarations here.

Four members are typed loosely here (`Any`, a plain `list`): their types live in modules that import
the instructions (the card pool, its instances, a card's definition: model/cards.py loads the
instruction words) or that are typed against this protocol (the symmetry, whose footprints read the
cards), so naming them would close an import cycle. `Host`, above all of them, gives them their types.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any, Protocol

from .events import Event
from .outcome import OutcomeKey
from .readings import ReadingsLike
from .rules import RulesVersion
from .state import Frame, State
from .vocabulary import Keyword


class Game(Protocol):
    pool: Any                    # model/cards.CardPool (see the module docstring)
    instances: list              # of model/table.CardInstance
    faces: dict[int, int]        # a double-sided card's instance -> its other face's (model/table.py, 805.1)
    version: RulesVersion
    readings: ReadingsLike       # the readings of the open choices (model/readings.py)
    symmetry: Any                # model/symmetry.Symmetry
    words: frozenset[str]        # the trigger and replacement words of the scenario's cards (procedure.py)
    watching: frozenset[int]     # the instances with an ability watching other cards (procedure.py)
    outcome_key: OutcomeKey      # state -> the fields its outcome reads

    if TYPE_CHECKING:   # declarations only: at run time every lookup finds the mixin that defines the name
        # the card table (model/table.py)
        def card(self, cid: int) -> Any: ...       # model/cards.CardDef
        def owner(self, cid: int) -> str: ...
        def label(self, cid: int) -> str: ...
        def name(self, cid: int) -> str: ...
        def ability_label(self, card: str, ability: str) -> str: ...
        def restriction(self, player: str, key: str) -> Any: ...   # what the scenario's `restrictions:` say
        def shield_list(self, ids: Iterable[int]) -> str: ...

        # triggers (model/triggers.py)
        def trigger(self, s: State, what: str, player: str, card: int, out: list[Event], to: str = ...) -> State: ...
        def trigger_before_break(self, s: State, frame: Frame, n: int, out: list[Event]) -> State: ...

        # what abilities a card has now, ignoring included: the one place they are read (model/touch.py)
        def has_keyword(self, s: State, cid: int, word: Keyword) -> bool: ...
        def abilities_work(self, s: State, cid: int) -> bool: ...
        def static_restricts(self, s: State, cid: int, what: str) -> bool: ...   # model/continuous.py
        @property
        def statics(self) -> tuple: ...   # (card, model/continuous.Static) of every static ability
        @property
        def sealing(self) -> bool: ...    # a seal lies on a card of the scenario (model/seals.py)
        @property
        def elsewhere(self) -> tuple[str, ...]: ...   # zones besides the hand a card may be executed from (110.4d)
        def execution_zone(self, s: State, cid: int) -> str: ...   # where `cid` can be executed from now (604.3)
        def keyword_total(self, s: State, cid: int, head: Keyword) -> int: ...

        # power, battles and S-Trigger bonuses (model/power.py, model/touch.py)
        def power(self, s: State, cid: int) -> int: ...
        def fight(self, s: State, a: int, b: int, out: list[Event], rule: str) -> State: ...
        def mark_bonus(self, s: State, player: str, card: int, out: list[Event]) -> State: ...

        # the procedure (model/procedure.py)
        def shield_choices(self, s: State, defender: str, n: int,
                           exclude: AbstractSet[int] = ...) -> list[tuple[int, ...]]: ...
        def open_frame(self, s: State, by: int, by_creature: bool, defender: str, chosen: tuple[int, ...],
                       is_attack: bool, out: list[Event], later: int = ...) -> State: ...
        def carry_out_break(self, s: State, out: list[Event]) -> State: ...
        def put_resolved_spell(self, s: State, spell: int, dest: str, out: list[Event]) -> State: ...
